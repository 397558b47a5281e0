"""What a player chooses in a turn, and how the rules refuse a choice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..geometry import unpack


class IllegalMove(Exception):
    """A move the rules refuse; ``reason`` is ``placement`` or ``follower``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Move:
    """One turn's choice: place the current tile at ``pos`` (packed) turned
    ``rotation`` quarter turns clockwise, and deploy a follower of type ``type``
    (an index into ``ruleset.follower_types``; 0 is normal) on segment
    ``follower`` of the tile type (an index into its segments) or not (None)."""

    pos: int
    rotation: int
    follower: int | None = None
    type: int = 0

    @property
    def at(self) -> tuple[int, int]:
        """The position as ``(x, y)``."""
        return unpack(self.pos)


#: The move that declines the personal tile offered (``deck.personal``): draw from the stacks
#: instead, or, once they are used up, pass (:mod:`engine.core.personal`).  No placement has a
#: negative rotation.
DRAW: Final = Move(0, -1)


#: The rotation that marks a follower moving on after its feature scored (:mod:`engine.core.moving`):
#: ``Move(pos, MOVE_ON, segment, type)`` puts it on segment ``segment`` of the tile at ``pos``.
MOVE_ON: Final = -2

#: The move that sends a follower that may move on home instead (:mod:`engine.core.moving`).
HOME: Final = Move(0, -3)


#: The rotation that marks choosing which held tile to place (``deck.hand``, :mod:`engine.core.hands`):
#: ``Move(tile type index, PICK)``.
PICK: Final = -4


def is_pick(move: Move) -> bool:
    """Whether ``move`` chooses a held tile (``Move(tile, PICK)``)."""
    return move.rotation == PICK


def is_draw(move: Move) -> bool:
    """Whether ``move`` is :data:`DRAW`."""
    return move.rotation == -1


def is_decision(move: Move) -> bool:
    """Whether ``move`` moves a follower on (``MOVE_ON``) or sends it :data:`HOME`."""
    return move.rotation in (MOVE_ON, HOME.rotation)
