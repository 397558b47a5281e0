"""The observation (engine/api/observation.py) tells positions apart: different tiles, rotations,
followers or scores never give the same tensor or the same string."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.api import observation
from engine.api.actions import CropTooSmall
from engine.api.turns import ChanceGame
from engine.core import moving
from engine.core.hands import of as hands_of
from engine.geometry import pack
from engine.rules.ruleset import load_ruleset

numpy = pytest.importorskip("numpy", reason="the observation needs numpy")

SCENARIO_RULESETS = Path(__file__).parents[1] / "scenarios" / "rulesets"
#: The turn structures and pieces the tensor has planes for: maps, the River, hands, tokens, titles,
#: personal tiles, a follower moving on, corner spots, follower types.
RULESETS = ["basic", "basic+river", "basic+two-maps", "basic+hand-of-two",
            "basic+traders-and-builders+king-and-robber-baron", "basic+abbey-and-mayor",
            str(SCENARIO_RULESETS / "wagon.yaml"), str(SCENARIO_RULESETS / "barn.yaml")]


def _key(state: ChanceGame) -> tuple:
    """What the observation must tell apart: the tiles and rotations, the followers and where they
    stand, the scores; and the moment (the seat to act, a placement chosen, a follower moving on)."""
    game = state.game
    tiles = tuple(sorted((pos, tile, orientation.rotation) for pos, (orientation, _, tile) in game.board.items()))
    followers = tuple(sorted(game.on_board))
    return tiles, followers, tuple(game.scores), state.placing, tuple(moving.of(game).movers), \
        None if state.chance or state.over else state.player


def _seen(layout: observation.Layout, state: ChanceGame, seat: int) -> tuple[bytes, str]:
    tensor = numpy.zeros(layout.size, numpy.float32)
    layout.fill(layout.views(tensor), state, seat)
    return tensor.tobytes(), observation.text(state, seat)


def deal(state: ChanceGame, rng: random.Random) -> None:
    """Resolve every draw due now, each by its probability."""
    while not state.over and state.chance:
        outcomes = state.outcomes()
        state.apply(rng.choices([t for t, _ in outcomes], [p for _, p in outcomes])[0])


def positions(ruleset, rng: random.Random, games: int = 3, siblings: int = 10):
    """Every position of ``games`` random games at a seat's turn and, at every ``siblings``-th
    (without hands), each position one legal action away: the closest pairs there are."""
    for _ in range(games):
        state, step = ChanceGame(ruleset, 2, crop=35), 0
        while True:
            deal(state, rng)
            if state.over:
                break
            yield state
            step += 1
            if step % siblings == 0 and hands_of(state.game) is None:
                for action in state.legal_actions():
                    child = state.copy()
                    child.apply(action)
                    yield child
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("ref", RULESETS)
def test_no_two_positions_look_alike(ref):
    """Random games, and at every tenth position every legal action tried: siblings differ by one
    cell, rotation or follower spot, the closest pairs there are.  Thousands of positions in all."""
    ruleset = load_ruleset(ref)
    layout = observation.Layout(ruleset, 2, 35)
    by_tensor: dict[bytes, tuple] = {}
    by_text: dict[str, tuple] = {}
    seen = 0

    def check(state: ChanceGame) -> None:
        nonlocal seen
        key = _key(state)
        tensor, text = _seen(layout, state, 0)
        assert by_tensor.setdefault(tensor, key) == key, f"two positions give one tensor: {text}"
        assert by_text.setdefault(text, key) == key, f"two positions give one string: {text}"
        seen += 1

    for state in positions(ruleset, random.Random(ref)):
        check(state)
    assert seen > 300


def test_the_same_tile_turned_another_way_is_another_tensor_and_string():
    # The case: tile V at (1,0) turned 0 or turned 1, both legal next to the start tile D.
    ruleset = load_ruleset("basic")
    seen = []
    for rotation in (0, 1):
        state = ChanceGame(ruleset, 2)
        state.apply(ruleset.tile_ids["V"])
        layout = observation.Layout(ruleset, 2, state.codec.crop)
        action = state.codec.place_action(pack(1, 0), rotation, state.window)
        assert action in state.legal_actions()
        state.apply(action)
        if state.placing is not None:
            state.apply(state.codec.follower_action(None))
        seen.append(_seen(layout, state, 0))
    (tensor_0, text_0), (tensor_1, text_1) = seen
    assert tensor_0 != tensor_1 and text_0 != text_1
    assert "V(1,0)r0" in text_0 and "V(1,0)r1" in text_1


def test_the_planes_of_a_follower_name_its_seat_type_and_spot():
    ruleset = load_ruleset("basic")
    state = ChanceGame(ruleset, 2)
    state.apply(ruleset.tile_ids["V"])
    state.apply(state.codec.place_action(pack(1, 0), 0, state.window))
    spots = [a for a in state.legal_actions() if state.codec.follower(a)[0] is not None]
    spot, kind = state.codec.follower(spots[0])
    state.apply(spots[0])
    layout = observation.Layout(ruleset, 2, state.codec.crop)
    tensor = numpy.zeros(layout.size, numpy.float32)
    views = layout.views(tensor)
    layout.fill(views, state, 1)
    x0, y0 = state.window[0]
    cell = views["board"][0, :, 0 - y0, 1 - x0]
    assert cell[layout.seats_at] == 1 and cell[layout.seats_at + 1] == 0
    assert cell[layout.spots_at] == 2 ** spot and kind == 0
    assert views["pieces"].tolist() == [[6], [7]] and views["me"].tolist() == [0, 1]
    assert views["potential"][0] >= views["scores"][0]


def test_a_board_wider_than_the_crop_is_refused_by_name():
    ruleset = load_ruleset("basic")
    state = ChanceGame(ruleset, 2, crop=3)
    state.apply(ruleset.tile_ids["V"])
    state.apply(state.legal_actions()[0])
    if state.placing is not None:
        state.apply(state.codec.follower_action(None))
    state.apply(state.outcomes()[0][0])
    with pytest.raises(CropTooSmall, match="spans 4 cells with its frontier, more than the crop of 3: "
                                           "a game can span up to 74"):
        state.legal_actions()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), crop=st.integers(30, 40), steps=st.integers(0, 160))
def test_the_planes_count_what_is_on_the_board(seed, crop, steps):
    """Whatever the crop's parity and the position: one tile plane per placed tile, one rotation and one
    tile type each, the frontier whole, and every follower either in supply or on a spot plane."""
    ruleset = load_ruleset("basic")
    state, rng = ChanceGame(ruleset, 2, crop=crop), random.Random(seed)
    for _ in range(steps):
        if state.over:
            break
        if state.chance:
            state.apply(rng.choice([t for t, _ in state.outcomes()]))
        else:
            state.apply(rng.choice(state.legal_actions()))
    layout = observation.Layout(ruleset, 2, crop)
    tensor = numpy.zeros(layout.size, numpy.float32)
    views = layout.views(tensor)
    layout.fill(views, state, 0)
    board, game = views["board"][0], state.game
    assert board[0].sum() == len(game.board) == board[12:16].sum() == board[layout.types_at:layout.seats_at].sum()
    assert board[1].sum() == len(game.frontiers[0]) and board[3].sum() == 1
    spots = board[layout.spots_at:]
    on_spots = sum(bin(int(v)).count("1") for v in spots.flatten() if v)
    assert on_spots == len(game.on_board) and views["pieces"].sum() + on_spots == 14
