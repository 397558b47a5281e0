"""Hands of tiles (deck.hand) through the researchers' APIs: pick actions, chance draws into a hand,
private observations, and an imperfect-information OpenSpiel game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.api import observation
from engine.api.actions import DEFAULT_CROP, ActionCodec
from engine.api.turns import ChanceGame
from engine.core.hands import of as hands_of
from engine.core.moves import HOME, PICK, pick
from engine.rules.ruleset import load_ruleset

numpy = pytest.importorskip("numpy", reason="the observation needs numpy")

HANDS = ["basic+hand-of-two", "basic+draw-three-keep-one"]
WAGONS = str(Path(__file__).parents[1] / "scenarios" / "rulesets" / "wagon.yaml")


def test_the_pick_actions_come_last_and_leave_the_others_unchanged():
    plain = ActionCodec.for_ruleset(load_ruleset("basic"), DEFAULT_CROP)
    assert (plain.picks, plain.size, plain.pick_from) == (0, 4_913, 4_913)
    with pytest.raises(ValueError, match="no tile type 0 to pick"):
        plain.pick_action(0)
    ruleset = load_ruleset("basic+hand-of-two")
    codec = ActionCodec.for_ruleset(ruleset, DEFAULT_CROP)
    types = len(ruleset.tiles)
    assert (codec.picks, codec.pick_from, codec.size) == (types, 4_913, 4_913 + types)
    for t in range(types):
        assert codec.pick_action(t) == 4_913 + t
        assert codec.pick(4_913 + t) == pick(t) and codec.block(4_913 + t) == "pick"
    with pytest.raises(ValueError, match="no tile type"):
        codec.pick_action(types)
    with pytest.raises(ValueError):
        codec.pick(codec.size)


def test_a_follower_moving_on_keeps_its_actions_before_the_picks():
    codec = ActionCodec.for_ruleset(load_ruleset(WAGONS + "+hand-of-two"), DEFAULT_CROP)
    assert codec.within == 1 and codec.picks
    assert codec.home_action == codec.pick_from - 1 and codec.move_on(codec.pick_from - 1, 0) == HOME
    assert codec.pick(codec.pick_from) == pick(0)


@pytest.mark.parametrize("ref", HANDS)
def test_every_pick_of_a_game_with_hands_is_an_action(ref):
    state = ChanceGame(load_ruleset(ref), 2)
    rng = random.Random(ref)
    picks = 0
    while not state.over:
        if state.chance:
            state.apply(rng.choice([t for t, _ in state.outcomes()]))
            continue
        moves = state.legal_moves()
        if hands_of(state.game).picking:
            assert all(move.kind == PICK for move in moves)
            assert state.legal_actions() == sorted(state.codec.pick_action(move.tile) for move in moves)
            picks += 1
        state.apply(rng.choice(state.legal_actions()))
    assert picks > 10


@pytest.mark.parametrize("ref", HANDS)
def test_a_whole_game_with_hands_through_chance_steps_ends(ref):
    state = ChanceGame(load_ruleset(ref), 2)
    rng = random.Random(11)
    picks = draws = 0
    while not state.over:
        assert len(state.actions) < 2_000
        if state.chance:
            outcomes = state.outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            action = rng.choices([t for t, _ in outcomes], [p for _, p in outcomes])[0]
            draws += 1
        else:
            action = rng.choice(state.legal_actions())
            if state.action_to_string(action).startswith("pick "):
                assert hands_of(state.game).picking
                picks += 1
        state.apply(action)
    assert picks > 10 and draws >= 71
    assert not any(hands_of(state.game).held) and sorted(state.returns()) in ([0.0, 1.0], [1.0, 1.0])


def _deal(ref: str, seat_1_draws) -> ChanceGame:
    """A game after seat 0's first turn (the first outcome and the first action every time) and
    seat 1's draws, each chosen by ``seat_1_draws(outcomes, i)`` for its ``i``-th draw."""
    state = ChanceGame(load_ruleset(ref), 2)
    while not (state.chance and state.game.player == 1):
        state.apply(state.outcomes()[0][0] if state.chance else state.legal_actions()[0])
    drawn = 0
    while state.chance:
        state.apply(seat_1_draws(state.outcomes(), drawn))
        drawn += 1
    return state


def _layout(state: ChanceGame) -> observation.Layout:
    return observation.Layout(state.ruleset, 2, state.codec.crop)


def _observe(state: ChanceGame, seat: int) -> numpy.ndarray:
    layout = _layout(state)
    tensor = numpy.zeros(layout.size, numpy.float32)
    layout.fill(layout.views(tensor), state, seat)
    return tensor


def _most_likely(outcomes):
    return max(outcomes, key=lambda outcome: outcome[1])[0]


# Seat 1's first draw is the same tile in both games, the others the lowest and the highest type.
def lowest(outcomes, i):
    return _most_likely(outcomes) if i == 0 else outcomes[0][0]


def highest(outcomes, i):
    return _most_likely(outcomes) if i == 0 else outcomes[-1][0]


@pytest.mark.parametrize("ref", HANDS)
def test_a_seat_observes_nothing_of_the_others_hands(ref):
    low, high = _deal(ref, lowest), _deal(ref, highest)
    assert sorted(hands_of(low.game).held[1]) != sorted(hands_of(high.game).held[1])
    assert hands_of(low.game).held[0] == hands_of(high.game).held[0] and low.player == high.player == 1
    assert numpy.array_equal(_observe(low, 0), _observe(high, 0))
    assert observation.text(low, 0) == observation.text(high, 0)
    assert not numpy.array_equal(_observe(low, 1), _observe(high, 1))
    views = _layout(low).views(_observe(low, 1))
    assert views["held"].tolist() == [len(held) for held in hands_of(low.game).held]
    assert views["hand"].sum() == len(hands_of(low.game).held[1])


@pytest.mark.parametrize("ref", HANDS)
def test_seat_1_draws_read_as_seat_0_sees_them(ref):
    state = ChanceGame(load_ruleset(ref), 2)
    while not (state.chance and state.game.player == 1):
        state.apply(state.outcomes()[0][0] if state.chance else state.legal_actions()[0])
    tile = state.outcomes()[0][0]
    name = state.ruleset.tiles[tile].id
    assert state.action_to_string(tile, seat=0) == "seat 1 draws a tile"
    assert state.action_to_string(tile, seat=1) == state.action_to_string(tile) == f"draw {name}"


def test_after_a_turn_of_draw_three_keep_one_the_returned_tiles_stay_hidden():
    ref = "basic+draw-three-keep-one"
    states = [_deal(ref, lowest), _deal(ref, highest)]
    for state in states:  # seat 1 places the tile both drew first, in the same way, and returns the others
        assert hands_of(state.game).picking
        first = hands_of(state.game).held[1][0][0]
        state.apply(state.codec.pick_action(first))
        state.apply(state.legal_actions()[0])
        if state.placing is not None:
            state.apply(state.codec.follower_action(None))
    assert all(state.chance and state.game.player == 0 for state in states)
    assert states[0].game.history == states[1].game.history
    assert numpy.array_equal(_observe(states[0], 0), _observe(states[1], 0))


def test_the_tile_piece_shows_the_tile_to_place_to_its_holder_only():
    state = _deal("basic+hand-of-two", lowest)
    views = [_layout(state).views(_observe(state, seat)) for seat in (0, 1)]
    fits = slice(observation.FIXED_PLANES.index("fits0"), observation.FIXED_PLANES.index("fits3") + 1)
    assert hands_of(state.game).picking  # nothing is chosen yet
    assert all(view["tile"].sum() == 0 and view["board"][0, fits].sum() == 0 for view in views)
    state.apply(state.legal_actions()[-1])
    views = [_layout(state).views(_observe(state, seat)) for seat in (0, 1)]
    assert views[1]["tile"][state.game.tile] == 1 and views[1]["board"][0, fits].sum() > 0
    assert views[0]["tile"].sum() == 0 and views[0]["board"][0, fits].sum() == 0


def test_the_pettingzoo_mask_offers_the_picks():
    pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")
    from engine.api.pettingzoo import CarcassonneEnv

    env = CarcassonneEnv("basic+hand-of-two", 2, observation="full")
    env.reset(seed=2)
    rng = numpy.random.default_rng(2)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if hands_of(env.state.game).picking:
            codec = env.state.codec
            picks = numpy.flatnonzero(obs["action_mask"]) - codec.pick_from
            assert picks.tolist() == hands_of(env.state.game).types(env.state.player)
            other = env.possible_agents[1 - env.possible_agents.index(agent)]
            views = env.layout.views(env.observe(other)["observation"])
            assert views["hand"].sum() == len(hands_of(env.state.game).held[1 - env.state.player])
            break
        env.step(None if terminated or truncated else int(rng.choice(numpy.flatnonzero(obs["action_mask"]))))
    else:
        pytest.fail("no pick came")


def _openspiel_state(game, inner: ChanceGame):
    """The OpenSpiel state reached by ``inner``'s actions."""
    state = game.new_initial_state()
    for action in inner.actions:
        state.apply_action(action)
    return state


def test_the_openspiel_game_with_hands_has_imperfect_information_and_private_observations():
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    import engine.api.openspiel  # noqa: F401  (registers the game)

    information = pyspiel.GameType.Information
    assert pyspiel.load_game("python_carcassonne").get_type().information == information.PERFECT_INFORMATION
    game = pyspiel.load_game("python_carcassonne", {"ruleset": "basic+hand-of-two"})
    assert game.get_type().information == information.IMPERFECT_INFORMATION
    low = _openspiel_state(game, _deal("basic+hand-of-two", lowest))
    high = _openspiel_state(game, _deal("basic+hand-of-two", highest))
    assert numpy.array_equal(low.observation_tensor(0), high.observation_tensor(0))
    assert low.observation_string(0) == high.observation_string(0)
    assert not numpy.array_equal(low.observation_tensor(1), high.observation_tensor(1))
    assert low.observation_string(1) != high.observation_string(1)
    with pytest.raises(ValueError, match="private_info"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False,
                                                        private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
    # The information state: the history as the seat knows it, seat 1's draws hidden from seat 0.
    assert low.information_state_string(0) == high.information_state_string(0)
    assert "?" in low.information_state_string(0)
    assert low.information_state_string(1) != high.information_state_string(1)
    # Seat 1's next draw: the referee (the chance player) and seat 1 read its tile, seat 0 does not.
    state = game.new_initial_state()
    while not (state.is_chance_node() and state.inner.game.player == 1):
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    tile = state.chance_outcomes()[0][0]
    name = state.inner.ruleset.tiles[tile].id
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, tile) == state.action_to_string(1, tile) == f"draw {name}"
    assert state.action_to_string(0, tile) == "seat 1 draws a tile"
