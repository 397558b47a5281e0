"""Play N whole 2-player ``basic`` games of one bot against itself, for timing as a whole process.

    cd TREE && python /path/to/benchmarks/games.py random 1000

The engine and ``benchmarks/workloads.py`` are imported from the current folder (TREE), so one
copy of this script times two checkouts side by side (an older commit's tree against this one),
each with whatever build is in it; the build used is printed on standard error.
"""

from __future__ import annotations

import os
import sys

sys.path[:0] = [os.getcwd(), os.path.join(os.getcwd(), "benchmarks")]

from workloads import play  # noqa: E402

from engine.build_info import engine_build  # noqa: E402  (after the path is set)
from engine.rules.ruleset import load_ruleset  # noqa: E402


def main() -> None:
    bot, games = sys.argv[1], int(sys.argv[2])
    basic = load_ruleset("basic")
    for seed in range(games):
        play(basic, bot, seed)
    print(f"{games} {bot} games, {engine_build()}", file=sys.stderr)


if __name__ == "__main__":
    main()
