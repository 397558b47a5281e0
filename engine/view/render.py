"""SVG pictures of tile sets and boards, laid out from tiles drawn by
:mod:`engine.view.tile_svg`, and their conversion to PNG.

A board is drawn in board positions: ``size`` units a tile, x east and
**y south**, one panel per map of a multi-map game.  Followers are meeples in
their seat's colour (:data:`PLAYER_COLOURS`) at their segment's anchor.
Numbers are written with at most two decimals so the output is byte-for-byte
stable (the atlas snapshot test relies on it).

Functions: :func:`atlas_svg` (every tile type), :func:`board_svg` (a game's
board, followers and scores), :func:`board_after` (replay a record up to a
turn), :func:`to_png`.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Iterable

from ..core.game import Game
from ..errors import UserError
from ..geometry import CORNER_POINTS
from ..rules.ruleset import Ruleset
from ..rules.source import Document
from ..rules.tiles import HALF, TileType
from .figures import piece_svg
from .markup import svg_num, xml_text
from .tile_svg import segment_anchor, tile_group

#: Follower colours by seat (up to six players): the Okabe–Ito colours (Okabe & Ito, "Color
#: Universal Design", 2008), which stay apart under the common colour-vision deficiencies,
#: in the order of the game's red, blue, yellow, green, black and a sixth.
PLAYER_COLOURS: tuple[str, ...] = ("#d55e00", "#0072b2", "#f0e442", "#009e73", "#222222", "#cc79a7")
#: The outline that marks the tile placed last: a colour no player and no feature has.
LAST_MARK = "#ff00c8"
#: The legal cells a page offers (``spots``): fill, its opacity over the white page, and outline —
#: a sky blue apart from every seat colour for every colour vision (the third seat's yellow was
#: taken for the old yellow cells; tests/view/test_pictures.py checks it).
SPOT_FILL, SPOT_OPACITY, SPOT_STROKE = "#80dfff", 0.6, "#1d6f8c"


def _document(width: float, height: float, body: list[str], title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{svg_num(width)}" height="{svg_num(height)}" '
            f'viewBox="0 0 {svg_num(width)} {svg_num(height)}" font-family="sans-serif">\n'
            f"<title>{xml_text(title)}</title>\n"
            f'<rect width="100%" height="100%" fill="#ffffff"/>\n' + "\n".join(body) + "\n</svg>\n")


#: Character widths (em) that :func:`label_width` reckons with, each at or above DejaVu Sans's
#: (``sans-serif`` on most Linux machines, and the widest of the usual sans faces): narrow
#: letters and punctuation, the widest letters, capitals and symbols; anything else 0.64.
_NARROW, _WIDEST, _WIDE = set("fijlrtIJ.,:;'!|()- "), set("mwMW"), set("×+")


def label_width(text: str, font: float) -> float:
    """How wide ``text`` set in a sans-serif face at ``font`` units is at most, in those units."""
    return font * sum(0.42 if c in _NARROW else 1.0 if c in _WIDEST else 0.8 if c.isupper() or c in _WIDE
                      else 0.64 for c in text)


def atlas_svg(ruleset: Ruleset, *, size: float = 80, columns: int = 8) -> str:
    """A complete SVG document showing every tile type of ``ruleset`` at rotation 0 in a
    grid of ``columns``, each ``size`` units wide and labelled ``<text
    class="tile-label">ID ×COUNT</text>`` below it; the start tile (``deck.start``) has
    a gold frame (``class="start"``) and says "start".

    Columns widen (up to twice ``size``) to hold the longest label as
    :func:`label_width` reckons it; a label longer still is set smaller to fit its
    column, so no label runs into its neighbour's."""
    gap, label, font = size * 0.25, size * 0.3, size * 0.18
    texts = [_atlas_label(ruleset, t) + (" start" if i == ruleset.start else "") for i, t in enumerate(ruleset.tiles)]
    room = min(max(size + gap / 2, *(label_width(text, font) for text in texts)), 2 * size)
    cell_w, cell_h = room + gap / 2, size + label + gap
    rows = max(1, math.ceil(len(ruleset.tiles) / columns))
    top = size * 0.5
    body = [f'<text class="title" x="{svg_num(gap)}" y="{svg_num(top * 0.65)}" font-size="{svg_num(size * 0.22)}" '
            f'font-weight="bold">{xml_text(ruleset.ref)}: {len(ruleset.tiles)} tile types, '
            f'{sum(t.count for t in ruleset.tiles)} tiles{_aside(ruleset)}</text>']
    for i, text in enumerate(texts):
        x = gap + (i % columns) * cell_w + (cell_w - size - gap) / 2
        y = top + (i // columns) * cell_h
        body.append(f'<g transform="translate({svg_num(x)},{svg_num(y)})">')
        body.append(tile_group(ruleset, i, 0, size))
        if i == ruleset.start:
            pad = size * 0.05
            body.append(f'<rect class="start" x="{svg_num(-pad)}" y="{svg_num(-pad)}" '
                        f'width="{svg_num(size + 2 * pad)}" height="{svg_num(size + 2 * pad)}" '
                        f'fill="none" stroke="#e0a800" stroke-width="{svg_num(size * 0.04)}"/>')
        fitted = min(font, font * room / label_width(text, font))  # textLength is not drawn by every renderer
        body.append(f'<text class="tile-label" x="{svg_num(size / 2)}" y="{svg_num(size + label * 0.8)}" '
                    f'font-size="{svg_num(fitted)}" text-anchor="middle">{xml_text(text)}</text>')
        body.append("</g>")
    width = gap + min(columns, len(ruleset.tiles)) * cell_w
    height = top + rows * cell_h
    return _document(width, height, body, f"{ruleset.ref} tile types")


def _atlas_label(ruleset: Ruleset, tile: TileType) -> str:
    """``D ×4``; a personal tile (``deck.personal``) says how many each player holds, ``AM_Abbey
    1 each`` (``×0`` read as none), or ``X ×2 + 1 each`` when the stacks hold some too."""
    label = f"{tile.id} ×{tile.count}"
    if tile.index != ruleset.personal_tile:
        return label
    each = f"{ruleset.personal_count} each"
    return f"{tile.id} {each}" if not tile.count else f"{label} + {each}"


def board_svg(game: Game, names: list[str], *, title: str = "", size: float = 60, coordinates: bool = False,
              spots: Iterable[tuple[int, int, int]] = (), recent: Iterable[int] = ()) -> str:
    """A complete SVG document of ``game``'s board, followers and scores.

    Every placed tile is drawn with :func:`tile_group` at ``game.local(pos)`` (x east,
    y south, ``size`` units a tile).  Each map of a multi-map game (``deck.maps``) is
    drawn in its own panel, side by side left to right, labelled "map N" with N counted
    from 0 as records and the turn log count it; each panel is a ``<g class="map"
    data-map="N" data-x0 data-y0 data-size>``: the SVG position of its cell (0, 0) and the
    tile size, so a page can put things on cells.  The start tile of each map has a
    dashed outline; the tile placed last has a thick ``<rect class="last">`` outline in
    :data:`LAST_MARK`.  With ``coordinates``, each panel's columns are labelled with their
    x above and its rows with their y on the left, as the log names positions.
    ``spots`` are extra ``(map, x, y)`` cells (a page's legal placements): each is a
    ``<rect class="spot" data-map data-x data-y>`` and the panel grows to hold it.
    ``recent`` are packed positions of tiles placed since a player last looked (the other
    seats' moves since their turn): each has a thin dashed ``<rect class="recent">`` outline in
    :data:`LAST_MARK`, the last one the thick one besides.
    Followers are ``<g class="follower" data-player="SEAT" data-kind="KIND">`` meeples
    in the seat's colour at the anchor of their segment (a farmer, on a ``half`` kind,
    lies down).  To the right, a score table: one ``<text class="score">`` row per seat
    with ``names[seat]`` and the score, beside a swatch of the seat's colour.  ``title``
    goes above the board.
    """
    ruleset = game.ruleset
    margin = size * (0.8 if coordinates else 0.5)
    head = size * (0.8 if title else 0.2) + size * (0.7 if coordinates else 0.4)
    by_map: dict[int, list[tuple[int, int, int]]] = {}
    for pos in game.board:
        m, x, y = game.local(pos)
        by_map.setdefault(m, []).append((pos, x, y))
    extent: dict[int, list[tuple[int, int]]] = {m: [(x, y) for _, x, y in cells] for m, cells in by_map.items()}
    spot_cells = sorted(set(spots))
    for m, x, y in spot_cells:
        extent.setdefault(m, []).append((x, y))
    body: list[str] = []
    if title:
        body.append(f'<text class="title" x="{svg_num(margin)}" y="{svg_num(size * 0.6)}" '
                    f'font-size="{svg_num(size * 0.3)}" font-weight="bold">{xml_text(title)}</text>')
    origins: dict[int, tuple[float, float]] = {}
    left = margin
    panel_h = 0.0
    for m in sorted(extent):
        x0, x1 = min(c[0] for c in extent[m]), max(c[0] for c in extent[m])
        y0, y1 = min(c[1] for c in extent[m]), max(c[1] for c in extent[m])
        ox, oy = left - x0 * size, head - y0 * size
        origins[m] = (ox, oy)
        label_y = head - size * (0.42 if coordinates else 0.12)
        if ruleset.maps > 1:
            body.append(f'<text class="map-label" x="{svg_num(left)}" y="{svg_num(label_y)}" '
                        f'font-size="{svg_num(size * 0.22)}">map {m}</text>')
        body.append(f'<g class="map" data-map="{m}" data-x0="{svg_num(ox)}" data-y0="{svg_num(oy)}" '
                    f'data-size="{svg_num(size)}">')
        for pos, x, y in sorted(by_map.get(m, ()), key=lambda c: (c[2], c[1])):
            orientation, _, tile_index = game.board[pos]
            body.append(f'<g transform="translate({svg_num(ox + x * size)},{svg_num(oy + y * size)})">'
                        + tile_group(ruleset, tile_index, orientation.rotation, size) + "</g>")
        body.append(f'<rect class="origin" x="{svg_num(ox)}" y="{svg_num(oy)}" width="{svg_num(size)}" '
                    f'height="{svg_num(size)}" fill="none" stroke="#000000" '
                    f'stroke-dasharray="{svg_num(size * 0.08)}" stroke-width="{svg_num(size * 0.02)}"/>')
        if coordinates:
            body.extend(_coordinates(x0, x1, y0, y1, ox, oy, size))
        body.append("</g>")
        left += (x1 - x0 + 1) * size + margin
        panel_h = max(panel_h, (y1 - y0 + 1) * size)
    for m, x, y in spot_cells:
        ox, oy = origins[m]
        body.append(f'<rect class="spot" data-map="{m}" data-x="{x}" data-y="{y}" x="{svg_num(ox + x * size)}" '
                    f'y="{svg_num(oy + y * size)}" width="{svg_num(size)}" height="{svg_num(size)}" '
                    f'fill="{SPOT_FILL}" fill-opacity="{SPOT_OPACITY}" stroke="{SPOT_STROKE}" '
                    f'stroke-width="{svg_num(size * 0.03)}"/>')
    for pos in recent:
        m, x, y = game.local(pos)
        ox, oy = origins[m]
        inset = size * 0.16
        body.append(f'<rect class="recent" data-map="{m}" data-x="{x}" data-y="{y}" '
                    f'x="{svg_num(ox + x * size + inset)}" y="{svg_num(oy + y * size + inset)}" '
                    f'width="{svg_num(size - 2 * inset)}" height="{svg_num(size - 2 * inset)}" fill="none" '
                    f'stroke="{LAST_MARK}" stroke-width="{svg_num(size * 0.03)}" '
                    f'stroke-dasharray="{svg_num(size * 0.08)} {svg_num(size * 0.05)}"/>')
    last = next((move.pos for _, move in reversed(game.history) if move is not None), None)
    if last is not None:
        m, x, y = game.local(last)
        ox, oy = origins[m]
        width = size * 0.07
        body.append(f'<rect class="last" data-map="{m}" data-x="{x}" data-y="{y}" '
                    f'x="{svg_num(ox + x * size + width / 2)}" y="{svg_num(oy + y * size + width / 2)}" '
                    f'width="{svg_num(size - width)}" height="{svg_num(size - width)}" fill="none" '
                    f'stroke="{LAST_MARK}" stroke-width="{svg_num(width)}"/>')
    # Followers last, so no neighbouring tile covers them.
    for segment, seat, type_index, corner in game.on_board:
        pos = game.seg_pos[segment]
        orientation, base, tile_index = game.board[pos]
        m, x, y = game.local(pos)
        kind = ruleset.kinds[ruleset.tiles[tile_index].segments[segment - base].kind]
        if corner < 0:
            ax, ay = segment_anchor(ruleset, tile_index, orientation.rotation, segment - base, size)
        else:  # on the corner where four tiles meet (the barn)
            ax, ay = CORNER_POINTS[corner][0] * size, CORNER_POINTS[corner][1] * size
        ox, oy = origins[m]
        colour = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
        follower_type = ruleset.follower_types[type_index]
        body.append(f'<g class="follower" data-player="{seat}" data-kind="{xml_text(kind.name)}" '
                    f'data-type="{xml_text(follower_type.name)}" data-figure="{follower_type.figure}">'
                    + piece_svg(ruleset, type_index, ox + x * size + ax, oy + y * size + ay, size, colour,
                                corner < 0 and kind.ports == HALF)
                    + "</g>")
    # The score table.
    tx, row = left, size * 0.4
    body.append(f'<g class="scores"><text x="{svg_num(tx)}" y="{svg_num(head + row * 0.8)}" '
                f'font-size="{svg_num(row * 0.7)}" font-weight="bold">score</text>')
    widest = max((len(n) for n in names), default=4)
    # Scores right-aligned in a column past the longest name (a character is about
    # 0.6 of the font size, and the font is 0.7 of a row), leaving room for 4 digits.
    score_x = tx + row + (widest + 5) * row * 0.45
    for seat in range(game.players):
        y = head + row * (seat + 2)
        name = names[seat] if seat < len(names) else f"seat {seat + 1}"
        body.append(f'<rect x="{svg_num(tx)}" y="{svg_num(y - row * 0.6)}" width="{svg_num(row * 0.6)}" '
                    f'height="{svg_num(row * 0.6)}" fill="{PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]}" '
                    'stroke="#111111"/>')
        body.append(f'<text class="score" data-player="{seat}" x="{svg_num(tx + row)}" y="{svg_num(y)}" '
                    f'font-size="{svg_num(row * 0.7)}">{xml_text(name)}'
                    f'<tspan x="{svg_num(score_x)}" text-anchor="end">{game.scores[seat]}</tspan></text>')
    body.append("</g>")
    table_w = score_x - tx
    width = left + table_w + margin
    height = head + max(panel_h, row * (game.players + 2)) + margin
    return _document(width, height, body, title or f"{ruleset.name} board")


def _coordinates(x0: int, x1: int, y0: int, y1: int, ox: float, oy: float, size: float) -> list[str]:
    """Column labels (x) above a panel and row labels (y) left of it, in board positions."""
    font = size * 0.2
    out = [f'<g class="coordinates" font-size="{svg_num(font)}" fill="#555555">']
    for x in range(x0, x1 + 1):
        out.append(f'<text x="{svg_num(ox + (x + 0.5) * size)}" y="{svg_num(oy + y0 * size - font * 0.5)}" '
                   f'text-anchor="middle">{x}</text>')
    for y in range(y0, y1 + 1):
        out.append(f'<text x="{svg_num(ox + x0 * size - font * 0.4)}" '
                   f'y="{svg_num(oy + (y + 0.5) * size + font * 0.35)}" text-anchor="end">{y}</text>')
    out.append("</g>")
    return out


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
    from ..files.record import check_players, replay_start  # record imports much of the engine
    from ..files.turn_entries import play_turn
    from ..rules.ruleset import load_ruleset_for

    doc = record if isinstance(record, Document) else Document(record, "<record>", {})
    data = doc.data
    if ruleset is None:
        ruleset = load_ruleset_for(doc, ("ruleset",))
    turns = data["turns"]
    if turn is not None and not 0 <= turn <= len(turns):
        raise UserError(f"turn {turn} is out of range: the record has {len(turns)} turns", code="turn")
    check_players(ruleset, doc)
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
    return xml_text(f" ({in_play} in play: {', '.join(ruleset.tiles[t].id for t in ruleset.set_aside)} set aside)")


def png_renderer() -> Any:
    """The cairosvg module (the ``render`` extra), or :class:`UserError` (code
    ``dependency``) saying what to install: call it before any work that needs it."""
    try:
        import cairosvg  # type: ignore[import-not-found]
    except (ImportError, OSError):  # cairosvg raises OSError when the cairo C library is missing
        raise UserError("PNG needs the render extra: pip install 'carcassonne-rules[render]' (and the cairo "
                        "library)", code="dependency") from None
    return cairosvg


def to_png(svg_text: str, path: str | Path, *, scale: float = 2.0) -> None:
    """Write ``svg_text`` as a PNG at ``path`` (``scale`` pixels per SVG unit) with
    cairosvg; :class:`UserError` (code ``dependency``) if cairosvg is not installed."""
    png_renderer().svg2png(bytestring=svg_text.encode("utf-8"), write_to=str(path), scale=scale)



__all__ = ["LAST_MARK", "PLAYER_COLOURS", "SPOT_FILL", "SPOT_OPACITY", "SPOT_STROKE", "atlas_svg", "board_svg",
           "board_after", "png_renderer", "to_png"]
