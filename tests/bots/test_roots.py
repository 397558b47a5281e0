"""Root-parallel search (engine/bots/roots.py): ``mcts:N:roots=K`` adds up K searches, and
plays the same move whether they ran in forked processes or one after another here."""

from __future__ import annotations

import os
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
    """This process cannot fork (as on Windows): every search runs here."""
    monkeypatch.delattr(os, "fork")


def _counting_forks(monkeypatch: pytest.MonkeyPatch) -> list:
    """The forks started from here on (None for each that could not be)."""
    forks = []
    real_start = roots._Fork.start

    def start(settings, seed, game):
        fork = real_start(settings, seed, game)
        forks.append(fork)
        return fork

    monkeypatch.setattr(roots._Fork, "start", start)
    return forks


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


def test_the_move_is_the_searches_added_up():
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
def test_forks_play_the_game_one_process_plays(ref, monkeypatch):
    def history() -> list:
        game = Game(load_ruleset(ref), 2, 6)
        bots = [make_player("mcts:8:roots=2", 6, 0), make_player("greedy", 6, 1)]
        while game.tile is not None and game.turn < 16:
            game.play(bots[game.player].choose(game))
        return game.history

    forks = _counting_forks(monkeypatch)
    in_forks = history()
    assert forks and all(fork is not None for fork in forks)
    monkeypatch.undo()
    _one_process(monkeypatch)
    forks = _counting_forks(monkeypatch)
    assert history() == in_forks
    assert forks and all(fork is None for fork in forks)


def test_a_fork_that_dies_is_replaced_by_a_search_here(monkeypatch):
    game = _mid_game("basic", 2, 10)
    alone = make_player("mcts:10:roots=2", 3, 0)
    _one_process(monkeypatch)
    expected = alone.choose(game), alone.choose(game)
    monkeypatch.undo()
    forks = _counting_forks(monkeypatch)
    monkeypatch.setattr(roots, "_child", lambda *args: 3)  # exits before it sends
    player = make_player("mcts:10:roots=2", 3, 0)
    assert (player.choose(game), player.choose(game)) == expected
    assert player.last_iterations == 20
    assert len(forks) == 2 and all(fork is not None and fork.status == 3 for fork in forks)


def test_a_search_that_raises_here_kills_and_reaps_the_forks(monkeypatch):
    game = _mid_game("basic", 2, 10)
    player = make_player("mcts:10:roots=2", 3, 0)
    forks = _counting_forks(monkeypatch)
    monkeypatch.setattr(MctsPlayer, "search", lambda self, game: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        player.choose(game)
    with pytest.raises(ChildProcessError):  # the child was reaped
        os.waitpid(forks[0].pid, 0)


def test_the_choice_does_not_depend_on_the_hidden_order():
    game = _mid_game("basic", 3, 6)
    other = chance.determinise(game, random.Random(1))  # another order of the same hidden tiles
    assert other.stacks != game.stacks
    for seed in range(2):
        assert make_player("mcts:20:roots=2", seed, 0).choose(game) == \
            make_player("mcts:20:roots=2", seed, 0).choose(other)


def test_a_leaf_value_searches_in_the_fork_too(monkeypatch):
    game = _mid_game("basic", 1, 4)

    def leaf(state: Game) -> list[float]:  # a local function: it need not pickle
        return [0.1 * (state.scores[seat] - max(state.scores)) + 1.0 for seat in range(state.players)]

    forked = roots.RootParallelPlayer(1, roots=2, iterations=12, leaf=leaf).choose(game)
    _one_process(monkeypatch)
    assert roots.RootParallelPlayer(1, roots=2, iterations=12, leaf=leaf).choose(game) == forked
