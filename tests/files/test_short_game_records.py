"""Records of short games (``deck.size``): they replay, and the tile supply holds them to
exactly the tiles dealt.  (A finished short game once failed to replay: the check wanted
every tile of the ruleset drawn, though the box keeps 31 of them.)"""

from __future__ import annotations

import json

import pytest

from engine.errors import UserError
from engine.files.record import record_from_text, replay
from engine.rules.ruleset import load_ruleset
from engine.sim.play import play_game


def record_of(ref: str, seed: int) -> dict:
    return play_game(load_ruleset(ref), ["random", "greedy"], seed, ref=ref).record


@pytest.mark.parametrize("ref", ["basic+short-game", "basic+river+short-game", "basic+two-maps+short-game",
                                 "basic+random-start+short-game", "basic+unplaceable-reshuffle+short-game"])
def test_a_finished_short_game_replays(ref: str) -> None:
    record = record_of(ref, 4)
    assert len(record["turns"]) == (39 if "random-start" in ref else 40)  # a drawn start tile is one of the 40
    game, problems = replay(record_from_text(json.dumps(record), "game.json"))
    assert problems == [] and game.scores == record["scores"]["final"]


def test_a_short_game_that_stops_early_is_not_finished() -> None:
    record = record_of("basic+short-game", 4)
    record["turns"] = record["turns"][:-1]
    with pytest.raises(UserError, match="stops after turn 39 with 1 of its 41 tiles still to draw"):
        replay(record_from_text(json.dumps(record), "game.json"))


def test_a_short_game_cannot_draw_a_41st_tile() -> None:
    record = record_of("basic+short-game", 4)
    record["turns"].append(dict(record["turns"][-1]))
    with pytest.raises(UserError, match="turn 41 comes after the end of the game: all 41 tiles"):
        replay(record_from_text(json.dumps(record), "game.json"))
