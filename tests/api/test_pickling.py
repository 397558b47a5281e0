"""Rulesets and games pickle and copy, and the OpenSpiel state and the PettingZoo env pickle
and copy mid-game, on both builds (issue 52 item 3: in the compiled build a Ruleset raised
FrozenInstanceError, so neither a game nor an env holding one could be pickled or deep-copied,
and SubprocVecEnv with an env instance died; then a Game pickled but did not load, with a
TypeError from its mechanisms' states).  CI runs this file on each build."""

from __future__ import annotations

import copy
import pickle

import pytest

from engine.bots.random_player import RandomPlayer
from engine.core.game import Game
from engine.rules.ruleset import Ruleset, load_ruleset, unpickled_ruleset

REFS = ["basic", "basic+abbey-and-mayor+inns-and-cathedrals", "basic+hand-of-two", "basic+river",
        "basic+two-maps", "basic+king-and-robber-baron+traders-and-builders"]


def _round_trip(obj):
    return pickle.loads(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))


@pytest.mark.parametrize("ref", REFS)
def test_a_ruleset_pickles_as_its_document_and_copies_as_itself(ref: str) -> None:
    ruleset = load_ruleset(ref)
    back = _round_trip(ruleset)
    assert isinstance(back, Ruleset) and back.sha256 == ruleset.sha256 and back.ref == ruleset.ref
    assert back.tiles == ruleset.tiles and back.deck_size == ruleset.deck_size
    games = [Game(r, 2, seed=6) for r in (ruleset, back)]
    assert _moves(games[0], 4, 999) == _moves(games[1], 4, 999)  # the same rules: the same game
    for game in games:
        game.finish()
    assert games[0].scores == games[1].scores and games[0].kind_points == games[1].kind_points
    assert copy.deepcopy(ruleset) is ruleset and copy.copy(ruleset) is ruleset  # immutable: shared
    assert _round_trip(ruleset) is back  # compiled once a process


def test_an_unpickled_ruleset_needs_no_file() -> None:
    """The pickle holds the whole document: a worker without the ruleset's files loads it."""
    ruleset = load_ruleset("basic+farm-points-4")
    assert b"rulesets/" not in pickle.dumps(ruleset)
    fresh = unpickled_ruleset(ruleset.data, "renamed", ruleset.sha256)
    assert fresh.sha256 == ruleset.sha256 and fresh.ref == "renamed" and fresh.tiles == ruleset.tiles


@pytest.mark.parametrize("ref", [
    "basic+inns-and-cathedrals+tiny-city+traders-and-builders+vineyards+farms-pay-cloisters",
    "basic+abbey-and-mayor+traders-and-builders+pig-in-barn"])
def test_an_unpickled_ruleset_explains_every_score_by_the_same_terms(ref: str) -> None:
    """Formulas naming ``previous`` (tiny-city's over inns-and-cathedrals' over basic's, …) are
    explained by each option's own terms: the pickle carries what they build on, not only the
    written-out text (which scored alike but explained ``(2 * tiles + 2 * pennants)`` as one term)."""
    ruleset = load_ruleset(ref)
    back = _round_trip(ruleset)
    assert ruleset.chains and back.chains == ruleset.chains
    games = [Game(r, 2, seed=4) for r in (ruleset, back)]
    for game in games:
        _moves(game, 3, 999)
        game.finish()
    assert games[1].events == games[0].events and games[0].events


def _moves(game: Game, seed: int, turns: int) -> list:
    """Play ``turns`` moves of a seeded random bot (or to the end); the moves played."""
    bot, played = RandomPlayer(seed), []
    while game.decision() is not None and len(played) < turns:
        move = bot.choose(game)
        game.play(move)
        played.append(move)
    return played


@pytest.mark.parametrize("ref", REFS)
@pytest.mark.parametrize("how", [copy.copy, copy.deepcopy])
def test_a_copied_game_goes_on_as_the_original_would_and_shares_nothing(ref: str, how) -> None:
    """A game 20 moves in, copied: the copy and the original play on alike with the same bot seed
    (the copy carries the stack's order and the generator), and the copy's moves leave the
    original as it was."""
    game = Game(load_ruleset(ref), 2, seed=3)
    _moves(game, 1, 20)
    clone = how(game)
    assert clone is not game and clone.history == game.history and clone.scores == game.scores
    before = (list(game.scores), list(game.history), game.remaining)
    theirs = _moves(clone, 2, 400)
    assert (list(game.scores), list(game.history), game.remaining) == before
    assert _moves(game, 2, 400) == theirs and clone.scores == game.scores and clone.history == game.history


@pytest.mark.parametrize("ref", REFS)
@pytest.mark.parametrize("turns", [0, 1, 20, 999])
def test_a_pickled_game_plays_on_as_the_original_would(ref: str, turns: int) -> None:
    """A game pickled before its first move, after one, mid-game and at its end: the loaded game
    holds the same board, scores, events and stack, and the same bot seed plays both to the same
    end (the generator goes along: ``unplaceable`` reshuffles and hands draw from it)."""
    game = Game(load_ruleset(ref), 3 if ref == "basic" else 2, seed=5)
    _moves(game, 1, turns)
    back = _round_trip(game)
    assert type(back) is Game and back.ruleset.sha256 == game.ruleset.sha256
    assert {pos: (cell[1], cell[2], cell[0].rotation) for pos, cell in back.board.items()} == \
        {pos: (cell[1], cell[2], cell[0].rotation) for pos, cell in game.board.items()}
    assert back.history == game.history and back.events == game.events and back.scores == game.scores
    assert back.remaining == game.remaining and back.tile == game.tile
    assert (back.decision() is None) == (game.decision() is None)
    if game.decision() is not None:
        assert back.legal_moves() == game.legal_moves()
    assert _moves(back, 2, 999) == _moves(game, 2, 999)
    for played in (game, back):
        if not played.finished:
            played.finish()
    assert back.scores == game.scores and back.kind_points == game.kind_points and back.events == game.events


def test_a_replayed_game_pickles_with_its_draw_order_and_a_tried_mechanism_goes_along() -> None:
    """A game whose draw order was given (a replay, a scenario) keeps it, and a game trying a
    mechanism (``Game(mechanisms=…)``: here the registry without hands) keeps that choice."""
    from engine.core.mechanisms import REGISTRY

    ruleset = load_ruleset("basic+hand-of-two")
    order = [ruleset.tile_ids[t] for t in "VUEDKLW"]
    game = Game(ruleset, 2, draw_order=order, mechanisms=tuple(m for m in REGISTRY if m.name != "hands of tiles"))
    _moves(game, 1, 4)
    back = _round_trip(game)
    assert back.forced and not back.states and [t for t, _ in back.history] == order[:4]
    assert _moves(back, 3, 99) == _moves(game, 3, 99) and [t for t, _ in back.history] == order


def test_the_openspiel_state_pickles_and_copies_mid_game() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    import numpy

    import engine.api.openspiel  # noqa: F401  (registers python_carcassonne)

    game = pyspiel.load_game("python_carcassonne", {"ruleset": "basic+abbey-and-mayor"})
    state = game.new_initial_state()
    rng = numpy.random.RandomState(2)
    for _ in range(25):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    for other in (_round_trip(state), copy.deepcopy(state)):
        assert str(other) == str(state) and other.legal_actions() == state.legal_actions()
        assert numpy.array_equal(other.observation_tensor(0), state.observation_tensor(0))


def test_the_pettingzoo_env_pickles_and_copies_mid_episode() -> None:
    pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")
    import numpy

    from engine.api.pettingzoo import CarcassonneEnv

    env = CarcassonneEnv("basic+abbey-and-mayor", 2)
    env.reset(seed=3)
    rng = numpy.random.default_rng(3)
    for _ in range(15):
        obs, *_ = env.last()
        env.step(int(rng.choice(numpy.flatnonzero(obs["action_mask"]))))
    for other in (_round_trip(env), copy.deepcopy(env)):
        assert other.agent_selection == env.agent_selection
        mine, theirs = env.observe(env.agent_selection), other.observe(other.agent_selection)
        assert mine.keys() == theirs.keys() and all(numpy.array_equal(mine[key], theirs[key]) for key in mine)
        action = int(numpy.flatnonzero(mine["action_mask"])[-1])
        other.step(action)  # the copy moves on; the original stays
        assert env.observe(env.agent_selection)["action_mask"][action]
        assert other.state.actions != env.state.actions


def test_an_openspiel_state_does_not_load_under_changed_rules(tmp_path) -> None:
    """OpenSpiel loads the game again from its parameters: a state saved under a ruleset file
    that has changed since says so, rather than play on under two sets of rules."""
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")

    import engine.api.openspiel  # noqa: F401  (registers python_carcassonne)
    from engine.resources import rulesets_dir

    mine = tmp_path / "mine.yaml"
    text = (rulesets_dir() / "basic.yaml").read_text(encoding="utf-8")
    mine.write_text(text, encoding="utf-8")
    state = pyspiel.load_game("python_carcassonne", {"ruleset": str(mine)}).new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    saved = pickle.dumps(state)
    assert str(pickle.loads(saved)) == str(state)  # the same file: it loads
    serialised = state.serialize()
    mine.write_text(text.replace("farm_points: 3", "farm_points: 4"), encoding="utf-8")
    with pytest.raises(ValueError, match="played under another ruleset"):
        pickle.loads(saved)
    # OpenSpiel's own deserialisation calls nothing of the state's: the state says so on first use.
    loaded = pyspiel.load_game("python_carcassonne", {"ruleset": str(mine)}).deserialize_state(serialised)
    with pytest.raises(ValueError, match="played under another ruleset"):
        loaded.legal_actions()
    assert str(state.clone()) == str(state)  # a clone keeps its game: no file is read
