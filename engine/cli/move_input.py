"""Reading and writing what the terminal player types: moves in the README's notation.

A move is written ``X,Y rR`` and optionally a follower ``KIND@PORT`` (or a
bare port-less kind such as ``cloister``; ``-`` or nothing for none), e.g.
``3,-1 r2 city@N``; declining a personal tile offered is ``draw`` (``pass`` once
the stacks are used up).  ``move_notation`` writes a move so and ``parse_move``
reads one back, forgiving case and spaces; ``distinct`` drops the moves a
symmetric tile repeats.  Text that names no legal move raises :class:`MoveInputError` with the engine's own reason
(:meth:`Game.check <engine.core.game.Game.check>` and
:func:`~engine.files.notation.parse_follower`), for the player to read and
answer again: a typo must never end a game.
"""

from __future__ import annotations

import re
from typing import Any

from ..core import personal
from ..core.game import Game
from ..core.moves import DECLINE, DRAW, IllegalMove, Move
from ..files.notation import facing_follower, parse_follower
from ..geometry import pack
from ..rules.kinds import FeatureKind
from ..rules.ruleset import Ruleset

__all__ = ["MoveInputError", "distinct", "move_notation", "parse_move"]


class MoveInputError(ValueError):
    """Typed text that names no legal move; the message says why, for the player to read."""


def move_notation(game: Game, move: Move, tile: int | None = None) -> str:
    """``X,Y rR [KIND@PORT]`` of ``move`` for ``tile`` (default: the current tile), X,Y on its map; a field
    named by its port nearest where it lies (:func:`~engine.files.notation.facing_follower`)."""
    if move.kind == DECLINE:
        return decline_word(game)
    tile = game.tile if tile is None else tile
    _, x, y = game.local(move.pos)
    text = f"{x},{y} r{move.rotation}"
    if move.follower is not None:
        text += " " + facing_follower(game.ruleset, tile, move.rotation, move.follower, move.type)
    return text


def decline_word(game: Game) -> str:
    """What declining a personal tile is called now: ``draw``, or ``pass`` in the last round."""
    return "pass" if personal.of(game).last_round is not None else "draw"


_POSITION = re.compile(r"^\(?\s*([+-]?\d+)\s*[,;\s]\s*([+-]?\d+)\s*\)?\s*(.*)$")
_ROTATION = re.compile(r"^r\s*([+-]?\d+)(?![\w@#])\s*(.*)$", re.IGNORECASE)
_NONE = {"", "-", "none", "no", "nothing"}


def parse_move(game: Game, text: str) -> Move:
    """The legal move ``text`` names: ``X,Y rR`` and an optional follower (``KIND@PORT``,
    a bare port-less kind, or ``-``), spaces anywhere.  ``rR`` may be left out where
    only one rotation fits; ``draw`` (or ``pass``, ``keep``) declines a personal tile offered.
    Raises :class:`MoveInputError` saying what is wrong."""
    if text.strip().lower() in ("d", "draw", "p", "pass", "keep"):
        if not personal.of(game).offered:
            raise MoveInputError("the tile to place was drawn: only your own tile (a personal one) may be "
                                 "kept instead")
        return DRAW
    found = _POSITION.match(text.strip())
    if not found:
        raise MoveInputError(f"could not read '{text.strip()}': type a number from the list, or a move "
                             f"like 3,-1 r2 or 3,-1 r2 city@N (? for help)")
    x, y, rest = int(found[1]), int(found[2]), found[3].strip()
    try:
        pos = game.origin(game.map) + pack(x, y)  # typed coordinates are on the map in play
    except ValueError as error:
        raise MoveInputError(str(error)) from None
    rotation = None
    turned = _ROTATION.match(rest)
    if turned:
        rotation, rest = int(turned[1]), turned[2].strip()
        if not 0 <= rotation <= 3:
            raise MoveInputError(f"rotation r{rotation} does not exist: rotations are r0–r3, "
                                 f"clockwise quarter turns")
    elif rest[:1] in ("r", "R") and _kind_of(game.ruleset, rest) is None:  # not road@E: a bad rotation
        raise MoveInputError(f"could not read the rotation in '{rest}': write r0, r1, r2 or r3")
    if rotation is None:
        rotations = sorted(r for p, r in game.placements() if p == pos)
        if len(rotations) != 1:
            try:
                game.check(Move(pos, 0))  # the engine's reason when the cell itself is wrong
            except IllegalMove as error:
                # An occupied or detached cell is wrong in every rotation: say that, not "no rotation fits".
                if not rotations and error.reason == "placement" and "sides" not in str(error):
                    raise MoveInputError(f"{x},{y}: {error}") from None
            if not rotations:
                raise MoveInputError(f"{x},{y}: the tile's sides match its neighbours there in no rotation")
            raise MoveInputError(f"{x},{y}: say which rotation (it fits there as "
                                 f"{', '.join('r%d' % r for r in rotations)})")
        rotation = rotations[0]
    try:
        game.check(Move(pos, rotation))
    except IllegalMove as error:
        raise MoveInputError(f"{x},{y} r{rotation}: {error}") from None
    follower, kind = _parse_follower(game, rotation, rest)
    move = Move(pos, rotation, follower, kind)
    try:
        game.check(move)
    except IllegalMove as error:
        raise MoveInputError(f"{x},{y} r{rotation} {rest.replace(' ', '')}: {error}") from None
    return move


def _kind_of(ruleset: Ruleset, text: str) -> FeatureKind | None:
    """The feature kind a follower text starts with, if any (to tell ``road@E`` from a bad ``rX``)."""
    name = re.split(r"[@#\s]", text.strip().lstrip("+"), maxsplit=1)[0]
    return ruleset.kind(name) or ruleset.kind(name.lower())


def _parse_follower(game: Game, rotation: int, text: str) -> tuple[int | None, int]:
    """The segment a follower text names (None for none) and the follower type (``large:city@N``;
    0, normal, when not named), forgiving case and spaces."""
    text = re.sub(r"\s*([@#:])\s*", r"\1", text.strip()).lstrip("+").strip()  # "city @ N" is city@N
    if text.lower() in _NONE:
        return None, 0
    if len(text.split()) > 1:
        raise MoveInputError(f"one follower spot at most, and nothing after it: '{text}'")
    ruleset, tile = game.ruleset, game.tile
    type_name, colon, text = text.rpartition(":")
    kind_of_follower = 0
    if colon:
        names = [t.name for t in ruleset.follower_types]
        if type_name.lower() not in names:
            raise MoveInputError(f"unknown follower type '{type_name}' (types: {', '.join(names)})")
        kind_of_follower = names.index(type_name.lower())
    return _segment(ruleset, tile, rotation, text), kind_of_follower


def _segment(ruleset: Ruleset, tile: int, rotation: int, text: str) -> int:
    """The segment a follower text (no type) names, forgiving case."""
    kind_text, sep, port = text.partition("@")
    if not kind_text:
        raise MoveInputError(f"say which feature the follower goes on, e.g. city{text}")
    tries = [text, kind_text.lower() + sep + port.upper()]  # the notation as typed, then normalised
    error: ValueError | None = None
    for attempt in tries:
        try:
            return parse_follower(ruleset, tile, rotation, attempt)
        except ValueError as e:
            error = error or e
    # A bare kind the tile has only one of is unambiguous even when the notation wants a port.
    kind = ruleset.kind(kind_text.lower()) or ruleset.kind(kind_text)
    if kind is not None and not sep and "#" not in kind_text:
        only = [j for j, s in enumerate(ruleset.tiles[tile].segments) if s.kind == kind.index]
        if len(only) == 1:
            return only[0]
    raise MoveInputError(str(error))


def distinct(game: Game, moves: list[Move]) -> list[Move]:
    """``moves`` of the current tile without those whose result on the board one before them already
    gives: a symmetric tile turned another way with its follower on the same segment (the
    crossroads X shows four alike rotations, the straight road two; issue 50: 128 moves listed for X
    where 32 differ).  Order kept; each result is its first move."""
    seen: set[tuple] = set()
    kept = []
    for move in moves:
        key = (move.pos, _look(game, move.rotation), _spot_look(game, move))
        if key not in seen:
            seen.add(key)
            kept.append(move)
    return kept


def _look(game: Game, rotation: int) -> tuple:
    """What the current tile turned ``rotation`` shows on the board: per segment (sorted) its kind,
    attributes, board ports, the board ports of the segments it touches, and the sides it shares."""
    tile = game.ruleset.tiles[game.tile]
    ports = tile.orientations[rotation].segment_ports
    return tuple(sorted(_segment_look(tile, ports, rotation, j) for j in range(len(tile.segments))))


def _segment_look(tile: Any, ports: tuple[tuple[int, ...], ...], rotation: int, j: int) -> tuple:
    segment = tile.segments[j]
    return (segment.kind, segment.attrs, ports[j], tuple(sorted(ports[a] for a in segment.adjacent)),
            segment.open_sides, tuple(sorted((side + rotation) % 4 for side in segment.shares)))


def _spot_look(game: Game, move: Move) -> tuple | None:
    """Where ``move``'s follower stands, as the board shows it (None: no follower)."""
    if move.follower is None:
        return None
    tile = game.ruleset.tiles[game.tile]
    if move.follower >= len(tile.segments):  # a corner: the board corner it turns to
        return (move.type, "corner", (move.follower - len(tile.segments) + move.rotation) % 4)
    return (move.type, _segment_look(tile, tile.orientations[move.rotation].segment_ports, move.rotation,
                                     move.follower))
