"""A seat's supply as a picture: every piece it still has to place, each drawn as its follower
type's figure (:func:`~engine.view.figures.piece_svg`) in the seat's colour, for the web table's
side bar (issue 50: the pieces left were words only).

Sizes are in the board's units: ``size`` units a tile, as :func:`~engine.view.render.board_svg`
draws one, so a piece in the supply is as big as the same piece on the board at zoom 1 (the web
table draws both at :data:`~engine.web.table_state.TILE`, 84: a meeple 22 units tall).
"""

from __future__ import annotations

from ..rules.ruleset import Ruleset
from .figures import piece_box, piece_svg
from .markup import svg_num, xml_text

#: The widest row of pieces, in tiles: 4.3, 361 units at 84 a tile, so a row fits the web table's
#: side bar (24em, about 380 pixels, less a scroll bar); the next piece that would pass it starts a
#: new row.  A starting supply of basic+abbey-and-mayor+inns-and-cathedrals+traders-and-builders (13
#: pieces of 7 types) is 343 units wide: one row.
ROW = 4.3
#: Between two pieces of one type, in tiles.
GAP = 0.04
#: Between the last piece of one type and the first of the next, in tiles: wider, so types group.
TYPE_GAP = 0.12
#: Between two rows, and around the whole (room for the outlines' strokes), in tiles.
PAD = 0.03

#: A piece placed in the picture: ``(type index, x, y)``, ``(x, y)`` its centre in picture units.
Placed = tuple[int, float, float]


def supply_words(ruleset: Ruleset, counts: list[int]) -> str:
    """The supply in words, as the web table said it before it drew it: ``7 followers, 1 mayor,
    1 wagon, 1 barn left`` (``counts[i]`` pieces of ``ruleset.follower_types[i]``, type 0 (normal)
    as followers, every type named even at 0), ``3 followers left`` under a ruleset of one type,
    ``no pieces left`` when ``counts`` are all 0."""
    if not any(counts):
        return "no pieces left"
    types = ruleset.follower_types
    if len(types) == 1:
        return f"{counts[0]} follower{'' if counts[0] == 1 else 's'} left"
    return ", ".join(f"{n} follower{'' if n == 1 else 's'}" if t.index == 0 else f"{n} {t.name}"
                     for t, n in zip(types, counts)) + " left"


def supply_layout(ruleset: Ruleset, counts: list[int], size: float) -> tuple[list[Placed], float, float]:
    """Where :func:`supply_svg` draws each piece: ``counts[i]`` pieces of follower type ``i`` in
    ``ruleset.follower_types`` order, left to right, :data:`GAP` apart within a type and
    :data:`TYPE_GAP` between types, a new row when the next would pass :data:`ROW`; in a row the
    pieces stand on one line.  Returns ``(pieces, width, height)``: each piece ``(type, x, y)``,
    its centre, and the picture's size, all in units of ``size`` a tile, :data:`PAD` around."""
    pad = PAD * size
    rows: list[list[tuple[int, float]]] = [[]]  # per row, each piece's (type, left edge)
    row = rows[0]  # the row being filled
    right_edge, previous = pad, -1
    for t, n in enumerate(counts):
        left, _, right, _ = piece_box(ruleset, t, size)
        for _ in range(n):
            gap = 0.0 if not row else (GAP if t == previous else TYPE_GAP) * size
            if row and right_edge + gap + right - left > (ROW - PAD) * size:
                row, gap = [], 0.0
                rows.append(row)
                right_edge = pad
            row.append((t, right_edge + gap))
            right_edge, previous = right_edge + gap + right - left, t
    placed: list[Placed] = []
    width, top_edge = 0.0, pad
    for row in rows:
        boxes = [piece_box(ruleset, t, size) for t, _ in row]
        height = max((bottom - top for _, top, _, bottom in boxes), default=0.0)
        for (t, x), (left, _, right, bottom) in zip(row, boxes):
            placed.append((t, x - left, top_edge + height - bottom))
            width = max(width, x + right - left)
        top_edge += height + (pad if row is not rows[-1] else 0.0)
    if not placed:
        return [], 0.0, 0.0
    return placed, width + pad, top_edge + pad


def supply_svg(ruleset: Ruleset, counts: list[int], colour: str, size: float) -> str:
    """A seat's supply as a complete ``<svg class="supply">`` element (``width``, ``height`` and
    ``viewBox`` in units of ``size`` a tile, one unit a pixel when shown as is): ``counts[i]``
    figures of ``ruleset.follower_types[i]`` (a seat's ``Game.reserve``), in ``colour``, laid out by
    :func:`supply_layout`; each type's pieces in a ``<g class="supply-type" data-type="NAME"
    data-count="N">`` (a type with none left draws none and has no group), each piece in a
    ``<g class="supply-piece">``.  Its ``<title>`` and ``aria-label`` say it in words
    (:func:`supply_words`); an empty supply draws nothing, 0 by 0, and says ``no pieces left``."""
    placed, width, height = supply_layout(ruleset, counts, size)
    words = xml_text(supply_words(ruleset, counts))
    groups = []
    for t, n in enumerate(counts):
        if not n:
            continue
        pieces = "".join(f'<g class="supply-piece">{piece_svg(ruleset, t, x, y, size, colour, False)}</g>'
                         for kind, x, y in placed if kind == t)
        groups.append(f'<g class="supply-type" data-type="{xml_text(ruleset.follower_types[t].name)}" '
                      f'data-count="{n}">{pieces}</g>')
    w, h = svg_num(width), svg_num(height)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="supply" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}" role="img" aria-label="{words}"><title>{words}</title>{"".join(groups)}</svg>')


__all__ = ["GAP", "PAD", "ROW", "TYPE_GAP", "supply_layout", "supply_svg", "supply_words"]
