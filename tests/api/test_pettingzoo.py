"""The PettingZoo environment (engine/api/pettingzoo.py), checked with PettingZoo's own API test."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")
import numpy  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from engine.api.pettingzoo import CarcassonneEnv  # noqa: E402
from engine.rules.inspect import shipped_games  # noqa: E402

ABBEYS = str(Path(__file__).parents[1] / "scenarios" / "rulesets" / "abbey-supply.yaml")
WAGONS = str(Path(__file__).parents[1] / "scenarios" / "rulesets" / "wagon.yaml")


@pytest.mark.parametrize("ref, players", [(ref, 2) for ref in shipped_games()] + [
    ("basic+river", 3), (ABBEYS, 3), (WAGONS, 2), ("basic+draw-three-keep-one", 3)])
def test_pettingzoo_api_test(ref, players):
    api_test(CarcassonneEnv(ref, players), num_cycles=30)


def _play(env, seed):
    env.reset(seed=seed)
    rng = numpy.random.default_rng(seed)
    steps, rewards = 0, {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            rewards[agent] = reward
            env.step(None)
            continue
        env.step(int(rng.choice(numpy.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps, rewards, list(env.state.game.scores)


def test_a_whole_game_ends_with_the_winner_rewarded_and_repeats_with_its_seed():
    env = CarcassonneEnv("basic", 2)
    steps, rewards, scores = _play(env, 5)
    assert steps >= 60  # 71 tiles, a few maybe discarded
    winners = {f"player_{i}" for i, s in enumerate(scores) if s == max(scores)}
    assert {a for a, r in rewards.items() if r == 1.0} == winners
    assert _play(CarcassonneEnv("basic", 2), 5) == (steps, rewards, scores)


def test_renders_text_and_pictures():
    env = CarcassonneEnv("basic", 2, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text.splitlines()[0].strip() == "D" and "scores [0, 0]" in text
    pytest.importorskip("cairosvg", reason="the render extra is not installed")
    env = CarcassonneEnv("basic", 2, render_mode="rgb_array")
    env.reset(seed=1)
    picture = env.render()
    assert picture.ndim == 3 and picture.shape[2] == 3 and picture.dtype == numpy.uint8


def test_bad_settings_and_illegal_actions_are_value_errors():
    with pytest.raises(ValueError, match="render_mode"):
        CarcassonneEnv(render_mode="human")
    with pytest.raises(ValueError, match="no-such"):
        CarcassonneEnv("no-such")
    env = CarcassonneEnv()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="not legal"):
        env.step(0)


def test_misuse_is_a_clear_value_error():
    env = CarcassonneEnv()
    with pytest.raises(ValueError, match="reset"):
        env.step(0)
    env.reset(seed=3)
    legal = int(numpy.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    for bad in (None, legal + 0.5, True):
        with pytest.raises(ValueError, match="an action is an integer"):
            env.step(bad)
    with pytest.raises(ValueError, match="no agent 'player_9'"):
        env.observe("player_9")
    with pytest.raises(ValueError, match="number of seats"):
        CarcassonneEnv(players=True)
    env.step(numpy.int64(legal))  # numpy integers are integers


def test_a_board_that_outgrows_the_crop_truncates_the_episode():
    env = CarcassonneEnv("basic", 2, crop=5)
    env.reset(seed=3)
    rng = numpy.random.default_rng(3)
    for _agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0
            assert "more than the crop of 5" in info["truncated"]
            assert not obs["board"].any() and not obs["scalars"].any() and not obs["action_mask"].any()
            env.step(None)
            continue
        env.step(int(rng.choice(numpy.flatnonzero(obs["action_mask"]))))
    assert not env.agents and env.state.game.remaining > 0


def test_an_action_may_be_any_integer_kind_but_not_a_bool():
    env = CarcassonneEnv("basic", 2)
    with pytest.raises(ValueError, match="call reset"):
        env.last()
    env.reset(seed=1)
    legal = numpy.flatnonzero(env.last()[0]["action_mask"])
    env.step(numpy.array(legal[0]))  # a 0-d array, as some agents return
    with pytest.raises(ValueError, match="an action is an integer, not True"):
        env.step(True)
    with pytest.raises(ValueError, match="ruleset reference"):
        CarcassonneEnv(None)


#: Seed 173879092: the 116 actions after which the last tile of the game widens the board past the crop
#: (found by a reviewer: the step missed it, since no tile was left to place, and observing then raised
#: CropTooSmall).
LAST_TILE_OUTGROWS = [
    2310, 4900, 2589, 4902, 2313, 4900, 2440, 4901, 2169, 4900, 2165, 4900, 2172, 4900, 2033, 4900, 2034, 4900,
    2178, 4902, 1888, 4900, 2319, 4901, 1889, 4900, 2304, 4902, 1750, 4900, 3011, 4906, 1887, 4900, 2579, 4901,
    1748, 4900, 2575, 1612, 4900, 3294, 1474, 4900, 2036, 1473, 4900, 2743, 1332, 4900, 2887, 1464, 4900, 1324,
    1186, 4900, 2035, 1460, 4900, 3158, 1456, 4900, 2854, 1184, 4900, 1316, 1044, 4900, 3279, 1044, 4900, 3129,
    909, 4900, 3296, 1055, 4900, 1332, 908, 4900, 1046, 769, 4900, 3723, 905, 4900, 767, 624, 4900, 3019, 625,
    4900, 631, 488, 4900, 1757, 491, 4900, 2588, 348, 4900, 2869, 484, 4900, 2597, 348, 4900, 211, 209, 4900, 212,
    73, 4900, 358, 74, 4900]


def test_the_last_tile_outgrowing_the_crop_ends_the_game_rewarded_with_a_zero_observation():
    env = CarcassonneEnv("basic", 2)
    env.reset(seed=173879092)
    for action in LAST_TILE_OUTGROWS:
        env.step(action)
    obs, reward, terminated, truncated, info = env.last()
    assert terminated and not truncated and "more than the crop of 35" in info["outgrown"]
    assert not obs["board"].any() and not obs["action_mask"].any()
    assert sorted(env.rewards.values()) == sorted(env.state.returns()) and env.state.over


def test_a_run_seeded_once_repeats_its_later_unseeded_episodes():
    def run():
        env = CarcassonneEnv("basic", 2)
        env.reset(seed=11)
        found = []
        for _ in range(4):
            env.reset()
            found.append(env.state.game.tile)
            env.step(int(numpy.flatnonzero(env.last()[0]["action_mask"])[0]))
            found.append(list(env.state.actions))
        return found

    assert run() == run()
