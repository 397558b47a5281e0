"""The factored action encoding (engine/api/actions.py): a cell of the crop and a rotation, then a follower spot."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.api.actions import DEFAULT_CROP, ActionCodec, CropTooSmall, windows
from engine.api.turns import ChanceGame
from engine.core import moving, personal
from engine.core.game import Game
from engine.core.moves import DRAW, HOME, Move, move_on
from engine.geometry import map_origin, pack
from engine.rules.ruleset import load_ruleset

SCENARIO_RULESETS = Path(__file__).parents[1] / "scenarios" / "rulesets"


def test_the_basic_game_has_its_documented_size():
    codec = ActionCodec.for_ruleset(load_ruleset("basic"), DEFAULT_CROP)
    # 35 × 35 cells × 4 rotations; the most segments on a basic tile is 8 (slots: none + 8); 4 start turns.
    assert (codec.crop, codec.slots) == (35, 9)
    assert codec.size == 35 * 35 * 4 + 9 + 4 == 4_913
    assert [codec.block(a) for a in (0, 4899, 4900, 4908, 4909, 4912)] == \
        ["place", "place", "follower", "follower", "start", "start"]
    with pytest.raises(ValueError, match="outside the actions"):
        codec.block(4913)


def test_each_follower_type_has_a_slot_of_its_own():
    codec = ActionCodec.for_ruleset(load_ruleset(str(SCENARIO_RULESETS / "helper-follower.yaml")), 9)
    # Two types (normal, helper): none + 8 segments x 2 types.
    assert (codec.types, codec.slots) == (2, 17)
    assert codec.follower(codec.follower_action(3, 1)) == (3, 1)
    assert codec.follower_action(3, 1) == codec.follower_action(3, 0) + 1
    assert codec.follower(codec.follower_action(None)) == (None, 0)
    with pytest.raises(ValueError, match="no tile has a spot 8"):
        codec.follower_action(8, 0)


def test_a_cell_is_counted_from_the_windows_corner():
    codec = ActionCodec.for_ruleset(load_ruleset("basic+two-maps"), 5)
    window = [(-2, -2), (3, -1)]
    # Map 1's window starts at (3, -1): cell (4, 1) is row 2, column 1.
    action = codec.place_action(map_origin(1) + pack(4, 1), 3, window)
    assert action == ((1 * 5 + 2) * 5 + 1) * 4 + 3
    assert codec.placement(action, window) == (map_origin(1) + pack(4, 1), 3)
    with pytest.raises(ValueError, match="outside the crop"):
        codec.place_action(pack(3, 0), 0, window)
    with pytest.raises(ValueError, match="places no tile"):
        codec.placement(codec.placements, window)
    with pytest.raises(ValueError, match="at least 3"):
        ActionCodec.for_ruleset(load_ruleset("basic"), 2)


def test_the_window_is_centred_on_the_tiles_and_frontier_and_refuses_a_board_too_wide():
    game = Game(load_ruleset("basic"), 2, draw_order=[0] * 3)
    # The start tile alone: its frontier spans (-1..1), centred on (0, 0).
    assert windows(game, 5) == [(-2, -2)]
    assert windows(game, 3) == [(-1, -1)]
    game.frontiers[0][pack(5, 0)] = 0  # a frontier 7 cells wide
    with pytest.raises(CropTooSmall, match="spans 7 cells with its frontier, more than the crop of 5"):
        windows(game, 5)
    assert windows(game, 7) == [(-1, -3)]


@pytest.mark.parametrize("ref", ["basic", "basic+river", "basic+two-maps", "first-edition", "basic+hand-of-two",
                                 str(SCENARIO_RULESETS / "helper-follower.yaml"),
                                 str(SCENARIO_RULESETS / "large-follower.yaml"),
                                 str(SCENARIO_RULESETS / "abbey-supply.yaml"),
                                 str(SCENARIO_RULESETS / "wagon.yaml"),
                                 str(SCENARIO_RULESETS / "barn.yaml")])
def test_every_legal_move_is_reached_by_exactly_one_pair_of_decisions(ref):
    ruleset = load_ruleset(ref)
    state = ChanceGame(ruleset, 2)
    rng = random.Random(Path(ref).name)  # not the whole path: the same game in any checkout
    while not state.over:
        if state.chance:
            state.apply(rng.choice([t for t, _ in state.outcomes()]))
            continue
        if state.game.pending_starts or state.placing is not None:
            state.apply(rng.choice(state.legal_actions()))
            continue
        reached = []
        for action in state.legal_actions():
            trial = state.copy()
            trial.apply(action)
            if trial.placing is not None:
                options = trial.options()[trial.placing]
                seconds = [trial.codec.follower_action(m.follower, m.type) for m in options]
                assert sorted(seconds) == trial.legal_actions()
                reached += options
            else:
                reached.append(_the_move(state, action))
        assert len(reached) == len(set(reached)) and set(reached) == set(state.game.legal_moves())
        state.apply(rng.choice(state.legal_actions()))


def _the_move(state: ChanceGame, action: int) -> Move:
    codec, game = state.codec, state.game
    block = codec.block(action)
    if block == "place":
        (move,) = state.options()[codec.placement(action, state.window)]
        return move
    if block == "move on":
        return codec.move_on(action, moving.of(game).movers[0][2])
    if block == "pick":
        return codec.pick(action)
    assert block == "decline"
    return DRAW


def test_a_placement_with_no_follower_spot_is_one_step_and_one_with_spots_is_two():
    state = ChanceGame(load_ruleset("basic"), 2)
    state.apply(load_ruleset("basic").tile_ids["V"])  # a curve: road and two fields
    turn = state.game.turn
    first = state.legal_actions()[0]
    assert state.codec.block(first) == "place"
    state.apply(first)
    assert state.placing is not None and state.game.turn == turn and not state.chance
    assert state.action_to_string(state.codec.follower_action(None)) == "no follower"
    assert all(state.codec.block(a) == "follower" for a in state.legal_actions())
    state.apply(state.codec.follower_action(None))
    assert state.placing is None and state.chance and state.game.turn == turn + 1


def test_the_stepped_game_refuses_what_is_not_legal_now():
    state = ChanceGame(load_ruleset("basic"))
    assert state.chance and state.legal_actions() == []
    with pytest.raises(ValueError, match="cannot be drawn next"):
        state.apply(load_ruleset("basic").tile_ids["D"] + 1000)
    state.apply(state.outcomes()[0][0])
    assert not state.chance
    legal = set(state.legal_actions())
    wrong = next(a for a in range(state.codec.placements) if a not in legal)
    with pytest.raises(ValueError, match="not legal now"):
        state.apply(wrong)
    for bad in (state.codec.start_action(0), state.codec.follower_action(None), state.codec.size, 10**7, -1):
        with pytest.raises(ValueError, match="not legal now"):
            state.apply(bad)
    with pytest.raises(ValueError, match="no draw is due"):
        state.outcomes()
    assert state.action_to_string(10**7) == "no action 10000000"
    assert state.legal_actions() == sorted(legal)


def test_a_start_rotation_out_of_range_leaves_the_state_alone():
    state = ChanceGame(load_ruleset("basic+random-start"))
    state.apply(state.outcomes()[0][0])  # the start tile is drawn; the first player turns it
    assert state.legal_actions() == [state.codec.start_action(r) for r in range(4)]
    for bad in (state.codec.size, 0):
        with pytest.raises(ValueError):
            state.apply(bad)
    assert state.legal_actions() == [state.codec.start_action(r) for r in range(4)]
    with pytest.raises(ValueError, match="returns must be one of win, points"):
        ChanceGame(load_ruleset("basic"), returns="money")


def test_declining_a_personal_tile_has_its_own_action_only_under_deck_personal():
    with pytest.raises(ValueError, match="no personal tiles"):
        ActionCodec.for_ruleset(load_ruleset("basic"), 9).draw_action  # noqa: B018  the attribute access raises
    ruleset = load_ruleset(str(SCENARIO_RULESETS / "abbey-supply.yaml"))
    codec = ActionCodec.for_ruleset(ruleset, DEFAULT_CROP)
    assert codec.size == codec.placements + codec.slots + 4 + 1 == codec.draw_action + 1
    assert codec.block(codec.draw_action) == "decline"
    state = ChanceGame(ruleset, 2)
    rng = random.Random(3)
    while not personal.of(state.game).offered or state.placing is not None:  # play on until an abbey is offered
        if state.chance:
            state.apply(rng.choice([tile for tile, _ in state.outcomes()]))
        else:
            legal = state.legal_actions()
            assert codec.draw_action not in legal
            state.apply(rng.choice(legal))
    seat, remaining = state.player, state.game.remaining
    assert state.legal_actions()[-1] == codec.draw_action
    assert state.action_to_string(codec.draw_action) == "keep AB and draw"
    state.apply(codec.draw_action)
    # Declining draws nothing yet: the draw is the next chance step, and the same seat then plays.
    assert state.chance and state.game.remaining == remaining and state.player == seat
    assert personal.of(state.game).held[seat] == 1


def test_a_follower_moving_on_is_counted_from_the_tile_it_stood_on_and_home_is_last():
    ruleset = load_ruleset(str(SCENARIO_RULESETS / "wagon.yaml"))
    codec = ActionCodec.for_ruleset(ruleset, DEFAULT_CROP)
    # Two follower types (normal, wagon): none + 8 segments x 2 types; within 1 tile: 3 × 3 cells, then home.
    assert codec.slots == 17 and codec.size == codec.moves_from + 9 * 17 + 1 == codec.home_action + 1
    origin = pack(-3, 2)
    move = move_on(pack(-2, 1), 4, 1)
    assert codec.move_on(codec.move_on_action(move, origin), origin) == move
    assert codec.move_on_action(HOME, origin) == codec.home_action and codec.move_on(codec.home_action, origin) == HOME
    with pytest.raises(ValueError, match="may not move on"):
        codec.move_on_action(move_on(pack(0, 2), 4, 1), origin)
    with pytest.raises(ValueError, match="no follower of the ruleset moves on"):
        ActionCodec.for_ruleset(load_ruleset("basic"), 9).home_action  # noqa: B018  the attribute access raises
    state, rng, decided = ChanceGame(ruleset, 2), random.Random(0), 0
    while not state.over:
        if state.chance:
            state.apply(rng.choice([t for t, _ in state.outcomes()]))
            continue
        if moving.of(state.game).movers:
            legal = state.legal_actions()
            assert all(codec.block(a) == "move on" for a in legal) and legal[-1] == codec.home_action
            assert state.action_to_string(codec.home_action) == "wagon home"
            decided += 1
        state.apply(rng.choice(state.legal_actions()))
    assert decided


@pytest.mark.parametrize("ref", ["basic", "basic+hand-of-two", str(SCENARIO_RULESETS / "abbey-supply.yaml"),
                                 str(SCENARIO_RULESETS / "wagon.yaml"), str(SCENARIO_RULESETS / "barn.yaml")])
def test_an_engine_bots_move_is_played_by_its_actions(ref):
    """``actions_for``: what benchmarks/strength.py plays the engine's bots through the OpenSpiel game with."""
    state = ChanceGame(load_ruleset(ref), 2)
    rng = random.Random(7)
    while not state.over:
        if state.chance:
            state.apply(rng.choice([t for t, _ in state.outcomes()]))
            continue
        if state.game.pending_starts:
            state.apply(state.legal_actions()[0])
            continue
        moves = state.legal_moves()
        for move in rng.sample(moves, min(4, len(moves))):
            through_actions, direct = state.copy(), state.game.copy()
            for action in through_actions.actions_for(move):
                through_actions.apply(action)
            direct.play(move, draw=False)
            if through_actions.over:  # the last tile: the stepped game ran final scoring
                direct.finish()
            assert through_actions.game.history == direct.history and through_actions.game.scores == direct.scores
            assert (moving.of(through_actions.game).decisions == moving.of(direct).decisions
                    and through_actions.placing is None)
        for action in state.actions_for(rng.choice(moves)):
            state.apply(action)
    with pytest.raises(ValueError, match="not legal now"):
        state.actions_for(Move(pack(0, 0), 0))


@pytest.mark.parametrize("crop", [4, 5, 6, 8])
def test_a_crop_of_either_parity_holds_every_placement_until_the_board_outgrows_it(crop):
    from engine.api.observation import Layout

    numpy = pytest.importorskip("numpy", reason="the observation needs numpy")
    ruleset = load_ruleset("basic")
    layout = Layout(ruleset, 2, crop)
    outgrown = 0
    for seed in range(8):
        state, rng = ChanceGame(ruleset, 2, crop=crop), random.Random(seed)
        try:
            while not state.over:
                if state.chance:
                    state.apply(rng.choice([t for t, _ in state.outcomes()]))
                    continue
                tensor = numpy.zeros(layout.size, numpy.float32)
                layout.fill(layout.views(tensor), state, state.player)
                state.apply(rng.choice(state.legal_actions()))
        except CropTooSmall as error:
            assert f"more than the crop of {crop}" in str(error) and "crop=0" in str(error)
            outgrown += 1
    assert outgrown == 8  # a crop this small is always outgrown, and only ever by CropTooSmall


def test_crop_0_is_the_crop_no_game_outgrows():
    from engine.api.actions import full_crop

    state = ChanceGame(load_ruleset("basic"), 2, crop=0)
    # 72 tiles in a line, and a frontier cell at each end.
    assert state.codec.crop == full_crop(load_ruleset("basic"), 2) == 74
    abbeys = load_ruleset(str(SCENARIO_RULESETS / "abbey-supply.yaml"))
    assert full_crop(abbeys, 3) == 72 + 3 + 2  # each seat's abbey may join the line
