"""Board geometry: sides, ports, rotation and packed positions.

Conventions (RULES.md §0, the JCloisterZone convention):

* Positions are ``(x, y)`` with x growing east and **y growing south**; the
  start tile is at ``(0, 0)``.
* Sides are ``N E S W`` = 0..3.  Each side has three ports: its left half,
  its centre and its right half, left/right as seen from the tile's centre
  looking out.  Going clockwise round the tile the twelve ports are
  ``NL N NR EL E ER SL S SR WL W WR``, so port ``p`` lies on side ``p // 3``
  and ``p % 3`` is 0 (left half), 1 (centre) or 2 (right half).
* Rotation is clockwise in quarter turns; one quarter turn adds 3 to a port
  (N→E, NL→EL).
* Across a shared side my ``XL`` meets the neighbour's ``opp(X)R``.

Inside the engine a position is one int, ``x * STRIDE + y``, so that
neighbours are one addition away and board look-ups hash a small int.
"""

from __future__ import annotations

SIDES: tuple[str, ...] = ("N", "E", "S", "W")
PORTS: tuple[str, ...] = ("NL", "N", "NR", "EL", "E", "ER", "SL", "S", "SR", "WL", "W", "WR")
PORT_INDEX: dict[str, int] = {name: i for i, name in enumerate(PORTS)}
#: The corners of a tile, clockwise from north-east: corner ``c`` lies between sides ``c`` and
#: ``c + 1``, where their half-sides ``3c + 2`` and ``3c + 3`` meet (NR and EL at NE).  A corner
#: turns as sides do: one quarter turn adds 1.
CORNERS: tuple[str, ...] = ("NE", "SE", "SW", "NW")
CORNER_PORTS: tuple[tuple[int, int], ...] = tuple((3 * c + 2, (3 * c + 3) % 12) for c in range(4))
#: Where each corner lies on a tile of side 1, x east and y south.
CORNER_POINTS: tuple[tuple[int, int], ...] = ((1, 0), (1, 1), (0, 1), (0, 0))
CENTRE = 1

STRIDE = 1 << 20
_HALF = STRIDE // 2
#: The board is unbounded in practice: |x|, |y| < 2**19 tiles.
LIMIT = _HALF - 1

#: Position offset of the neighbour across side N, E, S, W.
SIDE_STEP: tuple[int, ...] = (-1, STRIDE, 1, -STRIDE)
#: Offsets of the eight cells around a position (diagonals included).
RING8: tuple[int, ...] = tuple(dx * STRIDE + dy for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)
#: Maps of a multi-map game lie this many columns apart on one plane (far beyond any tile count).
MAP_SPAN = 1 << 16


def pack(x: int, y: int) -> int:
    """Return the packed int of position ``(x, y)``; ``ValueError`` if off the board."""
    if not (-LIMIT <= x <= LIMIT and -LIMIT <= y <= LIMIT):
        raise ValueError(f"position ({x}, {y}) is outside the board (|x|, |y| <= {LIMIT})")
    return x * STRIDE + y


def unpack(pos: int) -> tuple[int, int]:
    """Return ``(x, y)`` of a packed position."""
    x = (pos + _HALF) // STRIDE
    return x, pos - x * STRIDE


def map_origin(map_index: int) -> int:
    """Packed position of (0, 0) on map ``map_index``: the maps of a multi-map game lie
    ``MAP_SPAN`` columns apart on one plane."""
    return map_index * MAP_SPAN * STRIDE


def map_local(pos: int) -> tuple[int, int, int]:
    """``(map, x, y)`` of a packed position, x and y relative to that map's start tile."""
    x, y = unpack(pos)
    m = (x + MAP_SPAN // 2) // MAP_SPAN
    return m, x - m * MAP_SPAN, y


def rotate_port(port: int, rotation: int) -> int:
    """Port index after turning the tile ``rotation`` quarter turns clockwise."""
    return (port + 3 * rotation) % 12


def facing_port(port: int) -> int:
    """The neighbour's port that touches ``port`` across their shared side."""
    side, k = divmod(port, 3)
    return 3 * ((side + 2) % 4) + (2 - k)


#: ``FACING[p]`` is :func:`facing_port` of ``p``, for the hot paths.
FACING: tuple[int, ...] = tuple(facing_port(p) for p in range(12))
