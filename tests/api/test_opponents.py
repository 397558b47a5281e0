"""The engine's bots as opponents through OpenSpiel and PettingZoo, and the Gymnasium
single-agent wrapper (issue 52 item 4)."""

from __future__ import annotations

import pytest

from engine.api.opponents import BotActor
from engine.api.turns import ChanceGame
from engine.core.moves import PLACE
from engine.rules.ruleset import load_ruleset
from tests.api.test_observation import deal

REFS = ["basic", "basic+abbey-and-mayor+king-and-robber-baron", "basic+river"]


class _Recording:
    """A bot that notes every move it chooses."""

    def __init__(self, player) -> None:
        self.player, self.chosen = player, []

    def choose_start(self, game):
        return self.player.choose_start(game)

    def choose(self, game):
        move = self.player.choose(game)
        self.chosen.append(move)
        return move


@pytest.mark.parametrize("ref", REFS)
def test_a_bot_through_actions_plays_each_move_it_chooses_whole(ref: str) -> None:
    """Greedy against random through a ChanceGame's actions: every move each bot chose is the
    move the game then records for its seat (a placement and its follower spot are two actions)."""
    import random

    state, rng = ChanceGame(load_ruleset(ref), 2), random.Random(4)
    actors = [BotActor("greedy", 9, 0), BotActor("random", 9, 1)]
    for actor in actors:
        actor.player = _Recording(actor.player)
    while not state.over:
        deal(state, rng)
        if not state.over:
            state.apply(actors[state.player].act(state))
    game, followups = state.game, 0
    for seat, actor in enumerate(actors):
        played = [move for (_, move), by in zip(game.history, game.seats) if by == seat and move is not None]
        placed = [move for move in actor.player.chosen if move.kind == PLACE]  # history holds the placements
        assert played == placed and len(played) > 20
        followups += len(actor.player.chosen) - len(placed)
    assert followups > 0 or "abbey" not in ref  # a wagon moved on: a move of its own, played whole too


def test_a_bot_acts_only_when_a_seat_is_to_move() -> None:
    state = ChanceGame(load_ruleset("basic"), 2)
    with pytest.raises(ValueError, match="not at a draw"):
        BotActor("random").act(state)
    with pytest.raises(ValueError):
        BotActor("no-such-bot")


def test_the_bots_are_openspiel_bots_evaluate_bots_can_play() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    import numpy
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    from engine.api.openspiel import engine_bot

    game = pyspiel.load_game("python_carcassonne", {"ruleset": "basic+abbey-and-mayor", "returns": "zero-sum"})
    bots = [engine_bot(game, 0, "greedy", seed=1), engine_bot(game, 1, "random", seed=1)]
    wins = 0.0
    for seed in range(6):
        returns = evaluate_bots(game.new_initial_state(), bots, numpy.random.RandomState(seed))
        assert sum(returns) == 0 and all(r in (-1.0, 0.0, 1.0) for r in returns)
        wins += returns[0]
    assert wins >= 2  # greedy beats random far more often than not (0.9+ in benchmarks/results)
    with pytest.raises(ValueError):
        engine_bot(game, 0, "no-such-bot")


def test_the_gymnasium_wrapper_passes_the_checker_and_plays_to_the_end() -> None:
    pytest.importorskip("gymnasium", reason="the pettingzoo extra is not installed")
    import numpy
    from gymnasium.utils.env_checker import check_env

    from engine.api.single_agent import CarcassonneGym

    env = CarcassonneGym("basic", opponent="greedy", illegal="lose")
    check_env(env, skip_render_check=True)  # it steps with actions drawn from the whole space
    rng = numpy.random.default_rng(0)
    seats, rewards = set(), []
    for seed in range(4):
        observation, info = env.reset(seed=seed)
        assert env.observation_space.contains(observation) and info["action_mask"].any()
        seats.add(info["seat"])
        done = False
        while not done:
            mask = env.action_masks()
            assert mask.any() and numpy.array_equal(mask, info["action_mask"])
            observation, reward, terminated, truncated, info = env.step(int(rng.choice(numpy.flatnonzero(mask))))
            done = terminated or truncated
        rewards.append(reward)
    assert seats == {0, 1} and set(rewards) <= {-1.0, 0.0, 1.0}
    assert rewards.count(-1.0) >= 3  # random play against greedy: lost


def test_the_gymnasium_wrapper_is_deterministic_per_seed_and_takes_a_policy_as_opponent() -> None:
    pytest.importorskip("gymnasium", reason="the pettingzoo extra is not installed")
    import numpy

    from engine.api.single_agent import CarcassonneGym

    def first_legal(observation, mask):
        return int(numpy.flatnonzero(mask)[0])

    def episode(env, seed):
        observation, info = env.reset(seed=seed)
        trace, done = [], False
        while not done:
            action = int(numpy.flatnonzero(env.action_masks())[-1])
            observation, reward, terminated, truncated, info = env.step(action)
            trace.append((action, float(observation["board"].sum()), observation["scalars"].tolist()))
            done = terminated or truncated
        return trace, reward

    for opponent in ("random", first_legal):
        env = CarcassonneGym("basic+river", opponent=opponent, seat=1)
        assert episode(env, 5) == episode(env, 5)
    three = CarcassonneGym("basic", players=3, opponent=["greedy", first_legal])
    assert episode(three, 2)[0]
    full = CarcassonneGym("basic", opponent=first_legal, observation="full")
    observation, _ = full.reset(seed=1)
    assert observation.shape == full.observation_space.shape == (74_783,)


def test_an_illegal_action_raises_or_loses() -> None:
    pytest.importorskip("gymnasium", reason="the pettingzoo extra is not installed")
    import numpy

    from engine.api.single_agent import CarcassonneGym

    env = CarcassonneGym("basic")
    env.reset(seed=1)
    illegal = int(numpy.flatnonzero(~env.action_masks())[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    losing = CarcassonneGym("basic", illegal="lose")
    losing.reset(seed=1)
    _, reward, terminated, truncated, info = losing.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)
    for bad in [dict(illegal="ignore"), dict(seat=2), dict(opponent=["random", "random"]), dict(opponent="nobot")]:
        with pytest.raises(ValueError):
            CarcassonneGym("basic", **bad)


def test_the_pettingzoo_env_ends_the_episode_on_an_illegal_action_as_classic_games_do() -> None:
    pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")
    import numpy
    from pettingzoo.test import api_test, seed_test

    from engine.api.pettingzoo import env as make_env

    api_test(make_env(ruleset="basic"), num_cycles=20)
    seed_test(lambda: make_env(ruleset="basic+abbey-and-mayor"), num_cycles=30)  # same seed, same episode
    wrapped = make_env(ruleset="basic")
    wrapped.reset(seed=3)
    observation, *_ = wrapped.last()
    mover = wrapped.agent_selection
    wrapped.step(int(numpy.flatnonzero(observation["action_mask"] == 0)[0]))
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[mover] == -1 and all(r == 0 for a, r in wrapped.rewards.items() if a != mover)


def test_bad_inputs_found_by_a_reviewer_are_clear_value_errors() -> None:
    """Each of these gave a TypeError, an AttributeError or went on quietly."""
    pytest.importorskip("gymnasium", reason="the pettingzoo extra is not installed")
    import numpy

    from engine.api.single_agent import CarcassonneGym

    for bad in [dict(opponent=5), dict(opponent=None), dict(seat=True), dict(seat=1.5), dict(seat="1")]:
        with pytest.raises(ValueError):
            CarcassonneGym("basic", **bad)
    fresh = CarcassonneGym("basic")
    with pytest.raises(ValueError, match="call reset"):
        fresh.step(0)
    with pytest.raises(ValueError, match="call reset"):
        fresh.action_masks()
    losing = CarcassonneGym("basic", illegal="lose", seat=0)
    losing.reset(seed=0)
    legal = int(numpy.flatnonzero(losing.action_masks())[0])
    assert losing.step(int(numpy.flatnonzero(~losing.action_masks())[0]))[2]
    with pytest.raises(ValueError, match="episode is over"):
        losing.step(legal)  # the episode it said was over does not go on
    strict = CarcassonneGym("basic", seat=0)
    strict.reset(seed=0)
    for not_an_integer in (float(legal), True):
        with pytest.raises(ValueError, match="not legal"):
            strict.step(not_an_integer)
    silly = CarcassonneGym("basic", opponent=lambda observation, mask: None, seat=0)
    silly.reset(seed=0)
    with pytest.raises(ValueError, match="the opponent policy at seat 1 chose None"):
        for _ in range(3):
            silly.step(int(numpy.flatnonzero(silly.action_masks())[0]))
    with pytest.raises(ValueError, match="seat is a seat number"):
        BotActor("random", 1, -1)
    state = ChanceGame(load_ruleset("basic"), 2)
    state.apply(state.outcomes()[0][0])
    with pytest.raises(ValueError, match="plays seat 1, and seat 0 is to move"):
        BotActor("random", 1, 1).act(state)


def test_a_run_seeded_once_repeats() -> None:
    """Gymnasium's convention: reset() without a seed goes on from the last seed's generator."""
    pytest.importorskip("gymnasium", reason="the pettingzoo extra is not installed")
    from engine.api.single_agent import CarcassonneGym

    def run() -> list:
        env = CarcassonneGym("basic")
        found = [env.reset(seed=3)[1]["seat"]]
        for _ in range(6):
            observation, info = env.reset()
            found.append((info["seat"], observation["scalars"].tolist()))
        return found

    first = run()
    assert first == run() and len({seat for seat, _ in first[1:]}) == 2


def test_engine_bot_refuses_what_is_not_a_seat_of_a_carcassonne_game() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    from engine.api.openspiel import engine_bot

    game = pyspiel.load_game("python_carcassonne")
    for seat in ("0", 1.0, True, 2):
        with pytest.raises(ValueError, match="player_id"):
            engine_bot(game, seat)
    with pytest.raises(ValueError, match="python_carcassonne"):
        engine_bot(pyspiel.load_game("tic_tac_toe"), 0)
