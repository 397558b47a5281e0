"""Burial (deck.bury, engine/core/burial.py): a hill tile takes the next tile of the stack under it,
out of the game and unseen; what a bot may know of the stack stays exact."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import burial
from engine.core.chance import determinise, draw_outcomes, unseen
from engine.core.game import Game
from engine.core.moves import Move
from engine.rules.ruleset import load_ruleset
from engine.sim.play import play_game

HILLS = load_ruleset("basic+hills")


def stacked(order: list[str], pinned_last: bool = False) -> Game:
    """A ``basic+hills`` game whose stack is ``order`` (tile ids, first drawn first), the draw due;
    ``pinned_last``: the last of them is the phase's pinned last tile (as the River's lake is)."""
    game = Game(HILLS, 2, seed=0, draw=False)
    game.stacks = [[[HILLS.tile_ids[t] for t in reversed(order)]]]
    game.pins = [[[False, pinned_last]]]
    game.box = [[]]
    game.draw_one()
    return game


def place_first(game: Game) -> None:
    """Place the tile at its first legal placement, deploying nothing; the next draw stays due."""
    pos, rotation = game.placements()[0]
    game.play(Move(pos, rotation), draw=False)


def test_a_hill_tile_buries_the_next_tile_of_the_stack() -> None:
    game = stacked(["HS_RFR_h", "K", "E"])
    place_first(game)
    assert burial.of(game).buried == ((1, HILLS.tile_ids["K"]),)
    assert game.box == [[HILLS.tile_ids["K"]]] and game.remaining == 1
    assert draw_outcomes(game) == [(HILLS.tile_ids["E"], 0.5), (HILLS.tile_ids["K"], 0.5)]  # K may be either
    game.draw_one()
    assert game.tile == HILLS.tile_ids["E"]  # the real stack: K is out of the game


def test_a_tile_without_a_hill_buries_nothing() -> None:
    game = stacked(["E", "K"])
    place_first(game)
    assert burial.of(game).buried == () and game.remaining == 1


def test_nothing_is_buried_once_the_stack_is_used_up() -> None:
    game = stacked(["HS_RFR_h"])
    place_first(game)
    assert burial.of(game).buried == () and game.remaining == 0


def test_a_tile_pinned_last_is_not_buried() -> None:
    game = stacked(["HS_RFR_h", "E"], pinned_last=True)
    place_first(game)
    assert burial.of(game).buried == () and game.remaining == 1
    game.draw_one()
    assert game.tile == HILLS.tile_ids["E"]


@settings(max_examples=12, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_every_tile_is_placed_discarded_or_buried(seed: int) -> None:
    """80 tiles (the basic 72 and 8 hill tiles), the start tile fixed: every hill placed while the
    stack holds tiles buries one, and the 79 drawn tiles are all accounted for; the same seed
    gives the same game, burials included."""
    game = play_game(HILLS, ["random", "random"], seed).game
    placed = sum(1 for _, move in game.history if move is not None)
    discarded = sum(1 for _, move in game.history if move is None)
    assert placed + discarded + len(burial.of(game).buried) == 79
    hill = HILLS.kind("hill").index
    hill_turns = [t + 1 for t, (tile, _) in enumerate(h for h in game.history if h[1] is not None)
                  if hill in HILLS.tiles[tile].kinds]
    assert set(hill_turns) - {t for t, _ in burial.of(game).buried} <= {game.turn}  # only the very last may bury none
    assert len(burial.of(game).buried) == sum(len(box) for box in game.box)  # the buried tiles lie in the box
    again = play_game(HILLS, ["random", "random"], seed).game
    assert burial.of(again).buried == burial.of(game).buried and again.history == game.history


def test_a_search_never_learns_which_tiles_were_buried() -> None:
    """After burials, the determinised copies deal the buried tiles afresh with the stack: the
    unseen multiset is the real one, where each buried tile lies is not."""
    game = Game(HILLS, 2, seed=4)
    rng = random.Random(0)
    while len(burial.of(game).buried) < 3:
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
    boxes = set()
    for seed in range(20):
        other = determinise(game, random.Random(seed))
        assert unseen(other) == unseen(game)
        assert Counter(other.box[0]) + Counter(t for phase in other.stacks[0] for t in phase) == \
            Counter(game.box[0]) + Counter(t for phase in game.stacks[0] for t in phase)
        boxes.add(tuple(sorted(other.box[0])))
    assert len(boxes) > 1
