"""Follower notation: ``KIND@PORT`` in board orientation, or a bare ``KIND``.

``city@N`` names the city segment touching side N of the placed tile (after
rotation); ``field@NL`` the field on the west half of the north side;
``cloister`` a port-less segment, and ``cloister#2`` the second port-less
segment of that kind on a tile that has several; ``field@NE`` the north-east
corner of the tile, where a ``spot: corner`` piece stands (the barn).  A side that two segments of
the kind touch is ambiguous and must be given as a half-side.  A follower of
another type than normal is named before it: ``large:city@N``
(docs/rulesets.md, "Follower types").
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..geometry import CORNERS, PORT_INDEX, PORTS, SIDES
from ..rules.ruleset import Ruleset

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.moves import Move


def format_follower(ruleset: Ruleset, tile: int, rotation: int, segment: int, kind_of_follower: int = 0) -> str:
    """The notation of spot ``segment`` (a segment index; past them, a corner) of tile type ``tile`` turned
    ``rotation``, prefixed ``TYPE:`` for a follower of type ``kind_of_follower`` other than normal (0)."""
    if kind_of_follower:
        return f"{ruleset.follower_types[kind_of_follower].name}:" + format_follower(ruleset, tile, rotation, segment)
    tile_type = ruleset.tiles[tile]
    kind = ruleset.kinds[tile_type.segments[tile_type.spot_segment(segment)].kind]
    if segment >= len(tile_type.segments):  # a corner spot: named by the board corner
        return f"{kind.name}@{CORNERS[(segment - len(tile_type.segments) + rotation) % 4]}"
    ports = tile_type.orientations[rotation].segment_ports[segment]
    if not ports:
        portless = _portless(ruleset, tile, kind.index)
        return kind.name if len(portless) == 1 else f"{kind.name}#{portless.index(segment) + 1}"
    if kind.ports == "half":
        return f"{kind.name}@{PORTS[ports[0]]}"
    return f"{kind.name}@{SIDES[next(p for p in ports if p % 3 == 1) // 3]}"


def facing_follower(ruleset: Ruleset, tile: int, rotation: int, segment: int, kind_of_follower: int = 0) -> str:
    """:func:`format_follower`'s notation, but a segment of half-side ports (a field) is named by its
    port nearest where it lies, as :func:`place_name` says it (``field@SR (south-west)``, not its
    first port, ``field@NL (south-west)``): what a player reads on screen.  It names the same segment
    (any port of a segment does: :func:`parse_follower`); records keep :func:`format_follower`'s."""
    text = format_follower(ruleset, tile, rotation, segment, kind_of_follower)
    tile_type = ruleset.tiles[tile]
    if segment >= len(tile_type.segments) or ruleset.kinds[tile_type.segments[segment].kind].ports != "half":
        return text
    ports = tile_type.orientations[rotation].segment_ports[segment]
    if not ports:
        return text
    x, y = _centroid(ports)
    nearest = min(ports, key=lambda p: ((_PORT_POINTS[p][0] - x) ** 2 + (_PORT_POINTS[p][1] - y) ** 2, p))
    return f"{text.rpartition('@')[0]}@{PORTS[nearest]}"


def follower_name(ruleset: Ruleset, type_index: int, role: str) -> str:
    """What the log and the viewer call a follower of type ``type_index`` on a feature whose followers are
    ``role`` (thief, knight, …): the role for a normal follower; a meeple of another type that counts in
    a majority, with its role (``large knight``); a type drawn as a figure of its own (a wagon, a barn:
    its ``figure`` is not ``meeple``), one that does not count (a builder, a pig), or one whose strength
    depends on the feature (a mayor), by its own name, since that says what it is (issue 50: "wagon
    knight", "barn farmer")."""
    if not type_index:
        return role
    follower_type = ruleset.follower_types[type_index]
    plain = (follower_type.strength == 0 or follower_type.strength_of is not None
             or follower_type.figure != "meeple")
    return follower_type.name if plain else f"{follower_type.name} {role}"


def follower_phrase(ruleset: Ruleset, tile: int, rotation: int, segment: int, type_index: int = 0) -> str:
    """A deployment in words: ``thief on road@E``, ``large knight on city@N``, ``builder on
    road@E`` (:func:`follower_name` on the spot's notation, without the type prefix)."""
    tile_type = ruleset.tiles[tile]
    kind = ruleset.kinds[tile_type.segments[tile_type.spot_segment(segment)].kind]
    return f"{follower_name(ruleset, type_index, kind.follower)} on {format_follower(ruleset, tile, rotation, segment)}"


#: Where each port's middle lies on a tile of side 1, x east and y south (a half-side is
#: left or right as seen from the centre looking out: NL is the west half of N).
_PORT_POINTS = ((0.25, 0), (0.5, 0), (0.75, 0), (1, 0.25), (1, 0.5), (1, 0.75),
                (0.75, 1), (0.5, 1), (0.25, 1), (0, 0.75), (0, 0.5), (0, 0.25))
_DIRECTIONS = ("east", "south-east", "south", "south-west", "west", "north-west", "north", "north-east")
_CORNER_WORDS = ("north-east", "south-east", "south-west", "north-west")
_SIDE_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}


def place_name(ruleset: Ruleset, tile: int, rotation: int, segment: int) -> str:
    """Where segment ``segment`` of tile type ``tile`` turned ``rotation`` lies, in words a
    player reads at a glance: ``city (north, east)``, ``road (south to north)``, ``road
    (dead end, south)``, ``field (north-west)`` (the compass point of the half-sides it
    touches), ``field (all round)``, ``cloister`` (a port-less segment, numbered as in
    :func:`format_follower` when the tile has several), ``field (north-east corner)`` (a corner spot).
    Board orientation, after turning.
    """
    tile_type = ruleset.tiles[tile]
    kind = ruleset.kinds[tile_type.segments[tile_type.spot_segment(segment)].kind]
    if segment >= len(tile_type.segments):
        return f"{kind.name} ({_CORNER_WORDS[(segment - len(tile_type.segments) + rotation) % 4]} corner)"
    ports = tile_type.orientations[rotation].segment_ports[segment]
    if not ports:
        return format_follower(ruleset, tile, rotation, segment)
    sides = [SIDES[side] for side in sorted({p // 3 for p in ports})]
    if kind.ports == "side":
        return f"{kind.name} ({', '.join(_SIDE_WORDS[s] for s in sides)})"
    if kind.ports == "centre":
        if len(sides) == 1:
            return f"{kind.name} (dead end, {_SIDE_WORDS[sides[0]]})"
        return f"{kind.name} ({' to '.join(_SIDE_WORDS[s] for s in sides)})"
    x, y = _centroid(ports)
    x, y = x - 0.5, y - 0.5
    if math.hypot(x, y) < 0.1:
        return f"{kind.name} (all round)"
    return f"{kind.name} ({_DIRECTIONS[round(math.atan2(y, x) / (math.pi / 4)) % 8]})"


def parse_deployment(ruleset: Ruleset, tile: int, rotation: int, text: str) -> tuple[int, int]:
    """``(segment index, follower type index)`` that ``text`` names (``city@N``, or
    ``large:city@N`` for a follower of type large); ``ValueError`` with a reason when it
    names no follower type of the ruleset or no segment of the tile (:func:`parse_follower`)."""
    type_name, sep, rest = text.rpartition(":")
    if not sep:
        return parse_follower(ruleset, tile, rotation, text), 0
    names = [t.name for t in ruleset.follower_types]
    if type_name not in names:
        raise ValueError(f"unknown follower type '{type_name}' (types: {', '.join(names)})")
    index = names.index(type_name)
    if ruleset.follower_types[index].spot == "corner" and rest.partition("@")[2] not in CORNERS:
        raise ValueError(f"a {type_name} stands on a corner of the tile: name it {rest.partition('@')[0]}@NE, SE, "
                         "SW or NW")
    return parse_follower(ruleset, tile, rotation, rest), index


def parse_follower(ruleset: Ruleset, tile: int, rotation: int, text: str) -> int:
    """The segment index that ``text`` names on tile type ``tile`` turned ``rotation``.

    Raises ``ValueError`` with a reason when the text names no segment of the
    tile, or a side that two segments of the kind touch.
    """
    tile_type = ruleset.tiles[tile]
    kind_text, sep, port = text.partition("@")
    kind_name = kind_text.partition("#")[0]
    kind = ruleset.kind(kind_name)
    if kind is None:
        known = ", ".join(k.name for k in ruleset.kinds)
        raise ValueError(f"unknown feature kind '{kind_name}' (known: {known})")
    orientation = tile_type.orientations[rotation]
    candidates = [j for j, seg in enumerate(tile_type.segments) if seg.kind == kind.index]
    if not candidates:
        raise ValueError(f"tile {tile_type.id} has no {kind.name}")
    if not port:
        if sep:
            raise ValueError(f"'{text}' names no port after '@' (a side N E S W or a half-side NL … WR)")
        portless = _portless(ruleset, tile, kind.index)
        number = 1
        if "#" in kind_text:
            try:
                number = int(kind_text.partition("#")[2])
            except ValueError:
                number = 0
        if not portless:  # a field enclosed by cities has no port, and is named bare like a cloister
            raise ValueError(f"a {kind.name} is named by a port, e.g. {kind.name}@N")
        if not 1 <= number <= len(portless) or (len(portless) > 1 and "#" not in kind_text):
            raise ValueError(f"tile {tile_type.id} has {len(portless)} {kind.name} segments: "
                             f"name one as {kind.name}#1 … {kind.name}#{len(portless)}")
        return portless[number - 1]
    if port in CORNERS:
        corner = (CORNERS.index(port) - rotation) % 4
        if tile_type.corners[corner] not in candidates:
            raise ValueError(f"the {port} corner of tile {tile_type.id} (rotation {rotation}) is not {kind.name} "
                             "all round")
        return len(tile_type.segments) + corner
    if port in SIDES:
        side = SIDES.index(port)
        wanted = {3 * side, 3 * side + 1, 3 * side + 2}
    elif port in PORT_INDEX:
        wanted = {PORT_INDEX[port]}
    else:
        raise ValueError(f"'{port}' is not a side (N E S W), half-side (NL NR EL ER SL SR WL WR) or corner "
                         "(NE SE SW NW)")
    found = [j for j in candidates if wanted & set(orientation.segment_ports[j])]
    if not found:
        raise ValueError(f"no {kind.name} of tile {tile_type.id} (rotation {rotation}) touches {port}")
    if len(found) > 1:
        raise ValueError(f"{len(found)} {kind.name} segments touch {port}: name a half-side instead")
    return found[0]


def _centroid(ports: tuple[int, ...]) -> tuple[float, float]:
    """Where a segment of board ports ``ports`` (not none) lies on its tile: the mean of the ports'
    points, in tile units (x east, y south, 0–1)."""
    return (sum(_PORT_POINTS[p][0] for p in ports) / len(ports), sum(_PORT_POINTS[p][1] for p in ports) / len(ports))


def _portless(ruleset: Ruleset, tile: int, kind: int) -> list[int]:
    """Indices of the tile type's port-less segments of ``kind``."""
    return [j for j, seg in enumerate(ruleset.tiles[tile].segments) if seg.kind == kind and not seg.ports]


def moved_on_phrase(game: "Game", kind: int, move: "Move") -> str:
    """A follower moving on in words (:mod:`engine.core.moving`): ``wagon goes home`` or ``wagon
    moves on to the road (south to east) at (2,1)`` (``map 1 (2,1)`` with several maps)."""
    from ..core.moves import HOME

    ruleset = game.ruleset
    name = ruleset.follower_types[kind].name
    if move == HOME:
        return f"{name} goes home"
    assert move.follower is not None, "a destination names its segment"
    orientation, _, tile = game.board[move.pos]
    m, x, y = game.local(move.pos)
    where = f"map {m} " if ruleset.maps > 1 else ""
    return (f"{name} moves on to the {place_name(ruleset, tile, orientation.rotation, move.follower)} "
            f"at {where}({x},{y})")
