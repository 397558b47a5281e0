"""The search bot finds better moves than its greedy prior where one move of look-ahead is
not enough.

With one tile left in the stack after the one being placed, the rest of a two-player game
is open information: the last tile is whatever the 72 have not yet shown, and the opponent
places it.  The exact value of each move is then the mover's final margin after the
opponent's best reply (that reply maximises the opponent's margin: in a two-player game,
the score-if-it-ended-now after the last tile is the final score).

On the positions below greedy's move is worth less than the best move.  Greedy picks at
random among the moves it ranks first, so its value is their mean.  The search must win
back more than three quarters of the points greedy leaves on these boards, though not on
every one: on seed 14 greedy ranks 29 moves first and the search's move is worth 0.2
points less than their mean.  The positions were found by scanning deck seeds 0–39 of
greedy-vs-greedy games of the basic ruleset; every value compared is derived here from the
position itself.
"""

from __future__ import annotations

import pytest

from engine.bots.greedy import GreedyPlayer
from engine.bots.mcts import MctsPlayer
from engine.core.game import Game
from engine.core.trial import look_ahead
from engine.rules.ruleset import load_ruleset

#: Deck seeds whose greedy game reaches a one-tile-left position where greedy's own move
#: falls short of the best (found by scanning seeds 0–39; 5 of the 40 positions).
SEEDS = (10, 14, 29, 35, 37)


def _last_but_one(seed: int) -> Game:
    """The position of seed ``seed`` where one tile is left after the drawn one."""
    game = Game(load_ruleset("basic"), 2, seed, explain=False)
    bots = [GreedyPlayer(f"{seed}:{seat}") for seat in range(2)]
    while game.start_tile is not None:
        game.place_start(0)
    while game.tile is not None and game.remaining > 1:
        game.play(bots[game.player].choose(game))
    assert game.tile is not None and game.remaining == 1
    return game


def _exact_margin(game: Game, move) -> int:
    """The mover's final margin after ``move`` and the opponent's best last move."""
    me = game.player
    after = game.copy()
    after.play(move)
    if after.tile is None:  # the last tile fits nowhere
        after.finish()
        return after.scores[me] - after.scores[1 - me]
    return min(totals[me] - totals[after.player] for _, totals in look_ahead(after).moves())


def _greedy_value(game: Game) -> float:
    """The mean exact margin of the moves greedy ranks first: it picks among them at random."""
    me = game.player
    ranked = [(totals[me] - totals[1 - me], move) for move, totals in look_ahead(game).moves()]
    top = max(value for value, _ in ranked)
    firsts = [move for value, move in ranked if value == top]
    return sum(_exact_margin(game, move) for move in firsts) / len(firsts)


@pytest.mark.parametrize("seed", SEEDS)
def test_greedy_falls_short_on_these_positions(seed):
    game = _last_but_one(seed)
    best = max(_exact_margin(game, move) for move in game.legal_moves())
    assert _greedy_value(game) < best


def test_search_beats_its_greedy_prior():
    greedy_total = search_total = best_total = 0
    for seed in SEEDS:
        game = _last_but_one(seed)
        greedy = _greedy_value(game)
        search = _exact_margin(game, MctsPlayer(seed, iterations=300).choose(game))
        greedy_total += greedy
        search_total += search
        best_total += max(_exact_margin(game, move) for move in game.legal_moves())
    assert search_total - greedy_total > 0.75 * (best_total - greedy_total), (greedy_total, search_total, best_total)
