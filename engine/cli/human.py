"""A human at a terminal as a :class:`~engine.bots.players.Player`.

``HumanPlayer`` shows each turn as text (the board around the play area, the
scores, the drawn tile in its four rotations and the numbered legal moves) and
reads the answer through an ``input`` callable, so the same class serves a
real terminal (``builtins.input``) and tests (a function that pops scripted
answers).  Everything is printed through a :class:`rich.console.Console`, so
tests capture it with ``Console(file=io.StringIO(), width=120)``.

An answer is a number from the list, or the move typed in the README's
notation: ``X,Y rR`` and optionally a follower ``KIND@PORT`` (or a bare
port-less kind such as ``cloister``; ``-`` or nothing for none), e.g.
``3,-1 r2 city@N``.  Anything else is refused with the engine's own reason
(:meth:`Game.check <engine.core.game.Game.check>` and
:func:`~engine.files.notation.parse_follower`) and asked again: a typo must never
end a game.  ``?`` prints help and every legal move; ``q`` (or end of input)
raises :class:`QuitGame`, which the play loop catches to save the record so far.
"""

from __future__ import annotations

import builtins
import re
from dataclasses import dataclass
from typing import Callable

from rich.console import Console
from rich.text import Text

from ..core.game import Game, IllegalMove, Move
from ..geometry import PORTS, pack
from ..files.notation import format_follower, parse_follower
from ..sim.play import QuitGame  # the play loop catches it and saves what was played
from ..rules.kinds import FeatureKind
from ..rules.ruleset import Ruleset

__all__ = ["HumanPlayer", "QuitGame", "Choice", "board_text", "tile_text", "move_notation", "parse_move", "MoveInputError"]


class MoveInputError(ValueError):
    """Typed text that names no legal move; the message says why, for the player to read."""


#: Styles of the kinds the shipped rulesets use; a designer's own kinds take the fallbacks in order.
KIND_STYLES: dict[str, str] = {
    "city": "bold black on dark_orange3",
    "road": "bold black on grey70",
    "field": "black on green4",
    "river": "bold white on dodger_blue2",
    "cloister": "bold white on red3",
}
_FALLBACK_STYLES = ("bold black on orchid", "bold black on cyan3", "bold black on yellow3", "bold white on purple4")
#: Seat colours for follower markers (the seat's number on black, so it stands out on any kind).
SEAT_STYLES = ("bold bright_red on black", "bold bright_cyan on black", "bold bright_yellow on black",
               "bold bright_magenta on black", "bold bright_white on black")
_FIT_STYLE = "bold cyan"
_CELL_W, _CELL_H = 5, 3
#: Where each port sits in a board cell (row, column): the twelve ports make the ring of a 5×3 block.
#: The corners carry the E/W half-sides (EL is the north half of E, as seen looking out east).
_RING = {"WR": (0, 0), "NL": (0, 1), "N": (0, 2), "NR": (0, 3), "EL": (0, 4), "W": (1, 0), "E": (1, 4),
         "WL": (2, 0), "SR": (2, 1), "S": (2, 2), "SL": (2, 3), "ER": (2, 4)}
#: Where each port sits in the 5×5 drawing of the drawn tile (like ``carcassonne tiles``, without spacing).
_BIG = {"NL": (0, 1), "N": (0, 2), "NR": (0, 3), "EL": (1, 4), "E": (2, 4), "ER": (3, 4),
        "SL": (4, 3), "S": (4, 2), "SR": (4, 1), "WL": (3, 0), "W": (2, 0), "WR": (1, 0)}

Cell = list[list[tuple[str, str]]]  # rows of (character, style)


def kind_style(ruleset: Ruleset, kind: int) -> str:
    """The colour of feature kind ``kind``: fixed for shipped kinds so a player learns them once."""
    name = ruleset.kinds[kind].name
    return KIND_STYLES.get(name) or _FALLBACK_STYLES[kind % len(_FALLBACK_STYLES)]


def kind_letter(ruleset: Ruleset, kind: int) -> str:
    """The kind's edge letter (C, R, F, I …), or its initial for a kind without one."""
    k = ruleset.kinds[kind]
    return k.edge or k.name[:1].upper()


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
    label = tile_type.id[:3].center(3)
    for i, ch in enumerate(label):
        cell[1][1 + i] = (ch, centre_style)
    for segment, seat in game.on_board:
        if game.seg_pos[segment] != pos:
            continue
        port = _follower_port(ruleset, tile, rotation, segment - base)
        row, col = _RING[port] if port else (1, 2)
        cell[row][col] = (str(seat + 1), SEAT_STYLES[seat % len(SEAT_STYLES)])
    return cell


def _fit_cell(x: int, y: int) -> Cell:
    """An empty cell where the drawn tile fits: a box with the coordinates to type."""
    label = f"{x},{y}"
    middle = f"│{label:^3}│" if len(label) <= 3 else f"{label:^5}"[:5]
    return [[(ch, _FIT_STYLE) for ch in row] for row in ("╭───╮", middle, "╰───╯")]


def _blank_cell(frontier: bool) -> Cell:
    cell: Cell = [[(" ", "")] * _CELL_W for _ in range(_CELL_H)]
    if frontier:  # touches the board, but the drawn tile fits there in no rotation
        cell[1][2] = ("·", "dim")
    return cell


def board_text(game: Game, *, max_width: int = 120) -> Text:
    """The current map around the play area: placed tiles, followers, and the cells where
    the drawn tile fits, with x labels on top and y labels on the left.

    Columns beyond ``max_width`` characters are cropped around the middle of
    the board (and the crop is said), since a wrapped grid is unreadable.
    """
    m = game.map
    mine = {}
    for pos in game.board:
        pm, x, y = game.local(pos)
        if pm == m:
            mine[(x, y)] = pos
    frontier = {(x, y) for pos in game.frontier for _, x, y in [game.local(pos)]}
    fits = ({(x, y) for pos, _ in game.placements() for _, x, y in [game.local(pos)]}
            if game.tile is not None else set())
    cells = set(mine) | frontier or {(0, 0)}
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    margin = 5
    columns = max(1, (max_width - margin) // (_CELL_W + 1))
    note = ""
    if x1 - x0 + 1 > columns:
        middle = (x0 + x1) // 2
        x0 = middle - columns // 2
        x1 = x0 + columns - 1
        note = f"(board cropped to x = {x0}…{x1}; widen the terminal to see all of it)"
    last = game.history[-1][1].pos if game.history and game.history[-1][1] is not None else None
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
    return out


def tile_text(ruleset: Ruleset, tile: int, rotations: tuple[int, ...] = (0, 1, 2, 3),
              legal: set[int] | None = None) -> Text:
    """The drawn tile side by side in ``rotations``: a 5×5 drawing each (ports on the edge,
    a port-less segment in the middle), its edges ``NESW`` under it, and, when ``legal``
    is given, whether that rotation fits anywhere."""
    tile_type = ruleset.tiles[tile]
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
        portless = [s.kind for s in tile_type.segments if not s.ports]
        if portless:
            grid[2][2] = (kind_letter(ruleset, portless[0]), kind_style(ruleset, portless[0]))
        drawings.append(grid)
    out = Text()
    out.append("".join(f"{'r%d' % r:<{width}}" for r in rotations).rstrip() + "\n", style="bold")
    for row in range(5):
        for grid in drawings:
            for ch, style in grid[row]:
                out.append(ch, style=style or None)
            out.append(" " * (width - 5))
        out.rstrip()
        out.append("\n")
    out.append("".join(f"{rotated_edges(ruleset, tile, r):<{width}}" for r in rotations).rstrip() + "\n")
    if legal is not None:
        for r in rotations:
            out.append(f"{'fits' if r in legal else '—':<{width}}", style="green" if r in legal else "dim")
        out.rstrip()
        out.append("\n")
    return out


def move_notation(game: Game, move: Move, tile: int | None = None) -> str:
    """``X,Y rR [KIND@PORT]`` of ``move`` for ``tile`` (default: the current tile), X,Y on its map."""
    tile = game.tile if tile is None else tile
    _, x, y = game.local(move.pos)
    text = f"{x},{y} r{move.rotation}"
    if move.follower is not None:
        text += " " + format_follower(game.ruleset, tile, move.rotation, move.follower)
    return text


_POSITION = re.compile(r"^\(?\s*([+-]?\d+)\s*[,;\s]\s*([+-]?\d+)\s*\)?\s*(.*)$")
_ROTATION = re.compile(r"^r\s*([+-]?\d+)(?![\w@#])\s*(.*)$", re.IGNORECASE)
_NONE = {"", "-", "none", "no", "nothing"}


def parse_move(game: Game, text: str) -> Move:
    """The legal move ``text`` names: ``X,Y rR`` and an optional follower (``KIND@PORT``,
    a bare port-less kind, or ``-``), spaces anywhere.  ``rR`` may be left out where
    only one rotation fits.  Raises :class:`MoveInputError` saying what is wrong."""
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
    follower = _parse_follower(game, rotation, rest)
    move = Move(pos, rotation, follower)
    try:
        game.check(move)
    except IllegalMove as error:
        raise MoveInputError(f"{x},{y} r{rotation} {rest.replace(' ', '')}: {error}") from None
    return move


def _kind_of(ruleset: Ruleset, text: str) -> FeatureKind | None:
    """The feature kind a follower text starts with, if any (to tell ``road@E`` from a bad ``rX``)."""
    name = re.split(r"[@#\s]", text.strip().lstrip("+"), maxsplit=1)[0]
    return ruleset.kind(name) or ruleset.kind(name.lower())


def _parse_follower(game: Game, rotation: int, text: str) -> int | None:
    """The segment a follower text names (None for none), forgiving case and spaces."""
    text = re.sub(r"\s*([@#])\s*", r"\1", text.strip()).lstrip("+").strip()  # "city @ N" is city@N
    if text.lower() in _NONE:
        return None
    if len(text.split()) > 1:
        raise MoveInputError(f"one follower spot at most, and nothing after it: '{text}'")
    ruleset, tile = game.ruleset, game.tile
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


@dataclass(frozen=True)
class Choice:
    """One numbered item of the move list: its number, the move, and how the move is written."""

    number: int
    move: Move
    text: str


class HumanPlayer:
    """A player who answers at a terminal: implements the :class:`~engine.bots.players.Player` protocol.

    ``input`` is called with a prompt and returns the answer (``builtins.input``
    at a terminal, a script in tests); output goes to ``console`` (a new
    :class:`~rich.console.Console` by default).  ``max_listed`` caps the
    placements listed each turn (the rest are one ``?`` away), so a turn with
    100+ legal moves still fits a screen.
    """

    def __init__(self, name: str, *, input: Callable[[str], str] = builtins.input,
                 console: Console | None = None, max_listed: int = 24,
                 seat_names: list[str] | None = None) -> None:
        self.name = name
        self.seat_names = seat_names  # every seat's name, to label the score line; else P1, P2, …
        self._input = input
        self.console = console if console is not None else Console(highlight=False)
        self.max_listed = max_listed
        self._seen_history = 0
        self._seen_events = 0

    # -- the Player protocol ---------------------------------------------------

    def choose(self, game: Game) -> Move:
        """Show the turn, then ask until the answer is a legal move for ``game.tile``."""
        choices = self.choices(game)
        self.show_turn(game, choices)
        while True:
            answer = self._ask("Your move (number, X,Y rR [KIND@PORT], ? help, q quit): ")
            if answer in ("?", "h", "help"):
                self.show_help(game, choices)
                continue
            if answer.lower() in ("b", "board"):
                self.show_turn(game, choices)
                continue
            try:
                move = self._interpret(game, answer, choices)
            except MoveInputError as error:
                self._refuse(str(error))
                continue
            except Exception as error:  # a UI boundary: report and ask again rather than end the game
                self._refuse(f"could not use '{answer}': {error}")
                continue
            self.console.print(Text(f"→ {move_notation(game, move)}", style="bold green"))
            return move

    def choose_start(self, game: Game) -> int:
        """Ask for the rotation (0–3) of a start tile drawn from the stack (``game.start_tile``)."""
        tile = game.start_tile
        ruleset = game.ruleset
        self.console.rule(Text(f"{self.name}: turn the start tile {ruleset.tiles[tile].id}", style="bold"))
        self.console.print(tile_text(ruleset, tile))
        while True:
            answer = self._ask("Start tile rotation (0–3 or r0–r3, ? help, q quit): ")
            if answer in ("?", "h", "help"):
                self.console.print("The start tile goes at 0,0. Give its rotation: 0, 1, 2 or 3 clockwise "
                                   "quarter turns from the drawing r0 (r1 = 90°, r2 = 180°, r3 = 270°); "
                                   "q quits.", highlight=False)
                self.console.print(tile_text(ruleset, tile))
                continue
            found = re.fullmatch(r"r?\s*([+-]?\d+)", answer, re.IGNORECASE)
            if found and 0 <= int(found[1]) <= 3:
                return int(found[1])
            self._refuse(f"'{answer}' is not a rotation: type 0, 1, 2 or 3 (clockwise quarter turns)")

    # -- what the player sees --------------------------------------------------

    def choices(self, game: Game) -> list[Choice]:
        """The legal moves, numbered from 1 in reading order (by row, then column, then rotation),
        each placement first without a follower, then with each follower spot."""
        placements = sorted(game.placements(), key=lambda pr: (*reversed(game.local(pr[0])[1:]), pr[1]))
        out: list[Choice] = []
        for pos, r in placements:
            for follower in (None, *game.deploy_options(pos, r)):
                move = Move(pos, r, follower)
                out.append(Choice(len(out) + 1, move, move_notation(game, move)))
        return out

    def show_turn(self, game: Game, choices: list[Choice]) -> None:
        """The whole turn screen: header, news since the last turn, board, scores, tile, moves."""
        ruleset, tile = game.ruleset, game.tile
        c = self.console
        where = f" · map {game.map + 1} of {ruleset.maps}" if ruleset.maps > 1 else ""
        c.rule(Text(f"Turn {game.turn + 1} · P{game.player + 1} {self.name} · tile {ruleset.tiles[tile].id}"
                    f" · {game.remaining} left to draw{where}", style="bold"))
        self._show_news(game)
        c.print(board_text(game, max_width=c.width), end="")
        c.print(self._scores(game))
        legal = {r for _, r in game.placements()}
        c.print(Text(f"Your tile {ruleset.tiles[tile].id} (edges N E S W per rotation; rotations are "
                     f"clockwise quarter turns):", style="bold"))
        c.print(tile_text(ruleset, tile, legal=legal), end="")
        c.print(self._move_list(game, choices, limit=self.max_listed))
        c.print(Text("Type a number or a move like 3,-1 r2 city@N (no follower: 3,-1 r2); "
                     "? help, b board, q quit.", style="dim"))

    def show_help(self, game: Game, choices: list[Choice]) -> None:
        """The notation, the coordinate system and every legal move."""
        kinds = ", ".join(f"{k.name}" + (f" ({k.edge})" if k.edge else "") for k in game.ruleset.kinds)
        self.console.print(Text(
            "How to answer\n"
            "  a number from the list            e.g. 3\n"
            "  X,Y rR                            place the tile without a follower, e.g. 3,-1 r2\n"
            "  X,Y rR KIND@PORT                  and put a follower there, e.g. 3,-1 r2 city@N\n"
            "  X,Y rR KIND                       a port-less feature, e.g. 0,1 r0 cloister\n"
            "  ? help   b redraw the board   q quit (the game so far is kept)\n"
            "Coordinates: x grows east, y grows SOUTH; the start tile is at 0,0, so 0,-1 is north of it.\n"
            "Rotations: r0–r3 are clockwise quarter turns of the tile as drawn at r0 (r1 = 90°).\n"
            "Ports (board orientation, after turning): sides N E S W; half-sides NL NR EL ER SL SR WL WR,\n"
            "  left/right as seen from the tile's centre looking out (NL is the west half of N).\n"
            f"Feature kinds: {kinds}.  On the board a tile is a 5×3 block: its ports round the edge,\n"
            "  its id in the middle; a digit is a follower of that seat; ╭───╮ boxes are cells where\n"
            "  your tile fits.", style=None))
        self.console.print(self._move_list(game, choices, limit=None))

    def _move_list(self, game: Game, choices: list[Choice], limit: int | None) -> Text:
        """Numbered moves, one group per placement: ``1) 3,-1 r2   2) +city@N   3) +road@E``.

        Groups are laid out in as many columns as the console is wide for
        (bare placements are short, so a 100-move turn late in the game takes a
        few rows), and at most ``limit`` rows are shown.
        """
        groups: list[list[Choice]] = []
        for choice in choices:
            if choice.move.follower is None:
                groups.append([choice])
            else:
                groups[-1].append(choice)
        number_w = len(str(len(choices)))
        head_w = max((len(g[0].text) for g in groups), default=0)
        chunks = []
        for group in groups:
            chunk = Text()
            chunk.append(f"{group[0].number:>{number_w}}) ", style="bold cyan")
            chunk.append(f"{group[0].text:<{head_w}}")
            for choice in group[1:]:
                spot = choice.text.split(" ", 2)[2]
                chunk.append(f"  {choice.number:>{number_w}}) ", style="cyan")
                chunk.append(f"+{spot}", style=self._spot_style(game, choice.move))
            chunks.append(chunk)
        out = Text()
        out.append(f"Legal moves ({len(choices)} in {len(groups)} placements):\n", style="bold")
        chunk_w = max((len(c) for c in chunks), default=0) + 3
        per_row = max(1, (self.console.width - 2) // chunk_w)
        rows = [chunks[i:i + per_row] for i in range(0, len(chunks), per_row)]
        for row in rows[:limit]:
            out.append("  ")
            for chunk in row:
                out.append_text(chunk)
                out.append(" " * (chunk_w - len(chunk)))
            out.rstrip()
            out.append("\n")
        if limit is not None and len(rows) > limit:
            hidden = groups[limit * per_row:]
            out.append(f"  … {len(hidden)} more placements ({sum(map(len, hidden))} moves): "
                       f"? lists all; any legal move may be typed\n", style="yellow")
        out.rstrip()
        return out

    def _spot_style(self, game: Game, move: Move) -> str:
        segment = game.ruleset.tiles[game.tile].segments[move.follower]
        return kind_style(game.ruleset, segment.kind)

    def _scores(self, game: Game) -> Text:
        """One line: each seat's colour, score and followers left; ``you`` marks the seat to play."""
        out = Text("Scores  ")
        for seat in range(game.players):
            out.append(f" {seat + 1} ", style=SEAT_STYLES[seat % len(SEAT_STYLES)])
            named = self.seat_names[seat] if self.seat_names and seat < len(self.seat_names) else (
                self.name if seat == game.player else "")
            who = f" P{seat + 1} {named}".rstrip() + (" ◀" if seat == game.player else "")
            out.append(who, style="bold" if seat == game.player else None)
            out.append(f" {game.scores[seat]} pts, {game.supply[seat]} followers left   ")
        out.rstrip()
        return out

    def _show_news(self, game: Game) -> None:
        """What was played and scored since this player last looked, so a bot's turn is not missed."""
        seats = _history_seats(game)
        names = [f"P{s + 1}" for s in range(game.players)]
        lines = []
        for (tile, move), seat in list(zip(game.history, seats))[self._seen_history:]:
            tile_id = game.ruleset.tiles[tile].id
            if move is None:
                lines.append(f"tile {tile_id} fitted nowhere: discarded")
            else:
                lines.append(f"{names[seat]} placed {tile_id} at {move_notation(game, move, tile)}")
        lines += [f"scored: {event.explain(names)}" for event in game.events[self._seen_events:]]
        self._seen_history, self._seen_events = len(game.history), len(game.events)
        if lines:
            shown = lines[-8:]  # the latest, so a long gap cannot push the board off screen
            if len(lines) > len(shown):
                shown.insert(0, f"… {len(lines) - len(shown)} earlier")
            self.console.print(Text("Since your last turn: " + "\n  ".join(shown), style="dim"))

    # -- input -----------------------------------------------------------------

    def _ask(self, prompt: str) -> str:
        """One answer, stripped; ``q`` or a closed input (end of file, Ctrl-C) quits the game."""
        try:
            answer = self._input(prompt)
        except (EOFError, KeyboardInterrupt):
            raise QuitGame("input ended") from None
        answer = str(answer if answer is not None else "").strip()
        if answer.lower() in ("q", "quit", "exit"):
            raise QuitGame(f"{self.name} quit")
        return answer

    def _interpret(self, game: Game, answer: str, choices: list[Choice]) -> Move:
        """A move from a list number or typed notation; :class:`MoveInputError` when neither."""
        if not answer:
            raise MoveInputError("type a number from the list, or a move like 3,-1 r2 city@N (? for help)")
        if re.fullmatch(r"[+-]?\d+\)?", answer):
            number = int(answer.rstrip(")"))
            if not 1 <= number <= len(choices):
                raise MoveInputError(f"there is no move {number}: the list goes from 1 to {len(choices)}")
            return choices[number - 1].move
        return parse_move(game, answer)

    def _refuse(self, reason: str) -> None:
        self.console.print(Text(f"✗ {reason}", style="bold red"))


def _history_seats(game: Game) -> list[int]:
    """The seat behind each history entry: turns pass after a placement, not after a discard."""
    seats, seat = [], 0
    for _, move in game.history:
        seats.append(seat)
        if move is not None:
            seat = (seat + 1) % game.players
    return seats
