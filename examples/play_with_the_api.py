"""Play games through the Python API and explain where each point came from.

Run from the repository root after installing:  python examples/play_with_the_api.py
"""

from engine import Game, load_ruleset
from engine.bots.greedy import GreedyPlayer
from engine.bots.random_player import RandomPlayer

ruleset = load_ruleset("basic")
game = Game(ruleset, players=2, seed=42)
bots = [RandomPlayer("42:0"), GreedyPlayer("42:1")]

while game.tile is not None:
    move = bots[game.player].choose(game)
    for event in game.play(move):
        print(f"turn {game.turn:2d}: {event.explain(['random', 'greedy'])}")

for event in game.finish():
    print(f"game end: {event.explain(['random', 'greedy'])}")
print("final scores:", dict(zip(["random", "greedy"], game.scores)))
