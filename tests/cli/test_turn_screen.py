"""The terminal player's screen fitted to the terminal (issue 50: "the move list pushes the board
off a 130×45 terminal").  Screens are rendered to a 130×45 terminal console after greedy bots
have played a while; before the fix they took 47 to 80 lines."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from engine.bots.greedy import GreedyPlayer
from engine.cli.human import HumanPlayer
from engine.cli.move_list import move_list
from engine.cli.screen import board_text
from engine.cli.turn_screen import MIN_ROWS
from engine.core.game import Game
from engine.rules.ruleset import load_ruleset

RICH = "basic+abbey-and-mayor+inns-and-cathedrals"


def terminal(width: int = 130, height: int = 45) -> Console:
    """A console that is a terminal of ``width``×``height`` characters, writing to a string."""
    return Console(file=io.StringIO(), width=width, height=height, force_terminal=True, color_system=None)


def played(ref: str, turns: int, seed: int = 5) -> Game:
    game = Game(load_ruleset(ref), 2, seed=seed)
    bots = [GreedyPlayer("a"), GreedyPlayer("b")]
    while game.turn < turns:
        game.play(bots[game.player].choose(game))
    return game


def screen(game: Game, out: Console) -> list[str]:
    player = HumanPlayer("x", console=out)
    player.show_turn(game, player.choices(game))
    return out.file.getvalue().splitlines()


def rows_shown(lines: list[str]) -> list[int]:
    """The y labels of the board rows on a screen (a row's middle line starts with its y)."""
    return [int(m.group(1)) for line in lines if (m := re.match(r"^ {0,3}(-?\d+) ", line))]


@pytest.mark.parametrize(("ref", "turns"), [("basic", 20), ("basic", 50), (RICH, 10), (RICH, 30), (RICH, 50)])
def test_a_turn_fits_a_130_by_45_terminal_with_the_board_on_it(ref: str, turns: int) -> None:
    """The screen and the prompt under it take at most 45 lines, none wider than 130; the board
    keeps at least MIN_ROWS rows (or all it has), among them the row of the last tile placed."""
    game = played(ref, turns)
    lines = screen(game, terminal())
    assert len(lines) + 1 <= 45, len(lines)
    assert all(len(line) <= 130 for line in lines)
    whole = rows_shown(board_text(game, max_width=130).plain.splitlines())
    shown = rows_shown(lines)
    assert len(shown) >= min(MIN_ROWS, len(whole)), (shown, whole)
    _, _, last_y = game.local(game.history[-1][1].pos)
    assert last_y in shown
    if len(shown) < len(whole):
        assert f"(board cropped to y = {shown[0]}…{shown[-1]}; type b to see all of it)" in lines


def test_a_small_terminal_still_shows_a_row_of_the_board() -> None:
    lines = screen(played(RICH, 30), terminal(height=20))
    assert rows_shown(lines), lines


def test_news_entries_are_cropped_to_a_line_when_they_would_push_the_board_off() -> None:
    """At turn 31 of the rich game six entries came in since the player last looked, some of two
    lines: each is cropped to one line, ending in an ellipsis."""
    lines = screen(played(RICH, 30), terminal())
    news = lines[lines.index(next(line for line in lines if line.startswith("Since your last turn"))):]
    news = news[:next(i for i, line in enumerate(news) if rows_shown([line]) or line.startswith("   "))]
    assert any(line.endswith("…") for line in news), news
    assert all(len(line) <= 130 for line in news)


def test_output_that_is_not_a_terminal_shows_the_whole_board() -> None:
    """A pipe or a file has no height: the board is never cropped (the news is still the latest 8)."""
    game = played(RICH, 30)
    lines = screen(game, Console(file=io.StringIO(), width=130, height=45))
    assert not any("board cropped" in line for line in lines)
    assert rows_shown(lines) == rows_shown(board_text(game, max_width=130).plain.splitlines())


def test_b_prints_every_row_of_the_board() -> None:
    game = played(RICH, 30)
    answers = iter(["b", "1"])
    out = terminal()
    HumanPlayer("x", console=out, input=lambda prompt: next(answers)).choose(game)
    whole = rows_shown(board_text(game, max_width=130).plain.splitlines())
    assert len(rows_shown(out.file.getvalue().splitlines())) >= len(whole) + MIN_ROWS


def test_board_rows_are_cropped_around_the_last_tile_and_the_crop_is_said() -> None:
    game = played("basic", 40)
    _, _, last_y = game.local(game.history[-1][1].pos)
    whole = rows_shown(board_text(game, max_width=200).plain.splitlines())
    cropped = board_text(game, max_width=200, max_rows=3).plain.splitlines()
    shown = rows_shown(cropped)
    assert len(shown) == 3 and last_y in shown and set(shown) <= set(whole)
    if whole[0] < last_y < whole[-1]:
        assert shown == [last_y - 1, last_y, last_y + 1]
    assert f"(board cropped to y = {shown[0]}…{shown[-1]}; type b to see all of it)" in cropped


def test_every_line_of_the_move_list_fits_the_width() -> None:
    """An entry of eight follower spots (the rich ruleset) is broken between its moves, under
    its head, and the lines counted against the limit are the lines shown."""
    game = played(RICH, 30)
    choices = HumanPlayer("x", console=terminal()).choices(game)
    for width in (60, 100, 130):
        shown = move_list(game, choices, 8, width).plain.splitlines()
        assert all(len(line) <= width for line in shown), width
        assert len(shown) <= 1 + 8 + 1
    whole = move_list(game, choices, None, 60).plain
    assert [int(n) for n in re.findall(r"(\d+)\) ", whole)] == list(range(1, len(choices) + 1))
