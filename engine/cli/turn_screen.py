"""One screen of the terminal player fitted to the terminal's height (issue 50: the board was
pushed off a 130×45 terminal).

A screen is a heading, the news since the player last looked, the board, and what follows it
(the scores, the tile, the moves).  The moves are listed in as many lines as leave room for a
line of news and a row of the board (:func:`move_lines`); what follows the board is measured;
then the news gets what is left but room for :data:`MIN_ROWS` rows of the board (the latest
entries, each cropped to a line when they would wrap past it); then the board gets the rest,
cropped to whole rows around the last tile placed (``b`` prints it whole).  Output that is not
a terminal (a file, a pipe, a test's capture) has no height: nothing is cropped but the number
of news entries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from .screen import board_text

if TYPE_CHECKING:
    from rich.console import Console

    from ..core.game import Game

#: The fewest rows of tiles the board keeps on screen when the news would take their room.
MIN_ROWS = 4
#: The news entries shown at most (the latest), so a long gap cannot push the board off screen.
LATEST = 8
#: The lines under the screen: the question asked.
PROMPT_LINES = 1
#: The fewest lines of moves listed, however short the terminal.
MIN_MOVE_LINES = 1


def show_screen(console: Console, game: Game, heading: Text, news: list[str], below: list[Text]) -> None:
    """Print ``heading`` (as a rule), ``news`` (lines, oldest first), the board and ``below`` on
    ``console``, fitted to its height when it is a terminal (module docstring)."""
    console.rule(heading)
    height = console.size.height if console.is_terminal else None
    room = None if height is None else height - 1 - PROMPT_LINES - sum(lines_of(console, part) for part in below)
    whole = board_text(game, max_width=console.width)
    if room is None:
        shown, board = _news(news, LATEST, None), whole
    else:
        # A row is 3 lines; beside them the x labels, the crop note and the line naming typed pieces.
        floor = min(lines_of(console, whole), 3 + 3 * MIN_ROWS)
        shown = _news(news, max(1, room - floor), console.width)
        board = _board(console, game, whole, room - lines_of(console, shown))
    if news:
        console.print(shown, soft_wrap=False)
    console.print(board, end="", soft_wrap=False)
    for part in below:
        console.print(part, soft_wrap=False)  # wrapped between words, as measured


def move_lines(console: Console, game: Game, others: list[Text], most: int) -> int:
    """How many lines of moves a turn screen of ``game`` lists on ``console`` beside ``others``
    (the rest of what follows the board): ``most``, or fewer on a terminal too short to show them
    with the heading, a line of news, a row of the board and the prompt, but
    :data:`MIN_MOVE_LINES` at least."""
    if not console.is_terminal:
        return most
    row = lines_of(console, board_text(game, max_width=console.width, max_rows=1))  # its labels and notes too
    room = (console.size.height - 1 - PROMPT_LINES - sum(lines_of(console, part) for part in others)
            - 1 - row - 2)  # the heading; the news; the list's title and its "more" line
    return max(MIN_MOVE_LINES, min(most, room))


def lines_of(console: Console, text: Text) -> int:
    """How many lines ``text`` takes on ``console`` (wrapped to its width; a final newline ends
    the last line, as ``print(..., end="")`` prints it)."""
    if not text.plain:
        return 0
    count = len(text.wrap(console, console.width))
    return count - 1 if text.plain.endswith("\n") else count


def _news(news: list[str], most: int, width: int | None) -> Text:
    """``Since your last turn:`` and the latest ``news`` entries in at most ``most`` lines (and
    :data:`LATEST`), the earlier ones counted; with a ``width``, each entry cropped to one line
    (``…``) when they would wrap past ``most``."""
    keep = min(LATEST, most)
    if len(news) <= keep:
        entries = news
    elif keep > 1:
        entries = [f"… {len(news) - keep + 1} earlier", *news[len(news) - keep + 1:]]
    else:  # the latest, saying how many came before it
        entries = [f"(and {len(news) - 1} earlier) {news[-1]}"]
    lines = [("Since your last turn: " if i == 0 else "  ") + entry for i, entry in enumerate(entries)]
    if width is not None and sum(-(-len(line) // width) for line in lines) > most:
        lines = [line if len(line) <= width else line[:width - 1] + "…" for line in lines]
    return Text("\n".join(lines), style="dim")


def _board(console: Console, game: Game, whole: Text, room: int) -> Text:
    """``whole`` (the board uncropped) if it fits in ``room`` lines, else the board cropped to as
    many rows of tiles as fit (at least one)."""
    board, rows = whole, max(1, (room - 2) // 3)
    while lines_of(console, board) > room:
        board = board_text(game, max_width=console.width, max_rows=rows)
        if rows == 1:
            break
        rows -= 1
    return board


__all__ = ["LATEST", "MIN_MOVE_LINES", "MIN_ROWS", "PROMPT_LINES", "lines_of", "move_lines", "show_screen"]
