"""How strong the search bot is: seat-swapped two-player matches, and the seconds each move takes.

    python benchmarks/strength.py --a mcts:1000 --b greedy --games 200 --workers 2
    python benchmarks/strength.py --curve 100,300,1000,3000 --b greedy --games 60
    python benchmarks/strength.py --a mcts:80:widen=1,mcts:80:widen=4 --games 200    # one match each
    python benchmarks/strength.py --paired RESULT.json                               # each against the first
    python benchmarks/strength.py --a mcts:100 --b openspiel-mcts:100 --games 200   # needs the openspiel extra
    python benchmarks/strength.py --a mcts:0.5s --b openspiel-mcts:0.5s --games 60  # equal time a move
    python benchmarks/strength.py --speed 100,300,1000,3000                          # seconds a move, one core
    python benchmarks/strength.py --speed 1600,mcts:800:roots=2                     # two cores against one

Game ``i`` uses deck seed ``seed + i // 2`` and swaps the seats on odd ``i``,
so each deal is played from both seats.  A win counts 1, a tie ½.  The
interval is a Wilson score interval (95 %).  ``openspiel-mcts:N`` is
OpenSpiel's own ``MCTSBot`` as OpenSpiel ships it (UCT constant 2, one random
rollout per simulation, its ``RandomRolloutEvaluator``), N simulations a move,
playing through :mod:`engine.api.openspiel`; ``openspiel-mcts:0.5s`` holds it to
about 0.5 s a move instead (:class:`TimedBot`), so it can be compared with
``mcts:0.5s`` at equal time.  Each side's median seconds and work (iterations or
simulations) a move are measured.  Prints one line per match and, with
``--json FILE``, writes them as JSON with the machine, date and commit.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from provenance import command_line, provenance  # noqa: E402

from engine.build_info import engine_build  # noqa: E402


def play_one(args: tuple[str, str, str, int, int]) -> dict:
    """One game: ``(ruleset, a, b, deck seed, swap)`` → scores, and each side's seconds and
    work (search iterations or simulations; 0 for a bot that does not search) a move."""
    ref, a, b, seed, swap = args
    from engine.rules.ruleset import load_ruleset

    ruleset = load_ruleset(ref)
    specs = [b, a] if swap else [a, b]
    seat_a = 1 if swap else 0
    if any(spec.startswith("openspiel-mcts") for spec in specs):
        scores, seconds, work = _play_openspiel(ref, specs, seed)
    else:
        scores, seconds, work = _play_engine(ruleset, specs, seed)
    seat_b = 1 - seat_a
    return {"seed": seed, "swap": swap, "a": scores[seat_a], "b": scores[seat_b],
            "move_seconds": seconds[seat_a], "b_move_seconds": seconds[seat_b],
            "work": work[seat_a], "b_work": work[seat_b]}


def _work(player) -> int:
    return getattr(player, "last_iterations", 0)


def _play_engine(ruleset, specs: list[str], seed: int) -> tuple[list[int], list[list[float]], list[list[int]]]:
    from engine.bots.players import make_player
    from engine.core.game import Game

    game = Game(ruleset, 2, seed, explain=False)
    players = [make_player(spec, seed, seat) for seat, spec in enumerate(specs)]
    seconds: list[list[float]] = [[], []]
    work: list[list[int]] = [[], []]
    while game.start_tile is not None:
        game.place_start(players[0].choose_start(game))
    while game.tile is not None:
        seat = game.player
        start = time.perf_counter()
        move = players[seat].choose(game)
        seconds[seat].append(time.perf_counter() - start)
        work[seat].append(_work(players[seat]))
        game.play(move, checked=True)
    game.finish()
    return game.scores, seconds, work


class TimedBot:
    """OpenSpiel's ``MCTSBot`` held to about ``seconds`` a move without changing its search:
    before each move its ``max_simulations`` is set to ``seconds`` times the simulations a
    second its previous move ran at (4 for the first move, to measure that rate).  Rollouts
    shorten as the deck runs down, so the rate rises through a game and a move tends to
    come in slightly under the target; the measured seconds are reported beside it."""

    def __init__(self, bot, seconds: float) -> None:
        self.bot = bot
        self.seconds = seconds
        self.rate: float | None = None
        self.last_iterations = 0

    def step(self, state):
        self.bot.max_simulations = 4 if self.rate is None else max(1, round(self.seconds * self.rate))
        start = time.perf_counter()
        action = self.bot.step(state)
        self.rate = self.bot.max_simulations / max(time.perf_counter() - start, 1e-6)
        self.last_iterations = self.bot.max_simulations
        return action


def _play_openspiel(ref: str, specs: list[str], seed: int) -> tuple[list[int], list[list[float]], list[list[int]]]:
    """A game through the OpenSpiel API: our bots choose from the engine game behind it."""
    import numpy
    import pyspiel
    from open_spiel.python.algorithms import mcts

    import engine.api.openspiel  # noqa: F401  (registers the game)
    from engine.bots.players import make_player

    game = pyspiel.load_game("python_carcassonne", {"ruleset": ref, "players": 2})
    state = game.new_initial_state()
    rng = numpy.random.RandomState(seed)
    deal = numpy.random.RandomState(10**6 + seed)  # the draws, apart from any bot's generator
    players = []
    for seat, spec in enumerate(specs):
        if spec.startswith("openspiel-mcts"):
            budget = spec.split(":")[1] if ":" in spec else "100"
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
            simulations = 1 if budget.endswith("s") else int(budget)
            bot = mcts.MCTSBot(game, 2.0, simulations, evaluator, solve=False, random_state=rng)
            players.append(TimedBot(bot, float(budget[:-1])) if budget.endswith("s") else bot)
        else:
            players.append(make_player(spec, seed, seat))
    seconds: list[list[float]] = [[], []]
    work: list[list[int]] = [[], []]
    pending: list[int] = []  # the follower spot of an engine bot's placement: its second action
    while not state.is_terminal():
        if pending:
            state.apply_action(pending.pop())
            continue
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(deal.choice(outcomes, p=probs)))
            continue
        seat = state.current_player()
        bot = players[seat]
        start = time.perf_counter()
        inner = state.inner
        if isinstance(bot, (pyspiel.Bot, TimedBot)):
            action = bot.step(state)
        elif inner.game.pending_starts:
            action = inner.codec.start_action(bot.choose_start(inner.game))
        else:
            action, *pending = inner.actions_for(bot.choose(inner.game))
        seconds[seat].append(time.perf_counter() - start)
        work[seat].append(bot.max_simulations if isinstance(bot, pyspiel.Bot) else _work(bot))
        state.apply_action(action)
    return list(state.inner.game.scores), seconds, work


def match(ref: str, a: str, b: str, games: int, seed: int, workers: int) -> dict:
    """Play ``games`` seat-swapped games of ``a`` against ``b``; the summary row."""
    jobs = [(ref, a, b, seed + i // 2, i % 2) for i in range(games)]
    start = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        rows = list(pool.map(play_one, jobs))
    wall = time.perf_counter() - start
    wins = sum(1.0 if r["a"] > r["b"] else 0.5 if r["a"] == r["b"] else 0.0 for r in rows)
    low, high = wilson(wins, games)

    def every(key: str) -> list[float]:
        return [value for r in rows for value in r[key]]

    return {"ruleset": ref, "a": a, "b": b, "games": games, "wins_a": wins, "win_rate": wins / games,
            "interval_95": [low, high], "mean_margin": statistics.mean(r["a"] - r["b"] for r in rows),
            "move_seconds_median": statistics.median(every("move_seconds")),
            "move_seconds_max": max(every("move_seconds")),
            "b_move_seconds_median": statistics.median(every("b_move_seconds")),
            "work_median": statistics.median(every("work")), "b_work_median": statistics.median(every("b_work")),
            "wall_seconds": wall, "workers": workers, "engine": engine_build(),
            "games_played": [{k: r[k] for k in ("seed", "swap", "a", "b")} for r in rows]}


def speed(specs: list[str], ref: str, rounds: int) -> list[dict]:
    """Seconds a move and iterations a second of each search spec (``80``: ``mcts:80``; or a
    spec such as ``mcts:800:roots=2``): the positions after 10, 30 and 50 turns of a seeded
    greedy game (the board grows, and so does the cost of a playout); medians of ``rounds``
    runs, interleaved.  Each spec's player is made once and makes one untimed move first, so
    worker processes (``roots``) start before the clock runs; iterations are all its searches'."""
    from engine.bots.players import PLAYER_KINDS, make_player, parse_spec
    from engine.core.game import Game
    from engine.rules.ruleset import load_ruleset

    ruleset = load_ruleset(ref)
    positions = []
    for turns in (10, 30, 50):
        game = Game(ruleset, 2, 7)
        bots = [make_player("greedy", 7, seat) for seat in range(2)]
        for _ in range(turns):
            game.play(bots[game.player].choose(game))
        positions.append((turns, game))
    players = {}
    for spec in specs:
        kind, settings = parse_spec(spec)
        players[spec] = PLAYER_KINDS[kind](0, **settings)
        players[spec].choose(positions[0][1])
    times: dict[tuple[str, int], list[float]] = {}
    work: dict[tuple[str, int], list[int]] = {}
    for _ in range(rounds):
        for spec in specs:
            for turns, game in positions:
                start = time.perf_counter()
                players[spec].choose(game)
                times.setdefault((spec, turns), []).append(time.perf_counter() - start)
                work.setdefault((spec, turns), []).append(_work(players[spec]))
    rows = []
    for spec in specs:
        per_turn = {turns: statistics.median(times[(spec, turns)]) for turns, _ in positions}
        rows.append({"spec": spec, "seconds_a_move": per_turn,
                     "iterations_a_second": {t: statistics.median(work[(spec, t)]) / s for t, s in per_turn.items()},
                     "engine": engine_build()})
    return rows


def paired(rows: list[dict]) -> list[dict]:
    """Each row after the first against the first, over the same deals and seats: the mean
    difference of the game results (win 1, tie ½), with a normal 95 % interval."""
    def result(game: dict) -> float:
        return 1.0 if game["a"] > game["b"] else 0.5 if game["a"] == game["b"] else 0.0

    base = rows[0]["games_played"]
    found = []
    for row in rows[1:]:
        games = row["games_played"]
        if [(g["seed"], g["swap"]) for g in games] != [(g["seed"], g["swap"]) for g in base]:
            raise SystemExit(f"{row['a']} did not play {rows[0]['a']}'s deals")
        diffs = [result(g) - result(b) for g, b in zip(games, base)]
        mean = statistics.mean(diffs)
        half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
        found.append({"a": row["a"], "against": rows[0]["a"], "difference": mean,
                      "interval_95": [mean - half, mean + half], "games": len(diffs)})
    return found


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of ``wins`` (ties as halves) out of ``n`` games."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default="mcts:1000",
                        help="the player measured (default mcts:1000); comma-separated: one match each")
    parser.add_argument("--b", default="greedy", help="its opponent (default greedy)")
    parser.add_argument("--curve", help="comma-separated iteration budgets: one match of mcts:N each")
    parser.add_argument("--ruleset", default="basic", help="the ruleset reference (default basic)")
    parser.add_argument("--games", type=int, default=200, help="games a match, seats swapped (default 200)")
    parser.add_argument("--seed", type=int, default=1000, help="the first deck seed (default 1000)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--speed", help="comma-separated iteration budgets or search specs (mcts:800:roots=2): "
                                        "time a move instead")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of --speed (median)")
    parser.add_argument("--json", type=Path, help="write the rows as JSON here")
    parser.add_argument("--paired", type=Path, help="a result file of several players on the same deals: "
                                                    "print each one's win-rate difference from the first's")
    args = parser.parse_args()
    if args.paired:
        for row in paired(json.loads(args.paired.read_text())["rows"]):
            low, high = row["interval_95"]
            print(f"{row['a']} − {row['against']} over {row['games']} paired games: {row['difference']:+.1%} "
                  f"[{low:+.1%}, {high:+.1%}]")
        return
    origin = provenance(command_line())  # before the games: the tree may change while they run
    if args.speed:
        specs = [f"mcts:{item}" if item.isdigit() else item for item in args.speed.split(",")]
        rows = speed(specs, args.ruleset, args.rounds)
        for row in rows:
            cells = ", ".join(f"turn {t}: {s:.3f} s ({row['iterations_a_second'][t]:.0f}/s)"
                              for t, s in row["seconds_a_move"].items())
            print(f"{row['spec']} ({row['engine']}): {cells}", flush=True)
        if args.json:
            args.json.write_text(json.dumps({**origin, "rows": rows}, indent=1) + "\n")
        return
    specs = [f"mcts:{n}" for n in args.curve.split(",")] if args.curve else args.a.split(",")
    rows = []
    for spec in specs:
        row = match(args.ruleset, spec, args.b, args.games, args.seed, args.workers)
        rows.append(row)
        low, high = row["interval_95"]
        print(f"{spec} vs {args.b} ({args.ruleset}, {args.games} games, {row['engine']}): "
              f"{row['win_rate']:.1%} [{low:.1%}, {high:.1%}], margin {row['mean_margin']:+.1f}, "
              f"s/move median {row['move_seconds_median']:.3f} (b {row['b_move_seconds_median']:.3f}), "
              f"work/move median {row['work_median']:.0f} (b {row['b_work_median']:.0f}), "
              f"wall {row['wall_seconds']:.0f} s", flush=True)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({**origin, "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
