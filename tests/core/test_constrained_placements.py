"""Placements of a tile held to constraints (engine/core/constrained.py ``walk``): a constraint that
reads the cell alone (``hole``) is asked once a cell, and the placements must be those of asking
every constraint of every rotation that fits, in the same order (frontier, then rotation).  Where a
tile whose constraints all read the cell alone fits is kept between turns (``spots``): it must be
where asking everything finds, however many tiles were placed since it was last asked."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots.random_player import RandomPlayer
from engine.core.choices import placements
from engine.core.constrained import by_cell_only, spots, walk
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


@settings(max_examples=25, deadline=None)
@given(which=st.integers(0, 1), seed=st.integers(0, 2**32 - 1), every=st.integers(1, 7))
def test_where_a_hole_filler_fits_kept_between_turns_is_where_asking_everything_finds(
        which: int, seed: int, every: int) -> None:
    """Asked every ``every`` turns (so brought up to date from one tile or several, or worked out
    afresh past four), and on a copy played on differently: the kept cells are the cells of
    :func:`every_rotation_asked`, and the abbey's placements (its table built from them when it is
    the tile to place) are the same list in the same order."""
    ruleset = load_ruleset(["basic+abbey-and-mayor", "basic+abbey-and-mayor+king-and-robber-baron"][which])
    kept = [t for t in range(len(ruleset.tiles)) if ruleset.constraints[t]]
    game = Game(ruleset, 2, seed)
    assert kept and all(by_cell_only(game, t) for t in kept)
    bots = [RandomPlayer(f"{seed}:{p}") for p in range(2)]
    while game.tile is not None:
        if game.turn % every == 0:
            for tile in kept:
                asked = every_rotation_asked(game, tile)
                assert spots(game, tile) == {pos for pos, _ in asked}, (game.turn, tile)
                assert placements(game, tile) == asked
                assert game.fits_somewhere(tile) == bool(asked)
            if game.turn % (2 * every) == 0:  # a copy asked after a different move keeps its own
                other = game.copy()
                other.play(RandomPlayer(seed + 1).choose(other))
                for tile in kept:
                    assert spots(other, tile) == {pos for pos, _ in every_rotation_asked(other, tile)}
        if game.tile in kept:
            assert placements(game) == every_rotation_asked(game, game.tile)
        game.play(bots[game.player].choose(game))
