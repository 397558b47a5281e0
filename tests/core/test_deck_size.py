"""``deck.size``: a game played with a random subset of the tiles (the ``short-game`` option).

The right values come from the tile counts (RULES.md §1: 72 base tiles, the
start tile D among them; the River's 12 tiles, spring and lake pinned), not
from the engine: a 40-tile game draws exactly 40 tiles; with the River every
river tile is among them; a player who has seen nothing yet expects each tile
type with its share of the whole deck, since the tiles left in the box are as
hidden as the stack's order.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from engine.core import chance
from engine.core.game import Game
from engine.rules.ruleset import load_ruleset
from engine.sim.play import play_game


def drawn_tiles(game: Game) -> list[int]:
    """Every tile drawn for play so far (placed or discarded), the current one included."""
    return [tile for tile, _ in game.history] + ([game.tile] if game.tile is not None else [])


@pytest.mark.parametrize("seed", range(5))
def test_a_short_game_draws_exactly_forty_tiles(seed: int) -> None:
    ruleset = load_ruleset("basic+short-game")
    game = play_game(ruleset, ["random", "random"], seed=seed).game
    assert len(game.history) == 40  # placed or discarded: every one of the 40 was drawn
    assert game.remaining == 0 and game.finished


@pytest.mark.parametrize("seed", range(5))
def test_with_the_river_every_river_tile_is_drawn_and_the_lake_last(seed: int) -> None:
    ruleset = load_ruleset("basic+river+short-game")
    ids = [tile.id for tile in ruleset.tiles]
    game = Game(ruleset, 2, seed=seed)
    order = [game.tile] + [tile for stack in game.stacks for phase in stack for tile in reversed(phase)]
    river = [ids[t] for t in order if ruleset.tiles[t].group == "river"]
    assert len(order) == 40
    assert len(river) == 11 and river[-1] == "RL"  # 12 river tiles, the spring RA placed at the start
    assert order[:11] == [t for t in order if ruleset.tiles[t].group == "river"]  # the river comes first
    assert len(order) - len(river) == 29


def test_the_box_holds_the_rest_of_the_deck() -> None:
    ruleset = load_ruleset("basic+short-game")
    game = Game(ruleset, 2, seed=11)
    everything = Counter({t.index: t.count for t in ruleset.tiles}) - Counter([ruleset.tile_ids["D"]])
    assert Counter(drawn_tiles(game)) + Counter(chance.unseen(game)) == everything
    assert len(game.box[0]) == 71 - 40


def test_a_player_expects_each_tile_type_with_its_share_of_the_whole_deck() -> None:
    """Before the first draw nobody knows which 40 tiles are in: V (9 copies of 71 once the
    start tile D is out) is as likely as in a full game, and so is every tile type."""
    ruleset = load_ruleset("basic+short-game")
    full = dict(chance.draw_outcomes(Game(load_ruleset("basic"), 2, seed=4, draw=False)))
    short = dict(chance.draw_outcomes(Game(ruleset, 2, seed=4, draw=False)))
    assert short == full
    assert short[ruleset.tile_ids["V"]] == pytest.approx(9 / 71)
    assert short[ruleset.tile_ids["D"]] == pytest.approx(3 / 71)


def test_determinising_deals_the_box_too() -> None:
    """A search's copy deals the stack afresh from stack and box together, so tiles the real
    game left in the box can be in the copy's stack, and the unseen tiles stay the same."""
    game = Game(load_ruleset("basic+short-game"), 2, seed=5)
    real = Counter(t for s in game.stacks for p in s for t in p)
    rng = random.Random(0)
    stacks = []
    for _ in range(20):
        other = chance.determinise(game, rng)
        assert chance.unseen(other) == chance.unseen(game)
        assert other.remaining == game.remaining
        stacks.append(Counter(t for s in other.stacks for p in s for t in p))
    assert any(stack != real for stack in stacks)


def test_a_tile_only_the_box_holds_can_be_drawn(tmp_path: Path) -> None:
    path = tmp_path / "tiny-deck.yaml"
    path.write_text("extends: basic\nname: tiny-deck\ndeck:\n  size: 3\n")
    game = Game(load_ruleset(str(path)), 2, seed=1, draw=False)
    in_stack = set(game.stacks[0][0])
    boxed_only = next(t for t in sorted(set(game.box[0])) if t not in in_stack and game.fits_somewhere(t))
    before = Counter(chance.unseen(game))
    top = game.stacks[0][0][-1]
    assert chance.draw(game, boxed_only)
    assert game.tile == boxed_only and game.remaining == 2
    assert top in game.box[0]
    assert Counter(chance.unseen(game)) == before - Counter([boxed_only])


def test_a_deck_larger_than_the_tiles_deals_every_tile(tmp_path: Path) -> None:
    path = tmp_path / "big-deck.yaml"
    path.write_text("extends: basic\nname: big-deck\ndeck:\n  size: 1000\n")
    game = Game(load_ruleset(str(path)), 2, seed=1)
    assert game.remaining + 1 == 71 and game.box == [[]]


def test_the_same_seed_cuts_the_same_deck() -> None:
    ruleset = load_ruleset("basic+two-maps+short-game")
    one, two = Game(ruleset, 2, seed=9), Game(ruleset, 2, seed=9)
    assert one.stacks == two.stacks and one.box == two.box
    assert sum(len(p) for s in one.stacks for p in s) + 1 == 40  # two fixed start tiles do not count
