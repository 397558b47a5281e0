"""A score event (engine/core/score_event.py): equal by value, pickled and copied whole, and
what a game records of it unchanged by being a plain class rather than a frozen dataclass."""

from __future__ import annotations

import copy
import pickle

from engine.bots.random_player import RandomPlayer
from engine.core.game import Game
from engine.core.score_event import FIELDS, ScoreEvent
from engine.rules.ruleset import load_ruleset


def event(**changes: object) -> ScoreEvent:
    given: dict = dict(phase="in_game", turn=4, kind="city", rule="complete", formula="2 * tiles", points=6,
                       players=(1,), followers=(0, 1), inputs={"tiles": 3, "pennants": 0},
                       terms=(("2 * tiles", 6),), tiles=((0, 0), (0, 1), (1, 1)))
    given.update(changes)
    return ScoreEvent(**given)


def test_defaults_and_fields() -> None:
    made = event()
    assert ((made.map, made.target, made.constants, made.tokens, made.values, made.holder)
            == (None, None, (), {}, (), -1))
    assert dict(zip(FIELDS, made.fields()))["points"] == 6
    assert len(FIELDS) == len(made.fields())


def test_equal_by_value_and_every_field_counts() -> None:
    assert event() == event()
    for name, other in [("turn", 5), ("points", 7), ("players", (0,)), ("inputs", {"tiles": 3}), ("holder", 0),
                        ("tokens", {"wine": 1}), ("map", 1), ("target", "city")]:
        assert event(**{name: other}) != event(), name
    assert event() != "not an event"


def test_repr_names_every_field() -> None:
    shown = repr(event())
    assert shown.startswith("ScoreEvent(phase='in_game', turn=4, kind='city'")
    assert all(f"{name}=" in shown for name in FIELDS)


def test_pickled_and_deep_copied_whole() -> None:
    made = event(tokens={"wine": 2}, values=(3, 1), map=1)
    assert pickle.loads(pickle.dumps(made)) == made
    assert copy.deepcopy(made) == made and copy.copy(made) == made


def test_a_games_events_survive_a_pickle_round_trip() -> None:
    game = Game(load_ruleset("basic+abbey-and-mayor"), 2, 3)
    bots = [RandomPlayer("3:0"), RandomPlayer("3:1")]
    while game.tile is not None:
        game.play(bots[game.player].choose(game))
    game.finish()
    assert game.events and pickle.loads(pickle.dumps(game.events)) == game.events
    assert [e.to_json() for e in pickle.loads(pickle.dumps(game.events))] == [e.to_json() for e in game.events]
