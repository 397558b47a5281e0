"""Where things lie on one tile, in units of the tile's side (x east, y south, the
north-west corner at the origin): points round the border, and the runs of sides and
half-sides a segment's ports cover.  The drawing (:mod:`engine.view.tile_svg`) and its
layout read them; nothing here draws.

The border is counted clockwise from the NW corner in sides: ``u`` in [0, 1) is side N,
[1, 2) E, [2, 3) S, [3, 4) W.
"""

from __future__ import annotations

import math
from typing import Sequence

Point = tuple[float, float]


def perimeter(u: float) -> Point:
    """Point on the unit tile's border at ``u`` sides clockwise from the NW corner
    (0 ≤ u < 4; side N is u in [0, 1), E [1, 2), S [2, 3), W [3, 4))."""
    u %= 4
    side, t = int(u), u - int(u)
    return ((t, 0.0), (1.0, t), (1 - t, 1.0), (0.0, 1 - t))[side]


def border(u0: float, u1: float) -> list[Point]:
    """Border points from ``u0`` to ``u1`` clockwise (``u1 > u0``), corners included."""
    points = [perimeter(u0)]
    corner = math.floor(u0) + 1
    while corner < u1:
        points.append(perimeter(corner))
        corner += 1
    points.append(perimeter(u1))
    return points


def runs(items: set[int], cycle: int) -> list[tuple[int, int]]:
    """Maximal runs of consecutive members of ``items`` round a cycle of ``cycle``
    slots, as ``(first, length)``; the whole cycle is one run ``(0, cycle)``."""
    if len(items) == cycle:
        return [(0, cycle)]
    found = []
    for i in sorted(items):
        if (i - 1) % cycle in items:
            continue  # not the start of a run
        length = 1
        while (i + length) % cycle in items:
            length += 1
        found.append((i, length))
    return found


def half_runs(ports: Sequence[int]) -> list[tuple[float, float]]:
    """Border spans ``(u0, u1)`` of a half-kind segment: runs of neighbouring half-sides.

    Half-sides in clockwise order are NL NR EL ER … (port 3d is side d's left
    half, 3d+2 its right half); half-side h covers u in [h/2, h/2 + 1/2)."""
    halves = {2 * (p // 3) + (1 if p % 3 == 2 else 0) for p in ports if p % 3 != 1}
    return [(start / 2, (start + length) / 2) for start, length in runs(halves, 8)]


def side_runs(ports: Sequence[int]) -> list[tuple[int, int]]:
    """Runs of whole sides ``(first side, number of sides)`` of a side-kind segment."""
    return runs({p // 3 for p in ports}, 4)


def bend(a: Point, b: Point) -> Point:
    """Control point of the wall from ``a`` to ``b``: past the chord's midpoint towards
    the centre (so a one-side cap bulges 0.3 tiles deep, and a wall between two
    corners across the tile is straight)."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    return mx + (0.5 - mx) * 1.2, my + (0.5 - my) * 1.2


def side_mid(side: int) -> Point:
    """The middle of side ``side`` (0 N, 1 E, 2 S, 3 W)."""
    return perimeter(side + 0.5)
