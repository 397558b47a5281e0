"""The bots: the registry, legality of every move they choose, determinism, and greedy's choice."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots.greedy import GreedyPlayer
from engine.bots.players import PLAYER_KINDS, known_kinds, make_player
from engine.core.game import Game
from engine.geometry import pack
from engine.rules.ruleset import load_ruleset

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
#: Each kind with a budget small enough for whole games in a test.
SPECS = {"random": "random", "greedy": "greedy", "mcts": "mcts:12"}


def test_unknown_kind_names_the_known_ones() -> None:
    assert {"random", "greedy"} <= set(PLAYER_KINDS)
    with pytest.raises(ValueError, match=re.escape(f"unknown player 'gredy' (known: {', '.join(known_kinds())})")):
        make_player("gredy", 1, 0)


@pytest.mark.parametrize("ref", ["basic", "first-edition", "basic+river", "basic+abbey-and-mayor"])
@pytest.mark.parametrize("kind", sorted(PLAYER_KINDS))
@settings(max_examples=2, deadline=None)
@given(seed=SEEDS)
def test_every_chosen_move_is_legal(ref: str, kind: str, seed: int) -> None:
    ruleset = load_ruleset(ref)
    game = Game(ruleset, 2, seed)
    bots = [make_player(SPECS[kind], seed, seat) for seat in range(2)]
    while game.tile is not None:
        game.play(bots[game.player].choose(game))  # checked: an illegal choice raises IllegalMove
    assert game.remaining == 0


@pytest.mark.parametrize("kind", sorted(PLAYER_KINDS))
def test_same_seed_same_choices(kind: str) -> None:
    ruleset = load_ruleset("basic")

    def history(seed: int) -> list:
        game = Game(ruleset, 2, 11)
        bots = [make_player(SPECS[kind], seed, seat) for seat in range(2)]
        while game.tile is not None:
            game.play(bots[game.player].choose(game), checked=True)
        return game.history

    assert history(5) == history(5)


def test_greedy_closes_the_start_city_with_a_knight() -> None:
    """Scenario S1 (RULES.md §4): with a city cap (E) as the first tile, closing the
    start tile's city with a knight pays 4 at once; no other move is worth as much
    (a farmer beside the closed city would be worth 3 at game end, a knight on an
    open cap 1), so greedy must choose it."""
    ruleset = load_ruleset("basic")
    cap = ruleset.tile_ids["E"]
    game = Game(ruleset, 2, draw_order=[cap])
    move = GreedyPlayer(0).choose(game)
    assert (move.pos, move.rotation) == (pack(0, -1), 2)
    assert ruleset.kinds[ruleset.tiles[cap].segments[move.follower].kind].name == "city"
    game.play(move)
    assert game.scores == [4, 0]
