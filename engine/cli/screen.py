"""Drawing the game for the terminal player as :class:`rich.text.Text`.

``board_text`` draws the map around the play area (each placed tile a 5×3
block: its twelve ports round the edge, its id in the middle, followers as
their seat's number; boxes where the drawn tile fits, with the coordinates to
type), and ``tile_text`` draws the drawn tile in its rotations.  Feature kinds
keep fixed letters and colours (``kind_letter``, ``kind_style``) and seats fixed
colours (``SEAT_STYLES``), so a player learns them once.  Nothing here prints:
:class:`~engine.cli.human.HumanPlayer` puts the texts on its console.
"""

from __future__ import annotations

import re

from rich.text import Text

from ..core import moving
from ..core.game import Game
from ..geometry import CORNERS, PORTS
from ..rules.ruleset import Ruleset
from ..view.render import PLAYER_COLOURS

__all__ = ["KIND_STYLES", "SEAT_STYLES", "kind_style", "kind_letter", "rotated_edges", "board_text", "tile_text"]


#: Styles of the kinds the shipped rulesets use; a designer's own kinds take the fallbacks in order.
KIND_STYLES: dict[str, str] = {
    "city": "bold black on dark_orange3",
    "road": "bold black on grey70",
    "field": "black on green4",
    "river": "bold white on dodger_blue2",
    "cloister": "bold white on red3",
}
_FALLBACK_STYLES = ("bold black on orchid", "bold black on cyan3", "bold black on yellow3", "bold white on purple4")
def _seat_style(colour: str) -> str:
    """The seat's number on its colour, in black or white, whichever reads on it."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"bold {'black' if 0.299 * r + 0.587 * g + 0.114 * b > 110 else 'white'} on {colour}"


#: Seat colours for follower markers: the pictures' colours (:data:`PLAYER_COLOURS`), so a seat
#: looks the same in the terminal, the PNG and the browser.
SEAT_STYLES = tuple(_seat_style(colour) for colour in PLAYER_COLOURS)
_FIT_STYLE = "bold cyan"
_CELL_W, _CELL_H = 5, 3
#: Where each port sits in a board cell (row, column): the twelve ports make the ring of a 5×3 block.
#: The corners carry the E/W half-sides (EL is the north half of E, as seen looking out east).
_RING = {"WR": (0, 0), "NL": (0, 1), "N": (0, 2), "NR": (0, 3), "EL": (0, 4), "W": (1, 0), "E": (1, 4),
         "WL": (2, 0), "SR": (2, 1), "S": (2, 2), "SL": (2, 3), "ER": (2, 4)}
#: Where a piece on a corner (``spot: corner``: the barn) sits, for board corners NE, SE, SW, NW.
_CORNER_CELLS = ((0, 4), (2, 4), (2, 0), (0, 0))
#: Where each port sits in the 5×5 drawing of the drawn tile (like ``carcassonne tiles``, without spacing).
_BIG = {"NL": (0, 1), "N": (0, 2), "NR": (0, 3), "EL": (1, 4), "E": (2, 4), "ER": (3, 4),
        "SL": (4, 3), "S": (4, 2), "SR": (4, 1), "WL": (3, 0), "W": (2, 0), "WR": (1, 0)}

Cell = list[list[tuple[str, str]]]  # rows of (character, style)


def title_words(name: str) -> str:
    """A title as players say it: ``robber-baron`` → ``Robber Baron`` (the web table's script says
    it alike)."""
    return " ".join(word.capitalize() for word in name.replace("_", "-").split("-"))


def kind_style(ruleset: Ruleset, kind: int) -> str:
    """The colour of feature kind ``kind``: fixed for shipped kinds so a player learns them once."""
    name = ruleset.kinds[kind].name
    return KIND_STYLES.get(name) or _FALLBACK_STYLES[kind % len(_FALLBACK_STYLES)]


#: The mark of a port-less kind by the icon the pictures draw it with (the kind's ``icon``): a
#: building (cloisters, gardens), so a cloister never reads as the city's C; grapes (a vineyard);
#: a mound (a hill).
PORTLESS_MARKS = {"building": "⌂", "grapes": "♣", "hill": "∩"}


def kind_letter(ruleset: Ruleset, kind: int) -> str:
    """The kind's edge letter (C, R, F, I …); for a port-less kind its icon's mark
    (:data:`PORTLESS_MARKS`); else its initial."""
    k = ruleset.kinds[kind]
    return k.edge or (PORTLESS_MARKS.get(k.icon, "⌂") if k.ports == "none" else k.name[:1].upper())


def short_id(tile_id: str) -> str:
    """A tile id in 3 characters for a board cell: an expansion's prefix (``HS_``, ``IC_``) and
    underscores dropped, so its tiles do not all read ``HS_``.

    >>> short_id("D"), short_id("HS_RR_h"), short_id("IC_CcRrP_i")
    ('D', 'RRh', 'CcR')
    """
    return re.sub(r"^[A-Z]{2}_", "", tile_id).replace("_", "")[:3] or tile_id[:3]


def rotated_edges(ruleset: Ruleset, tile: int, rotation: int) -> str:
    """The tile's edge letters ``N E S W`` in board orientation after ``rotation`` clockwise quarter turns."""
    edges = ruleset.tiles[tile].edges
    # Turning clockwise carries canonical side s to board side s + rotation.
    return "".join(edges[(side - rotation) % 4] for side in range(4))


def _port_chars(ruleset: Ruleset, tile: int, rotation: int) -> dict[str, tuple[str, str]]:
    """Character and style at each board port of a placed tile.

    A centre port no segment covers (a field side) shows its side's edge
    letter, so every side reads as one kind.
    """
    tile_type = ruleset.tiles[tile]
    orientation = tile_type.orientations[rotation]
    edges = rotated_edges(ruleset, tile, rotation)
    letters = {kind_letter(ruleset, k.index): k.index for k in ruleset.kinds}
    out = {}
    for p, name in enumerate(PORTS):
        j = orientation.port_segment[p]
        if j >= 0:
            kind = tile_type.segments[j].kind
        else:
            kind = letters.get(edges[p // 3], -1)
        out[name] = (kind_letter(ruleset, kind), kind_style(ruleset, kind)) if kind >= 0 else ("·", "dim")
    return out


def _follower_port(ruleset: Ruleset, tile: int, rotation: int, segment: int) -> str | None:
    """The port where a follower on ``segment`` is drawn (None: the centre, a port-less segment)."""
    tile_type = ruleset.tiles[tile]
    ports = tile_type.orientations[rotation].segment_ports[segment]
    if not ports:
        return None
    if ruleset.kinds[tile_type.segments[segment].kind].ports == "side":
        ports = [p for p in ports if p % 3 == 1] or ports  # a city side is named by its centre
    return PORTS[ports[0]]


def _tile_cell(game: Game, pos: int, *, last: bool) -> Cell:
    """The 5×3 block of the tile at ``pos``: port ring, id in the middle, followers as seat numbers."""
    ruleset = game.ruleset
    orientation, base, tile = game.board[pos]
    rotation = orientation.rotation
    tile_type = ruleset.tiles[tile]
    cell: Cell = [[(" ", "")] * _CELL_W for _ in range(_CELL_H)]
    for name, (ch, style) in _port_chars(ruleset, tile, rotation).items():
        row, col = _RING[name]
        cell[row][col] = (ch, style)
    portless = [s.kind for s in tile_type.segments if not s.ports]
    centre_style = kind_style(ruleset, portless[0]) if portless else "bold"
    if last:  # the tile placed just before this turn, so the player sees what changed
        centre_style += " underline"
    label = short_id(tile_type.id).center(3)
    for i, ch in enumerate(label):
        cell[1][1 + i] = (ch, centre_style)
    for segment, seat, type_index, corner in game.on_board:
        if game.seg_pos[segment] != pos:
            continue
        port = _follower_port(ruleset, tile, rotation, segment - base)
        row, col = _CORNER_CELLS[corner] if corner >= 0 else _RING[port] if port else (1, 2)
        # A follower of another type than normal shows its type's initial in the seat's colour.
        mark = str(seat + 1) if type_index == 0 else ruleset.follower_types[type_index].name[0].upper()
        cell[row][col] = (mark, SEAT_STYLES[seat % len(SEAT_STYLES)])
    return cell


def _window(values: list[int], most: int | None, centre: int | None) -> tuple[int, int]:
    """The first and last of ``most`` consecutive values (None: no limit) within the span of
    ``values``, centred on ``centre`` (None: the span's middle) as far as the span allows."""
    low, high = min(values), max(values)
    if most is None or high - low + 1 <= most:
        return low, high
    most = max(1, most)
    start = (centre if centre is not None else (low + high) // 2) - most // 2
    start = min(max(start, low), high - most + 1)
    return start, start + most - 1


def _crop_note(columns_cropped: bool, rows_cropped: bool, window: tuple[int, int, int, int]) -> str:
    """What a cropped board says: the coordinates shown, and how to see the rest (a wider
    terminal for columns; ``b`` prints every row)."""
    x0, x1, y0, y1 = window
    shown = [*([f"x = {x0}…{x1}"] if columns_cropped else []), *([f"y = {y0}…{y1}"] if rows_cropped else [])]
    if not shown:
        return ""
    if rows_cropped and columns_cropped:
        how = "b shows every row, a wider terminal every column"
    else:
        how = "b shows every row" if rows_cropped else "a wider terminal shows every column"
    return f"(board cropped to {', '.join(shown)}: {how})"


def _fit_cell(x: int, y: int) -> Cell:
    """An empty cell where the drawn tile fits: a box with the coordinates to type; ``x,`` over
    ``y`` when they are longer than the cell is wide (``-3,-10``: cutting it read ``-3,-1``)."""
    label = f"{x},{y}"
    if len(label) <= 3:
        rows = ("╭───╮", f"│{label:^3}│", "╰───╯")
    elif len(label) <= _CELL_W:
        rows = ("╭───╮", f"{label:^5}", "╰───╯")
    else:
        rows = ("╭───╮", f"{str(x) + ',':^5}", f"{y:^5}")
    return [[(ch, _FIT_STYLE) for ch in row] for row in rows]


def _blank_cell(frontier: bool) -> Cell:
    cell: Cell = [[(" ", "")] * _CELL_W for _ in range(_CELL_H)]
    if frontier:  # touches the board, but the drawn tile fits there in no rotation
        cell[1][2] = ("·", "dim")
    return cell


def board_text(game: Game, *, max_width: int = 120, max_rows: int | None = None) -> Text:
    """The current map around the play area: placed tiles, followers, and the cells where
    the drawn tile fits, with x labels on top and y labels on the left.

    Columns beyond ``max_width`` characters, and rows of cells beyond ``max_rows`` (None: every
    row; each row is three lines), are cropped around the last tile placed on the map (else its
    middle), and the crop is said, since a wrapped grid is unreadable and a board taller than
    the terminal pushes the moves off it.
    """
    m = game.map
    mine = {}
    for pos in game.board:
        pm, x, y = game.local(pos)
        if pm == m:
            mine[(x, y)] = pos
    frontier = {(x, y) for pos in game.frontier for _, x, y in [game.local(pos)]}
    fits = ({(x, y) for pos, _ in game.placements() for _, x, y in [game.local(pos)]}
            if game.tile is not None and not moving.of(game).movers else set())
    cells = set(mine) | frontier or {(0, 0)}
    last = next((move.pos for _, move in reversed(game.history) if move is not None), None)  # not a discard
    where = game.local(last) if last is not None else None
    last_cell = where[1:] if where is not None and where[0] == m else None
    margin = 5
    columns = max(1, (max_width - margin) // (_CELL_W + 1))
    xs, ys = [x for x, _ in cells], [y for _, y in cells]
    x0, x1 = _window(xs, columns, last_cell[0] if last_cell else None)
    y0, y1 = _window(ys, max_rows, last_cell[1] if last_cell else None)
    note = _crop_note((x0, x1) != (min(xs), max(xs)), (y0, y1) != (min(ys), max(ys)), (x0, x1, y0, y1))
    out = Text()
    header = " " * margin + "".join(f"{x:^{_CELL_W}} " for x in range(x0, x1 + 1))
    out.append(header.rstrip() + "\n", style="dim")
    for y in range(y0, y1 + 1):
        row_cells = []
        for x in range(x0, x1 + 1):
            if (x, y) in mine:
                row_cells.append(_tile_cell(game, mine[(x, y)], last=mine[(x, y)] == last))
            elif (x, y) in fits:
                row_cells.append(_fit_cell(x, y))
            else:
                row_cells.append(_blank_cell((x, y) in frontier))
        for r in range(_CELL_H):
            out.append(f"{y:>{margin - 1}} " if r == 1 else " " * margin, style="dim")
            for cell in row_cells:
                for ch, style in cell[r]:
                    out.append(ch, style=style or None)
                out.append(" ")
            out.rstrip()
            out.append("\n")
    if note:
        out.append(note + "\n", style="dim")
    typed = []
    for segment, seat, type_index, corner in game.on_board:
        pm, x, y = game.local(game.seg_pos[segment])
        if type_index and pm == m and x0 <= x <= x1 and y0 <= y <= y1:
            name = game.ruleset.follower_types[type_index].name
            at = f"{x},{y}" + (f" {CORNERS[corner]}" if corner >= 0 else "")  # a barn: the tile's corner
            typed.append(f"{name[0].upper()} at {at} is P{seat + 1}'s {name}")
    if typed:  # a type's initial says what it is; its owner shows in colour only, so say it
        out.append("; ".join(typed) + "\n", style="dim")
    return out


#: The inner cells of the 5×5 tile drawing next to each side, and between two sides.
_INNER = {0: (1, 2), 1: (2, 3), 2: (3, 2), 3: (2, 1)}
_CORNERS = {frozenset({0, 1}): (1, 3), frozenset({1, 2}): (3, 3), frozenset({2, 3}): (3, 1), frozenset({3, 0}): (1, 1)}


def _inside(ruleset: Ruleset, tile: int, rotation: int) -> dict[tuple[int, int], int]:
    """The kind shown in each inner cell of the tile drawing: a segment over several sides
    (a city, a road) runs through the centre, so a city joined N–S (F turned once) and
    two city caps N and S (H) look different; a port-less segment sits in the centre.
    Painted as the pictures are: roads, then cities over them, then port-less kinds."""
    tile_type = ruleset.tiles[tile]
    ports = tile_type.orientations[rotation].segment_ports
    cells: dict[tuple[int, int], int] = {}
    for layer in ("centre", "side", "none"):
        for j, segment in enumerate(tile_type.segments):
            if ruleset.kinds[segment.kind].ports != layer:
                continue
            sides = {p // 3 for p in ports[j]}
            for side in sides:
                cells[_INNER[side]] = segment.kind
            if layer == "side":
                for pair, corner in _CORNERS.items():
                    if pair <= sides:
                        cells[corner] = segment.kind
            if len(sides) != 1:  # joined through the middle (or a port-less segment's place)
                cells[(2, 2)] = segment.kind
    return cells


def tile_text(ruleset: Ruleset, tile: int, rotations: tuple[int, ...] = (0, 1, 2, 3),
              legal: set[int] | None = None) -> Text:
    """The drawn tile side by side in ``rotations``: a 5×5 drawing each (ports on the edge,
    inside them how its segments join, :func:`_inside`), its edges ``NESW`` under it,
    and, when ``legal`` is given, whether that rotation fits anywhere (``r1 fits``, ``r2 —``)."""
    width = 9
    drawings = []
    for r in rotations:
        grid: Cell = [[(" ", "")] * 5 for _ in range(5)]
        for name, (ch, style) in _port_chars(ruleset, tile, r).items():
            row, col = _BIG[name]
            grid[row][col] = (ch, style)
        for corner in ((0, 0), (0, 4), (4, 0), (4, 4)):
            grid[corner[0]][corner[1]] = ("+", "dim")
        for row in (1, 2, 3):
            for col in (1, 2, 3):
                grid[row][col] = (" ", "on grey23")
        for (row, col), kind in _inside(ruleset, tile, r).items():
            grid[row][col] = (kind_letter(ruleset, kind), kind_style(ruleset, kind))
        drawings.append(grid)
    out = Text()
    for r in rotations:  # each rotation's name, and whether it fits anywhere (a line a screen can spare)
        mark = "" if legal is None else " fits" if r in legal else " —"
        out.append(f"r{r}", style="bold")
        out.append(mark, style="green" if legal is not None and r in legal else "dim")
        out.append(" " * (width - len(f"r{r}{mark}")))
    out.rstrip()
    out.append("\n")
    for row in range(5):
        for grid in drawings:
            for ch, style in grid[row]:
                out.append(ch, style=style or None)
            out.append(" " * (width - 5))
        out.rstrip()
        out.append("\n")
    out.append("".join(f"{rotated_edges(ruleset, tile, r):<{width}}" for r in rotations).rstrip() + "\n")
    return out
