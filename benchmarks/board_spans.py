"""How wide boards grow: the crop the learners' API needs (engine/api/actions.py, ``DEFAULT_CROP``).

    python benchmarks/board_spans.py --random 1000 --greedy 100 --result benchmarks/results/board-spans.json

Plays, for every shipped ruleset, the basic game with each shipped option (after the options
it requires) and the basic game with every expansion at once, ``--random`` games between
random players and ``--greedy`` between greedy ones (two seats, seeds 0, 1, …), and keeps per
ruleset the widest span of a map's tiles and frontier, in cells, over the whole game (the
last position is the widest: a board only grows).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from provenance import provenance  # noqa: E402

from engine.geometry import map_local  # noqa: E402
from engine.rules.inspect import shipped_games  # noqa: E402
from engine.rules.ruleset import load_ruleset  # noqa: E402
from engine.sim.play import play_points  # noqa: E402

#: Every expansion of the shipped options at once: the most tiles a shipped game can have.
EVERYTHING = ("basic+river+inns-and-cathedrals+traders-and-builders+abbey-and-mayor+king-and-robber-baron"
              "+hills+vineyards")


def span(game) -> int:
    """The widest span (cells) of one map's tiles and frontier."""
    cells: dict[int, list[tuple[int, int]]] = {}
    for pos in [*game.board, *(p for frontier in game.frontiers for p in frontier)]:
        m, x, y = map_local(pos)
        cells.setdefault(m, []).append((x, y))
    return max(max(max(x for x, _ in c) - min(x for x, _ in c), max(y for _, y in c) - min(y for _, y in c)) + 1
               for c in cells.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=1000)
    parser.add_argument("--greedy", type=int, default=100)
    parser.add_argument("--result", type=Path)
    args = parser.parse_args()
    rows = {}
    for ref in [*shipped_games(), EVERYTHING]:
        ruleset = load_ruleset(ref)
        found = {kind: max(span(play_points(ruleset, [kind, kind], seed)) for seed in range(games))
                 for kind, games in (("random", args.random), ("greedy", args.greedy)) if games}
        rows[ref] = found
        print(f"{ref}: {found}", flush=True)
    widest = max(max(found.values()) for found in rows.values())
    print(f"widest: {widest} cells")
    if args.result:
        command = f"python benchmarks/board_spans.py --random {args.random} --greedy {args.greedy}"
        args.result.write_text(json.dumps({**provenance(command), "games": {"random": args.random,
                                                                          "greedy": args.greedy},
                                           "widest": widest, "rulesets": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
