"""The draw as a chance event (engine/core/chance.py): what a player may know, and no more.

Expected values come from the rules: a shuffled stack makes every hidden tile
equally likely (RULES.md §2.2), the River's lake is drawn last and its land
tiles only after the river (rulesets/options/river.yaml), and tiles dealt
face down to several maps may lie in any of them.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.core import chance
from engine.core.game import Game
from engine.rules.ruleset import load_ruleset


def _index(ruleset, name: str) -> int:
    return ruleset.tile_ids[name]


def test_first_draw_of_the_basic_game_is_counts_over_tiles_left():
    ruleset = load_ruleset("basic")
    game = Game(ruleset, 2, seed=4)
    first = game.tile
    game.play(game.legal_moves()[0], draw=False)
    assert game.tile is None
    outcomes = dict(chance.draw_outcomes(game))
    # 72 tiles, the start tile D placed and one tile placed: 70 hidden.
    counts = Counter(t.index for t in ruleset.tiles for _ in range(t.count))
    counts[_index(ruleset, "D")] -= 1
    counts[first] -= 1
    assert outcomes == {tile: n / 70 for tile, n in counts.items() if n}
    assert sum(outcomes.values()) == pytest.approx(1.0)


def test_the_lake_comes_last_and_the_land_after_the_river():
    ruleset = load_ruleset("basic+river")
    lake, land = _index(ruleset, "RL"), {t.index for t in ruleset.tiles if t.group != "river"}
    game = Game(ruleset, 2, seed=8)
    seen_lake = False
    while game.tile is not None:
        game.play(game.legal_moves()[0], draw=False)
        if not game.remaining:
            break
        outcomes = dict(chance.draw_outcomes(game))
        river_left = sum(1 for phase in game.stacks[0] for t in phase if t not in land)
        if river_left > 1:
            assert lake not in outcomes and not land & set(outcomes)
        elif river_left == 1:
            assert outcomes == {lake: 1.0}
            seen_lake = True
        else:
            assert set(outcomes) <= land
        chance.draw(game, random.Random(len(game.history)).choice(sorted(outcomes)))
        while game.tile is None and game.remaining:  # discarded: draw again
            chance.draw(game, min(dict(chance.draw_outcomes(game))))
    assert seen_lake


def test_determinise_depends_only_on_what_is_public():
    """Two games alike but for the hidden order are dealt alike: nothing of the real order leaks."""
    for ref in ("basic", "basic+river", "basic+two-maps", "basic+unplaceable-reshuffle"):
        game = Game(load_ruleset(ref), 2, seed=11)
        for _ in range(5):
            game.play(game.legal_moves()[-1])
        other = chance.determinise(game, random.Random(99))  # the same game, another hidden order
        assert other.stacks != game.stacks
        a = chance.determinise(game, random.Random(1))
        b = chance.determinise(other, random.Random(1))
        assert a.stacks == b.stacks and a.pins == b.pins and a.rng.getstate() == b.rng.getstate()
        assert chance.unseen(a) == chance.unseen(game)
        assert a.seed is None and game.seed == 11


def test_pinned_ends_stay_put():
    ruleset = load_ruleset("basic+river")
    game = Game(ruleset, 2, seed=2)
    lake = _index(ruleset, "RL")
    for seed in range(20):
        dealt = chance.determinise(game, random.Random(seed))
        assert dealt.stacks[0][0][0] == lake  # bottom of the river phase
        assert Counter(dealt.stacks[0][1]) == Counter(game.stacks[0][1])  # land tiles stay land tiles


def test_two_maps_pool_their_hidden_tiles():
    ruleset = load_ruleset("basic+two-maps")
    game = Game(ruleset, 2, seed=5)
    game.play(game.legal_moves()[0], draw=False)
    hidden = Counter(t for stack in game.stacks for phase in stack for t in phase)
    outcomes = dict(chance.draw_outcomes(game))
    total = sum(hidden.values())
    assert outcomes == {t: n / total for t, n in hidden.items()}
    elsewhere = next(t for t in hidden if t not in game.stacks[game.map][0])
    before = [len(phase) for stack in game.stacks for phase in stack]
    chance.draw(game, elsewhere)
    assert game.history[-1][0] == elsewhere or game.tile == elsewhere
    after = [len(phase) for stack in game.stacks for phase in stack]
    assert sum(before) - sum(after) == 1


def test_a_draw_that_cannot_come_is_refused():
    ruleset = load_ruleset("basic+river")
    game = Game(ruleset, 2, seed=1)
    game.play(game.legal_moves()[0], draw=False)
    land = next(t.index for t in ruleset.tiles if t.group != "river" and t.count)
    with pytest.raises(ValueError, match="cannot be drawn next"):
        chance.draw(game, land)


def test_a_drawn_start_tile_is_a_chance_event():
    ruleset = load_ruleset("basic+random-start")
    game = Game(ruleset, 2, seed=3)
    outcomes = dict(chance.start_outcomes(game))
    assert sum(outcomes.values()) == pytest.approx(1.0) and len(outcomes) == 24
    rare = min(outcomes, key=outcomes.get)
    chance.draw_start(game, rare)
    assert game.start_tile == rare
    assert sum(chance.unseen(game).values()) == 71


@pytest.mark.parametrize("ref", ["basic", "first-edition+river", "basic+two-maps", "basic+unplaceable-reshuffle",
                                 "basic+random-start"])
def test_chance_stepped_games_end_and_use_every_tile(ref):
    ruleset = load_ruleset(ref)
    rng = random.Random(ref)
    game = Game(ruleset, 2, seed=0)
    while game.start_tile is not None:
        outcomes = chance.start_outcomes(game)
        chance.draw_start(game, rng.choices([t for t, _ in outcomes], [p for _, p in outcomes])[0])
        game.place_start(0)
    draws = 0
    while game.tile is not None or game.remaining:
        if game.tile is None:
            outcomes = chance.draw_outcomes(game)
            chance.draw(game, rng.choices([t for t, _ in outcomes], [p for _, p in outcomes])[0])
            draws += 1
            assert draws < 72 * 30
            continue
        game.play(rng.choice(game.legal_moves()), draw=False)
    game.finish()
    placed = sum(1 for _, move in game.history if move is not None)
    discarded = sum(1 for _, move in game.history if move is None)
    assert placed + discarded - game.returned + len(game.starts) == sum(t.count for t in ruleset.tiles) \
        - len(ruleset.set_aside)
