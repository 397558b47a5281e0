"""What a player chooses in a turn, and how the rules refuse a choice."""

from __future__ import annotations

from typing import Final, final

from ..geometry import unpack


class IllegalMove(Exception):
    """A move the rules refuse; ``reason`` is ``placement`` or ``follower``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


#: The kinds of move (:attr:`Move.kind`), one per thing a player may be asked to decide
#: (:mod:`engine.core.decisions`): place the tile (and deploy), decline the personal tile
#: offered, move a follower that scored on, send it home instead, pick a held tile.
PLACE: Final = 0
DECLINE: Final = 1
MOVE_ON: Final = 2
GO_HOME: Final = 3
PICK: Final = 4

#: Each kind's name, as records, the API and messages write it.
KIND_NAMES: Final = ("place", "decline", "move-on", "home", "pick")


def kind_name(kind: int) -> str:
    """The name of move kind ``kind`` (:data:`KIND_NAMES`; ``kind N`` for one a mechanism added)."""
    return KIND_NAMES[kind] if 0 <= kind < len(KIND_NAMES) else f"kind {kind}"


@final
class Move:
    """One choice of the player to move, tagged by its :attr:`kind`.

    A placement (``kind`` :data:`PLACE`, the default): place the current tile at ``pos``
    (packed) turned ``rotation`` quarter turns clockwise, and deploy a follower of type
    ``type`` (an index into ``ruleset.follower_types``; 0 is normal) on spot ``follower`` of
    the tile type (an index into its segments, then its corners) or not (None).  The other
    kinds use the fields they need: :func:`move_on` a follower onto segment ``follower`` of
    the placed tile at ``pos``; :func:`pick` a held tile type ``tile``; :data:`DRAW` and
    :data:`HOME` none.

    A value: equal moves hash alike, and the fields are ``Final`` (mypy refuses an
    assignment).  A plain class rather than a dataclass because the compiled build makes it a
    native class whose construction costs one C call (a dataclass's generated ``__init__``
    stays interpreted, issue 27's profile)."""

    __slots__ = ("kind", "pos", "rotation", "follower", "type", "tile")

    def __init__(self, pos: int, rotation: int, follower: int | None = None, type: int = 0,
                 kind: int = PLACE, tile: int = -1) -> None:
        self.kind: Final = kind
        self.pos: Final = pos
        self.rotation: Final = rotation
        self.follower: Final = follower
        self.type: Final = type
        self.tile: Final = tile

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Move) and self.kind == other.kind and self.pos == other.pos
                and self.rotation == other.rotation and self.follower == other.follower
                and self.type == other.type and self.tile == other.tile)

    def __hash__(self) -> int:
        if self.kind == PLACE:  # as before kinds were tagged: sets and dicts of placements keep their order
            return hash((self.pos, self.rotation, self.follower, self.type))
        return hash((self.kind, self.pos, self.follower, self.type, self.tile))

    def __repr__(self) -> str:
        if self.kind == PLACE:
            return f"Move(pos={self.pos}, rotation={self.rotation}, follower={self.follower}, type={self.type})"
        if self.kind == MOVE_ON:
            return f"move_on(pos={self.pos}, spot={self.follower}, type={self.type})"
        if self.kind == PICK:
            return f"pick({self.tile})"
        return "DRAW" if self.kind == DECLINE else "HOME"

    def __reduce__(self) -> tuple[type, tuple[int, int, int | None, int, int, int]]:
        return Move, (self.pos, self.rotation, self.follower, self.type, self.kind, self.tile)

    @property
    def at(self) -> tuple[int, int]:
        """The position as ``(x, y)``."""
        return unpack(self.pos)


#: The move that declines the personal tile offered (``deck.personal``): draw from the stacks
#: instead, or, once they are used up, pass (:mod:`engine.core.personal`).
DRAW: Final = Move(0, 0, kind=DECLINE)

#: The move that sends a follower that may move on home instead (:mod:`engine.core.moving`).
HOME: Final = Move(0, 0, kind=GO_HOME)


def move_on(pos: int, spot: int, type: int) -> Move:
    """The move putting the follower of type ``type`` that may move on (:mod:`engine.core.moving`)
    on segment ``spot`` of the placed tile at packed ``pos``."""
    return Move(pos, 0, spot, type, MOVE_ON)


def pick(tile: int) -> Move:
    """The move choosing held tile type ``tile`` to place this turn (``deck.hand``, :mod:`engine.core.hands`)."""
    return Move(0, 0, None, 0, PICK, tile)
