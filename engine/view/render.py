"""SVG pictures of tiles, tile sets and boards, drawn only from ruleset data.

Nothing here names a tile type or (except for picking nice colours) a feature
kind: a segment is drawn by the ``ports`` type of its kind, so a designer's
new tile or new kind renders with no drawing code of its own.

* ``half`` kinds (fields) are background polygons: each run of neighbouring
  half-sides joined to the tile centre.
* ``side`` kinds (cities) are filled areas over their whole sides, closed by
  curved walls; sides that touch make one shape (a city over N and E covers
  the NE corner), separate runs of sides are joined across the tile (a city
  over E and W is a band through the middle).
* ``centre`` kinds (roads, rivers) are thick lines from each port to the tile
  centre (a curve when a segment joins two sides); a one-port segment ends at
  a junction mark in the centre.
* ``none`` kinds (cloisters, gardens) are a building icon in the centre, in
  the kind's colour (several on one tile stand side by side).
* A segment attribute above 0 (pennants) is a small shield inside the segment.

Layers are painted fields, roads, cities, icons, so a road that ends at a
city gate disappears under the wall, as on the printed tiles.

Units: a tile is a ``size`` × ``size`` square (SVG user units, default 60)
with its north-west corner at the origin, x east and **y south**, like board
positions.  Numbers are written with at most two decimals so the output is
byte-for-byte stable (the atlas snapshot test relies on it).

Functions: :func:`tile_group` (one tile as a ``<g>``), :func:`atlas_svg`
(every tile type), :func:`board_svg` (a game's board, followers and scores),
:func:`board_after` (replay a record up to a turn), :func:`to_png`.
"""

from __future__ import annotations

import hashlib
import math
from html import escape
from pathlib import Path
from typing import Any, Sequence

from ..errors import UserError
from ..core.game import Game
from ..rules.ruleset import Ruleset
from ..rules.source import Document
from ..rules.tiles import CENTRE_KIND, HALF, NONE, SIDE

Point = tuple[float, float]

#: Colours for the usual kind names: (fill, stroke).  Any other kind gets a
#: colour derived from its name (:func:`kind_colours`), so it is stable across runs.
PALETTE: dict[str, tuple[str, str]] = {
    "field": ("#9ccb6b", "#6f9a45"),
    "city": ("#d8b47a", "#7a4f24"),
    "road": ("#f5f2ea", "#6e6e6e"),
    "river": ("#4f92d6", "#2a5f96"),
    "cloister": ("#a0522d", "#5c2c14"),
}
#: Follower colours by seat (up to six players).
PLAYER_COLOURS: tuple[str, ...] = ("#d62828", "#1d4ed8", "#f2c200", "#2a9d3f", "#222222", "#c026d3")
#: Painting order by ``ports`` type: later layers cover earlier ones.
_LAYERS = (HALF, CENTRE_KIND, SIDE, NONE)
_NEUTRAL_GROUND = "#e8e2cf"


def _f(x: float) -> str:
    """A number for SVG text: at most two decimals, no trailing zeros, never ``-0``."""
    text = f"{round(x, 2):.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _pts(points: Sequence[Point]) -> str:
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in points)


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


# -- tile geometry (all in units of the tile size) ------------------------------------

def _perimeter(u: float) -> Point:
    """Point on the unit tile's border at ``u`` sides clockwise from the NW corner
    (0 ≤ u < 4; side N is u in [0, 1), E [1, 2), S [2, 3), W [3, 4))."""
    u %= 4
    side, t = int(u), u - int(u)
    return ((t, 0.0), (1.0, t), (1 - t, 1.0), (0.0, 1 - t))[side]


def _border(u0: float, u1: float) -> list[Point]:
    """Border points from ``u0`` to ``u1`` clockwise (``u1 > u0``), corners included."""
    points = [_perimeter(u0)]
    corner = math.floor(u0) + 1
    while corner < u1:
        points.append(_perimeter(corner))
        corner += 1
    points.append(_perimeter(u1))
    return points


def _runs(items: set[int], cycle: int) -> list[tuple[int, int]]:
    """Maximal runs of consecutive members of ``items`` round a cycle of ``cycle``
    slots, as ``(first, length)``; the whole cycle is one run ``(0, cycle)``."""
    if len(items) == cycle:
        return [(0, cycle)]
    runs = []
    for i in sorted(items):
        if (i - 1) % cycle in items:
            continue  # not the start of a run
        length = 1
        while (i + length) % cycle in items:
            length += 1
        runs.append((i, length))
    return runs


def _half_runs(ports: Sequence[int]) -> list[tuple[float, float]]:
    """Border spans ``(u0, u1)`` of a half-kind segment: runs of neighbouring half-sides.

    Half-sides in clockwise order are NL NR EL ER … (port 3d is side d's left
    half, 3d+2 its right half); half-side h covers u in [h/2, h/2 + 1/2)."""
    halves = {2 * (p // 3) + (1 if p % 3 == 2 else 0) for p in ports if p % 3 != 1}
    return [(start / 2, (start + length) / 2) for start, length in _runs(halves, 8)]


def _side_runs(ports: Sequence[int]) -> list[tuple[int, int]]:
    """Runs of whole sides ``(first side, number of sides)`` of a side-kind segment."""
    return _runs({p // 3 for p in ports}, 4)


def _bend(a: Point, b: Point) -> Point:
    """Control point of the wall from ``a`` to ``b``: past the chord's midpoint towards
    the centre (so a one-side cap bulges 0.3 tiles deep, and a wall between two
    corners across the tile is straight)."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    return mx + (0.5 - mx) * 1.2, my + (0.5 - my) * 1.2


def _side_mid(side: int) -> Point:
    return _perimeter(side + 0.5)


class _Shape:
    """One segment at one rotation, in unit-square coordinates: its ``ports`` type,
    board ports, and (for ``none`` kinds) its place among the tile's icons.  Gives
    the follower anchor and the pennant position; :func:`_segment_body` draws it."""

    def __init__(self, kind_ports: str, ports: Sequence[int], n_none: int, i_none: int) -> None:
        self.kind_ports = kind_ports
        self.ports = tuple(ports)
        self.n_none, self.i_none = n_none, i_none

    def anchor(self) -> Point:
        """Where a follower on this segment stands (unit coordinates)."""
        ports = self.ports
        if self.kind_ports == HALF:
            # The middle of the longest border run, pulled towards the centre: inside
            # the field and clear of a centre icon even when the field is the whole tile.
            u0, u1 = max(_half_runs(ports), key=lambda r: r[1] - r[0])
            bx, by = _perimeter((u0 + u1) / 2)
            return 0.5 + (bx - 0.5) * 0.65, 0.5 + (by - 0.5) * 0.65
        if self.kind_ports == SIDE:
            sides = sorted({p // 3 for p in ports})
            mids = [_side_mid(s) for s in sides]
            ax, ay = sum(m[0] for m in mids) / len(mids), sum(m[1] for m in mids) / len(mids)
            return 0.5 + (ax - 0.5) * 0.7, 0.5 + (ay - 0.5) * 0.7
        if self.kind_ports == CENTRE_KIND:
            ends = [_side_mid(p // 3) for p in ports]
            if len(ends) == 1:  # a dead end: halfway out, clear of whatever sits in the centre
                return 0.5 + (ends[0][0] - 0.5) * 0.55, 0.5 + (ends[0][1] - 0.5) * 0.55
            if len(ends) == 2:  # the middle of the curve (the centre on a straight road)
                return (ends[0][0] + ends[1][0] + 1) / 4, (ends[0][1] + ends[1][1] + 1) / 4
            return 0.5, 0.5
        return self.icon_centre()

    def icon_centre(self) -> Point:
        """Where a ``none`` kind's icon sits: the centre, or spread across it when a
        tile has several."""
        if self.n_none <= 1:
            return 0.5, 0.5
        return 0.5 + (self.i_none - (self.n_none - 1) / 2) * 0.28, 0.5

    def shield_at(self) -> Point:
        """Where a pennant shield goes: beside the anchor (a quarter turn clockwise from
        the centre→anchor direction) so a follower on the anchor does not hide it."""
        ax, ay = self.anchor()
        dx, dy = ax - 0.5, ay - 0.5
        length = math.hypot(dx, dy)
        if length < 0.05:  # anchor at the centre: step towards the segment's first side
            sx, sy = _side_mid(self.ports[0] // 3) if self.ports else (0.5, 0.0)
            return 0.5 + (sx - 0.5) * 0.44, 0.5 + (sy - 0.5) * 0.44
        return ax - dy / length * 0.2, ay + dx / length * 0.2


def _segment_body(shape: _Shape, fill: str, stroke: str, size: float) -> list[str]:
    """The SVG elements drawing one segment in a ``size`` square."""
    s = size
    scale = lambda pts: [(x * s, y * s) for x, y in pts]  # noqa: E731
    kind_ports, ports = shape.kind_ports, shape.ports
    out: list[str] = []
    if kind_ports == HALF:
        for u0, u1 in _half_runs(ports):
            points = _border(u0, u1) if u1 - u0 >= 4 else [(0.5, 0.5), *_border(u0, u1)]
            out.append(f'<polygon points="{_pts(scale(points))}" fill="{fill}"/>')
    elif kind_ports == SIDE:
        runs = _side_runs(ports)
        if runs == [(0, 4)]:
            out.append(f'<rect x="0" y="0" width="{_f(s)}" height="{_f(s)}" fill="{fill}"/>')
        else:
            # Walk the border clockwise along each run of sides, and between runs
            # (and from the last back to the first) follow a wall curving inwards.
            spans = [(float(first), float(first + length)) for first, length in runs]
            area, walls = [], []
            for i, (u0, u1) in enumerate(spans):
                a = _perimeter(u1)
                b = _perimeter(spans[(i + 1) % len(spans)][0])
                c = _bend(a, b)
                border = scale(_border(u0, u1))
                if i == 0:
                    area.append(f"M{_pts(border[:1])}")
                area.append(f"L{_pts(border[1:])}")
                (cx, cy), (bx, by), (ax_, ay_) = scale([c, b, a])
                area.append(f"Q{_f(cx)},{_f(cy)} {_f(bx)},{_f(by)}")
                walls.append(f"M{_f(ax_)},{_f(ay_)} Q{_f(cx)},{_f(cy)} {_f(bx)},{_f(by)}")
            out.append(f'<path d="{" ".join(area)} Z" fill="{fill}"/>')
            out.append(f'<path class="wall" d="{" ".join(walls)}" fill="none" stroke="{stroke}" '
                       f'stroke-width="{_f(s * 0.05)}" stroke-linecap="round"/>')
    elif kind_ports == CENTRE_KIND:
        ends = [_side_mid(p // 3) for p in ports]
        if len(ends) == 2:  # one line through the tile: a curve via the centre
            (ax, ay), (bx, by) = scale(ends)
            d = f"M{_f(ax)},{_f(ay)} Q{_f(s / 2)},{_f(s / 2)} {_f(bx)},{_f(by)}"
        else:
            d = " ".join(f"M{_f(x * s)},{_f(y * s)} L{_f(s / 2)},{_f(s / 2)}" for x, y in ends)
        # A dark casing under a lighter line: reads as a road on both field and city.
        out.append(f'<path d="{d}" fill="none" stroke="{stroke}" stroke-width="{_f(s * 0.15)}"/>')
        out.append(f'<path d="{d}" fill="none" stroke="{fill}" stroke-width="{_f(s * 0.1)}"/>')
        if len(ends) == 1:
            out.append(f'<circle class="junction" cx="{_f(s / 2)}" cy="{_f(s / 2)}" r="{_f(s * 0.09)}" '
                       f'fill="{stroke}"/>')
    else:
        out.append(_icon(shape.icon_centre(), fill, stroke, s))
    return out


def _icon(at: Point, fill: str, stroke: str, s: float) -> str:
    """A small building (walls and a pitched roof), 0.3 tiles wide, centred on ``at``."""
    x, y = at[0] * s, at[1] * s
    w, h, roof = 0.3 * s, 0.18 * s, 0.14 * s
    body = [(x - w / 2, y), (x + w / 2, y), (x + w / 2, y + h), (x - w / 2, y + h)]
    top = [(x - w / 2 - 0.02 * s, y), (x, y - roof), (x + w / 2 + 0.02 * s, y)]
    door = f'<rect x="{_f(x - 0.03 * s)}" y="{_f(y + h - 0.1 * s)}" width="{_f(0.06 * s)}" ' \
           f'height="{_f(0.1 * s)}" fill="{stroke}"/>'
    return (f'<g class="icon"><polygon points="{_pts(body)}" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="{_f(s * 0.02)}"/><polygon points="{_pts(top)}" fill="{stroke}"/>{door}</g>')


def _shield(at: Point, s: float) -> str:
    """A pennant: a small blue-and-white shield, 0.12 tiles wide."""
    x, y, w = at[0] * s, at[1] * s, 0.12 * s
    d = (f"M{_f(x - w / 2)},{_f(y - w / 2)} L{_f(x + w / 2)},{_f(y - w / 2)} L{_f(x + w / 2)},{_f(y)} "
         f"Q{_f(x + w / 2)},{_f(y + w / 2)} {_f(x)},{_f(y + w * 0.7)} "
         f"Q{_f(x - w / 2)},{_f(y + w / 2)} {_f(x - w / 2)},{_f(y)} Z")
    return f'<path class="pennant" d="{d}" fill="#1f4aa8" stroke="#ffffff" stroke-width="{_f(s * 0.015)}"/>'


def _shapes(ruleset: Ruleset, tile: int, rotation: int) -> list[_Shape]:
    """The :class:`_Shape` of every segment of tile type ``tile`` turned ``rotation``."""
    tile_type = ruleset.tiles[tile]
    ports_by_seg = tile_type.orientations[rotation % 4].segment_ports
    kinds = [ruleset.kinds[seg.kind] for seg in tile_type.segments]
    nones = [j for j, k in enumerate(kinds) if k.ports == NONE]
    return [_Shape(k.ports, ports_by_seg[j], len(nones), nones.index(j) if j in nones else 0)
            for j, k in enumerate(kinds)]


def segment_anchor(ruleset: Ruleset, tile: int, rotation: int, segment: int, size: float = 60) -> Point:
    """Where a follower on segment ``segment`` (index into the tile type's segments) of
    tile ``tile`` turned ``rotation`` stands, in a ``size`` square at the origin."""
    x, y = _shapes(ruleset, tile, rotation)[segment].anchor()
    return x * size, y * size


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
    parts = [f'<g class="tile" data-tile="{escape(tile_type.id)}" data-rotation="{rotation % 4}">',
             f'<rect class="ground" x="0" y="0" width="{_f(size)}" height="{_f(size)}" fill="{ground}"/>']
    for layer in _LAYERS:
        for j, (kind, seg, shape) in enumerate(zip(kinds, tile_type.segments, shapes)):
            if kind.ports != layer:
                continue
            fill, stroke = kind_colours(kind.name)
            body = _segment_body(shape, fill, stroke, size)
            if any(value > 0 for value in seg.attrs):
                body.append(_shield(shape.shield_at(), size))
            parts.append(f'<g class="segment" data-kind="{escape(kind.name)}" data-segment="{j}">'
                         + "".join(body) + "</g>")
    parts.append(f'<rect class="edge" x="0" y="0" width="{_f(size)}" height="{_f(size)}" fill="none" '
                 f'stroke="#4a4a4a" stroke-width="{_f(size * 0.012)}"/>')
    parts.append("</g>")
    return "".join(parts)


def _document(width: float, height: float, body: list[str], title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(width)}" height="{_f(height)}" '
            f'viewBox="0 0 {_f(width)} {_f(height)}" font-family="sans-serif">\n'
            f"<title>{escape(title)}</title>\n"
            f'<rect width="100%" height="100%" fill="#ffffff"/>\n' + "\n".join(body) + "\n</svg>\n")


def atlas_svg(ruleset: Ruleset, *, size: float = 80, columns: int = 8) -> str:
    """A complete SVG document showing every tile type of ``ruleset`` at rotation 0 in a
    grid of ``columns``, each ``size`` units wide and labelled ``<text
    class="tile-label">ID ×COUNT</text>`` below it; the start tile (``deck.start``) has
    a gold frame (``class="start"``) and says "start"."""
    gap, label = size * 0.25, size * 0.3
    cell_w, cell_h = size + gap, size + label + gap
    rows = max(1, math.ceil(len(ruleset.tiles) / columns))
    top = size * 0.5
    body = [f'<text class="title" x="{_f(gap)}" y="{_f(top * 0.65)}" font-size="{_f(size * 0.22)}" '
            f'font-weight="bold">{escape(ruleset.ref)}: {len(ruleset.tiles)} tile types, '
            f'{sum(t.count for t in ruleset.tiles)} tiles{_aside(ruleset)}</text>']
    for i, tile_type in enumerate(ruleset.tiles):
        x = gap + (i % columns) * cell_w
        y = top + (i // columns) * cell_h
        body.append(f'<g transform="translate({_f(x)},{_f(y)})">')
        body.append(tile_group(ruleset, i, 0, size))
        text = f"{tile_type.id} ×{tile_type.count}"
        if i == ruleset.start:
            pad = size * 0.05
            body.append(f'<rect class="start" x="{_f(-pad)}" y="{_f(-pad)}" width="{_f(size + 2 * pad)}" '
                        f'height="{_f(size + 2 * pad)}" fill="none" stroke="#e0a800" '
                        f'stroke-width="{_f(size * 0.04)}"/>')
            text += " start"
        body.append(f'<text class="tile-label" x="{_f(size / 2)}" y="{_f(size + label * 0.8)}" '
                    f'font-size="{_f(size * 0.18)}" text-anchor="middle">{escape(text)}</text>')
        body.append("</g>")
    width = gap + min(columns, len(ruleset.tiles)) * cell_w
    height = top + rows * cell_h
    return _document(width, height, body, f"{ruleset.ref} tile types")


def _meeple(x: float, y: float, s: float, colour: str, lying: bool) -> str:
    """A follower 0.26 tiles tall centred on ``(x, y)``: head, arms, legs; lying (a
    quarter turn, as farmers are placed) when ``lying``."""
    h = 0.26 * s
    u = h / 10  # the outline is drawn on a 10-unit grid, the figure 8 wide and 10 tall
    outline = [(0, -5), (1.3, -4.6), (1.6, -3.2), (1.2, -2.3), (4, -1.3), (4, 0.2), (1.7, 0), (3, 5),
               (0.8, 5), (0, 2.8), (-0.8, 5), (-3, 5), (-1.7, 0), (-4, 0.2), (-4, -1.3), (-1.2, -2.3),
               (-1.6, -3.2), (-1.3, -4.6)]
    if lying:
        outline = [(-py, px) for px, py in outline]
    d = "M" + " L".join(f"{_f(x + px * u)},{_f(y + py * u)}" for px, py in outline) + " Z"
    return f'<path d="{d}" fill="{colour}" stroke="#111111" stroke-width="{_f(s * 0.015)}" stroke-linejoin="round"/>'


def board_svg(game: Game, names: list[str], *, title: str = "", size: float = 60) -> str:
    """A complete SVG document of ``game``'s board, followers and scores.

    Every placed tile is drawn with :func:`tile_group` at ``game.local(pos)`` (x east,
    y south, ``size`` units a tile).  Each map of a multi-map game (``deck.maps``) is
    drawn in its own panel, side by side left to right, labelled "map N"; the start
    tile of each map has a dashed outline.  Followers are ``<g class="follower"
    data-player="SEAT" data-kind="KIND">`` meeples in the seat's colour at the anchor
    of their segment (a farmer, on a ``half`` kind, lies down).  To the right, a score
    table: one ``<text class="score">`` row per seat with ``names[seat]`` and the score,
    beside a swatch of the seat's colour.  ``title`` goes above the board.
    """
    ruleset = game.ruleset
    margin = size * 0.5
    head = size * (0.8 if title else 0.2) + size * 0.4
    by_map: dict[int, list[tuple[int, int, int]]] = {}
    for pos in game.board:
        m, x, y = game.local(pos)
        by_map.setdefault(m, []).append((pos, x, y))
    body: list[str] = []
    if title:
        body.append(f'<text class="title" x="{_f(margin)}" y="{_f(size * 0.6)}" font-size="{_f(size * 0.3)}" '
                    f'font-weight="bold">{escape(title)}</text>')
    left = margin
    panel_h = 0.0
    for m in sorted(by_map):
        cells = by_map[m]
        x0, x1 = min(c[1] for c in cells), max(c[1] for c in cells)
        y0, y1 = min(c[2] for c in cells), max(c[2] for c in cells)
        ox, oy = left - x0 * size, head - y0 * size
        if ruleset.maps > 1:
            body.append(f'<text class="map-label" x="{_f(left)}" y="{_f(head - size * 0.12)}" '
                        f'font-size="{_f(size * 0.22)}">map {m + 1}</text>')
        body.append(f'<g class="map" data-map="{m}">')
        for pos, x, y in sorted(cells, key=lambda c: (c[2], c[1])):
            orientation, _, tile_index = game.board[pos]
            body.append(f'<g transform="translate({_f(ox + x * size)},{_f(oy + y * size)})">'
                        + tile_group(ruleset, tile_index, orientation.rotation, size) + "</g>")
        body.append(f'<rect class="origin" x="{_f(ox)}" y="{_f(oy)}" width="{_f(size)}" height="{_f(size)}" '
                    f'fill="none" stroke="#000000" stroke-dasharray="{_f(size * 0.08)}" '
                    f'stroke-width="{_f(size * 0.02)}"/>')
        body.append("</g>")
        left += (x1 - x0 + 1) * size + margin
        panel_h = max(panel_h, (y1 - y0 + 1) * size)
    # Followers last, so no neighbouring tile covers them.
    origins = {}
    left = margin
    for m in sorted(by_map):
        cells = by_map[m]
        x0, y0 = min(c[1] for c in cells), min(c[2] for c in cells)
        origins[m] = (left - x0 * size, head - y0 * size)
        left += (max(c[1] for c in cells) - x0 + 1) * size + margin
    for segment, seat in game.on_board:
        pos = game.seg_pos[segment]
        orientation, base, tile_index = game.board[pos]
        m, x, y = game.local(pos)
        kind = ruleset.kinds[ruleset.tiles[tile_index].segments[segment - base].kind]
        ax, ay = segment_anchor(ruleset, tile_index, orientation.rotation, segment - base, size)
        ox, oy = origins[m]
        colour = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
        body.append(f'<g class="follower" data-player="{seat}" data-kind="{escape(kind.name)}">'
                    + _meeple(ox + x * size + ax, oy + y * size + ay, size, colour, kind.ports == HALF) + "</g>")
    # The score table.
    tx, row = left, size * 0.4
    body.append(f'<g class="scores"><text x="{_f(tx)}" y="{_f(head + row * 0.8)}" font-size="{_f(row * 0.7)}" '
                f'font-weight="bold">score</text>')
    widest = max((len(n) for n in names), default=4)
    # Scores right-aligned in a column past the longest name (a character is about
    # 0.6 of the font size, and the font is 0.7 of a row), leaving room for 4 digits.
    score_x = tx + row + (widest + 5) * row * 0.45
    for seat in range(game.players):
        y = head + row * (seat + 2)
        name = names[seat] if seat < len(names) else f"seat {seat + 1}"
        body.append(f'<rect x="{_f(tx)}" y="{_f(y - row * 0.6)}" width="{_f(row * 0.6)}" height="{_f(row * 0.6)}" '
                    f'fill="{PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]}" stroke="#111111"/>')
        body.append(f'<text class="score" data-player="{seat}" x="{_f(tx + row)}" y="{_f(y)}" '
                    f'font-size="{_f(row * 0.7)}">{escape(name)}'
                    f'<tspan x="{_f(score_x)}" text-anchor="end">{game.scores[seat]}</tspan></text>')
    body.append("</g>")
    table_w = score_x - tx
    width = left + table_w + margin
    height = head + max(panel_h, row * (game.players + 2)) + margin
    return _document(width, height, body, title or f"{ruleset.name} board")


def board_after(record: dict[str, Any] | Document, ruleset: Ruleset | None = None,
                turn: int | None = None) -> Game:
    """The game of a record after its first ``turn`` turns entries (discards count as
    entries), or after all of them and final scoring when ``turn`` is None.

    ``record`` is a record dict (as :func:`engine.sim.play.play_game` returns in
    ``.record``) or a :class:`~engine.rules.source.Document` from
    :func:`engine.files.record.load_record` (then errors point at its lines).  ``ruleset``
    defaults to the one the record names (relative paths from the document's folder;
    for a bare dict, the working directory).  Raises :class:`UserError` for a turn
    out of range or a turn the rules refuse.
    """
    from ..files.record import play_turn, replay_start  # record imports much of the engine; keep import light
    from ..rules.ruleset import load_ruleset_for

    doc = record if isinstance(record, Document) else Document(record, "<record>", {})
    data = doc.data
    if ruleset is None:
        ruleset = load_ruleset_for(doc, ("ruleset",))
    turns = data["turns"]
    if turn is not None and not 0 <= turn <= len(turns):
        raise UserError(f"turn {turn} is out of range: the record has {len(turns)} turns", code="turn")
    game = Game(ruleset, len(data["players"]), data["seed"], draw_order=[], start=replay_start(ruleset, doc))
    for i, entry in enumerate(turns[:turn]):
        play_turn(game, entry, doc, ("turns", i))
    if turn is None and data.get("finished", True):  # a game stopped early had no final scoring
        game.finish()
    return game


def _aside(ruleset: Ruleset) -> str:
    if not ruleset.set_aside:
        return ""
    in_play = sum(t.count for t in ruleset.tiles) - len(ruleset.set_aside)
    return escape(f" ({in_play} in play: {', '.join(ruleset.tiles[t].id for t in ruleset.set_aside)} set aside)")


def to_png(svg_text: str, path: str | Path, *, scale: float = 2.0) -> None:
    """Write ``svg_text`` as a PNG at ``path`` (``scale`` pixels per SVG unit) with
    cairosvg; :class:`UserError` (code ``dependency``) if cairosvg is not installed."""
    try:
        import cairosvg  # type: ignore[import-not-found]
    except (ImportError, OSError):  # cairosvg raises OSError when the cairo C library is missing
        raise UserError("PNG needs the cairosvg extra: pip install cairosvg (and the cairo library)",
                        code="dependency") from None
    cairosvg.svg2png(bytestring=svg_text.encode("utf-8"), write_to=str(path), scale=scale)


__all__ = ["PALETTE", "PLAYER_COLOURS", "kind_colours", "tile_group", "segment_anchor", "atlas_svg",
           "board_svg", "board_after", "to_png"]
