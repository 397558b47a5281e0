"""The OpenSpiel game (engine/api/openspiel.py), checked with OpenSpiel's own tools."""

from __future__ import annotations

from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
import numpy  # noqa: E402

import engine.api.openspiel  # noqa: E402,F401  (registers the game)
from engine.core import titles  # noqa: E402
from engine.rules.inspect import shipped_games  # noqa: E402

#: Every shipped ruleset, and the basic game with each shipped option (after the options it requires).
SHIPPED = shipped_games()


#: Test rulesets of the turn structures beyond placing a drawn tile: a tile of one's own, a follower moving on,
#: a piece on a corner whose deployment scores others.
STRUCTURES = [str(Path(__file__).parents[1] / "scenarios" / "rulesets" / name) for name in ("abbey-supply.yaml",
                                                                                           "wagon.yaml", "barn.yaml")]


@pytest.mark.parametrize("ref", SHIPPED + STRUCTURES)
def test_openspiel_random_simulation_of_every_shipped_ruleset(ref):
    game = pyspiel.load_game("python_carcassonne", {"ruleset": ref, "players": 2})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_three_players_and_points_returns():
    game = pyspiel.load_game("python_carcassonne", {"ruleset": "basic+river", "players": 3, "returns": "points"})
    assert game.num_players() == 3
    state = game.new_initial_state()
    rng = numpy.random.RandomState(4)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.returns() == [float(s) for s in state.inner.game.scores]


def test_the_first_draw_is_chance_over_the_whole_stack():
    game = pyspiel.load_game("python_carcassonne")
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    assert sum(outcomes.values()) == pytest.approx(1.0)
    # 71 tiles to draw (the start tile D is placed); the 9 copies of V are the most common.
    assert max(outcomes.values()) == pytest.approx(9 / 71)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, max(outcomes, key=outcomes.get)) == "draw V"


def test_serialize_and_clone_keep_the_state():
    game = pyspiel.load_game("python_carcassonne", {"ruleset": "basic+river"})
    state = game.new_initial_state()
    rng = numpy.random.RandomState(1)
    for _ in range(12):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    clone = state.clone()
    _, copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    for other in (clone, copy):
        assert str(other) == str(state)
        assert other.legal_actions() == state.legal_actions()
        assert numpy.array_equal(other.observation_tensor(0), state.observation_tensor(0))
    clone.apply_action(clone.legal_actions()[0])
    assert str(clone) != str(state)


def test_observation_planes_show_the_board():
    game = pyspiel.load_game("python_carcassonne", {"observation": "full"})
    state = game.new_initial_state()
    state.apply_action(next(t for t, _ in state.chance_outcomes()))
    tensor = numpy.array(state.observation_tensor(0))
    observer = game.make_py_observer()
    observer.set_from(state, 0)
    assert numpy.array_equal(observer.tensor, tensor)
    board = observer.dict["board"][0]
    middle = state.inner.codec.crop // 2
    assert board[0].sum() == 1 and board[0, middle, middle] == 1  # the start tile at (0, 0), in the middle
    assert board[3, middle, middle] == 1  # the origin
    assert board[1].sum() == 4  # its four neighbours are the frontier
    assert board[4:8].sum() >= 1  # the drawn tile fits somewhere
    assert observer.dict["me"].tolist() == [1, 0] and observer.dict["to_move"].tolist() == [1, 0]
    assert observer.dict["unseen"].sum() == 70


def test_openspiel_mcts_bot_plays_a_whole_game():
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("python_carcassonne", {"ruleset": "basic+river"})
    rng = numpy.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=rng, solve=False) for _ in range(2)]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert sorted(state.returns()) in ([0.0, 1.0], [1.0, 1.0])


def test_bad_parameters_are_value_errors():
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("python_carcassonne", {"players": 9})
    with pytest.raises(Exception, match="returns"):
        pyspiel.load_game("python_carcassonne", {"returns": "money"})
    with pytest.raises(Exception, match="no-such-ruleset"):
        pyspiel.load_game("python_carcassonne", {"ruleset": "no-such-ruleset"})


def test_the_observation_shows_each_titles_holder_with_its_record():
    """Under titles (King & Robber Baron) the observation has a titles piece: the record of
    each title for its holder, 0 elsewhere; without titles there is no such piece."""
    game = pyspiel.load_game("python_carcassonne", {"ruleset": "basic+king-and-robber-baron", "players": 2,
                                                    "observation": "full"})
    state = game.new_initial_state()
    observer = game.make_py_observer()
    while not state.is_terminal() and not any(holder >= 0 for holder, _ in titles.of(state.inner.game).holders):
        outcomes = state.chance_outcomes() if state.is_chance_node() else None
        state.apply_action(outcomes[0][0] if outcomes else state.legal_actions()[0])
    observer.set_from(state, 1)
    expected = numpy.zeros((2, 2))
    for i, (holder, record) in enumerate(titles.of(state.inner.game).holders):
        if holder >= 0:
            expected[i, holder] = record
    assert expected.sum() > 0 and numpy.array_equal(observer.dict["titles"], expected)
    plain = pyspiel.load_game("python_carcassonne")
    plain_observer = plain.make_py_observer()
    plain_observer.set_from(plain.new_initial_state(), 0)
    assert "titles" not in plain_observer.dict


def test_openspiel_tabular_q_learner_learns_from_whole_games():
    """One of OpenSpiel's own learners on the game through its rl_environment: the winner's last
    move of each game gets a Q-value above zero from the terminal reward (returns=win)."""
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import tabular_qlearner

    game = pyspiel.load_game("python_carcassonne", {"ruleset": "basic+short-game", "crop": 21})
    env = rl_environment.Environment(game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=5))
    actions = env.action_spec()["num_actions"]
    assert actions == 21 * 21 * 4 + 9 + 4
    agents = [tabular_qlearner.QLearner(player_id=seat, num_actions=actions) for seat in range(2)]
    for _ in range(2):
        time_step = env.reset()
        while not time_step.last():
            seat = time_step.observations["current_player"]
            time_step = env.step([agents[seat].step(time_step).action])
        for agent in agents:
            agent.step(time_step)
        assert sorted(time_step.rewards) in ([0.0, 1.0], [1.0, 1.0])
    learned = [value for agent in agents for values in agent._q_values.values() for value in values.values()]
    assert any(value > 0 for value in learned)


def test_the_compact_observation_is_the_default_and_openspiels_own_path_agrees() -> None:
    """The default observation is the compact one, board then scalars; the state's
    ``observation_tensor`` (a numpy array, no Python list) holds what OpenSpiel's own path gives."""
    game = pyspiel.load_game("python_carcassonne", {"ruleset": "basic+abbey-and-mayor"})
    assert game.observation_tensor_size() == game.layout.size == game.layout.board_size + game.layout.scalar_size
    state, rng = game.new_initial_state(), numpy.random.RandomState(5)
    for _ in range(40):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            for seat in (0, 1):
                mine = state.observation_tensor(seat)
                assert isinstance(mine, numpy.ndarray) and mine.dtype == numpy.float32
                theirs = pyspiel.State.observation_tensor(state, seat)  # OpenSpiel's path: a list
                assert numpy.array_equal(mine, numpy.array(theirs, numpy.float32))
    with pytest.raises(ValueError, match="player is a seat"):
        state.observation_tensor(7)
    with pytest.raises(ValueError, match="observation must be one of"):
        pyspiel.load_game("python_carcassonne", {"observation": "tiny"})


def test_the_last_tile_outgrowing_the_crop_leaves_a_terminal_state_observed_as_zeros():
    """The reviewer's game (tests/api/test_pettingzoo.py) replayed through OpenSpiel, draws
    included: the state is terminal, and observing it gives zeros, not CropTooSmall."""
    pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")
    from engine.api.pettingzoo import CarcassonneEnv
    from tests.api.test_pettingzoo import LAST_TILE_OUTGROWS

    env = CarcassonneEnv("basic", 2)
    env.reset(seed=173879092)
    for action in LAST_TILE_OUTGROWS:
        env.step(action)
    state = pyspiel.load_game("python_carcassonne").new_initial_state()
    for action in env.state.actions:
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == env.state.returns()
    assert not state.observation_tensor(0).any() and not state.observation_tensor(1).any()
