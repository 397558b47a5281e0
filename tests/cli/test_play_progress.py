"""``play --quiet`` on a terminal shows a bar of the tiles drawn; in a pipe it shows none."""

from __future__ import annotations

import io

from rich.console import Console
from typer.testing import CliRunner

from engine.cli import app
from engine.cli.turn_log import tile_progress
from engine.rules.ruleset import load_ruleset
from engine.sim.play import play_game


def test_the_bar_counts_every_tile_the_game_draws() -> None:
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=100)
    with tile_progress(console) as hook:
        played = play_game(load_ruleset("basic"), ["random", "random"], 3, on_turn=hook)
    draws = len(played.game.history)  # the 71 tiles after the start tile, discards included
    assert draws >= 71
    assert f"{draws}/{draws}" in screen.getvalue()


def test_no_bar_in_a_pipe() -> None:
    result = CliRunner().invoke(app, ["play", "--seed", "3", "--quiet"])
    assert result.exit_code == 0
    assert "━" not in result.output  # the bar is drawn with these
