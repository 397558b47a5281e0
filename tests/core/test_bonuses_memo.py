"""What the game-end bonuses pay, kept by the aggregates it was worked out on
(engine/core/bonus_part.py ``bonuses_paid``, ``Board.bonuses_memo``): a kept answer is the one
working it out afresh gives, at every position of games under rulesets with bonuses and titles,
for copies too, and the memo never grows past its limit."""

from __future__ import annotations

import pytest

from engine.bots.greedy import GreedyPlayer
from engine.core import bonus_part
from engine.core.game import Game
from engine.core.tallies import aggregates
from engine.rules.bonuses import read_by
from engine.rules.ruleset import load_ruleset

REFS = ["basic+inns-and-cathedrals+traders-and-builders", "basic+king-and-robber-baron",
        "basic+longest-road-bonus+traders-and-builders"]


def paid_afresh(game: Game) -> list[int]:
    inputs = aggregates(game, [{} for _ in range(game.players)], read_by(game.ruleset.bonuses))
    kept, game.bonuses_memo = game.bonuses_memo, {}
    try:
        return bonus_part.bonuses_paid(game, inputs)
    finally:
        game.bonuses_memo = kept


@pytest.mark.parametrize("ref", REFS)
def test_a_kept_answer_is_the_one_worked_out_afresh(ref: str) -> None:
    game = Game(load_ruleset(ref), 2, 5)
    assert game.ruleset.bonuses
    bots = [GreedyPlayer(f"5:{p}") for p in range(2)]
    asked = 0
    while game.tile is not None:
        inputs = aggregates(game, [{} for _ in range(game.players)], read_by(game.ruleset.bonuses))
        kept = bonus_part.bonuses_paid(game, inputs)
        asked += 1
        assert kept == paid_afresh(game) == bonus_part.bonuses_paid(game, inputs), game.turn
        copy = game.copy()  # shares the memo: its answers hold for the copy's own positions
        copy.play(bots[copy.player].choose(copy))
        if copy.tile is not None:
            assert bonus_part.bonuses_paid(copy, aggregates(copy, [{} for _ in range(copy.players)],
                                                              read_by(copy.ruleset.bonuses))) == paid_afresh(copy)
        game.play(bots[game.player].choose(game))
    assert 0 < len(game.bonuses_memo) < asked  # positions repeat their aggregates


def test_the_memo_is_emptied_at_its_limit() -> None:
    game = Game(load_ruleset(REFS[0]), 2, 1)
    inputs = aggregates(game, [{} for _ in range(game.players)], read_by(game.ruleset.bonuses))
    game.bonuses_memo.update({("filler", n): (0, 0) for n in range(bonus_part.MEMO_LIMIT)})
    assert bonus_part.bonuses_paid(game, inputs) == paid_afresh(game)
    assert len(game.bonuses_memo) == 1
