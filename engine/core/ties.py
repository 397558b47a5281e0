"""Breaking a tied majority by where the tied players' followers stand (``rules.tie_break``).

engine/rules/ties.py gives the rule and its sources (Hills & Sheep's hills).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game


def broken(game: "Game", roots: list[int], tied: tuple[int, ...]) -> tuple[int, ...]:
    """Of the ``tied`` seats, those with a follower on one of the features ``roots`` that counts
    for the majority (strength above 0, worked out on its feature for a strength that reads it)
    and stands on a tile with a segment of the tie-break kind; all of ``tied`` when none has one."""
    marker = game.ruleset.tie_kind
    base = tuple(t.strength for t in game.ruleset.follower_types)
    # A strength that reads the feature (the mayor's pennants) is worked out on it: 0 does not count.
    weights = {root: game.type_weights(root, base) for root in roots}
    up = set()
    for segment, player, kind, _ in game.on_board:
        root = game.find(segment)
        if player in tied and root in weights and weights[root][kind] > 0 \
                and marker in game.tiles[game.board[game.seg_pos[segment]][2]].kinds:
            up.add(player)
    return tuple(p for p in tied if p in up) or tied
