"""What a player chooses in a turn, and how the rules refuse a choice."""

from __future__ import annotations

from typing import Final, final

from ..geometry import unpack


class IllegalMove(Exception):
    """A move the rules refuse; ``reason`` is ``placement`` or ``follower``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@final
class Move:
    """One turn's choice: place the current tile at ``pos`` (packed) turned
    ``rotation`` quarter turns clockwise, and deploy a follower of type ``type``
    (an index into ``ruleset.follower_types``; 0 is normal) on segment
    ``follower`` of the tile type (an index into its segments) or not (None).

    A value: equal moves hash alike (as the tuple of the four fields, as the
    dataclass it was did), and the fields are ``Final`` (mypy refuses an
    assignment).  A plain class rather than a dataclass because the compiled
    build makes it a native class whose construction costs one C call (a
    dataclass's generated ``__init__`` stays interpreted, issue 27's profile)."""

    __slots__ = ("pos", "rotation", "follower", "type")

    def __init__(self, pos: int, rotation: int, follower: int | None = None, type: int = 0) -> None:
        self.pos: Final = pos
        self.rotation: Final = rotation
        self.follower: Final = follower
        self.type: Final = type

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Move) and self.pos == other.pos and self.rotation == other.rotation
                and self.follower == other.follower and self.type == other.type)

    def __hash__(self) -> int:
        return hash((self.pos, self.rotation, self.follower, self.type))

    def __repr__(self) -> str:
        return f"Move(pos={self.pos}, rotation={self.rotation}, follower={self.follower}, type={self.type})"

    def __reduce__(self) -> tuple[type, tuple[int, int, int | None, int]]:
        return Move, (self.pos, self.rotation, self.follower, self.type)

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
