"""A follower type whose strength reads the feature it stands on (the mayor: ``strength:
pennants``): weighed on each feature, named by its own name, and a strength below 0 stops the
game at its formula.  The rules' values are pinned by scenarios 80-82."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.bots.greedy import GreedyPlayer
from engine.core.game import Game
from engine.core.moves import Move
from engine.errors import UserError
from engine.files.notation import follower_name
from engine.geometry import pack
from engine.rules.ruleset import load_ruleset
from engine.sim.play import play_game

MAYOR = Path(__file__).parents[1] / "scenarios" / "rulesets" / "mayor.yaml"


def test_a_strength_over_constants_stays_one_number_and_one_over_the_feature_is_kept_as_a_formula() -> None:
    ruleset = load_ruleset(str(MAYOR))
    (mayor,) = ruleset.follower_types[1:]
    assert mayor.strength_of is not None and mayor.strength_of.text == "pennants"
    assert ruleset.feature_strengths == ((1, mayor.strength_of),)
    large = load_ruleset("basic+inns-and-cathedrals").follower_types[1]
    assert (large.strength, large.strength_of) == (2, None)


def test_the_mayor_weighs_as_many_as_its_city_has_pennants() -> None:
    ruleset = load_ruleset(str(MAYOR))
    tiles = ruleset.tile_ids
    # C, a city on all four sides with a pennant, north of D joins D's city and leaves it open.
    game = Game(ruleset, 2, draw_order=[tiles["C"], tiles["E"]])
    game.play(Move(pack(0, -1), 0, 0, 1))
    root = game.find(game.board[pack(0, -1)][1])
    assert game.followers_by_player(root) == [1, 0]
    assert game.weights == (1, 1)  # the nominal strength; the feature gives the real one


def test_the_log_names_a_mayor_by_its_own_name() -> None:
    ruleset = load_ruleset(str(MAYOR))
    assert follower_name(ruleset, 1, "knight") == "mayor"
    assert follower_name(load_ruleset("basic+inns-and-cathedrals"), 1, "knight") == "large knight"


def stopped_by(tmp_path: Path, strength: str) -> tuple[Path, object]:
    """The one diagnostic of the first of 30 seeded random games under a mayor of ``strength``
    that stops (one does, or the test fails), with the ruleset's path."""
    path = tmp_path / "mayor.yaml"
    path.write_text("extends: basic\nname: odd-mayor\nfollower_types:\n"
                    f"  mayor: {{count: 1, strength: {strength}, kinds: [city]}}\n")
    ruleset = load_ruleset(str(path), cache=False)
    with pytest.raises(UserError) as info:
        for seed in range(30):
            play_game(ruleset, ["random", "random"], seed)
    (found,) = info.value.diagnostics
    return path, found


def test_a_strength_below_0_stops_the_game_at_its_formula(tmp_path: Path) -> None:
    path, found = stopped_by(tmp_path, "pennants - 1")
    assert (found.file, found.line, found.col, found.code) == (str(path), 4, 31, "strength-range")
    assert found.path == "$.follower_types.mayor.strength"
    assert found.message.startswith("turn ")
    assert found.message.endswith(": the strength of a mayor on a city is -1 (pennants 0), outside 0-255, what a "
                                  "follower may count for in a majority")


def test_a_strength_out_of_range_met_weighing_a_move_names_the_move_weighed(tmp_path: Path) -> None:
    """The greedy bot weighs the mayor by features (engine/core/majorities.py): a strength out of
    range there names the turn of the move weighed, as playing it on a copy would (found by a review:
    it said ``turn 0``, the start tile's)."""
    path = tmp_path / "mayor.yaml"
    path.write_text("extends: basic\nname: odd-mayor\nfollower_types:\n"
                    "  mayor: {count: 1, strength: pennants - 1, kinds: [city]}\n")
    ruleset = load_ruleset(str(path), cache=False)
    game = Game(ruleset, 2, 1)
    with pytest.raises(UserError) as info:
        GreedyPlayer("1:0").choose(game)  # a city segment on the first tile drawn takes a mayor
    (found,) = info.value.diagnostics
    assert (found.line, found.col, found.code) == (4, 31, "strength-range")
    assert found.message.startswith("turn 1, looking ahead: the strength of a mayor on a city is -1 (pennants 0)")


def test_a_strength_above_255_stops_the_game_too(tmp_path: Path) -> None:
    # Each seat's total is then at most 255 a follower: no sum of strengths runs away either.
    _, found = stopped_by(tmp_path, "1000 * tiles * tiles * tiles")
    assert found.code == "strength-range" and "outside 0-255" in found.message


def test_a_number_strength_outside_0_to_255_is_refused_as_such(tmp_path: Path) -> None:
    for given in ("300", "-1"):
        path = tmp_path / "big.yaml"
        path.write_text(f"extends: basic\nname: big\nfollower_types:\n  big: {{count: 1, strength: {given}}}\n")
        with pytest.raises(UserError) as info:
            load_ruleset(str(path), cache=False)
        (found,) = info.value.diagnostics
        assert (found.line, found.col, found.code, found.message) == (
            4, 29, "follower-type", f"strength {given} is outside 0-255")


def test_an_unknown_kind_is_the_only_error_of_a_strength_that_reads_the_kinds(tmp_path: Path) -> None:
    path = tmp_path / "castle.yaml"
    path.write_text("extends: basic\nname: castle\nfollower_types:\n"
                    "  mayor: {count: 1, strength: pennants, kinds: [castle]}\n")
    with pytest.raises(UserError) as info:
        load_ruleset(str(path), cache=False)
    assert [(d.code, d.message) for d in info.value.diagnostics] == [
        ("follower-type", "'castle' is not a feature kind")]


def test_the_log_says_why_a_feature_paid_nobody() -> None:
    ruleset = load_ruleset(str(MAYOR))
    game = Game(ruleset, 2, draw_order=[ruleset.tile_ids["E"], ruleset.tile_ids["U"]])
    (event,) = game.play(Move(pack(0, -1), 2, 0, 1))  # a mayor closes the 2-tile city, no pennant
    assert event.explain(["A", "B"]) == ("city@S at (0,-1) (complete; tiles 2, pennants 0, followers 0 v 0): "
                                         "2 * tiles = 4, 2 * pennants = 0 → 4 for nobody")
    assert game.scores == [0, 0] and game.supply == [8, 8]
