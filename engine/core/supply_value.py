"""What a follower still in the supply is worth to the bots: the turns each seat has left.

The bots' measure of a position (the score if the game ended now) spends followers on any
point; ``keep`` points for each follower a seat still holds and has a turn left to place
(:func:`kept_points`) make a follower placed for nothing cost something (docs/planners.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import moving

if TYPE_CHECKING:
    from .game import Game


def turns_ahead(game: "Game", after_move: bool, declined: bool = False) -> list[int]:
    """Turns each seat has left, per seat, an estimate: one for each tile still to draw (and the
    drawn one, unless ``after_move``: the placement being weighed), dealt in seat order from
    the seat after the one whose turn it is (from that seat itself, unless ``after_move``).
    While followers move on (:mod:`engine.core.moving`) the turn is the placer's, not the
    follower owner's.  ``declined``: the seat declines its personal tile and draws instead,
    so the tiles to draw start with its own turn.  Extra turns, discards and the tiles a hand
    holds beyond the stack (``deck.hand``) are not foreseen; it limits what a follower in the
    supply is worth (:func:`kept_points`)."""
    seats = game.players
    turn_of = moving.turn_of(game)
    if declined:
        tiles, first = game.remaining, turn_of
    elif after_move:
        tiles, first = game.remaining, (turn_of + 1) % seats
    else:
        tiles, first = game.remaining + 1, turn_of
    found = []
    for p in range(seats):
        offset = (p - first) % seats
        found.append(0 if tiles <= offset else (tiles - 1 - offset) // seats + 1)
    return found


def kept_points(supply: list[int], turns: list[int], keep: int) -> list[int]:
    """``keep`` points per seat for each follower in its ``supply`` that it has a turn left to
    place (``turns``, :func:`turns_ahead`): a follower nobody can place any more is worth nothing."""
    return [keep * min(n, t) for n, t in zip(supply, turns)]
