"""SVG shapes of one tile: every segment of a tile type in one rotation, drawn only
from ruleset data, and where a follower stands on each segment.

Nothing here names a tile type or (except for picking nice colours) a feature
kind: a segment is drawn by the ``ports`` type of its kind, so a designer's
new tile or new kind renders with no drawing code of its own.

* ``half`` kinds (fields) are background polygons: each run of neighbouring
  half-sides joined to the tile centre.  Where two of them meet with nothing
  drawn between them (at a corner, mid-side with no road there, or round a
  city that leaves ground near the centre: Inns & Cathedrals' IC_CX, Traders &
  Builders' TB_CcRX_w) a seam runs from the border to the centre in the
  field's stroke colour, so the two read as two.
* ``side`` kinds (cities) are filled areas over their whole sides, closed by
  curved walls; sides that touch make one shape (a city over N and E covers
  the NE corner), separate runs of sides are joined across the tile (a city
  over E and W is a band through the middle).
* ``centre`` kinds (roads, rivers) are thick lines from each port to the tile
  centre (a curve when a segment joins two sides); a one-port segment ends at
  a junction mark in the centre.
* ``none`` kinds (cloisters, gardens) are a building icon in the centre, in
  the kind's colour (several on one tile stand side by side), or a bunch of grapes
  for a kind with ``icon: grapes`` (a vineyard), a mound for ``icon: hill``.
* A segment attribute above 0 is a mark inside the segment: ``pennants`` a small
  shield (the usual name, as :data:`PALETTE` keys the usual kinds); a token (an
  attribute a kind's ``rewards`` hands out: goods) a coloured disc with the start of its name;
  any other (an inn, a cathedral) a square badge with the start of its name that tells it
  from the ruleset's other marks (``Ca`` beside cloth's ``Cl``), coloured from its name.

Layers are painted fields, roads, cities, icons, so a road that ends at a
city gate disappears under the wall, as on the printed tiles.

Units: a tile is a ``size`` × ``size`` square (SVG user units, default 60)
with its north-west corner at the origin, x east and **y south**, like board
positions.  Numbers are written with at most two decimals (``_f``, also used
by :mod:`engine.view.render`) so the output is byte-for-byte stable (the atlas
snapshot test relies on it).

Functions: :func:`tile_group` (one tile as a ``<g>``), :func:`segment_anchor`
(where a follower on a segment stands), :func:`kind_colours` (a kind's fill
and stroke).
"""

from __future__ import annotations

import hashlib
import math
from typing import Sequence

from ..geometry import CORNER_POINTS
from ..rules.ruleset import Ruleset
from ..rules.tiles import CENTRE_KIND, HALF, NONE, SIDE
from .markup import pts, svg_num, xml_text
from .side_marks import shared_sides, wild_sides
from .symbols import (
    PENNANT,
    PENNANT_ATTRIBUTE,
    TOKEN_COLOURS,
    badge,
    grapes,
    hill,
    icon,
    labels,
    mark_spots,
    shield,
    token,
)
from .tile_geometry import Point, bend, border, half_runs, perimeter, side_mid, side_runs

#: Colours for the usual kind names: (fill, stroke).  Any other kind gets a
#: colour derived from its name (:func:`kind_colours`), so it is stable across runs.
PALETTE: dict[str, tuple[str, str]] = {
    "field": ("#9ccb6b", "#6f9a45"),
    "city": ("#d8b47a", "#7a4f24"),
    "road": ("#f5f2ea", "#6e6e6e"),
    "river": ("#8cc8f0", "#3a7fb5"),  # pale: the second seat's follower blue (#0072b2) stands out on it
    "cloister": ("#a0522d", "#5c2c14"),
    "vineyard": ("#7b3f9e", "#3f1c52"),  # grapes
    "hill": ("#b7a26a", "#6b5a2c"),
}
#: Painting order by ``ports`` type: later layers cover earlier ones.
_LAYERS = (HALF, CENTRE_KIND, SIDE, NONE)
_NEUTRAL_GROUND = "#e8e2cf"


#: A wild side's band: the grey of dressed stone, so it reads as a wall round the tile.


def kind_colours(name: str) -> tuple[str, str]:
    """``(fill, stroke)`` hex colours of a feature kind: the palette's, or a hue hashed
    from the name (md5, so the same name gets the same colour on every run)."""
    if name in PALETTE:
        return PALETTE[name]
    hue = int(hashlib.md5(name.encode()).hexdigest()[:8], 16) % 360
    return _hsl(hue, 0.55, 0.55), _hsl(hue, 0.55, 0.3)


def _hsl(hue: float, sat: float, light: float) -> str:
    c = (1 - abs(2 * light - 1)) * sat
    x = c * (1 - abs((hue / 60) % 2 - 1))
    m = light - c / 2
    r, g, b = [(c, x, 0), (x, c, 0), (0, c, x), (0, x, c), (x, 0, c), (c, 0, x)][int(hue // 60) % 6]
    return "#" + "".join(f"{round((v + m) * 255):02x}" for v in (r, g, b))


def _field_splits(shapes: Sequence[_Shape]) -> list[float]:
    """Border points ``u`` (as :func:`perimeter` counts them) from which a seam runs to the
    centre between two different ``half`` segments that nothing else drawn keeps apart.

    Round the centre, each of the 8 half-side wedges is a field's or no field's (a city's
    side).  Two fields side by side meet at the border point between them: a seam, unless a
    line (a road) leaves that side there.  Two fields with only one-side cities' wedges
    between them meet through the ground such a cap leaves near the centre: a seam from
    the middle of those wedges' border (the cap hides the part it covers)."""
    owner: list[int | None] = [None] * 8
    for j, shape in enumerate(shapes):
        if shape.kind_ports == HALF:
            for u0, u1 in half_runs(shape.ports):
                for h in range(int(u0 * 2), int(u1 * 2)):
                    owner[h % 8] = j
    if len({o for o in owner if o is not None}) < 2:
        return []
    covered = {p // 3 for shape in shapes if shape.kind_ports == CENTRE_KIND for p in shape.ports}
    # A city over two sides or more reaches the centre (its wall runs through it or past it):
    # no ground is left between the fields round it.  A city over one side is a cap.
    reaching = {p // 3 for shape in shapes if shape.kind_ports == SIDE and len({p // 3 for p in shape.ports}) > 1
                for p in shape.ports}
    seams = []
    for h in range(8):
        a, b = owner[h], owner[(h + 1) % 8]
        u = ((h + 1) / 2) % 4
        if a is not None and b is not None and a != b and not (u % 1 == 0.5 and int(u) in covered):
            seams.append(u)
        if a is not None and b is None:  # a run of no field's wedges starts after h
            end = next(k for k in range(h + 1, h + 9) if owner[k % 8] is not None)
            if owner[end % 8] != a and not {(k % 8) // 2 for k in range(h + 1, end)} & reaching:
                seams.append(((h + 1 + end) / 4) % 4)
    return sorted(seams)


class _Shape:
    """One segment at one rotation, in unit-square coordinates: its ``ports`` type,
    board ports, and its place in the tile's layout (:func:`_shapes` works it out):
    ``icon_at`` where a ``none`` kind's icon sits, ``end`` where a one-port line
    stops and ``end_mark`` what it ends in, ``avoid`` the icons a field's follower
    must stand clear of.  Gives the follower anchor and the pennant position;
    :func:`_segment_body` draws it."""

    def __init__(self, kind_ports: str, ports: Sequence[int], *, icon_at: Point = (0.5, 0.5),
                 end: Point = (0.5, 0.5), end_mark: str = "junction", avoid: tuple[Point, ...] = (),
                 icon: str = "building") -> None:
        self.kind_ports = kind_ports
        self.ports = tuple(ports)
        self.icon_at, self.end, self.end_mark, self.avoid, self.icon = icon_at, end, end_mark, avoid, icon

    def anchor(self) -> Point:
        """Where a follower on this segment stands (unit coordinates)."""
        ports = self.ports
        if self.kind_ports == HALF and not ports:
            return 0.5, 0.5  # a field enclosed by cities, touching no side: the tile's ground at its centre
        if self.kind_ports == HALF:
            # Along the longest border run, pulled towards the centre: inside the field and
            # clear of a centre icon even when the field is the whole tile; the run's middle
            # unless an icon stands there (a cloister on a river bank), then a quarter along.
            u0, u1 = max(half_runs(ports), key=lambda r: r[1] - r[0])
            candidates = []
            for share in (0.5, 0.25, 0.75):
                bx, by = perimeter(u0 + (u1 - u0) * share)
                candidates.append((0.5 + (bx - 0.5) * 0.65, 0.5 + (by - 0.5) * 0.65))
            clear = [c for c in candidates if all(math.dist(c, icon) > 0.25 for icon in self.avoid)]
            return (clear or candidates)[0]
        if self.kind_ports == SIDE:
            sides = sorted({p // 3 for p in ports})
            mids = [side_mid(s) for s in sides]
            ax, ay = sum(m[0] for m in mids) / len(mids), sum(m[1] for m in mids) / len(mids)
            return 0.5 + (ax - 0.5) * 0.7, 0.5 + (ay - 0.5) * 0.7
        if self.kind_ports == CENTRE_KIND:
            ends = [side_mid(p // 3) for p in ports]
            if len(ends) == 1:  # a dead end: halfway out, clear of whatever sits where it ends
                return ends[0][0] + (self.end[0] - ends[0][0]) * 0.45, ends[0][1] + (self.end[1] - ends[0][1]) * 0.45
            if len(ends) == 2:  # the middle of the curve (the centre on a straight road)
                return (ends[0][0] + ends[1][0] + 1) / 4, (ends[0][1] + ends[1][1] + 1) / 4
            return 0.5, 0.5
        return self.icon_at

    def shield_at(self) -> Point:
        """Where a pennant shield goes: beside the anchor (a quarter turn clockwise from
        the centre→anchor direction) so a follower on the anchor does not hide it."""
        ax, ay = self.anchor()
        dx, dy = ax - 0.5, ay - 0.5
        length = math.hypot(dx, dy)
        if length < 0.05:  # anchor at the centre: step towards the segment's first side
            sx, sy = side_mid(self.ports[0] // 3) if self.ports else (0.5, 0.0)
            return 0.5 + (sx - 0.5) * 0.44, 0.5 + (sy - 0.5) * 0.44
        return ax - dy / length * 0.2, ay + dx / length * 0.2


def _segment_body(shape: _Shape, fill: str, stroke: str, size: float) -> list[str]:
    """The SVG elements drawing one segment in a ``size`` square."""
    s = size
    scale = lambda pts: [(x * s, y * s) for x, y in pts]  # noqa: E731
    kind_ports, ports = shape.kind_ports, shape.ports
    out: list[str] = []
    if kind_ports == HALF:
        for u0, u1 in half_runs(ports):
            points = border(u0, u1) if u1 - u0 >= 4 else [(0.5, 0.5), *border(u0, u1)]
            out.append(f'<polygon points="{pts(scale(points))}" fill="{fill}"/>')
    elif kind_ports == SIDE:
        runs = side_runs(ports)
        if runs == [(0, 4)]:
            out.append(f'<rect x="0" y="0" width="{svg_num(s)}" height="{svg_num(s)}" fill="{fill}"/>')
        else:
            # Walk the border clockwise along each run of sides, and between runs
            # (and from the last back to the first) follow a wall curving inwards.
            spans = [(float(first), float(first + length)) for first, length in runs]
            area, walls = [], []
            for i, (u0, u1) in enumerate(spans):
                a = perimeter(u1)
                b = perimeter(spans[(i + 1) % len(spans)][0])
                c = bend(a, b)
                edge = scale(border(u0, u1))
                if i == 0:
                    area.append(f"M{pts(edge[:1])}")
                area.append(f"L{pts(edge[1:])}")
                (cx, cy), (bx, by), (ax_, ay_) = scale([c, b, a])
                area.append(f"Q{svg_num(cx)},{svg_num(cy)} {svg_num(bx)},{svg_num(by)}")
                walls.append(f"M{svg_num(ax_)},{svg_num(ay_)} Q{svg_num(cx)},{svg_num(cy)} {svg_num(bx)},{svg_num(by)}")
            out.append(f'<path d="{" ".join(area)} Z" fill="{fill}"/>')
            out.append(f'<path class="wall" d="{" ".join(walls)}" fill="none" stroke="{stroke}" '
                       f'stroke-width="{svg_num(s * 0.05)}" stroke-linecap="round"/>')
    elif kind_ports == CENTRE_KIND:
        ends = [side_mid(p // 3) for p in ports]
        if len(ends) == 2:  # one line through the tile: a curve via the centre
            (ax, ay), (bx, by) = scale(ends)
            d = f"M{svg_num(ax)},{svg_num(ay)} Q{svg_num(s / 2)},{svg_num(s / 2)} {svg_num(bx)},{svg_num(by)}"
        else:
            ex, ey = shape.end
            d = " ".join(f"M{svg_num(x * s)},{svg_num(y * s)} L{svg_num(ex * s)},{svg_num(ey * s)}" for x, y in ends)
        # A dark casing under a lighter line: reads as a road on both field and city.
        out.append(f'<path d="{d}" fill="none" stroke="{stroke}" stroke-width="{svg_num(s * 0.15)}"/>')
        out.append(f'<path d="{d}" fill="none" stroke="{fill}" stroke-width="{svg_num(s * 0.1)}"/>')
        if len(ends) == 1 and shape.end_mark == "junction":
            out.append(f'<circle class="junction" cx="{svg_num(shape.end[0] * s)}" cy="{svg_num(shape.end[1] * s)}" '
                       f'r="{svg_num(s * 0.09)}" fill="{stroke}"/>')
        elif len(ends) == 1 and shape.end_mark == "pool":
            out.append(f'<circle class="pool" cx="{svg_num(s / 2)}" cy="{svg_num(s / 2)}" r="{svg_num(s * 0.2)}" '
                       f'fill="{fill}" stroke="{stroke}" stroke-width="{svg_num(s * 0.025)}"/>')
    else:
        out.append({"grapes": grapes, "hill": hill}.get(shape.icon, icon)(shape.icon_at, fill, stroke, s))
    return out


def _shapes(ruleset: Ruleset, tile: int, rotation: int) -> list[_Shape]:
    """The :class:`_Shape` of every segment of tile type ``tile`` turned ``rotation``.

    The layout is read from the ports alone: when a line runs straight through the
    centre (a river W–E), a one-port line from a side across it is a bridge (RB, RH),
    drawn to the far bank, and on into the far side when a city holds that side; an
    icon on such a tile stands on that far bank, where the bridge leads.  A lone
    one-port line on a tile with no city or icon to cover its end (the spring, the
    lake) ends in a pool.  Otherwise icons share the centre and one-port lines meet at
    a junction.
    """
    tile_type = ruleset.tiles[tile]
    ports_by_seg = tile_type.orientations[rotation % 4].segment_ports
    kinds = [ruleset.kinds[seg.kind].ports for seg in tile_type.segments]
    nones = [j for j, k in enumerate(kinds) if k == NONE]
    lines = [j for j, k in enumerate(kinds) if k == CENTRE_KIND]
    through = {frozenset(p // 3 for p in ports_by_seg[j]) for j in lines if len(ports_by_seg[j]) == 2
               and abs(ports_by_seg[j][0] // 3 - ports_by_seg[j][1] // 3) == 2}
    city_sides = {p // 3 for j, k in enumerate(kinds) if k == SIDE for p in ports_by_seg[j]}
    ends: dict[int, tuple[Point, str]] = {}
    icon_spots: list[Point] = []
    for j in lines:
        if len(ports_by_seg[j]) != 1:
            continue
        side = ports_by_seg[j][0] // 3
        far = (side + 2) % 4
        if any(side not in sides for sides in through):
            mid = side_mid(far)
            bank = (0.5 + (mid[0] - 0.5) * 0.55, 0.5 + (mid[1] - 0.5) * 0.55)
            if far in city_sides:
                ends[j] = (mid, "none")
            else:
                ends[j] = (bank, "none" if nones else "junction")
                icon_spots.append(bank)
        elif len(lines) == 1 and not nones and not city_sides:  # nothing covers where it ends
            ends[j] = ((0.5, 0.5), "pool")
    icons: dict[int, Point] = {}
    for i, j in enumerate(nones):
        if i < len(icon_spots):
            icons[j] = icon_spots[i]
        elif len(nones) > 1:
            icons[j] = (0.5 + (i - (len(nones) - 1) / 2) * 0.28, 0.5)
        else:
            icons[j] = (0.5, 0.5)
    off_centre = tuple(at for at in icons.values() if at != (0.5, 0.5))
    shapes = []
    for j, k in enumerate(kinds):
        end, mark = ends.get(j, ((0.5, 0.5), "junction"))
        shapes.append(_Shape(k, ports_by_seg[j], icon_at=icons.get(j, (0.5, 0.5)), end=end, end_mark=mark,
                             avoid=off_centre, icon=ruleset.kinds[tile_type.segments[j].kind].icon))
    return shapes


def _split_lines(kinds: Sequence, shapes: Sequence[_Shape], size: float) -> list[str]:
    """The ``<path class="field-split">`` from each of :func:`_field_splits`' border points to
    the centre, in the first ``half`` kind's stroke colour (none when no fields meet)."""
    splits = _field_splits(shapes)
    if not splits:
        return []
    stroke = _darker(kind_colours(next(k.name for k in kinds if k.ports == HALF))[1], 0.45)
    d = " ".join(f"M{svg_num(x * size)},{svg_num(y * size)} L{svg_num(size / 2)},{svg_num(size / 2)}"
                 for x, y in map(perimeter, splits))
    return [f'<path class="field-split" d="{d}" fill="none" stroke="{stroke}" '
            f'stroke-width="{svg_num(size * 0.045)}" stroke-linecap="butt"/>']


def _darker(colour: str, by: float) -> str:
    """``#rrggbb`` ``colour`` moved ``by`` (0–1) of the way to black: a field's seam darker than its
    edge, so it shows at the atlas's and the table's default sizes (issue 50)."""
    channels = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c * (1 - by)):02x}" for c in channels)


def segment_anchor(ruleset: Ruleset, tile: int, rotation: int, segment: int, size: float = 60) -> Point:
    """Where a follower on segment ``segment`` (index into the tile type's segments) of
    tile ``tile`` turned ``rotation`` stands, in a ``size`` square at the origin."""
    x, y = _shapes(ruleset, tile, rotation)[segment].anchor()
    return x * size, y * size


def spot_anchor(ruleset: Ruleset, tile: int, rotation: int, spot: int, size: float = 60, inset: float = 0) -> Point:
    """Where a piece on spot ``spot`` of tile ``tile`` turned ``rotation`` stands, in a ``size``
    square at the origin: a segment's anchor (:func:`segment_anchor`), or for a corner spot (past
    the segments: the barn) the corner itself, moved ``inset`` of the side towards the centre."""
    n = len(ruleset.tiles[tile].segments)
    if spot < n:
        return segment_anchor(ruleset, tile, rotation, spot, size)
    cx, cy = CORNER_POINTS[(spot - n + rotation) % 4]
    return (cx + inset * (1 - 2 * cx)) * size, (cy + inset * (1 - 2 * cy)) * size


def tile_group(ruleset: Ruleset, tile: int, rotation: int = 0, size: float = 60) -> str:
    """An SVG ``<g class="tile">`` drawing tile type index ``tile`` turned ``rotation``
    quarter turns clockwise (board orientation, as in the game) in a ``size`` × ``size``
    square with its NW corner at the origin.

    It holds a ground rectangle (the colour of the tile's first ``half`` kind, else a
    neutral one: what shows between shapes), one ``<g class="segment"
    data-kind="KIND" data-segment="j">`` per segment j of the tile type (painted by
    layer, so not in index order), and a thin border.  Place it with a
    ``transform="translate(x,y)"`` on an enclosing group.
    """
    tile_type = ruleset.tiles[tile]
    shapes = _shapes(ruleset, tile, rotation)
    kinds = [ruleset.kinds[seg.kind] for seg in tile_type.segments]
    ground = next((kind_colours(k.name)[0] for k in kinds if k.ports == HALF), _NEUTRAL_GROUND)
    parts = [f'<g class="tile" data-tile="{xml_text(tile_type.id)}" data-rotation="{rotation % 4}">',
             f'<rect class="ground" x="0" y="0" width="{svg_num(size)}" height="{svg_num(size)}" fill="{ground}"/>']
    shown = labels(name for k in ruleset.kinds for name in k.attributes)  # once a tile, not a segment
    for layer in _LAYERS:
        if layer == CENTRE_KIND:  # after the fields, under the roads and cities
            parts.extend(_split_lines(kinds, shapes, size))
        for j, (kind, seg, shape) in enumerate(zip(kinds, tile_type.segments, shapes)):
            if kind.ports != layer:
                continue
            fill, stroke = kind_colours(kind.name)
            body = _segment_body(shape, fill, stroke, size)
            marks = [(i, kind.attributes[i], value) for i, value in enumerate(seg.attrs) if value > 0]
            for at, (i, name, count) in zip(mark_spots(shape.shield_at(), len(marks)), marks):
                if i in kind.tokens:
                    body.append(token(at, size, ruleset.tokens.index(name), shown[name], name, count))
                elif name == PENNANT_ATTRIBUTE:
                    body.append(shield(at, size))
                else:
                    body.append(badge(at, size, shown[name], name, count, kind_colours(name)[1]))
            parts.append(f'<g class="segment" data-kind="{xml_text(kind.name)}" data-segment="{j}">'
                         + "".join(body) + "</g>")
    orientation = tile_type.orientations[rotation % 4]
    parts.extend(wild_sides(orientation.side_codes, ruleset.edge_wild, size))
    parts.extend(shared_sides(orientation.shared, [kind_colours(k.name)[1] for k in ruleset.kinds],
                              tile_type.segments, size))
    parts.append(f'<rect class="edge" x="0" y="0" width="{svg_num(size)}" height="{svg_num(size)}" fill="none" '
                 f'stroke="#4a4a4a" stroke-width="{svg_num(size * 0.012)}"/>')
    parts.append("</g>")
    return "".join(parts)


__all__ = ["PALETTE", "PENNANT", "TOKEN_COLOURS", "kind_colours", "segment_anchor", "svg_num", "tile_group"]
