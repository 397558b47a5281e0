"""Neighbourhood inputs (``around``, engine/rules/around.py): what the 8 tiles around a
port-less feature hold (issue 26, Hills & Sheep's vineyards). The hand-worked rule is
scenarios 94 and 95; bad rulesets are tests/rulesets/invalid/194-196."""

from __future__ import annotations

from pathlib import Path

from engine.core.game import Game
from engine.core.lookahead import Lookahead
from engine.core.trial import TrialLookahead, look_ahead
from engine.rules.ruleset import load_ruleset
from engine.sim.play import play_game
from engine.view.tile_svg import tile_group

VINEYARDS = str(Path(__file__).parents[1] / "scenarios" / "rulesets" / "vineyards.yaml")


def test_the_bots_weigh_moves_by_features_under_around_inputs() -> None:
    """A tile placed beside a cloister changes what it counts: the look-ahead by features
    counts the new tile for the cloisters around it (tests/core/test_known_ends.py checks every
    value against the whole board); where farms pool their score, each move is played on a copy."""
    assert isinstance(look_ahead(Game(load_ruleset(VINEYARDS), 2, 1)), Lookahead)
    assert isinstance(look_ahead(Game(load_ruleset("first-edition+vineyards"), 2, 1)), TrialLookahead)


def test_a_completed_cloister_scores_its_vineyards_and_an_unfinished_one_does_not() -> None:
    """Over seeded games: every completed cloister scores 9 + 3 per vineyard counted around it,
    every unfinished one 1 + its neighbours, and the count never exceeds the 8 tiles."""
    ruleset = load_ruleset(VINEYARDS)
    counted = []
    for seed in range(6):
        game = play_game(ruleset, ["greedy", "random"], seed).game
        for event in game.events:
            if event.kind != "cloister":
                continue
            vineyards = int(event.inputs["vineyards"])
            assert 0 <= vineyards <= 8
            if event.rule == "complete":
                assert event.points == 9 + 3 * vineyards
                counted.append(vineyards)
            else:
                assert event.points == 1 + int(event.inputs["neighbors"])
    assert counted and max(counted) > 0  # some completed cloister had a vineyard beside it


def test_pictures_draw_a_vineyard_as_grapes_and_a_cloister_as_a_building() -> None:
    ruleset = load_ruleset(VINEYARDS)
    tiles = {t.id: t.index for t in ruleset.tiles}
    assert 'class="icon grapes"' in tile_group(ruleset, tiles["VB"])
    assert 'class="icon"' in tile_group(ruleset, tiles["B"]) and "grapes" not in tile_group(ruleset, tiles["B"])
