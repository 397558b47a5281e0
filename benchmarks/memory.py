"""Memory of the main process while a local pool plays many games (never in the unit tests).

    python benchmarks/memory.py                    # 2,000 and 20,000 games
    python benchmarks/memory.py --games 500 5000   # any sizes

Each size runs in a fresh interpreter: it plays ``simulate basic`` with random bots on
two worker processes through :func:`engine.sim.simulate.run`, folding every row into a
:class:`~engine.sim.stats.Summary` as the command does, and reports the main process's
resident memory (RSS) at the end and its peak.  The growth per game between the
smallest and the largest size is what a leak would show: finished futures kept with
their results cost about 1.3 KB a game; a flat pool costs nothing measurable (RSS moves
in pages, so anything under ~0.1 KB a game is noise).  The counting test of the same
property is tests/sim/test_stopping.py (live futures stay under a bound).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time


def measure(games: int) -> dict:
    from engine.cli.sim_commands import _job
    from engine.sim.simulate import run
    from engine.sim.stats import Summary

    job, kinds = _job(["basic"], "random,random", 1, games)
    summary = Summary(len(kinds))
    start = time.perf_counter()
    for rows in run(job, workers=2):
        summary.add(rows[0])
    took = time.perf_counter() - start
    with open("/proc/self/statm") as statm:
        rss_kib = int(statm.read().split()[1]) * resource.getpagesize() / 1024
    return {"games": games, "seconds": round(took, 1), "rss_kib": round(rss_kib),
            "peak_rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[2000, 20000])
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a child run: print one measurement
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(measure(args.one)))
        return
    results = []
    for games in sorted(args.games):
        child = subprocess.run([sys.executable, __file__, "--one", str(games)], capture_output=True, text=True,
                               check=True)
        results.append(json.loads(child.stdout))
        print(f"{games:>8} games  {results[-1]['seconds']:>7.1f} s  RSS {results[-1]['rss_kib']:>8} KiB  "
              f"peak {results[-1]['peak_rss_kib']:>8} KiB")
    if len(results) > 1:
        first, last = results[0], results[-1]
        per_game = (last["peak_rss_kib"] - first["peak_rss_kib"]) * 1024 / (last["games"] - first["games"])
        print(f"peak RSS growth: {per_game:.2f} bytes per game")


if __name__ == "__main__":
    main()
