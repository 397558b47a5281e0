"""The search bot (engine/bots/mcts.py): its specs, determinism, and that it never uses the real draw order."""

from __future__ import annotations

import random

import pytest

from engine.bots.mcts import MctsPlayer
from engine.bots.players import make_player, parse_spec
from engine.core import chance
from engine.core.game import Game
from engine.geometry import pack
from engine.rules.ruleset import load_ruleset


@pytest.mark.parametrize("spec, expected", [
    ("mcts", ("mcts", {})),
    ("mcts:2000", ("mcts", {"iterations": 2000})),
    ("mcts:1.5s", ("mcts", {"seconds": 1.5})),
    ("mcts:300:depth=8:playout=greedy", ("mcts", {"iterations": 300, "depth": 8, "playout": "greedy"})),
    ("mcts:depth=end", ("mcts", {"depth": None})),
    ("greedy", ("greedy", {})),
])
def test_specs(spec, expected):
    assert parse_spec(spec) == expected


@pytest.mark.parametrize("spec, message", [
    ("mcts:0", "iterations must be 1 to 10,000,000, not 0"),
    ("mcts:99999999999", "iterations must be 1 to 10,000,000, not 99999999999"),
    ("mcts:0.0001s", "seconds must be 0.001 to 3,600, not 0.0001"),
    ("mcts:-1s", "seconds must be a decimal number, not '-1'"),
    ("mcts:infs", "seconds must be a decimal number, not 'inf'"),
    ("mcts:1e9999s", "seconds must be a decimal number, not '1e9999'"),
    ("mcts:many", "iterations must be a whole number, not 'many'"),
    ("mcts:1_000", "iterations must be a whole number, not '1_000'"),
    ("mcts:\u0663", "iterations must be a whole number, not '\u0663'"),
    ("mcts: 5", "iterations must be a whole number, not ' 5'"),
    ("mcts:fasts", "seconds must be a decimal number, not 'fast'"),
    ("mcts:depth=all", "depth must be a whole number or end, not 'all'"),
    ("mcts:depth=-2", "depth must be a whole number or end, not '-2'"),
    ("mcts:playout=smart", "playout must be one of random, greedy, not 'smart'"),
    ("mcts:10:20", "iterations is given twice"),
    ("mcts:5:5s", "give iterations or seconds, not both"),
    ("mcts:speed=3", "'mcts' takes no setting 'speed'"),
    ("greedy:100", "'greedy' takes no setting 'iterations' (settings: keep)"),
    ("random:keep=2", "'random' takes no setting 'keep' (settings: none)"),
    ("greedy:keep", "keep needs a value (keep=N)"),
    ("mcts:80:depth", "depth needs a value (depth=N|end)"),
    ("mcts:80:playout", "playout needs a value (playout=random|greedy)"),
    ("greedy:depth", "'greedy' takes no setting 'depth' (settings: keep)"),
    ("random:keep", "'random' takes no setting 'keep' (settings: none)"),
    ("greedy:keep=-1", "keep must be a whole number, not '-1'"),
    ("mtcs:100", "unknown player 'mtcs'"),
])
def test_bad_specs_say_what_is_wrong(spec, message):
    with pytest.raises(ValueError) as error:
        parse_spec(spec)
    assert message in str(error.value)


def test_a_bad_playout_is_refused():
    with pytest.raises(ValueError, match="playout must be one of random, greedy"):
        make_player("mcts:playout=smart", 1, 0)


def _mid_game(ref: str, seed: int, turns: int) -> Game:
    game = Game(load_ruleset(ref), 2, seed)
    bots = [make_player("greedy", seed, seat) for seat in range(2)]
    for _ in range(turns):
        game.play(bots[game.player].choose(game))
    return game


@pytest.mark.parametrize("ref", ["basic", "basic+river", "basic+two-maps", "basic+abbey-and-mayor"])
def test_the_choice_does_not_depend_on_the_hidden_order(ref):
    """Two games alike in all a player can see, but with their stacks in another order:
    a search that peeked at the order would choose differently (it does, 20 iterations in)."""
    game = _mid_game(ref, 3, 6)
    other = chance.determinise(game, random.Random(1))  # another order of the same hidden tiles
    assert other.stacks != game.stacks
    for seed in range(3):
        assert MctsPlayer(seed, iterations=40).choose(game) == MctsPlayer(seed, iterations=40).choose(other)


def test_same_seed_and_budget_same_game():
    def history(seed):
        game = Game(load_ruleset("basic"), 2, 5)
        bots = [make_player("mcts:15", seed, 0), make_player("greedy", seed, 1)]
        while game.tile is not None:
            game.play(bots[game.player].choose(game))
        return game.history

    assert history(2) == history(2)


def test_a_single_legal_move_is_played_without_search():
    ruleset = load_ruleset("basic")
    game = Game(ruleset, 2, draw_order=[ruleset.tile_ids["E"]])
    game.supply = [0, 0]  # no follower to deploy: the cap has only its placements
    player = MctsPlayer(0, iterations=50)
    moves = game.legal_moves()
    move = player.choose(game)
    assert move in moves
    assert player.last_iterations == (0 if len(moves) == 1 else 50)


def test_search_finds_the_points_greedy_sees():
    """Scenario S1 (RULES.md §4): a city cap as the first tile closes the start city with a
    knight for 4 points at once, the best move; the search must keep it."""
    ruleset = load_ruleset("basic")
    cap = ruleset.tile_ids["E"]
    game = Game(ruleset, 2, seed=1)
    game.force_tile(cap)
    move = MctsPlayer(0, iterations=300).choose(game)
    assert (move.pos, move.rotation) == (pack(0, -1), 2)
    assert ruleset.kinds[ruleset.tiles[cap].segments[move.follower].kind].name == "city"


def test_a_time_budget_counts_the_clock(monkeypatch):
    """A clock that moves 10 ms per reading: a 50 ms budget runs about five iterations."""
    import time

    clock = iter(range(10**6))
    monkeypatch.setattr(time, "perf_counter", lambda: next(clock) * 0.01)
    game = _mid_game("basic", 1, 4)
    player = MctsPlayer(0, seconds=0.05)
    player.choose(game)
    assert 3 <= player.last_iterations <= 6


def test_a_leaf_value_replaces_the_playout():
    ruleset = load_ruleset("basic")
    calls = []

    def leaf(game: Game) -> list[float]:
        calls.append(game.turn)
        return [1.0 if seat == 0 else 0.0 for seat in range(game.players)]

    game = Game(ruleset, 2, seed=3)
    bot = MctsPlayer(5, iterations=40, leaf=leaf)
    move = bot.choose(game)
    assert move in game.legal_moves() and bot.last_iterations == 40
    # Every iteration ends at a new leaf below the root, valued by the function, never played out.
    assert len(calls) == 40 and all(turn > game.turn for turn in calls)
