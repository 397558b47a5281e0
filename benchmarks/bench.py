"""Engine speed, measured on demand (never in the unit tests).

    python benchmarks/bench.py            # the full table (about a minute)
    python benchmarks/bench.py --quick    # fewer games per run
    python benchmarks/bench.py --guard    # CI's collapse check (see GUARD below)

Games/s are medians of interleaved runs after a warm-up: this machine's speed
drifts over minutes, so every workload is run in turn, round after round, and
only numbers from one invocation are compared.  Each run plays whole 2-player
games on one core with fresh seeds; peak memory is the largest traced
allocation of one game (tracemalloc).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
import tracemalloc

from engine.bots.greedy import GreedyPlayer
from engine.build_info import COMPILED, PURE, engine_build
from engine.bots.random_player import RandomPlayer
from engine.core.game import Game
from engine.rules.ruleset import load_ruleset

#: Floors for ``--guard``, per build: a third of the random-play figures in the README,
#: so only a collapse (not machine noise) fails CI.
GUARD_GAMES_PER_S = {PURE: 492 / 3, COMPILED: 790 / 3}

BOTS = {"random": RandomPlayer, "greedy": GreedyPlayer}


def play(ruleset, bot: str, seed: int) -> Game:
    game = Game(ruleset, 2, seed)
    bots = [BOTS[bot](f"{seed}:0"), BOTS[bot](f"{seed}:1")]
    while game.tile is not None:
        game.play(bots[game.player].choose(game), checked=True)
    game.finish()
    return game


def games_per_second(ruleset, bot: str, games: int, first_seed: int) -> float:
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        play(ruleset, bot, seed)
    return games / (time.perf_counter() - start)


def peak_memory_kib(ruleset, bot: str) -> float:
    tracemalloc.start()
    play(ruleset, bot, 0)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 1024


def load_ms(ref: str, runs: int) -> float:
    """Median ms to read, compose, schema-check and compile a ruleset (the load cache bypassed)."""
    from engine.rules.source import clear_yaml_cache

    times = []
    for _ in range(runs):
        clear_yaml_cache()  # parse the YAML files again too
        start = time.perf_counter()
        load_ruleset(ref, cache=False)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def command_s(args: list[str], runs: int) -> float:
    """Median wall seconds of ``carcassonne ARGS`` as a whole new process (start-up included)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "engine.cli", *args], check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def simulate_scaling(games: int, rounds: int) -> tuple[float, float]:
    """Median games/s of ``simulate`` (engine.sim.simulate.run) on 1 and on 2 worker processes,
    process start-up included, interleaved."""
    from engine.sim.simulate import Job, run

    rates: dict[int, list[float]] = {1: [], 2: []}
    for r in range(rounds):
        for workers in (1, 2):
            job = Job(("basic",), ("random", "random"), r, games)
            start = time.perf_counter()
            for _ in run(job, workers=workers):  # 1 worker plays in this process
                pass
            rates[workers].append(games / (time.perf_counter() - start))
    return statistics.median(rates[1]), statistics.median(rates[2])


def available(refs: list[str]) -> list[str]:
    found = []
    for ref in refs:
        try:
            load_ruleset(ref)
            found.append(ref)
        except Exception:  # a ruleset this checkout does not ship yet
            print(f"(skipping {ref}: not available)", file=sys.stderr)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer games and rounds")
    parser.add_argument("--guard", action="store_true", help="exit 1 if random play collapses below the floor")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

    if args.guard:
        basic = load_ruleset("basic")
        games_per_second(basic, "random", 10, 10_000)  # warm-up
        # The best of five: this VM's noise only ever slows a run down, while a real collapse
        # slows every run (a single median of three fell under the floor on unchanged code).
        rate = max(games_per_second(basic, "random", 50, 20_000 + 50 * i) for i in range(5))
        floor = GUARD_GAMES_PER_S[engine_build()]
        print(f"random basic, engine {engine_build()}: {rate:.0f} games/s (floor {floor:.0f})")
        sys.exit(0 if rate >= floor else 1)

    refs = available(["basic", "first-edition", "basic+river"])
    # Farms counting two kinds, and a game-end bonus (the greedy bot then weighs moves by trial).
    extra = available(["basic+farms-pay-cloisters", "basic+longest-road-bonus"])
    workloads = [(ref, "random", 40 if args.quick else 200) for ref in refs + extra]
    workloads += [(ref, "greedy", 2 if args.quick else 6) for ref in refs + extra]
    refs += extra
    rulesets = {ref: load_ruleset(ref) for ref in refs}
    for ref, bot, games in workloads:  # warm-up: fill the fit tables and caches
        games_per_second(rulesets[ref], bot, max(2, games // 10), 0)
    results: dict[tuple[str, str], list[float]] = {(ref, bot): [] for ref, bot, _ in workloads}
    rounds = 3 if args.quick else args.rounds
    for r in range(rounds):
        for ref, bot, games in workloads:
            results[(ref, bot)].append(games_per_second(rulesets[ref], bot, games, 1_000 + r * games))

    print(f"Python {sys.version.split()[0]} on {sys.platform}, engine {engine_build()}, one core; "
          f"medians of {rounds} interleaved rounds\n")
    print(f"{'workload':<50}{'games/s':>10}{'min':>9}{'max':>9}{'peak KiB':>10}")
    for ref, bot, games in workloads:
        rates = results[(ref, bot)]
        label = f"{bot} vs {bot}, {ref} ({games} games/run)"
        print(f"{label:<50}{statistics.median(rates):>10.1f}{min(rates):>9.1f}{max(rates):>9.1f}"
              f"{peak_memory_kib(rulesets[ref], bot):>10.0f}")
    print()
    for ref in refs:
        print(f"load+validate+compile {ref:<14}{load_ms(ref, 5 if args.quick else 20):>8.1f} ms")
    print(f"carcassonne --help start-up      {command_s(['--help'], 3 if args.quick else 7) * 1000:>8.0f} ms")
    runs = 3 if args.quick else 7
    print(f"carcassonne simulate basic --games 1   {command_s(['simulate', 'basic', '--games', '1'], runs):>8.3f} s")
    games = 1000 if args.quick else 5000
    whole = command_s(["simulate", "basic", "--games", str(games), "--workers", "1"], 1 if args.quick else 3)
    print(f"carcassonne simulate basic --games {games} --workers 1: {whole:.2f} s, {games / whole:.0f} games/s")
    one, two = simulate_scaling(200 if args.quick else 2000, 1 if args.quick else 3)
    print(f"simulate basic, random: 1 worker {one:.0f} games/s, 2 workers {two:.0f} games/s "
          f"({two / one:.2f}x)")


if __name__ == "__main__":
    main()
