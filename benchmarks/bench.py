"""Engine speed, measured on demand (never in the unit tests).

    python benchmarks/bench.py            # the full table (about five minutes)
    python benchmarks/bench.py --quick    # fewer games per run
    python benchmarks/bench.py --guard    # CI's check: compiled over pure, and instruction counts
    python benchmarks/bench.py --pure     # the same table for the pure Python build
    python benchmarks/bench.py --json benchmarks/results/bench-compiled.json   # and write the table

Games/s are medians of interleaved runs after a warm-up: this machine's speed
drifts over minutes, so every workload is run in turn, round after round, and
only numbers from one invocation are compared.  Each run plays whole 2-player
games on one core with fresh seeds; peak memory is the largest traced
allocation of one game (tracemalloc).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

from provenance import command_line, provenance
from pure_build import ROOT, pure_tree, rerun_pure
from workloads import play, search_move, search_position

from engine.build_info import COMPILED, engine_build
from engine.rules.ruleset import load_ruleset

#: ``--guard`` on the compiled build: the least speed-up over the pure build, per workload
#: (:func:`speedups`).  The floors sit well under the run in benchmarks/results/guard.json
#: (2.19, 3.58, 3.47), since random play's ratio is the noisiest of the three; a build whose
#: compiling gave nothing (1.0) fails all three.
MIN_SPEEDUP = {"random": 1.1, "greedy": 1.5, "mcts": 1.4}


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


class GuardWorkloads:
    """The guard's workloads on ``basic`` (benchmarks/workloads.py), warmed up: 100 random
    games, 4 greedy games, one ``mcts:300`` move; :meth:`seconds` times one of them."""

    NAMES = ("random", "greedy", "mcts")

    def __init__(self) -> None:
        self.basic = load_ruleset("basic")
        self.position = search_position(self.basic)
        play(self.basic, "random", 0), play(self.basic, "greedy", 0), search_move(self.position)

    def seconds(self, name: str) -> float:
        start = time.perf_counter()
        if name == "random":
            for seed in range(1, 101):
                play(self.basic, "random", seed)
        elif name == "greedy":
            for seed in range(1, 5):
                play(self.basic, "greedy", seed)
        else:
            search_move(self.position, 300)
        return time.perf_counter() - start


def serve_workloads() -> None:
    """The pure build's side of :func:`speedups`: read a workload name a line, answer its seconds."""
    workloads = GuardWorkloads()
    print("ready", flush=True)
    for line in sys.stdin:
        print(workloads.seconds(line.strip()), flush=True)


def speedups(rounds: int = 9) -> dict[str, float]:
    """The compiled build's speed-up over the pure build, per workload: the median, over
    ``rounds``, of the ratio of two runs made one right after the other, one in this process
    (compiled) and one in a pure-Python process kept alive beside it, so that the machine's
    drift (up to 2x within an hour here) touches both runs of a pair alike."""
    ratios: dict[str, list[float]] = {name: [] for name in GuardWorkloads.NAMES}
    with pure_tree() as (tree, env):
        pure = subprocess.Popen([sys.executable, str(tree / "benchmarks" / "bench.py"), "--guard-serve"], env=env,
                                cwd=tree, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert pure.stdin is not None and pure.stdout is not None
        compiled = GuardWorkloads()
        if pure.stdout.readline().strip() != "ready":
            raise SystemExit("error: the pure build's process did not start")
        for _ in range(rounds):
            for name in GuardWorkloads.NAMES:
                mine = compiled.seconds(name)
                pure.stdin.write(name + "\n")
                pure.stdin.flush()
                ratios[name].append(float(pure.stdout.readline()) / mine)
        pure.stdin.close()
        pure.wait()
    return {name: statistics.median(values) for name, values in ratios.items()}


def guard(out: Path | None = None) -> int:
    """CI's check, on either build: 0 if it passes, 1 if it fails.  On the compiled build, the
    speed-up over the pure build must reach :data:`MIN_SPEEDUP` for random play, greedy play
    and a search move; on both builds, the instruction counts (benchmarks/instructions.py)
    must not exceed the committed ones (``instructions-guard-BUILD.json``) by over 10 %, compared
    as multiples of a reference counted in the same run under another Python."""
    from instructions import check, count

    origin = provenance(command_line())
    failed = 0
    ratios = speedups() if engine_build() == COMPILED else {}
    for name, ratio in ratios.items():
        ok = ratio >= MIN_SPEEDUP[name]
        failed |= not ok
        print(f"compiled over pure, {name}: {ratio:.2f}x (at least {MIN_SPEEDUP[name]}x) {'ok' if ok else 'FAIL'}")
    build = "compiled" if engine_build() == COMPILED else "pure"
    counts = count()
    failed |= check(counts, ROOT / "benchmarks" / "results" / f"instructions-guard-{build}.json")
    if out:
        out.write_text(json.dumps({**origin, "speedups": {k: round(v, 3) for k, v in ratios.items()},
                                   "floors": MIN_SPEEDUP, "instructions": counts, "failed": bool(failed)},
                                  indent=1) + "\n")
    return int(failed)


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
    parser.add_argument("--guard", action="store_true",
                        help="exit 1 if the compiled build is not its expected ratio faster than the pure build, "
                             "or the instruction counts grew")
    parser.add_argument("--guard-serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--json", type=Path, help="write the table here (with machine, date, commit)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds of the table (default 5)")
    parser.add_argument("--pure", action="store_true",
                        help="measure the pure Python build (a copy of the tree without the extensions)")
    args = parser.parse_args()

    if args.pure and engine_build() == COMPILED:
        rerun_pure("bench.py", [a for a in sys.argv[1:] if a != "--pure"])
    if args.guard:
        sys.exit(guard(args.json))
    if args.guard_serve:
        serve_workloads()
        return
    origin = provenance(command_line())  # before the runs: the tree may change meanwhile

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

    figures: dict[str, object] = {"rounds": rounds}
    print(f"Python {sys.version.split()[0]} on {sys.platform}, engine {engine_build()}, one core; "
          f"medians of {rounds} interleaved rounds\n")
    print(f"{'workload':<50}{'games/s':>10}{'min':>9}{'max':>9}{'peak KiB':>10}")
    for ref, bot, games in workloads:
        rates = results[(ref, bot)]
        label = f"{bot} vs {bot}, {ref}"
        peak = peak_memory_kib(rulesets[ref], bot)
        figures[label] = {"games_per_s": round(statistics.median(rates), 1), "min": round(min(rates), 1),
                          "max": round(max(rates), 1), "games_a_run": games, "peak_kib": round(peak)}
        print(f"{label + f' ({games} games/run)':<50}{statistics.median(rates):>10.1f}{min(rates):>9.1f}"
              f"{max(rates):>9.1f}{peak:>10.0f}")
    print()
    for ref in refs:
        ms = load_ms(ref, 5 if args.quick else 20)
        figures[f"load+validate+compile {ref}, ms"] = round(ms, 1)
        print(f"load+validate+compile {ref:<14}{ms:>8.1f} ms")
    runs = 3 if args.quick else 7
    helps = command_s(["--help"], runs) * 1000
    figures["carcassonne --help, whole process, ms"] = round(helps)
    print(f"carcassonne --help start-up      {helps:>8.0f} ms")
    one_game = command_s(["simulate", "basic", "--games", "1"], runs)
    figures["carcassonne simulate basic --games 1, whole process, s"] = round(one_game, 3)
    print(f"carcassonne simulate basic --games 1   {one_game:>8.3f} s")
    games = 1000 if args.quick else 5000
    whole = command_s(["simulate", "basic", "--games", str(games), "--workers", "1"], 1 if args.quick else 3)
    figures[f"carcassonne simulate basic --games {games} --workers 1, whole process, s"] = round(whole, 2)
    print(f"carcassonne simulate basic --games {games} --workers 1: {whole:.2f} s, {games / whole:.0f} games/s")
    one, two = simulate_scaling(200 if args.quick else 2000, 1 if args.quick else 3)
    figures["simulate basic, random, games/s on 1 / 2 workers"] = [round(one), round(two)]
    print(f"simulate basic, random: 1 worker {one:.0f} games/s, 2 workers {two:.0f} games/s "
          f"({two / one:.2f}x)")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({**origin, "figures": figures}, indent=1) + "\n")


if __name__ == "__main__":
    main()
