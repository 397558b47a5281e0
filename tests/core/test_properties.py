"""Invariants over many random seeded games (hypothesis picks the seeds)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots.random_player import RandomPlayer
from engine.core.game import Game
from engine.geometry import SIDE_STEP
from engine.rules.ruleset import load_ruleset
from engine.sim.play import play_game

BASIC = load_ruleset("basic")
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def assert_neighbours_match(game: Game) -> None:
    mirror = game.ruleset.edge_mirror
    for pos, (orientation, _, _) in game.board.items():
        for side in range(4):
            neighbour = game.board.get(pos + SIDE_STEP[side])
            if neighbour is not None:
                assert neighbour[0].side_codes[(side + 2) % 4] == mirror[orientation.side_codes[side]]


@settings(max_examples=200, deadline=None)
@given(seed=SEEDS)
def test_random_game_invariants(seed: int) -> None:
    game = Game(BASIC, 2, seed)
    bots = [RandomPlayer(f"{seed}:0"), RandomPlayer(f"{seed}:1")]
    previous = [0, 0]
    while game.tile is not None:
        game.play(bots[game.player].choose(game))  # checked: every bot move must be legal
        for p in range(2):
            on_board = sum(1 for _, owner, _, _ in game.on_board if owner == p)
            assert on_board + game.supply[p] == BASIC.followers
        assert all(now >= before for now, before in zip(game.scores, previous))
        previous = list(game.scores)
    game.finish()
    assert all(now >= before for now, before in zip(game.scores, previous))
    assert_neighbours_match(game)
    total = sum(t.count for t in BASIC.tiles)
    discarded = sum(1 for _, move in game.history if move is None)
    assert len(game.board) + discarded == total == 72
    sums = [0, 0]
    for event in game.events:
        for p in event.players:
            sums[p] += event.points
    assert sums == game.scores


@settings(max_examples=5, deadline=None)
@given(seed=SEEDS)
def test_same_seed_same_game(seed: int) -> None:
    first = play_game(BASIC, ["random", "greedy"], seed)
    second = play_game(BASIC, ["random", "greedy"], seed)
    assert json.dumps(first.record) == json.dumps(second.record)
    assert_neighbours_match(first.game)
