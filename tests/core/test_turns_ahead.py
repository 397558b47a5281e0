"""What a follower in the supply is worth to the bots (``keep``) depends on the turns each seat
has left: one a tile still to draw, dealt round in seat order (engine/core/lookahead.py,
``turns_ahead``).  The counts here are worked out from the seat order, not read from the engine."""

from __future__ import annotations

from engine.bots.random_player import RandomPlayer
from engine.core import moving
from engine.core.game import Game
from engine.core.supply_value import kept_points, turns_ahead
from engine.rules.ruleset import load_ruleset


def _dealt(tiles: int, first: int, seats: int) -> list[int]:
    """Seat counts of ``tiles`` turns dealt one by one from seat ``first``."""
    counts = [0] * seats
    for k in range(tiles):
        counts[(first + k) % seats] += 1
    return counts


def test_turns_are_dealt_from_the_seat_after_the_mover() -> None:
    for seats in (2, 3, 4):
        game = Game(load_ruleset("basic"), seats, 3)
        bots = [RandomPlayer(f"3:{p}") for p in range(seats)]
        while game.tile is not None:
            left, me = game.remaining, game.player
            assert turns_ahead(game, after_move=True) == _dealt(left, (me + 1) % seats, seats)
            assert turns_ahead(game, after_move=False) == _dealt(left + 1, me, seats)
            assert turns_ahead(game, after_move=True, declined=True) == _dealt(left, me, seats)
            game.play(bots[game.player].choose(game))


def test_the_last_tile_leaves_the_mover_no_turn() -> None:
    """Two players, one tile left after the one seat 0 places: it is seat 1's, so seat 0's
    followers are worth nothing any more and seat 1's at most one."""
    game = Game(load_ruleset("basic"), 2, 1)
    bots = [RandomPlayer(f"1:{p}") for p in range(2)]
    while game.remaining > 1 or game.tile is None:
        game.play(bots[game.player].choose(game))
    me = game.player
    turns = turns_ahead(game, after_move=True)
    assert turns[me] == 0 and turns[1 - me] == 1
    assert kept_points([7, 7], [0, 1], 2) == [0, 2]


def test_while_a_follower_moves_on_the_turn_is_the_placers() -> None:
    """Under the wagon (it moves on after its feature scores) the follower's owner decides
    out of turn: the next tile still goes to the seat after the one who placed."""
    ruleset = load_ruleset("basic+abbey-and-mayor")
    checked = 0
    for seed in range(40):
        game = Game(ruleset, 3, seed)
        bots = [RandomPlayer(f"{seed}:{p}") for p in range(3)]
        while game.tile is not None:
            if moving.of(game).movers and game.player != moving.of(game).active:
                assert turns_ahead(game, after_move=True) == _dealt(game.remaining, (moving.of(game).active + 1) % 3, 3)
                checked += 1
            game.play(bots[game.player].choose(game))
        if checked:
            break
    assert checked
