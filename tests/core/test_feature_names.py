"""Score events name their feature so that two are never confused (issue 50): by the first tile
and, where the event knows it, the feature's segment there in follower notation (``field@NR at
(-3,-2)``); two fields of one tile once shared "field at (-3,-2)"."""

from __future__ import annotations

import pickle

from engine.rules.ruleset import load_ruleset
from engine.sim.play import play_game


def _subject(line: str) -> str:
    """``field@NR at (-3,-2)`` of ``field@NR at (-3,-2) (final; …): …``."""
    return line[:line.index(") (") + 1]


def test_every_feature_scored_at_the_end_has_a_name_of_its_own() -> None:
    ruleset = load_ruleset("basic")
    shared_tile = 0  # games where two features of a kind scored at the end begin on one tile
    for seed in range(12):
        game = play_game(ruleset, ["random", "greedy"], seed).game
        final = [e for e in game.events if e.phase == "final"]
        names = [_subject(e.explain(["A", "B"])) for e in final]
        assert len(set(names)) == len(names), names
        firsts = [(e.kind, e.tiles[0]) for e in final]
        shared_tile += len(set(firsts)) < len(firsts)
    assert shared_tile, "no game had two features of a kind on one first tile: the test proves nothing"


def test_the_name_uses_the_follower_notation_of_the_segment() -> None:
    game = play_game(load_ruleset("basic"), ["random", "greedy"], 4).game
    lines = [e.explain(["random-1", "greedy-2"]) for e in game.events if e.phase == "final"]
    assert "field@NR at (-3,-2) (final; tiles 19, completed_cities 4)" in " ".join(lines)
    assert "field@SR at (-3,-2) (final; tiles 19, completed_cities 1)" in " ".join(lines)
    assert any(line.startswith("cloister at (0,2) (incomplete; tiles 1, neighbors 6): 1, neighbors = 6 → 7")
               for line in lines)  # a constant term is "1", not "1 = 1"


def test_the_anchor_survives_a_copy_but_not_a_record() -> None:
    game = play_game(load_ruleset("basic"), ["random", "greedy"], 4).game
    event = next(e for e in game.events if e.anchor)
    again = pickle.loads(pickle.dumps(event))
    assert again == event and again.anchor == event.anchor
    assert "anchor" not in event.to_json()
