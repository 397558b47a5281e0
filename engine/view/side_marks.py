"""Marks drawn along a tile's sides, over its segments: a wild side's band, and the wall
where two segments meet on one side (:attr:`~engine.rules.tiles.Orientation.shared`)."""

from __future__ import annotations

from typing import Sequence

from ..rules.tiles import SegmentType
from .markup import svg_num
from .tile_geometry import side_mid

_WILD_FILL, _WILD_STROKE = "#a39a8c", "#5b5349"


def wild_sides(side_codes: Sequence[int], wild: int, size: float) -> list[str]:
    """A dashed stone band along each wild side (edge letter ``*``: it fits anything and ends
    what it meets), so a wild side never reads as the field or ground beside it."""
    band = size * 0.09
    spots = ((0, 0, size, band), (size - band, 0, band, size), (0, size - band, size, band), (0, 0, band, size))
    return [f'<rect class="wild" data-side="{"NESW"[side]}" x="{svg_num(x)}" y="{svg_num(y)}" width="{svg_num(w)}" '
            f'height="{svg_num(h)}" fill="{_WILD_FILL}" stroke="{_WILD_STROKE}" stroke-width="{svg_num(size * 0.015)}" '
            f'stroke-dasharray="{svg_num(size * 0.06)},{svg_num(size * 0.03)}"/>'
            for side, (x, y, w, h) in enumerate(spots) if side_codes[side] == wild]


def shared_sides(shared: Sequence[Sequence[tuple[int, int, int]]], strokes: Sequence[str],
                 segments: Sequence[SegmentType], size: float) -> list[str]:
    """A short wall from the middle of each side that a second segment reaches (the ``shares``
    key; Hills & Sheep's CC!.v, two cities meeting on side N) towards the centre, in the kind's
    stroke colour (``strokes`` per kind index): the side joins both segments, the wall shows
    there are two."""
    out = []
    for side, entries in enumerate(shared):
        for j, _, _ in entries[:1]:
            (x0, y0) = side_mid(side)
            x1, y1 = 0.5 + (x0 - 0.5) * 0.45, 0.5 + (y0 - 0.5) * 0.45
            out.append(f'<path class="shared-side" data-side="{"NESW"[side]}" d="M{svg_num(x0 * size)},'
                       f'{svg_num(y0 * size)} L{svg_num(x1 * size)},{svg_num(y1 * size)}" fill="none" '
                       f'stroke="{strokes[segments[j].kind]}" stroke-width="{svg_num(size * 0.05)}"/>')
    return out
