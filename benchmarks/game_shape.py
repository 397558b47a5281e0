"""What a random game asks of the engine, ruleset by ruleset: the counts behind its instruction count.

    python benchmarks/game_shape.py --json benchmarks/results/game-shape.json

Plays the games :mod:`instructions` counts (10 random 2-player games, deck seeds 1-10,
benchmarks/workloads.py's bots) of ``basic`` and of each richer ruleset it counts, and adds up
per ruleset: decisions to place a tile; frontier cells a drawn tile's placements are looked for in (the
frontier's size at each decision to place); decisions where the player to move had a piece
left (the random bot then asks where each may go); and score events.  A ratio of these to
basic's says how much of a ruleset's cost is a longer game or more to decide, not a slower
mechanism.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from instructions import RANDOM_GAMES, RICHER
from provenance import command_line, provenance
from workloads import BOTS

from engine.core.choices import PLACE_DECISION, decision_kind
from engine.core.game import Game
from engine.rules.ruleset import load_ruleset


def shape(ref: str) -> dict[str, int]:
    """The counts of :data:`RANDOM_GAMES` random games of ruleset ``ref`` (module docstring)."""
    ruleset = load_ruleset(ref)
    counts = {"games": RANDOM_GAMES, "placement decisions": 0, "frontier cells": 0, "decisions with a piece left": 0,
              "score events": 0}
    for seed in range(1, RANDOM_GAMES + 1):
        game = Game(ruleset, 2, seed)
        bots = [BOTS["random"](f"{seed}:0"), BOTS["random"](f"{seed}:1")]
        while game.tile is not None:
            if decision_kind(game) is PLACE_DECISION:
                counts["placement decisions"] += 1
                counts["frontier cells"] += len(game.frontier)
                counts["decisions with a piece left"] += bool(game.supply[game.player])
            game.play(bots[game.player].choose(game), checked=True)
        game.finish()
        counts["score events"] += len(game.events)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write the counts here (with machine, date, commit)")
    args = parser.parse_args()
    found = {ref: shape(ref) for ref in ["basic", *RICHER]}
    for ref, counts in found.items():
        print(ref, ", ".join(f"{name} {value:,}" for name, value in counts.items()))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({**provenance(command_line()), "counts": found}, indent=1) + "\n")


if __name__ == "__main__":
    main()
