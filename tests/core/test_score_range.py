"""Scores computed during play stay within ±MAX_POINTS: a formula that goes beyond stops the
game with a located error naming the feature kind, the rule and the turn (scoring and the
look-ahead alike), never an absurd score or an OverflowError further on."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from engine.core.game import Game
from engine.core.lookahead import Lookahead
from engine.errors import UserError
from engine.rules.ruleset import load_ruleset
from engine.sim.play import play_game


def variant(tmp_path: Path, road: str, key: str = "complete") -> Path:
    path = tmp_path / "big.yaml"
    path.write_text(f"extends: basic\nname: big\nfeatures:\n  road:\n    scoring:\n      {key}: {road}\n")
    return path


def failure(path: Path, players: list[str]) -> UserError:
    """The error of the first of some seeded games that fails (a seeded game does, or it is a bug)."""
    ruleset = load_ruleset(str(path), cache=False)
    with pytest.raises(UserError) as info:
        for seed in range(30):
            play_game(ruleset, players, seed)
    (found,) = info.value.diagnostics
    assert (found.file, found.line, found.col, found.code) == (str(path), 6, 17, "score-range")
    assert found.path == "$.features.road.scoring.complete"
    return info.value


def test_a_score_beyond_the_range_stops_the_game_at_the_formula_with_the_turn(tmp_path: Path) -> None:
    error = failure(variant(tmp_path, "tiles * tiles * tiles * tiles * 1000000"), ["random", "random"])
    message = error.diagnostics[0].message
    assert message.startswith("turn ") and ": the complete score of road is " in message
    assert message.endswith("beyond ±1,000,000,000, the most one score may be")
    turn = int(message.split()[1].rstrip(":"))
    tiles = int(message.split("(tiles ")[1].split(")")[0])
    assert tiles >= 6 and f"is {tiles ** 4 * 1000000} " in message and 1 <= turn <= 71


def test_the_same_game_scores_normally_while_the_formula_stays_in_range(tmp_path: Path) -> None:
    played = play_game(load_ruleset(str(variant(tmp_path, "tiles * 1000000")), cache=False),
                       ["random", "random"], 1)
    assert played.game.finished and max(played.game.scores) < 1_000_000_000


def test_a_total_beyond_the_range_is_an_error_too(tmp_path: Path) -> None:
    error = failure(variant(tmp_path, "min(tiles, 2) * 450000000"), ["random", "random"])
    message = error.diagnostics[0].message
    assert "takes seat" in message and "total to" in message
    assert message.endswith("beyond ±1,000,000,000, the most a total may be")


def test_final_scoring_totals_are_checked_as_they_add_up(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("extends: basic\nname: big\nfeatures:\n  road:\n    scoring:\n"
                    "      complete: tiles\n      incomplete: '450000000'\n")
    with pytest.raises(UserError) as info:
        for seed in range(20):
            play_game(load_ruleset(str(path), cache=False), ["random", "random"], seed)
    (found,) = info.value.diagnostics
    assert (found.line, found.col, found.code) == (7, 20, "score-range")
    assert "the incomplete score of road (450000000) takes seat" in found.message


def test_the_look_ahead_checks_the_points_it_weighs(tmp_path: Path) -> None:
    error = failure(variant(tmp_path, "tiles * 600000000"), ["greedy", "greedy"])
    assert ", looking ahead: the complete score of road is " in error.diagnostics[0].message


def test_the_look_ahead_names_the_turn_it_weighs(tmp_path: Path) -> None:
    ruleset = load_ruleset(str(variant(tmp_path, "tiles * 600000000")), cache=False)
    game = Game(ruleset, 2, 1)
    try:
        while game.tile is not None:
            Lookahead(game).moves()
            game.play(game.legal_moves()[0])
    except UserError as error:
        assert error.diagnostics[0].message.startswith(f"turn {game.turn + 1}, looking ahead: ")
    else:
        pytest.fail("no road of two tiles was ever weighed")


def test_the_error_crosses_process_boundaries_whole(tmp_path: Path) -> None:
    error = failure(variant(tmp_path, "tiles * tiles * tiles * tiles * 1000000"), ["random", "random"])
    again = pickle.loads(pickle.dumps(error))
    assert again.render() == error.render()
