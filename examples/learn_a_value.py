"""Learn a value of positions from play, and play with it: one ply, and as the search bot's leaf value.

Run from the repository root after installing (numpy: the ``stats`` extra; the plot needs
matplotlib, in the same extra):

    python examples/learn_a_value.py --games 400 --rounds 3 --eval 100 \\
        --result benchmarks/results/learn-a-value.json --plot docs/reports/learn-a-value.png

**The model** values a position for a seat as ``w · features``, an estimate of
``tanh(final margin / 20)`` (in [-1, 1]), the features read from the game: the
numbers the observation's scalar pieces hold (engine/api/observation.py: ``scores``,
``potential``, ``pieces``, and the tiles still to come, ``unseen``'s total), from that
seat's side: its lead over the best
opponent in points so far and in points if the game ended now, its followers in
supply and the best opponent's, each alone and times the share of tiles still to
come (so each may weigh differently early and late), and 1.  Fitting is ridge
regression, solving the normal equations with numpy.

**Training**: round 0 fits on the positions of ``--games`` games between greedy bots;
each later round plays ``--games`` games of the one-ply player against itself (a move
in ten at random, to see positions it would not reach), adds their positions and fits
again.  After each round the one-ply player meets ``greedy`` over ``--eval`` seat-swapped
deals (2 × eval games): the training curve.  Self-play can make the next fit worse (the
player steers into positions where the last fit was wrong, and the new positions pull the
weights around), so the final model is the round that did best on the curve; the final
matches below use other deals, so that choice does not flatter them.

**The one-ply player** tries every legal move on a copy of the game and plays the one
whose position the model values most for it: no search (a tile picked from a hand,
``deck.hand``, is worth the best move it allows).  Matches count a win 1 and a tie ½ (the
score share), with a 95 % Wilson interval over the games.  The final model then plays
2 × ``--final`` seat-swapped games against ``greedy`` and against ``random``, and the search
bot with the model as its leaf value meets the search bot with its greedy playouts, both
given ``--seconds`` a move, over 2 × ``--mcts-games`` games.

Every game is seeded (the deal and each bot), so a run with the same arguments plays
the same games, but for the timed search games.  Two players, the basic game unless
``--ruleset`` says otherwise.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

try:
    import numpy
except ImportError:  # pragma: no cover - depends on the extra
    sys.exit("this example needs numpy: pip install 'carcassonne-rules[stats]'")

from engine.bots.greedy import GreedyPlayer
from engine.bots.mcts import MctsPlayer
from engine.bots.random_player import RandomPlayer
from engine.core.game import Game
from engine.core.moves import PICK, Move
from engine.errors import UserError
from engine.rules.ruleset import Ruleset, load_ruleset
from engine.sim.play import play_out

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from provenance import provenance  # noqa: E402
from strength import wilson  # noqa: E402

FEATURES = ("lead in potential", "lead in points", "lead in potential × to come", "lead in points × to come",
            "my supply", "their supply", "my supply × to come", "their supply × to come", "1")


def features(game: Game, seat: int) -> numpy.ndarray:
    """:data:`FEATURES` of ``game`` for ``seat`` (points in tens, followers as a share of the start)."""
    potential, scores = game.potential_scores(), game.scores
    rival = max((s for s in range(game.players) if s != seat), key=lambda s: (potential[s], -s))
    to_come = game.remaining / max(1, sum(t.count for t in game.ruleset.tiles))
    lead, banked = (potential[seat] - potential[rival]) / 10, (scores[seat] - scores[rival]) / 10
    start = max(1, game.supply[seat] + sum(1 for f in game.on_board if f[1] == seat))
    mine, theirs = game.supply[seat] / start, game.supply[rival] / start
    return numpy.array([lead, banked, lead * to_come, banked * to_come, mine, theirs, mine * to_come,
                        theirs * to_come, 1.0])


def fit(x: numpy.ndarray, y: numpy.ndarray, ridge: float = 1e-2) -> numpy.ndarray:
    """Weights of the ridge regression of ``y`` (positions,) on ``x`` (positions, features)."""
    return numpy.linalg.solve(x.T @ x + ridge * numpy.eye(x.shape[1]), x.T @ y)


class OnePly:
    """Plays the move whose resulting position ``weights`` values most; ``explore``: the share of
    moves played at random instead.  Ties are broken at random."""

    name = "one-ply"

    def __init__(self, weights: numpy.ndarray, seed: str, explore: float = 0.0) -> None:
        self.weights, self.rng, self.explore = weights, random.Random(seed), explore

    def choose_start(self, game: Game) -> int:
        return self.rng.randrange(4)

    def choose(self, game: Game) -> Move:
        moves = game.legal_moves()
        if self.explore and self.rng.random() < self.explore:
            return moves[self.rng.randrange(len(moves))]
        seat, best, best_value = game.player, [], -math.inf
        for move in moves:
            value = self._value(game, move, seat)
            if value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return best[self.rng.randrange(len(best))]

    def _value(self, game: Game, move: Move, seat: int) -> float:
        """The model's value for ``seat`` after ``move``; after a pick, of the best move it allows."""
        trial = game.copy()
        trial.explain = False
        trial.play(move, checked=True, draw=False)
        if move.kind == PICK:
            return max(self._value(trial, after, seat) for after in trial.legal_moves())
        return float(features(trial, seat) @ self.weights)


class LeafValue:
    """The model as the search bot's leaf value: a reward in [0, 1] per seat (its estimate of
    ``tanh(margin / 20)``, clipped to [-1, 1], mapped as the bot maps margins: ``0.5 + 0.5 · v``)."""

    def __init__(self, weights: numpy.ndarray) -> None:
        self.weights = weights

    def __call__(self, game: Game) -> list[float]:
        return [0.5 + 0.5 * min(1.0, max(-1.0, float(features(game, seat) @ self.weights)))
                for seat in range(game.players)]


class Recorder:
    """Wraps a player and keeps the features of every position it moves in, for its seat."""

    def __init__(self, player) -> None:
        self.player, self.rows = player, []

    def choose_start(self, game: Game) -> int:
        return self.player.choose_start(game)

    def choose(self, game: Game) -> Move:
        self.rows.append((features(game, game.player), game.player))
        return self.player.choose(game)


def _play(ruleset: Ruleset, players: list, seed: int) -> Game:
    game = Game(ruleset, len(players), seed, explain=False)
    play_out(game, players, None)
    game.finish()
    return game


def _make(kind: str, weights, seed: str, seconds: float):
    if kind == "greedy":
        return GreedyPlayer(seed)
    if kind == "random":
        return RandomPlayer(seed)
    if kind == "one-ply":
        return OnePly(weights, seed)
    if kind == "one-ply-explore":
        return OnePly(weights, seed, explore=0.1)
    if kind == "mcts-playout":
        return MctsPlayer(seed, seconds=seconds)
    return MctsPlayer(seed, seconds=seconds, leaf=LeafValue(weights))  # mcts-model


def _positions(task: tuple) -> tuple[list, list]:
    """Positions and targets of one game between two players of ``kind``."""
    ref, kind, weights, seed = task
    players = [Recorder(_make(kind, weights, f"{seed}:{seat}", 0.0)) for seat in range(2)]
    game = _play(load_ruleset(ref), players, seed)
    x, y = [], []
    for player in players:
        for row, seat in player.rows:
            x.append(row)
            y.append(math.tanh((game.scores[seat] - max(game.scores[:seat] + game.scores[seat + 1:])) / 20))
    return x, y


def _deal(task: tuple) -> float:
    """Points (1 win, ½ tie) of ``kind`` on one deal, once in each seat, against ``other``."""
    ref, kind, other, weights, seed, seconds = task
    ruleset, points = load_ruleset(ref), 0.0
    for seat in (0, 1):
        players = [_make(other, weights, f"{seed}:{other}", seconds)]
        players.insert(seat, _make(kind, weights, f"{seed}:{kind}", seconds))
        game = _play(ruleset, players, seed)
        mine, theirs = game.scores[seat], game.scores[1 - seat]
        points += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return points


def match(pool, ref: str, kind: str, other: str, weights, deals: int, first: int, seconds: float = 0.0) -> dict:
    """``kind`` against ``other`` over ``deals`` seat-swapped deals: its score share (a win 1, a tie
    ½) with a 95 % Wilson interval over the games, and its points on each deal (0 to 2)."""
    points = list(pool.map(_deal, [(ref, kind, other, weights, first + d, seconds) for d in range(deals)]))
    low, high = wilson(sum(points), 2 * deals)
    return {"games": 2 * deals, "share": round(sum(points) / (2 * deals), 4),
            "interval": [round(low, 4), round(high, 4)], "deal points": points}


def _count(least: int, most: int):
    """An argparse type: a whole number from ``least`` to ``most`` (the seeds of training, the curve
    and the final matches stay apart below the bounds)."""
    def parse(text: str) -> int:
        if not (text.isascii() and text.isdigit()) or not least <= int(text) <= most:
            raise argparse.ArgumentTypeError(f"a whole number from {least} to {most:,}, not {text!r}")
        return int(text)
    return parse


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.001 <= value <= 60:
        raise argparse.ArgumentTypeError(f"seconds from 0.001 to 60, not {text!r}")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="basic", help="a two-player ruleset reference")
    parser.add_argument("--games", type=_count(1, 50_000), default=400, help="games of play per round")
    parser.add_argument("--rounds", type=_count(0, 100), default=3, help="rounds of self-play after the greedy games")
    parser.add_argument("--eval", type=_count(1, 5_000), default=100,
                        help="seat-swapped deals against greedy after each round")
    parser.add_argument("--final", type=_count(1, 5_000), default=100, help="seat-swapped deals of the final model")
    parser.add_argument("--mcts-games", type=_count(0, 5_000), default=50,
                        help="seat-swapped deals, model leaf against playouts (0: none)")
    parser.add_argument("--seconds", type=_seconds, default=0.05, help="seconds a move of both search bots")
    parser.add_argument("--workers", type=_count(1, 64), default=2)
    parser.add_argument("--result", type=Path, help="where to write the numbers (JSON)")
    parser.add_argument("--plot", type=Path, help="where to draw the training curve (PNG; needs matplotlib)")
    args = parser.parse_args()
    try:
        Game(load_ruleset(args.ruleset), 2)  # a bad reference or a ruleset not for two fails here, before any work
    except (UserError, ValueError) as error:
        parser.exit(2, f"{parser.prog}: error: {str(error).removeprefix('error: ')}\n")
    problem = _unwritable(args.result, ".json") or _unwritable(args.plot, ".png", ".svg", ".pdf")
    if args.plot is not None and not problem and importlib.util.find_spec("matplotlib") is None:
        problem = "--plot needs matplotlib: pip install 'carcassonne-rules[stats]'"
    if problem:
        parser.exit(2, f"{parser.prog}: error: {problem}\n")
    started = time.perf_counter()
    curve, x, y = [], [], []
    weights, best = None, None
    with ProcessPoolExecutor(args.workers) as pool:
        for round_ in range(args.rounds + 1):
            kind = "greedy" if round_ == 0 else "one-ply-explore"
            first = 100_000 * (round_ + 1)
            for rows, targets in pool.map(_positions, [(args.ruleset, kind, weights, first + g)
                                                       for g in range(args.games)]):
                x += rows
                y += targets
            weights = fit(numpy.array(x), numpy.array(y))
            against = match(pool, args.ruleset, "one-ply", "greedy", weights, args.eval, 0)
            curve.append({"round": round_, "positions": len(x), "seconds": round(time.perf_counter() - started),
                          "against greedy": against, "weights": [round(float(w), 4) for w in weights]})
            print(f"round {round_}: {len(x)} positions, one-ply against greedy {_share(against)}", flush=True)
            if best is None or against["share"] > best[0]:
                best = (against["share"], round_, weights)
        trained = round(time.perf_counter() - started)
        chosen, weights = best[1], best[2]
        final = {"against greedy": match(pool, args.ruleset, "one-ply", "greedy", weights, args.final, 50_000),
                 "against random": match(pool, args.ruleset, "one-ply", "random", weights, args.final, 50_000)}
        print(f"final: against greedy {_share(final['against greedy'])}, against random "
              f"{_share(final['against random'])}", flush=True)
        search = match(pool, args.ruleset, "mcts-model", "mcts-playout", weights, args.mcts_games, 60_000,
                       args.seconds) if args.mcts_games else None
        if search:
            print(f"search with the model as leaf value against greedy playouts, {args.seconds} s a move: "
                  f"{_share(search)}")
    report = {"ruleset": args.ruleset, "features": list(FEATURES), "chosen round": chosen,
              "weights": [round(float(w), 4) for w in weights],
              "training seconds": trained, "curve": curve, "final": final,
              "search, model leaf against playouts": search, "seconds a move": args.seconds}
    if args.result:
        command = "python examples/learn_a_value.py " + " ".join(sys.argv[1:])
        args.result.write_text(json.dumps({**provenance(command), **report}, indent=1) + "\n")
    if args.plot:
        _plot(curve, chosen, args.plot)


def _unwritable(path: Path | None, *suffixes: str) -> str | None:
    """Why ``path`` cannot be written with one of ``suffixes``, or None (checked before any work)."""
    if path is None:
        return None
    if path.suffix not in suffixes:
        return f"{path} should end in {' or '.join(suffixes)}"
    if path.is_dir() or not path.parent.is_dir():
        return f"{path} is a folder" if path.is_dir() else f"no folder {path.parent} to write {path.name} in"
    existed = path.exists()
    try:
        with path.open("a"):
            pass
    except OSError as error:
        return f"cannot write {path}: {error.strerror}"
    if not existed:
        path.unlink()
    return None


def _share(match: dict) -> str:
    """``"67.0 % [60.6, 73.4] of 200 games"``: the score share and its interval, in per cent."""
    low, high = match["interval"]
    return f"{match['share'] * 100:.1f} % [{low * 100:.1f}, {high * 100:.1f}] of {match['games']} games"


def _plot(curve: list[dict], chosen: int, path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no plot: it needs matplotlib (pip install 'carcassonne-rules[stats]')")
        return
    rounds = [c["round"] for c in curve]
    share = [c["against greedy"]["share"] for c in curve]
    low = [c["against greedy"]["interval"][0] for c in curve]
    high = [c["against greedy"]["interval"][1] for c in curve]
    figure, axes = plt.subplots(figsize=(6, 3.5))
    axes.fill_between(rounds, low, high, alpha=0.25, label="95 % interval")
    axes.plot(rounds, share, marker="o", label="one-ply player against greedy")
    axes.plot([chosen], [share[chosen]], marker="*", markersize=14, linestyle="none", label="the model kept")
    axes.axhline(0.5, color="grey", linewidth=0.8)
    axes.axhline(0.55, color="grey", linewidth=0.8, linestyle="--", label="55 %: the aim")
    axes.set_xlabel("training round (0: greedy games only; then self-play)")
    axes.set_ylabel("score share")
    axes.set_xticks(rounds)
    axes.legend(loc="upper right")
    figure.tight_layout()
    figure.savefig(path)


if __name__ == "__main__":
    main()
