"""Breaking a tied majority by where the tied players' followers stand (``rules.tie_break``).

engine/rules/ties.py gives the rule and its sources (Hills & Sheep's hills).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game


def broken(game: "Game", roots: list[int], tied: tuple[int, ...]) -> tuple[int, ...]:
    """Of the ``tied`` seats, those with a follower that counts for the majority (strength above
    0) on one of the features ``roots``, standing on a tile with a segment of the tie-break kind;
    all of ``tied`` when none of them has one."""
    marker, types = game.ruleset.tie_kind, game.ruleset.follower_types
    features = set(roots)
    up = {player for segment, player, kind, _ in game.on_board
          if player in tied and types[kind].strength > 0 and game.find(segment) in features
          and marker in game.tiles[game.board[game.seg_pos[segment]][2]].kinds}
    return tuple(p for p in tied if p in up) or tied
