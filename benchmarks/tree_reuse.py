"""What keeping the search tree between moves would save: for each move of ``mcts:N`` in games
against ``greedy``, the visits already in the subtree the next search would start from.

    python benchmarks/tree_reuse.py --iterations 80,1600 --games 4 --json benchmarks/results/tree-reuse.json

After the bot's move (tile ``t``, move ``m``) and the opponent's (its tile and move, both
public once played), the node reached by those two moves from the last root is where the
information set now stands; of its children, only those of the tile now drawn apply.  Their
visits, against the budget of a fresh search, are what reuse would add (single-observer ISMCTS
keys a node by moves, so the statistics carry over).  Two players, so the path is two moves.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from provenance import command_line, provenance  # noqa: E402

from engine.build_info import engine_build  # noqa: E402


def reusable(iterations: int, games: int, ref: str) -> dict:
    """Per move of the search bot after its first: the visits of the reachable subtree's
    children for the tile drawn (a fresh search starts from none of them)."""
    from engine.bots.mcts import MctsPlayer
    from engine.bots.players import make_player
    from engine.core.game import Game
    from engine.rules.ruleset import load_ruleset

    ruleset = load_ruleset(ref)
    kept: list[int] = []
    for seed in range(games):
        game = Game(ruleset, 2, seed)
        bot, other = MctsPlayer(seed, iterations=iterations), make_player("greedy", seed, 1)
        root, since = None, 0
        while game.tile is not None:
            if game.player == 1:
                game.play(other.choose(game))
                continue
            if root is not None:
                kept.append(_visits_for(root, game.history[since:], game.tile))
            move = bot.choose(game)
            root, since = bot.last_root, len(game.history)
            game.play(move)
    return {"iterations": iterations, "games": games, "moves": len(kept),
            "reusable_visits_median": statistics.median(kept), "reusable_visits_mean": statistics.mean(kept),
            "share_of_budget_mean": statistics.mean(kept) / iterations,
            "moves_with_none": sum(1 for k in kept if k == 0), "engine": engine_build()}


def _visits_for(root, played, tile) -> int:
    """Visits under ``root`` along the moves ``played`` since (discards have no node), summed
    over the children for ``tile``."""
    node = root
    for drawn, move in played:
        if move is None:
            continue
        child = node.children.get((drawn, move)) if node is not None else None
        node = child.node if child is not None else None
    if node is None:
        return 0
    return sum(child.visits for (t, _), child in node.children.items() if t == tile)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", default="80,1600", help="comma-separated search budgets")
    parser.add_argument("--games", type=int, default=4, help="games each, against greedy (default 4)")
    parser.add_argument("--ruleset", default="basic")
    parser.add_argument("--json", type=Path, help="write the rows as JSON here")
    args = parser.parse_args()
    origin = provenance(command_line())
    rows = []
    for n in (int(x) for x in args.iterations.split(",")):
        row = reusable(n, args.games, args.ruleset)
        rows.append(row)
        print(f"mcts:{n}: {row['moves']} moves, reusable visits median {row['reusable_visits_median']}, "
              f"mean {row['reusable_visits_mean']:.1f} ({row['share_of_budget_mean']:.1%} of the budget), "
              f"none on {row['moves_with_none']}", flush=True)
    if args.json:
        args.json.write_text(json.dumps({**origin, "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
