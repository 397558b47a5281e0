"""What planning costs under the richer rulesets, as a multiple of basic's: issue 48's table.

    python benchmarks/rulesets.py                       # print the table
    python benchmarks/rulesets.py --json benchmarks/results/rulesets.json
    cd OTHER_TREE && python /path/to/benchmarks/rulesets.py --json out.json   # another checkout's engine

Per ruleset, three workloads, each as CPU seconds (``time.process_time``) of one process:
a whole 2-player game of ``random`` against itself, of ``greedy`` against itself (deck seeds
0, 1, …), and one move of the default search (``mcts``, 80 iterations, seeds 0, 1, …) from
the position after 30 turns of greedy play (deck seed 7).  Every workload runs in turn, round
after round (after a warm-up), and the table gives each one's median and its ratio to basic's
median of the same run, so a drifting machine moves both alike.  The engine is imported from
the current folder, as benchmarks/games.py does, so one copy of this script times any checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

sys.path[:0] = [os.getcwd(), os.path.join(os.getcwd(), "benchmarks")]

from workloads import play, search_position  # noqa: E402

from engine.bots.mcts import MctsPlayer  # noqa: E402  (after the path is set)
from engine.build_info import engine_build  # noqa: E402
from engine.rules.ruleset import load_ruleset  # noqa: E402

RULESETS = ["basic", "basic+inns-and-cathedrals+traders-and-builders", "basic+abbey-and-mayor",
            "basic+king-and-robber-baron", "basic+hills+vineyards", "basic+longest-road-bonus", "basic+hand-of-two"]
#: Games or moves per workload and round: about as long each, so no workload dominates a round.
PER_ROUND = {"random": 20, "greedy": 2, "mcts": 2}


def timed(run, count: int) -> float:
    """CPU seconds per call of ``run(i)`` over ``count`` calls."""
    start = time.process_time()
    for i in range(count):
        run(i)
    return (time.process_time() - start) / count


def measure(rounds: int) -> dict[str, dict[str, list[float]]]:
    """Per ruleset and workload, the seconds of each round."""
    rulesets = {ref: load_ruleset(ref) for ref in RULESETS}
    positions = {ref: search_position(ruleset, 30) for ref, ruleset in rulesets.items()}
    found: dict[str, dict[str, list[float]]] = {ref: {w: [] for w in PER_ROUND} for ref in RULESETS}
    for r in range(rounds + 1):  # round 0 warms up (fit tables, formula closures) and is dropped
        for ref, ruleset in rulesets.items():
            seeds = r * 1000
            times = {
                "random": timed(lambda i, ruleset=ruleset, seeds=seeds: play(ruleset, "random", seeds + i),
                                PER_ROUND["random"]),
                "greedy": timed(lambda i, ruleset=ruleset, seeds=seeds: play(ruleset, "greedy", seeds + i),
                                PER_ROUND["greedy"]),
                "mcts": timed(lambda i, seeds=seeds, ref=ref: MctsPlayer(seeds + i).choose(positions[ref]),
                              PER_ROUND["mcts"]),
            }
            if r:
                for workload, seconds in times.items():
                    found[ref][workload].append(seconds)
        print(f"round {r} of {rounds} done", file=sys.stderr)
    return found


def table(found: dict[str, dict[str, list[float]]]) -> dict[str, dict[str, dict[str, float]]]:
    """Per ruleset and workload: the median seconds and its ratio to basic's median."""
    medians = {ref: {w: statistics.median(s) for w, s in by.items()} for ref, by in found.items()}
    return {ref: {w: {"median_s": round(m, 5), "x_basic": round(m / medians["basic"][w], 2)} for w, m in by.items()}
            for ref, by in medians.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="measured rounds (default 5), after one warm-up")
    parser.add_argument("--json", help="write the table here, with machine, date and commit")
    args = parser.parse_args()
    result = table(measure(args.rounds))
    print(f"{'ruleset':50} {'random game':>18} {'greedy game':>18} {'mcts:80 move':>18}   ({engine_build()})")
    for ref, by in result.items():
        cells = [f"{by[w]['median_s'] * 1000:9.1f} ms {by[w]['x_basic']:5.1f}x" for w in PER_ROUND]
        print(f"{ref:50} {cells[0]:>18} {cells[1]:>18} {cells[2]:>18}")
    if args.json:
        from provenance import command_line, provenance

        with open(args.json, "w") as out:
            json.dump({**provenance(command_line()), "rounds": args.rounds, "per_round": PER_ROUND,
                       "unit": "CPU seconds per game or move; x_basic: median over basic's median of the same run",
                       "table": result}, out, indent=2)
            out.write("\n")


if __name__ == "__main__":
    main()
