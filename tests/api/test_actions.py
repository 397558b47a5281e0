"""The action encoding (engine/api/actions.py): every legal move of any ruleset, and nothing clipped."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.api.actions import ActionCodec
from engine.core.game import Game
from engine.core.moves import Move
from engine.geometry import map_origin, pack
from engine.rules.ruleset import load_ruleset


def test_the_basic_game_has_its_documented_size():
    codec = ActionCodec.for_ruleset(load_ruleset("basic"))
    # 72 tiles: a 145 × 145 square; the most segments on a basic tile is 8 (slots: none + 8).
    assert (codec.reach, codec.side, codec.slots) == (72, 145, 9)
    assert codec.size == 145 * 145 * 4 * 9 + 4 == 756_904


SCENARIO_RULESETS = Path(__file__).parents[1] / "scenarios" / "rulesets"


def test_each_follower_type_has_a_slot_of_its_own():
    codec = ActionCodec.for_ruleset(load_ruleset(str(SCENARIO_RULESETS / "helper-follower.yaml")))
    # Two types (normal, helper): none + 8 segments x 2 types.
    assert (codec.types, codec.slots) == (2, 17)
    assert codec.decode(codec.encode(Move(pack(1, 0), 1, 3, 1))) == Move(pack(1, 0), 1, 3, 1)
    assert codec.encode(Move(pack(1, 0), 1, 3, 1)) == codec.encode(Move(pack(1, 0), 1, 3, 0)) + 1


@pytest.mark.parametrize("ref", ["basic", "basic+river", "basic+two-maps", "first-edition",
                                 str(SCENARIO_RULESETS / "helper-follower.yaml"),
                                 str(SCENARIO_RULESETS / "large-follower.yaml"),
                                 str(SCENARIO_RULESETS / "abbey-supply.yaml"),
                                 str(SCENARIO_RULESETS / "wagon.yaml"),
                                 str(SCENARIO_RULESETS / "barn.yaml")])
def test_every_legal_move_of_a_game_round_trips(ref):
    ruleset = load_ruleset(ref)
    codec = ActionCodec.for_ruleset(ruleset)
    game = Game(ruleset, 2, seed=9)
    rng = random.Random(Path(ref).name)  # not the whole path: the same game in any checkout
    while game.tile is not None:
        moves = game.legal_moves()
        actions = [codec.encode(move) for move in moves]
        assert len(set(actions)) == len(moves)
        if game.movers:  # a follower moving on: its block of actions, after the rotations and any decline
            assert all(codec.placements + 4 + codec.draws <= a < codec.size for a in actions)
        else:
            assert all(0 <= a < codec.placements or (game.personal_turn and a == codec.draw_action) for a in actions)
        assert [codec.decode(a) for a in actions] == moves
        game.play(rng.choice(moves))


def test_the_far_corners_are_inside_and_beyond_them_is_refused():
    codec = ActionCodec.for_ruleset(load_ruleset("basic+two-maps"))
    r = codec.reach
    for m in range(2):
        for x, y in ((-r, -r), (r, r), (-r, r)):
            move = Move(map_origin(m) + pack(x, y), 3, codec.slots - 2)
            assert codec.decode(codec.encode(move)) == move
    with pytest.raises(ValueError, match="outside the encoding"):
        codec.encode(Move(pack(r + 1, 0), 0))
    with pytest.raises(ValueError, match="places no tile"):
        codec.decode(codec.placements)
    assert codec.start_rotation(codec.start_action(2)) == 2 and codec.start_rotation(0) is None


def test_the_stepped_game_refuses_what_is_not_legal_now():
    from engine.api.turns import ChanceGame

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
    with pytest.raises(ValueError, match="turns a start tile"):
        state.apply(state.codec.start_action(0))
    for outside in (state.codec.size, 10**7, -1):
        with pytest.raises(ValueError, match="outside the actions"):
            state.apply(outside)
    with pytest.raises(ValueError, match="no draw is due"):
        state.outcomes()
    assert state.action_to_string(10**7) == "no action 10000000"


def test_a_start_rotation_out_of_range_leaves_the_state_alone():
    from engine.api.turns import ChanceGame

    state = ChanceGame(load_ruleset("basic+random-start"))
    state.apply(state.outcomes()[0][0])  # the start tile is drawn; the first player turns it
    assert state.legal_actions() == [state.codec.start_action(r) for r in range(4)]
    for bad in (state.codec.size, 0):
        with pytest.raises(ValueError):
            state.apply(bad)
    assert state.legal_actions() == [state.codec.start_action(r) for r in range(4)]
    with pytest.raises(ValueError, match="returns must be one of win, points"):
        ChanceGame(load_ruleset("basic"), returns="money")


def test_declining_a_personal_tile_is_the_last_action_and_only_under_deck_personal():
    from engine.api.turns import ChanceGame
    from engine.core.moves import DRAW

    basic = ActionCodec.for_ruleset(load_ruleset("basic"))
    with pytest.raises(ValueError, match="no personal tiles"):
        basic.encode(DRAW)
    ruleset = load_ruleset(str(SCENARIO_RULESETS / "abbey-supply.yaml"))
    codec = ActionCodec.for_ruleset(ruleset)
    # 72 tiles and up to 5 players' abbeys: reach 77; one action more than the placements and rotations.
    assert codec.reach == 77 and codec.size == codec.placements + 5 == codec.draw_action + 1
    assert codec.decode(codec.draw_action) == DRAW and codec.start_rotation(codec.draw_action) is None
    state = ChanceGame(ruleset, 2)
    rng = random.Random(3)
    while not state.game.personal_turn:  # play on until an abbey is offered
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
    assert state.game.personal[seat] == 1


def test_a_follower_moving_on_has_actions_of_its_own_and_home_is_the_last():
    from engine.core.moves import HOME, MOVE_ON

    ruleset = load_ruleset(str(SCENARIO_RULESETS / "wagon.yaml"))
    codec = ActionCodec.for_ruleset(ruleset)
    # Two follower types (normal, wagon): none + 8 segments x 2 types; a block of moves after the 4 rotations.
    assert codec.slots == 17 and codec.size == codec.placements + 4 + 145 * 145 * 17 + 1
    assert codec.decode(codec.size - 1) == HOME and codec.encode(HOME) == codec.size - 1
    move = Move(pack(-3, 2), MOVE_ON, 4, 1)
    assert codec.decode(codec.encode(move)) == move and codec.placements + 4 < codec.encode(move) < codec.size - 1
    with pytest.raises(ValueError, match="no follower of the ruleset moves on"):
        ActionCodec.for_ruleset(load_ruleset("basic")).encode(HOME)
    game, rng, decided = Game(ruleset, 2, seed=0), random.Random(0), 0
    while game.tile is not None:  # seed 0 has a wagon move on once: its choices round-trip
        moves = game.legal_moves()
        if game.movers:
            actions = [codec.encode(m) for m in moves]
            assert [codec.decode(a) for a in actions] == moves and actions[-1] == codec.size - 1
            decided += 1
        game.play(rng.choice(moves))
    assert decided
