"""Train a policy with sb3-contrib's MaskablePPO behind the Gymnasium environment, then measure it.

Needs the ``rl`` extra (sb3-contrib, which needs PyTorch: install its CPU build first, README
"Training a policy"), run from the repository root:

    python examples/train_maskable_ppo.py --timesteps 640000 --seed 1 \\
        --policy basic-ppo.zip --result benchmarks/results/train-maskable-ppo-random-and-greedy.json

**Training**: ``--envs`` copies of :class:`~engine.api.single_agent.CarcassonneGym` (the basic
game for two unless ``--ruleset`` says otherwise, the compact observation), the learner's seat
drawn afresh each game, against the bots ``--opponents`` names in turn (one per copy: by default
random and greedy), with the potential-based ``shaping`` term (the lead in points if the game
ended now, docs/api.md) on top of the zero-sum result.  MaskablePPO reads the legal actions from
the environment's ``action_masks``, so the policy never picks an illegal one; its network is
the multi-input MLP (``--net`` units per layer) over the board planes and scalars.  A run is
reproducible from ``--seed``: the budget is a number of steps (``--timesteps``, rounded up to
whole rollouts of ``--rollout`` steps), not a time.  The run above took 49 minutes on two cores,
then 400 games to measure it; ``--timesteps 2048 --rollout 1024 --deals 2`` tries the whole
thing small.  A saved policy holds the optimizer's state too (``policy bytes`` in the result).

**Measuring**: the saved policy plays as ``policy:FILE`` (:mod:`engine.api.policy`, what
``carcassonne play --players policy:FILE,greedy`` loads: the most likely legal action, no
sampling) against ``random`` and ``greedy`` over ``--deals`` seat-swapped deals each (2 × deals
games, the same tiles once in each seat), through the engine's own game loop.  A win counts 1
and a tie ½ (the score share), with a 95 % Wilson interval.  The result file holds the machine,
date and commit, the settings, the training curve (per rollout: steps, minutes, the mean result
and length of the last 100 games) and both matches.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

try:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv
except ImportError as error:  # pragma: no cover - depends on the extra
    sys.exit(f"this example needs the 'rl' extra (README, 'Training a policy'): {error}")

from engine.api.policy import save_policy
from engine.api.single_agent import CarcassonneGym
from engine.bots.players import make_player
from engine.core.game import Game
from engine.rules.ruleset import load_ruleset
from engine.sim.intervals import wilson
from engine.sim.play import play_out

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from provenance import command_line, provenance  # noqa: E402


class Curve(BaseCallback):
    """After each rollout: steps so far, minutes, and the mean result and length of the last 100 games."""

    def __init__(self) -> None:
        super().__init__()
        self.points: list[dict] = []
        self.started = time.perf_counter()

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        games = list(self.model.ep_info_buffer)
        if games:
            self.points.append({
                "steps": self.num_timesteps, "minutes": round((time.perf_counter() - self.started) / 60, 2),
                "mean return": round(sum(g["r"] for g in games) / len(games), 4),
                "mean length": round(sum(g["l"] for g in games) / len(games), 1)})
            print(f"{self.points[-1]}", flush=True)


def train(args: argparse.Namespace) -> tuple[MaskablePPO, Curve, float]:
    """The trained model, its curve and the seconds training took."""
    opponents = args.opponents.split(",")

    def maker(opponent: str):
        return lambda: Monitor(CarcassonneGym(args.ruleset, opponent=opponent, shaping=args.shaping))

    env = DummyVecEnv([maker(opponents[i % len(opponents)]) for i in range(args.envs)])
    model = MaskablePPO("MultiInputPolicy", env, seed=args.seed, learning_rate=args.learning_rate,
                        n_steps=args.rollout // args.envs, batch_size=args.batch, n_epochs=args.epochs,
                        gamma=1.0, gae_lambda=0.95, ent_coef=0.01, device="cpu",
                        policy_kwargs={"net_arch": [args.net, args.net]}, verbose=0)
    curve = Curve()
    started = time.perf_counter()
    model.learn(total_timesteps=args.timesteps, callback=curve)
    return model, curve, time.perf_counter() - started


def match(policy: str, ruleset_ref: str, other: str, deals: int, first: int) -> dict:
    """``policy:FILE`` against ``other`` over ``deals`` seat-swapped deals: its score share
    (a win 1, a tie ½), the 95 % Wilson interval over the games, and its mean points and the other's."""
    ruleset = load_ruleset(ruleset_ref)
    share, mine, theirs = 0.0, 0, 0
    for deal in range(first, first + deals):
        for seat in (0, 1):
            players = [make_player(other, deal, 1 - seat)]
            players.insert(seat, make_player(f"policy:{policy}", deal, seat))
            game = Game(ruleset, 2, deal, explain=False)
            play_out(game, players, None)
            game.finish()
            a, b = game.scores[seat], game.scores[1 - seat]
            share += 1.0 if a > b else 0.5 if a == b else 0.0
            mine, theirs = mine + a, theirs + b
    low, high = wilson(share, 2 * deals)
    return {"against": other, "games": 2 * deals, "share": round(share / (2 * deals), 4),
            "interval": [round(low, 4), round(high, 4)],
            "mean points": round(mine / (2 * deals), 1), "their mean points": round(theirs / (2 * deals), 1)}


def _at_least(least: int):
    """An argparse type: a whole number of at least ``least``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a whole number, not '{text}'") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"at least {least}, not {value}")
        return value
    return parse


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ruleset", default="basic")
    parser.add_argument("--timesteps", type=_at_least(1), default=640_000, help="the learner's decisions to train on")
    parser.add_argument("--seed", type=_at_least(0), default=1)
    parser.add_argument("--envs", type=_at_least(1), default=4)
    parser.add_argument("--opponents", default="random,greedy", help="bots the copies play, in turn")
    parser.add_argument("--shaping", type=float, default=1.0)
    parser.add_argument("--net", type=_at_least(1), default=128, help="units in each of the two hidden layers")
    parser.add_argument("--rollout", type=_at_least(1), default=4096, help="steps per rollout, over all copies")
    parser.add_argument("--batch", type=_at_least(2), default=256)
    parser.add_argument("--epochs", type=_at_least(1), default=4)
    parser.add_argument("--learning-rate", type=float, default=3e-4)
    parser.add_argument("--threads", type=_at_least(1), default=2, help="PyTorch's threads")
    parser.add_argument("--deals", type=_at_least(1), default=100, help="seat-swapped deals per match (2 games each)")
    parser.add_argument("--policy", type=Path, required=True, help="where to save the policy (.zip)")
    parser.add_argument("--result", type=Path, help="the result file (JSON)")
    args = parser.parse_args()
    if args.policy.suffix != ".zip":
        parser.error(f"--policy {args.policy}: a .zip file (stable-baselines3 adds .zip to any other name)")
    for path in (args.policy, args.result):
        if path is not None and not path.parent.is_dir():
            parser.error(f"{path}: no directory {path.parent}")
    if args.rollout < args.envs:
        parser.error(f"--rollout {args.rollout} is fewer steps than --envs {args.envs} copies take one each")
    if not (math.isfinite(args.shaping) and math.isfinite(args.learning_rate) and args.learning_rate > 0):
        parser.error("--shaping is a finite number and --learning-rate a positive one")
    try:
        for opponent in args.opponents.split(","):
            CarcassonneGym(args.ruleset, opponent=opponent)
    except ValueError as error:  # the ruleset or a bot named wrong: said before any training
        parser.error(str(error))
    torch.set_num_threads(args.threads)
    origin = provenance(command_line())  # the commit that trains, read before the hour it takes
    model, curve, seconds = train(args)
    save_policy(model, args.policy, ruleset=args.ruleset, players=2)
    # Training runs whole rollouts: the steps taken are the ones asked for, rounded up to a rollout.
    print(f"trained {model.num_timesteps:,} steps in {seconds / 60:.1f} min; saved {args.policy}", flush=True)
    matches = [match(str(args.policy), args.ruleset, other, args.deals, 10_000) for other in ("random", "greedy")]
    for found in matches:
        print(f"against {found['against']}: {found['share']:.1%} {found['interval']} of {found['games']} games")
    if args.result is not None:
        settings = {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()}
        result = {**origin, "settings": settings, "steps trained": model.num_timesteps,
                  "policy bytes": args.policy.stat().st_size,
                  "training minutes": round(seconds / 60, 1),
                  "curve": curve.points, "matches": matches}
        args.result.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
