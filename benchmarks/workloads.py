"""The games and the search move that the speed guard and the instruction counts measure.

Each workload is deterministic (fixed seeds, fixed iteration budget), so an instruction
count of it is repeatable and a timing of it is comparable between the two builds.
"""

from __future__ import annotations

from engine.bots.greedy import GreedyPlayer
from engine.bots.mcts import MctsPlayer
from engine.bots.random_player import RandomPlayer
from engine.core.game import Game
from engine.rules.ruleset import Ruleset

BOTS = {"random": RandomPlayer, "greedy": GreedyPlayer}


def play(ruleset: Ruleset, bot: str, seed: int) -> Game:
    """One whole 2-player game of ``bot`` against itself (deck seed ``seed``), each move checked."""
    game = Game(ruleset, 2, seed)
    bots = [BOTS[bot](f"{seed}:0"), BOTS[bot](f"{seed}:1")]
    while game.tile is not None:
        game.play(bots[game.player].choose(game), checked=True)
    game.finish()
    return game


def search_position(ruleset: Ruleset, turns: int = 30) -> Game:
    """The position after ``turns`` turns of greedy against greedy, deck seed 7."""
    game = Game(ruleset, 2, 7)
    bots = [GreedyPlayer(f"7:{seat}") for seat in range(2)]
    for _ in range(turns):
        game.play(bots[game.player].choose(game))
    return game


def search_move(position: Game, iterations: int = 100) -> None:
    """One move of ``mcts:ITERATIONS`` (seed 0) from ``position``."""
    MctsPlayer(0, iterations=iterations).choose(position)
