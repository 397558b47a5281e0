"""A trained policy as a player (``policy:FILE``, the ``rl`` extra), the Gymnasium wrapper's
shaping, and the training example run small (issue 52 item 5)."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.api.turns import ChanceGame
from engine.bots.players import known_kinds, make_player, parse_spec
from engine.core.game import Game
from engine.errors import UserError
from engine.rules.ruleset import load_ruleset
from tests.api.test_observation import deal

pytest.importorskip("sb3_contrib", reason="the policy player needs the rl extra (README, 'Training a policy')")

ROOT = Path(__file__).resolve().parents[2]


def _model(tmp: Path, ruleset: str = "basic", players: int = 2, saved: bool = True) -> Path:
    """A policy trained for one short rollout: untrained in effect, but the real thing to load."""
    from sb3_contrib import MaskablePPO

    from engine.api.policy import save_policy
    from engine.api.single_agent import CarcassonneGym

    env = CarcassonneGym(ruleset, players=players)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=32, batch_size=32, n_epochs=1, seed=3, device="cpu",
                        policy_kwargs={"net_arch": [8, 8]})
    model.learn(32)
    path = tmp / f"{ruleset}-{players}.zip"
    if saved:
        save_policy(model, path, ruleset=ruleset, players=players)
    else:
        model.save(str(path))
    return path


@pytest.fixture(scope="module")
def policy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _model(tmp_path_factory.mktemp("policy"))


def _play(ruleset: str, specs: list[str], seed: int) -> Game:
    game = Game(load_ruleset(ruleset), len(specs), seed, explain=False)
    players = [make_player(spec, seed, seat) for seat, spec in enumerate(specs)]
    while game.tile is not None:
        game.play(players[game.player].choose(game), checked=True)  # an illegal move raises
    game.finish()
    return game


def test_the_policy_kind_comes_from_the_entry_point_and_takes_a_file(policy: Path) -> None:
    assert "policy" in known_kinds()
    assert parse_spec(f"policy:{policy}") == ("policy", {"file": str(policy)})
    assert parse_spec(f"policy:file={policy}") == ("policy", {"file": str(policy)})
    with pytest.raises(ValueError, match="file must be a file that exists, not 'nowhere.zip'"):
        parse_spec("policy:nowhere.zip")
    with pytest.raises(ValueError, match="'policy' takes no setting 'depth'"):
        parse_spec(f"policy:{policy}:depth=3")
    with pytest.raises(ValueError, match=r"player 'policy': policy needs its file \(policy:FILE\)"):
        parse_spec("policy")


def test_a_policy_plays_whole_games_legally_and_the_same_each_time(policy: Path) -> None:
    first = _play("basic", [f"policy:{policy}", "greedy"], 5)
    again = _play("basic", [f"policy:{policy}", "greedy"], 5)
    assert first.history == again.history and first.scores == again.scores
    assert sum(1 for _, move in first.history if move is not None and move.follower is not None) > 0


def test_the_policy_reads_the_position_the_environment_shows(policy: Path) -> None:
    """At every decision of a game stepped through the APIs, the observation of a state following
    the game (what the player reads) is the environment's, value for value."""
    import numpy

    from engine.api.planes import make_layout

    ruleset = load_ruleset("basic")
    layout = make_layout("compact", ruleset, 2, 35)
    theirs, ours = numpy.zeros(layout.size, numpy.float32), numpy.zeros(layout.size, numpy.float32)
    state, rng, compared = ChanceGame(ruleset, 2, crop=35), random.Random(8), 0
    while True:
        deal(state, rng)
        if state.over:
            break
        if state.placing is None:
            theirs.fill(0)
            ours.fill(0)
            layout.fill(layout.views(theirs), state, state.player)
            following = ChanceGame.following(state.game, 35)
            layout.fill(layout.views(ours), following, following.player)
            assert numpy.array_equal(theirs, ours)
            assert following.legal_actions() == state.legal_actions()
            compared += 1
        state.apply(rng.choice(state.legal_actions()))
    assert compared > 60


def test_bad_policy_files_are_refused_saying_why(policy: Path, tmp_path: Path) -> None:
    junk = tmp_path / "junk.zip"
    junk.write_text("not a zip")
    with pytest.raises(UserError, match="not a saved MaskablePPO policy"):
        make_player(f"policy:{junk}", 1, 0)
    bare = _model(tmp_path, saved=False)
    with pytest.raises(UserError, match="not a policy saved by engine.api.policy.save_policy"):
        make_player(f"policy:{bare}", 1, 0)
    with pytest.raises(UserError, match="trained for 2 players, not 3"):
        _play("basic", [f"policy:{policy}", "random", "random"], 1)
    shape = r"reads observations of shape .*\(56,\)\) \(it was trained on basic\); this game's are"
    with pytest.raises(UserError, match=shape):
        _play("basic+river", [f"policy:{policy}", "random"], 1)


def test_the_command_line_plays_a_policy_and_refuses_a_bad_one(policy: Path, tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "engine.cli", "play", *args], capture_output=True, text=True)

    played = run("--players", f"policy:{policy},greedy", "--seed", "3", "--quiet",
                 "--record", str(tmp_path / "game.json"))
    assert played.returncode == 0, played.stderr
    record = json.loads((tmp_path / "game.json").read_text())
    assert record["players"][0]["kind"] == f"policy:{policy}"
    missing = run("--players", "policy:nowhere.zip,greedy", "--seed", "3")
    assert missing.returncode == 2 and "file must be a file that exists, not 'nowhere.zip'" in missing.stderr
    three = run("--players", f"policy:{policy},greedy,random", "--seed", "3", "--quiet")
    assert three.returncode == 2 and "error: the policy was trained for 2 players, not 3" in three.stderr
    assert "Traceback" not in missing.stderr + three.stderr


def test_shaping_adds_the_change_of_the_lead_and_sums_to_the_final_lead() -> None:
    """Each step's reward is the weight times the change of the learner's lead in points if the game
    ended now (/100), the end adding the zero-sum result: over a game, the result plus the weight
    times the final lead / 100."""
    from engine.api.single_agent import CarcassonneGym

    for seed in range(3):
        env = CarcassonneGym("basic", opponent="greedy", shaping=0.5)
        env.reset(seed=seed)
        rng, total, over = random.Random(seed), 0.0, False
        while not over:
            action = rng.choice([i for i, legal in enumerate(env.action_masks()) if legal])
            _, reward, over, cut, _ = env.step(action)
            assert not cut
            total += reward
        scores = env.env.state.game.scores
        lead = scores[env.seat] - scores[1 - env.seat]
        result = (lead > 0) - (lead < 0)
        assert math.isclose(total, result + 0.5 * lead / 100, abs_tol=1e-9)


@pytest.mark.parametrize("shaping", ["1", math.nan, math.inf, True, None])
def test_shaping_is_a_finite_number(shaping) -> None:
    from engine.api.single_agent import CarcassonneGym

    with pytest.raises(ValueError, match="shaping is a finite number"):
        CarcassonneGym("basic", shaping=shaping)


def test_the_training_example_runs_small_and_writes_its_result(tmp_path: Path) -> None:
    """examples/train_maskable_ppo.py, two rollouts and a match of one deal each: the policy it
    saves loads as a player, and the result file says what ran and how it went."""
    result, saved = tmp_path / "result.json", tmp_path / "policy.zip"
    run = subprocess.run([sys.executable, str(ROOT / "examples" / "train_maskable_ppo.py"), "--timesteps", "256",
                          "--rollout", "128", "--batch", "64", "--envs", "2", "--net", "8", "--deals", "1",
                          "--threads", "1", "--policy", str(saved), "--result", str(result)],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    data = json.loads(result.read_text())
    assert [m["against"] for m in data["matches"]] == ["random", "greedy"]
    assert all(m["games"] == 2 and 0 <= m["share"] <= 1 for m in data["matches"])
    assert data["settings"]["timesteps"] == 256 and data["curve"][-1]["steps"] == data["steps trained"] == 256
    assert {"machine", "date", "commit"} <= set(data) and data["policy bytes"] == saved.stat().st_size
    make_player(f"policy:{saved}", 1, 0)


@pytest.mark.parametrize("args, said", [
    (["--policy", "nowhere/p.zip"], "no directory"),
    (["--policy", "p"], "a .zip file"),
    (["--policy", "p.zip", "--timesteps", "0"], "--timesteps: at least 1, not 0"),
    (["--policy", "p.zip", "--deals", "0"], "--deals: at least 1, not 0"),
    (["--policy", "p.zip", "--envs", "4", "--rollout", "2"], "fewer steps than --envs"),
    (["--policy", "p.zip", "--batch", "x"], "--batch: a whole number, not 'x'"),
    (["--policy", "p.zip", "--opponents", "random,robot"], "unknown player 'robot'"),
    (["--policy", "p.zip", "--ruleset", "nosuch"], "unknown ruleset 'nosuch'"),
    (["--policy", "p.zip", "--shaping", "nan"], "--shaping is a finite number"),
])
def test_the_training_example_refuses_bad_arguments_before_training(tmp_path: Path, args: list, said: str) -> None:
    run = subprocess.run([sys.executable, str(ROOT / "examples" / "train_maskable_ppo.py"), *args],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 2 and said in run.stderr and "Traceback" not in run.stderr
    assert list(tmp_path.iterdir()) == []
