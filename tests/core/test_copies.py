"""Copies that cannot forget (engine/core/snapshot.py): a copy of a game in progress holds every
piece of its state, equal to the original's and sharing nothing the game changes in place, and
playing a copy to its end leaves the original as it was, under every shipped ruleset and option.

The attribute list is read from the class (the compiled build's ``__mypyc_attrs__``, the pure
build's instance dictionary), not written here: a new piece of game state that ``copy`` forgets
fails the first test by construction.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots.random_player import RandomPlayer
from engine.core.game import Game
from engine.rules.inspect import shipped_games
from engine.rules.ruleset import load_ruleset

#: What a copy shares with its original, and why that is safe.
SHARED = {
    "ruleset": "the compiled ruleset is frozen",
    "tiles": "the ruleset's tile types, frozen",
    "deploy_masks": "worked out once from the ruleset and the seats, never changed",
    "moments": "the ruleset's mechanisms' handlers, worked out once and never changed",
    "weights": "a tuple",
    "edge_pow": "a tuple",
    "kept_out": "an int",
    "placement_cache": "never changed in place, only replaced",
    "totals": "a cache whose entries are checked against the feature's member list, itself never changed in place",
    "bonuses_memo": "a cache whose entries are a function of their key alone (the aggregates, titles, seat)",
    "rng": "shared until either side draws, then that side takes its own (engine.core.snapshot.own_rng)",
}
#: Not state: methods kept on the class.
NOT_STATE = {"origin", "local"}
GAMES = shipped_games()


def state_names(game: Game) -> list[str]:
    """Every attribute of a game's state, as the class declares it (compiled) or the instance holds it (pure)."""
    declared = getattr(type(game), "__mypyc_attrs__", None)
    names = declared if declared is not None else tuple(vars(game))
    return sorted(set(names) - NOT_STATE)


def frozen(value: object) -> object:
    """``value`` as nested tuples, for comparing a game's state before and after."""
    if isinstance(value, random.Random):
        return ("rng", value.getstate())
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(frozen(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted(((repr(k), frozen(v)) for k, v in value.items()), key=lambda kv: kv[0])))
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted(repr(v) for v in value)))
    if hasattr(value, "__dict__") and not isinstance(value, type):
        return (type(value).__name__, frozen(vars(value)))
    slots = getattr(type(value), "__mypyc_attrs__", None) or getattr(type(value), "__slots__", None)
    if slots is not None:  # a mechanism's state (engine/core/titles.py's Settled), compiled or not
        return (type(value).__name__, tuple((name, frozen(getattr(value, name))) for name in slots))
    return value


def fingerprint(game: Game) -> dict[str, object]:
    """Every piece of ``game``'s state but the frozen ruleset, a cache, and whether the random
    generator is shared (copying sets it on the original too; the generator's state is compared)."""
    return {name: frozen(getattr(game, name)) for name in state_names(game)
            if name not in ("ruleset", "tiles", "totals", "rng_shared")}


def played_to(ref: str, seed: int, turns: int) -> Game:
    ruleset = load_ruleset(ref)
    game = Game(ruleset, min(ruleset.min_players + seed % 2, ruleset.max_players), seed)
    bots = [RandomPlayer(f"{seed}:{p}") for p in range(game.players)]
    while game.start_tile is not None:  # a start tile drawn from the stack (random-start)
        game.place_start(bots[0].choose_start(game))
    while game.tile is not None and game.turn < turns:
        game.play(bots[game.player].choose(game))
    return game


@pytest.mark.parametrize("ref", GAMES)
def test_a_copy_holds_every_piece_of_state_and_shares_nothing_that_changes(ref: str) -> None:
    game = played_to(ref, 5, 12)
    other = game.copy()
    names = state_names(game)
    assert {"scores", "board", "stacks", "rng"} <= set(names)
    for name in names:
        mine, theirs = getattr(game, name), getattr(other, name)  # a forgotten attribute raises here (compiled)
        if name not in ("ruleset", "tiles", "totals", "rng_shared"):
            assert frozen(theirs) == frozen(mine), name
        if isinstance(mine, (list, dict, set)) and name not in SHARED:
            assert theirs is not mine, f"{name} is shared with the copy"
    if not hasattr(type(game), "__mypyc_attrs__"):
        assert set(vars(other)) == set(vars(game))


@pytest.mark.parametrize("ref", GAMES)
def test_a_copy_of_each_mechanisms_state_shares_nothing_that_changes(ref: str) -> None:
    """Inside ``game.states`` too (engine/core/mechanism.py): each state's copy is equal and holds
    its own lists, dicts and sets, unless ``copy`` returns the state itself (a state never changed)."""
    game = played_to(ref, 5, 12)
    other = game.copy()
    for name, mine in game.states.items():
        theirs = other.states[name]
        assert frozen(theirs) == frozen(mine), name
        if theirs is mine:
            continue
        slots = getattr(type(mine), "__mypyc_attrs__", None) or getattr(type(mine), "__slots__", None) or vars(mine)
        for attr in slots:
            if isinstance(getattr(mine, attr), (list, dict, set)):
                assert getattr(theirs, attr) is not getattr(mine, attr), f"{name}.{attr} is shared with the copy"


@settings(max_examples=60, deadline=None)
@given(which=st.integers(0, len(GAMES) - 1), seed=st.integers(0, 2**16), turns=st.integers(0, 60))
def test_playing_copies_to_the_end_leaves_the_original_as_it_was(which: int, seed: int, turns: int) -> None:
    """Two copies played out differently (one finished and scored); the original then plays on
    exactly as a copy made before them does, with the same bots."""
    game = played_to(GAMES[which], seed, turns)
    before = fingerprint(game)
    twin = game.copy()
    for k in range(2):
        copy = game.copy()
        bots = [RandomPlayer(f"other {k} {p}") for p in range(game.players)]
        while copy.tile is not None:
            copy.play(bots[copy.player].choose(copy))
        copy.finish()
    assert fingerprint(game) == before
    for playing in (game, twin):
        bots = [RandomPlayer(f"{seed}:{p}") for p in range(game.players)]
        while playing.tile is not None:
            playing.play(bots[playing.player].choose(playing))
        playing.finish()
    assert (game.scores, game.history) == (twin.scores, twin.history)
