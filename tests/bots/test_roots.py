"""Root-parallel search (engine/bots/roots.py): ``mcts:N:roots=K`` adds up K searches, and
plays the same move whether they ran in worker processes or one after another here."""

from __future__ import annotations

import random

import pytest

from engine.bots import roots
from engine.bots.mcts import MctsPlayer, best_move
from engine.bots.players import make_player, parse_spec
from engine.core import chance
from engine.core.game import Game
from engine.core.moves import Move
from engine.rules.ruleset import load_ruleset


def _mid_game(ref: str, seed: int, turns: int) -> Game:
    game = Game(load_ruleset(ref), 2, seed)
    bots = [make_player("greedy", seed, seat) for seat in range(2)]
    for _ in range(turns):
        game.play(bots[game.player].choose(game))
    return game


def _one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers cannot start (as in a daemonic process): every search runs here."""
    def refuse(ruleset: bytes) -> None:
        raise AssertionError("daemonic processes are not allowed to have children")

    monkeypatch.setattr(roots._Worker, "__init__", refuse)


def test_specs():
    assert parse_spec("mcts:800:roots=2") == ("mcts", {"iterations": 800, "roots": 2})
    assert type(make_player("mcts:roots=1", 1, 0)) is MctsPlayer
    assert type(make_player("mcts:20:roots=3", 1, 0)) is roots.RootParallelPlayer


@pytest.mark.parametrize("spec, message", [
    ("mcts:roots=0", "roots must be 1 to 64, not 0"),
    ("mcts:roots=65", "roots must be 1 to 64, not 65"),
    ("mcts:roots=two", "roots must be a whole number, not 'two'"),
    ("mcts:roots", "roots needs a value (roots=N)"),
    ("greedy:roots=2", "'greedy' takes no setting 'roots' (settings: keep)"),
])
def test_bad_specs_say_what_is_wrong(spec, message):
    with pytest.raises(ValueError) as error:
        parse_spec(spec)
    assert message in str(error.value)


def test_bad_search_settings_are_refused_at_once():
    with pytest.raises(ValueError, match="playout must be one of random, greedy"):
        make_player("mcts:roots=2:playout=smart", 1, 0)


def test_best_move_counts_visits_then_reward_then_order():
    a, b, c = Move(1, 0), Move(2, 0), Move(3, 0)
    assert best_move({(0, a): (5, 1.0), (0, b): (7, 0.5), (0, c): (7, 0.2)}) == b
    assert best_move({(0, a): (7, 3.0), (0, b): (7, 3.0)}) == a


def test_the_move_is_the_searches_added_up(monkeypatch):
    """The rule written out: K searches seeded in turn from the bot's generator, their
    visits and rewards summed per root move, the most visited played."""
    game = _mid_game("basic", 4, 8)
    player = make_player("mcts:15:roots=3", 9, 0)
    rng = random.Random("9:0")
    seeds = [rng.getrandbits(64) for _ in range(3)]
    total: dict = {}
    for seed in seeds:
        for key, (visits, reward) in MctsPlayer(seed, iterations=15).search(game).items():
            total[key] = (total.get(key, (0, 0.0))[0] + visits, total.get(key, (0, 0.0))[1] + reward)
    assert player.choose(game) == best_move(total)
    assert player.last_iterations == 45


@pytest.mark.parametrize("ref", ["basic", "basic+river", "basic+abbey-and-mayor"])
def test_workers_play_the_game_one_process_plays(ref, monkeypatch):
    def history() -> list:
        game = Game(load_ruleset(ref), 2, 6)
        bots = [make_player("mcts:8:roots=2", 6, 0), make_player("greedy", 6, 1)]
        while game.tile is not None and game.turn < 16:
            game.play(bots[game.player].choose(game))
        return game.history

    in_workers = history()
    _one_process(monkeypatch)
    assert history() == in_workers


def test_a_worker_that_dies_is_replaced_by_a_search_here(monkeypatch):
    game = _mid_game("basic", 2, 10)
    player = make_player("mcts:10:roots=2", 3, 0)
    alone = make_player("mcts:10:roots=2", 3, 0)
    _one_process(monkeypatch)
    first = alone.choose(game), alone.choose(game)
    monkeypatch.undo()
    assert player.choose(game) == first[0]
    worker = player._pool[0]
    worker.process.kill()
    worker.process.join()
    assert player.choose(game) == first[1]
    assert player.last_iterations == 20


def test_the_choice_does_not_depend_on_the_hidden_order():
    game = _mid_game("basic", 3, 6)
    other = chance.determinise(game, random.Random(1))  # another order of the same hidden tiles
    assert other.stacks != game.stacks
    for seed in range(2):
        assert make_player("mcts:20:roots=2", seed, 0).choose(game) == \
            make_player("mcts:20:roots=2", seed, 0).choose(other)


def test_a_leaf_that_does_not_pickle_searches_here():
    game = _mid_game("basic", 1, 4)
    calls = []

    def leaf(state: Game) -> list[float]:  # a local function: it does not pickle
        calls.append(state.turn)
        return [0.5] * state.players

    player = roots.RootParallelPlayer(1, roots=2, iterations=5, leaf=leaf)
    assert player.choose(game) in game.legal_moves()
    assert not player._pool
    assert len(calls) >= 2 * 4  # both searches ran here (a leaf can end the game: not every iteration)


def test_a_game_of_another_ruleset_restarts_the_workers():
    player = make_player("mcts:5:roots=2", 1, 0)
    basic, river = _mid_game("basic", 1, 3), _mid_game("basic+river", 1, 3)
    assert player.choose(basic) in basic.legal_moves()
    first = player._pool[0]
    assert player.choose(river) in river.legal_moves()
    assert player._pool[0] is not first and player._pool_ruleset is river.ruleset
    assert not first.process.is_alive()
