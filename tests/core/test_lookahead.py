"""The look-ahead's value of every candidate move equals copying the game and playing it,
under every farm rule (per farm, per city, each city once per player), with farms that
count cities alone or cities and cloisters."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots.random_player import RandomPlayer
from engine.core.game import Game
from engine.core.lookahead import Lookahead
from engine.core.moves import Move
from engine.rules.ruleset import load_ruleset

BASIC = load_ruleset("basic")


def oracle(game: Game, move: Move) -> list[int]:
    trial = game.copy()
    trial.apply(move)
    return trial.potential_scores()


RULESETS = [BASIC, load_ruleset("first-edition"), load_ruleset("second-edition"),
            load_ruleset("basic+river+own-follower-may-join"),
            # Farms that count two kinds (cities and cloisters) under each farm rule.
            load_ruleset("basic+farms-pay-cloisters"), load_ruleset("first-edition+farms-pay-cloisters"),
            load_ruleset("second-edition+river+farms-pay-cloisters")]


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), stop=st.integers(1, 80),
       which=st.integers(0, len(RULESETS) - 1))
def test_lookahead_matches_playing_each_move(seed: int, players: int, stop: int, which: int) -> None:
    game = Game(RULESETS[which], players, seed)
    bots = [RandomPlayer(f"{seed}:{p}") for p in range(players)]
    checked = 0
    while game.tile is not None and game.turn < stop:
        if game.turn % 3 == 0 or game.turn + 1 == stop:
            found = dict(Lookahead(game).moves())
            assert set(found) == set(game.legal_moves())
            for move, vector in found.items():
                assert vector == oracle(game, move), (game.turn, move)
                checked += 1
        game.play(bots[game.player].choose(game))
    assert checked > 0
