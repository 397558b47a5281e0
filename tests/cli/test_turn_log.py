"""The game log of ``carcassonne play``: an extra turn is marked where it is earned."""

from __future__ import annotations

import io
import re

from rich.console import Console

from engine.cli.turn_log import turn_logger
from engine.rules.ruleset import load_ruleset
from engine.sim.play import play_game


def test_every_extra_turn_is_marked_and_played_by_the_same_seat() -> None:
    # Traders & Builders: a placement that extends a feature holding the player's builder
    # earns one more tile at once, and the extra tile earns none (no chaining).
    ruleset = load_ruleset("basic+traders-and-builders")
    names = ["greedy-1", "greedy-2"]
    screen = io.StringIO()
    played = play_game(ruleset, ["greedy", "greedy"], 4,
                       on_turn=turn_logger(Console(file=screen, width=200), ruleset, names))
    game = played.game
    # From the game itself: a placement followed by a turn of the same seat (a discard keeps
    # the seat too, so only placements count).
    extras = [i for i in range(1, len(game.history))
              if game.history[i - 1][1] is not None and game.seats[i] == game.seats[i - 1]]
    lines = screen.getvalue().splitlines()
    marked = [n for n, line in enumerate(lines) if line.endswith("the builder's extra turn")]
    assert extras and len(marked) == len(extras)
    for n in marked:
        seat = re.search(r"↳ (\S+) places another tile", lines[n]).group(1)
        following = next(line for line in lines[n + 1:] if re.match(r"\s*\d+ ", line))
        assert following.split()[1] == seat  # the next placement is that player's
    placements = [line for line in lines if re.match(r"\s*\d+ greedy", line)]
    # Tile ids are padded to the longest (TB_CccR_w), so the position column lines up.
    assert len({line.index("(") for line in placements}) == 1
    assert not any(b == a + 1 for a, b in zip(extras, extras[1:]))  # an extra turn earns none
