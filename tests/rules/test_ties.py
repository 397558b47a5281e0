"""Tie-breaks (``rules.tie_break``, engine/rules/ties.py, engine/core/ties.py): a tied majority
won by the tied players with a follower on a hill (issue 26, Hills & Sheep). The hand-worked
rule is scenarios 96 and 97; a bad reference is tests/rulesets/invalid/197."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.game import Game
from engine.core.lookahead import Lookahead
from engine.core.trial import TrialLookahead, look_ahead
from engine.rules.ruleset import load_ruleset
from engine.sim.play import play_game

HILLS = Path(__file__).parents[1] / "scenarios" / "rulesets" / "hills.yaml"


def test_the_bots_weigh_moves_by_features_under_a_tie_break_and_by_trial_where_farms_pool(tmp_path: Path) -> None:
    """Tests/core/test_known_ends.py checks every value either way gives against the whole board."""
    assert isinstance(look_ahead(Game(load_ruleset(str(HILLS)), 2, 1)), Lookahead)
    ruleset_file = tmp_path / "hills.yaml"
    ruleset_file.write_text(HILLS.read_text().replace("extends: basic", "extends: first-edition"))
    assert isinstance(look_ahead(Game(load_ruleset(str(ruleset_file)), 2, 1)), TrialLookahead)


@pytest.mark.parametrize("edition", ["basic", "first-edition", "second-edition"])
def test_every_edition_with_hills_breaks_ties(tmp_path: Path, edition: str) -> None:
    """Under each edition's farm rule (first-edition farms decide one majority over several
    fields): a score event whose followers tie pays only tied players, and in seeded games
    some tie is broken (paid to fewer than all the tied players)."""
    ruleset_file = tmp_path / "hills.yaml"
    ruleset_file.write_text(HILLS.read_text().replace("extends: basic", f"extends: {edition}"))
    ruleset = load_ruleset(str(ruleset_file))
    assert ruleset.tie_kind >= 0
    broken = 0
    for seed in range(16):
        game = play_game(ruleset, ["greedy", "greedy"], seed).game
        for event in game.events:
            top = max(event.followers, default=0)
            tied = [p for p, n in enumerate(event.followers) if n == top and top]
            if len(tied) > 1 and event.players:
                assert set(event.players) <= set(tied)
                broken += len(event.players) < len(tied)
    assert broken > 0
