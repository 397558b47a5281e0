"""The terminal player's screen fitted to the terminal (issue 50: "the move list pushes the board
off a 130×45 terminal").  Screens are rendered to a 130×45 terminal console after greedy bots
have played a while; before the fix they took 47 to 80 lines."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from engine.bots.greedy import GreedyPlayer
from engine.cli.hand_choice import choose_tile
from engine.cli.human import HumanPlayer
from engine.cli.move_list import move_list
from engine.cli.screen import board_text
from engine.cli.turn_screen import MIN_ROWS
from engine.core.game import Game
from engine.rules.inspect import shipped_games
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
        assert f"(board cropped to y = {shown[0]}…{shown[-1]}: b shows every row)" in lines


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
    assert f"(board cropped to y = {shown[0]}…{shown[-1]}: b shows every row)" in cropped


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


@pytest.mark.parametrize(("ref", "turns"), [("basic", 30), (RICH, 30), ("basic+hand-of-two", 20)])
def test_a_turn_fits_an_80_by_24_terminal_with_a_row_of_the_board(ref: str, turns: int) -> None:
    """Found by a reviewer: at 80x24 the eight lines of moves and the tile left the board and the
    heading off screen.  The moves shrink (to one line at least) so that a row stays."""
    game = played(ref, turns)
    while game.decision() is not None and game.decision().name != "place":
        game.play(GreedyPlayer("c").choose(game))
    lines = screen(game, terminal(80, 24))
    assert len(lines) + 1 <= 24 and all(len(line) <= 80 for line in lines), "\n".join(lines)
    assert lines[0].startswith("─") and rows_shown(lines)


@pytest.mark.parametrize("ref", ["basic+hand-of-two", "basic+draw-three-keep-one"])
def test_the_hand_to_pick_from_fits_an_80_by_24_terminal(ref: str) -> None:
    """The hand's tiles are drawn side by side (a reviewer: three tiles one under another took
    24 lines alone)."""
    game = played(ref, 12)
    while game.decision().name != "pick":
        game.play(GreedyPlayer("c").choose(game))
    out = terminal(80, 24)
    player = HumanPlayer("x", console=out, input=lambda prompt: "1")
    choose_tile(player, game)
    lines = out.file.getvalue().splitlines()
    assert len(lines) <= 24 and rows_shown(lines), "\n".join(lines)
    held = [line for line in lines if re.match(r"^  1\) ", line)]
    assert held and (ref == "basic+hand-of-two" or "  3) " in held[0])


def test_one_line_of_news_is_the_latest_entry_with_a_count_of_the_rest() -> None:
    """A reviewer: a single line of news read "2 things happened", not what happened."""
    game = played(RICH, 30)
    player = HumanPlayer("x", console=terminal(130, 26))
    news = player.news(played(RICH, 30))
    player2 = HumanPlayer("x", console=terminal(130, 26))
    player2.show_turn(game, player2.choices(game))
    lines = player2.console.file.getvalue().splitlines()
    line = next(line for line in lines if line.startswith("Since your last turn"))
    assert line.startswith(f"Since your last turn: (and {len(news) - 1} earlier) {news[-1][:40]}")


def test_b_prints_the_moves_again_under_the_whole_board() -> None:
    game = played(RICH, 30)
    answers = iter(["b", "1"])
    out = terminal()
    HumanPlayer("x", console=out, input=lambda prompt: next(answers)).choose(game)
    after_b = out.file.getvalue().split("Legal moves (")
    assert len(after_b) == 3 and "Type a number or a move" in after_b[2]


def test_a_fit_cell_too_narrow_for_its_coordinates_shows_them_on_two_lines() -> None:
    """A reviewer: the cell -3,-10 read "-3,-1" (the label cut to the cell's five columns)."""
    from engine.cli.screen import _fit_cell

    assert ["".join(ch for ch, _ in row) for row in _fit_cell(-3, -10)] == ["╭───╮", " -3, ", " -10 "]
    assert ["".join(ch for ch, _ in row) for row in _fit_cell(12, -4)] == ["╭───╮", "12,-4", "╰───╯"]
    assert ["".join(ch for ch, _ in row) for row in _fit_cell(1, 2)] == ["╭───╮", "│1,2│", "╰───╯"]


@pytest.mark.parametrize("ref", shipped_games())
def test_every_tile_type_lists_its_moves(ref: str) -> None:
    """A reviewer: a field inside a city (no port: named "field#1") crashed the move list under
    Abbey & Mayor, Inns & Cathedrals, Traders & Builders and King & Robber Baron.  Each tile type
    of every shipped ruleset, drawn at turn 1, lists every move."""
    ruleset = load_ruleset(ref)
    for tile in range(len(ruleset.tiles)):
        game = Game(ruleset, 2, seed=1)
        if game.tile is None:
            continue
        game.force_tile(tile)
        choices = HumanPlayer("x", console=terminal()).choices(game)
        listed = move_list(game, choices, None, 130).plain
        assert [int(n) for n in re.findall(r"(\d+)\) ", listed)] == list(range(1, len(choices) + 1)), tile
