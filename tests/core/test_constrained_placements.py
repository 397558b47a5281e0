"""Placements of a tile held to constraints (engine/core/constrained.py ``walk``): a constraint that
reads the cell alone (``hole``) is asked once a cell, and the placements must be those of asking
every constraint of every rotation that fits, in the same order (frontier, then rotation)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots.random_player import RandomPlayer
from engine.core.constrained import walk
from engine.core.game import Game
from engine.rules.ruleset import load_ruleset

REFS = ["basic+abbey-and-mayor", "basic+river", "second-edition+river+river-immediate-u-turn",
        "basic+abbey-and-mayor+river"]


def every_rotation_asked(game: Game, tile: int) -> list[tuple[int, int]]:
    fits = game.ruleset.fits
    return [(pos, r) for pos, key in game.frontier.items() for r in fits(tile, key)
            if all(c.allows(game, tile, pos, r) for c in game.ruleset.constraints[tile])]


@settings(max_examples=25, deadline=None)
@given(which=st.integers(0, len(REFS) - 1), seed=st.integers(0, 2**32 - 1))
def test_a_constraint_asked_once_a_cell_allows_what_asking_each_rotation_allows(which: int, seed: int) -> None:
    ruleset = load_ruleset(REFS[which])
    constrained = [t for t in range(len(ruleset.tiles)) if ruleset.constraints[t]]
    assert constrained
    game = Game(ruleset, 2, seed)
    bots = [RandomPlayer(f"{seed}:{p}") for p in range(2)]
    while game.tile is not None:
        for tile in constrained:
            assert walk(game, tile) == every_rotation_asked(game, tile), (game.turn, tile)
        game.play(bots[game.player].choose(game))
