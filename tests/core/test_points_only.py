"""Scoring for points only (``Game(explain=False)``, what simulations use) pays exactly what
the explained path pays: the same scores, the same points per kind, the same errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.game import Game
from engine.core.scoring import points_by_kind
from engine.errors import UserError
from engine.rules.ruleset import load_ruleset
from engine.sim.play import play_game, play_points

#: Every farm rule (3rd, 2nd, 1st edition), the River, returned tiles, two maps, no farmers.
REFS = ["basic", "second-edition", "first-edition", "basic+river", "first-edition+river+unplaceable-reshuffle",
        "basic+two-maps", "basic+no-farmers+incomplete-full", "second-edition+farm-points-4"]


@pytest.mark.parametrize("ref", REFS)
@pytest.mark.parametrize("players", [("random", "random"), ("greedy", "random")])
def test_points_only_pays_what_the_events_pay(ref, players):
    ruleset = load_ruleset(ref)
    for seed in range(4):
        explained = play_game(ruleset, list(players), seed).game
        points = play_points(ruleset, list(players), seed)
        assert points.events == [] and explained.events
        assert points.scores == explained.scores
        assert points.kind_points == explained.kind_points == points_by_kind(explained)
        assert points.history == explained.history
        by_events = [0] * len(players)
        for event in explained.events:
            for p in event.players:
                by_events[p] += event.points
        assert by_events == explained.scores


def test_points_only_finish_returns_the_points_it_adds():
    game = Game(load_ruleset("first-edition"), 2, 3, explain=False)
    while game.tile is not None:
        game.play(game.legal_moves()[-1])
    before = list(game.scores)
    paid = game.finish()
    assert paid and all(item.points for item in paid)
    gained = [0, 0]
    for item in paid:
        for p in item.players:
            gained[p] += item.points
    assert [a + b for a, b in zip(before, gained)] == game.scores
    assert game.finish() == []


def test_points_only_stops_at_the_same_out_of_range_formula(tmp_path: Path):
    path = tmp_path / "big.yaml"
    path.write_text("extends: basic\nname: big\nfeatures:\n  road:\n    scoring:\n"
                    "      complete: tiles * tiles * tiles * tiles * 1000000\n")
    ruleset = load_ruleset(str(path), cache=False)
    messages = []
    for play in (lambda seed: play_game(ruleset, ["random", "random"], seed),
                 lambda seed: play_points(ruleset, ["random", "random"], seed)):
        with pytest.raises(UserError) as info:
            for seed in range(30):
                play(seed)
        (found,) = info.value.diagnostics
        messages.append((found.line, found.col, found.code, found.message))
    assert messages[0] == messages[1]
    assert messages[0][2] == "score-range"
