"""What an observation costs where researchers read it, compact against full (issue 52 items 1–2).

    python benchmarks/observation.py            # writes benchmarks/results/observation.json
    python benchmarks/observation.py --quick    # fewer positions, nothing written

Per ruleset (the basic game and a richer one) and observation (``compact``, ``full``), medians
over positions of random games, each the median of three passes over the whole set:

* ``values``: the observation's size;
* ``fill_us``: the project's observer filling its tensor (``CarcassonneObserver.set_from``);
* ``openspiel_us``: ``state.observation_tensor(0)`` through OpenSpiel (the state's own, a numpy
  copy), and ``openspiel_list_us``: OpenSpiel's default path, ``pyspiel.State.observation_tensor``,
  which builds a Python list of every value;
* ``pettingzoo_step_us``: PettingZoo's ``step`` and ``observe`` of the agent to act, per action,
  beside ``engine_move_us``, a random bot's move on a bare :class:`~engine.core.game.Game` (a
  move there is one or two actions here: per action, the engine's figure is halved or not as
  the moves' actions average);
* ``train_step_ms``: one minibatch step (64 observations, forward, backward, Adam) of a [64, 64]
  MLP policy over the flat observation, as SB3's default ``MlpPolicy`` builds it (torch; skipped
  without it), and ``first_layer_params``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

# The repository on the path, so that benchmarks.provenance imports as a package.
sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.provenance import command_line, provenance  # noqa: E402

RULESETS = ["basic", "basic+abbey-and-mayor+inns-and-cathedrals+traders-and-builders"]
RESULT = Path(__file__).parent / "results" / "observation.json"


def _positions(game, count: int, seed: int) -> list:
    """Up to ``count`` OpenSpiel states at a seat's turn, from random games."""
    import numpy

    rng, found = numpy.random.RandomState(seed), []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < count:
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            if rng.random_sample() < 0.2:
                found.append(state.clone())
            state.apply_action(int(rng.choice(state.legal_actions())))
    return found


def _median_us(call, items: list, repeats: int = 5) -> float:
    times = []
    for item in items:
        start = time.perf_counter()
        for _ in range(repeats):
            call(item)
        times.append((time.perf_counter() - start) / repeats * 1e6)
    return round(statistics.median(times), 1)


def _pettingzoo(ref: str, kind: str, episodes: int) -> float:
    """Median µs per action of PettingZoo's step then observe, random legal actions."""
    import numpy

    from engine.api.pettingzoo import CarcassonneEnv

    env, times = CarcassonneEnv(ref, 2, observation=kind), []
    rng = numpy.random.default_rng(1)
    for episode in range(episodes):
        env.reset(seed=episode)
        mask = env.observe(env.agent_selection)["action_mask"]
        while not any(env.terminations.values()):
            action = int(rng.choice(numpy.flatnonzero(mask)))
            start = time.perf_counter()
            env.step(action)
            mask = env.observe(env.agent_selection)["action_mask"]
            times.append((time.perf_counter() - start) * 1e6)
    return round(statistics.median(times), 1)


def _engine_move(ref: str, games: int) -> float:
    """Median µs of a random bot's move (choose, then play) on a bare Game."""
    from engine.bots.random_player import RandomPlayer
    from engine.core.game import Game
    from engine.rules.ruleset import load_ruleset

    ruleset, times = load_ruleset(ref), []
    for seed in range(games):
        game, bot = Game(ruleset, 2, seed=seed, explain=False), RandomPlayer(seed)
        while game.decision() is not None:
            start = time.perf_counter()
            game.play(bot.choose(game))
            times.append((time.perf_counter() - start) * 1e6)
    return round(statistics.median(times), 1)


def _train_step(values: int, steps: int) -> dict:
    """Median ms of a [64, 64] MLP's minibatch step over ``values`` inputs, and its first layer's size."""
    try:
        import torch
    except ImportError:
        return {"train_step_ms": None, "first_layer_params": values * 64 + 64}
    torch.manual_seed(0)
    torch.set_num_threads(1)
    net = torch.nn.Sequential(torch.nn.Linear(values, 64), torch.nn.Tanh(), torch.nn.Linear(64, 64),
                              torch.nn.Tanh(), torch.nn.Linear(64, 4913))
    optimiser = torch.optim.Adam(net.parameters(), lr=3e-4)
    batch, target = torch.rand(64, values), torch.randint(0, 4913, (64,))
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        optimiser.zero_grad()
        torch.nn.functional.cross_entropy(net(batch), target).backward()
        optimiser.step()
        times.append((time.perf_counter() - start) * 1e3)
    return {"train_step_ms": round(statistics.median(times), 2), "first_layer_params": values * 64 + 64}


def measure(ref: str, kind: str, positions: int, episodes: int) -> dict:
    import pyspiel

    import engine.api.openspiel  # noqa: F401  (registers python_carcassonne)

    game = pyspiel.load_game("python_carcassonne", {"ruleset": ref, "observation": kind})
    states = _positions(game, positions, 7)
    observer = game.make_py_observer()
    row = {"ruleset": ref, "observation": kind, "values": game.observation_tensor_size(),
           "positions": len(states),
           "fill_us": _median_us(lambda s: observer.set_from(s, 0), states),
           "openspiel_us": _median_us(lambda s: s.observation_tensor(0), states),
           "openspiel_list_us": _median_us(lambda s: pyspiel.State.observation_tensor(s, 0), states),
           "pettingzoo_step_us": _pettingzoo(ref, kind, episodes),
           "engine_move_us": _engine_move(ref, episodes * 4),
           **_train_step(game.observation_tensor_size(), 30)}
    row["openspiel_over_fill"] = round(row["openspiel_us"] / row["fill_us"], 2)
    row["pettingzoo_over_engine"] = round(row["pettingzoo_step_us"] / row["engine_move_us"], 2)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer positions and episodes; write nothing")
    args = parser.parse_args()
    random.seed(0)
    positions, episodes = (40, 2) if args.quick else (300, 10)
    rows = []
    # The whole set measured three times in turn, each figure the median of its three: on a shared VM a
    # neighbour's burst lands on one pass, not on all three.
    passes = [[measure(ref, kind, positions, episodes) for ref in RULESETS for kind in ("compact", "full")]
              for _ in range(1 if args.quick else 3)]
    for measured in zip(*passes):
        row = dict(measured[0])
        for key, value in row.items():
            if isinstance(value, float):
                row[key] = statistics.median(m[key] for m in measured)
        row["openspiel_over_fill"] = round(row["openspiel_us"] / row["fill_us"], 2)
        row["pettingzoo_over_engine"] = round(row["pettingzoo_step_us"] / row["engine_move_us"], 2)
        rows.append(row)
        print(json.dumps(row))
    if not args.quick:
        RESULT.write_text(json.dumps({**provenance(command_line()), "rows": rows}, indent=2) + "\n")
        print(f"wrote {RESULT}")


if __name__ == "__main__":
    main()
