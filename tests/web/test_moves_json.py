"""The JSON of the web table's moves (engine/web/moves_json.py): one parser per kind, each
kind of the core's moves among them, and a readable :class:`BadField` for anything malformed."""

from __future__ import annotations

import pytest

from engine.core.game import Game
from engine.core.moves import DRAW, HOME, KIND_NAMES, Move, move_on, pick
from engine.geometry import pack
from engine.rules.ruleset import load_ruleset
from engine.web.moves_json import PARSERS, BadField, Start, parse_move


@pytest.fixture(scope="module")
def game() -> Game:
    return Game(load_ruleset("basic+two-maps"), 2, 1)


def test_every_kind_of_move_has_a_parser() -> None:
    assert set(PARSERS) == set(KIND_NAMES) | {"start", "take-back"}


def test_each_kind_parses_to_its_move(game: Game) -> None:
    on_map_1 = pack(-2, 3) + game.origin(1)
    tile = game.ruleset.tiles[4]
    cases: list[tuple[dict, Move | Start]] = [
        ({"kind": "place", "map": 1, "x": -2, "y": 3, "rotation": 1}, Move(on_map_1, 1)),
        ({"kind": "place", "map": 1, "x": -2, "y": 3, "rotation": 1, "follower": 2, "type": 0}, Move(on_map_1, 1, 2)),
        ({"kind": "decline"}, DRAW),
        ({"kind": "pick", "tile": tile.id}, pick(4)),
        ({"kind": "move-on", "map": 1, "x": -2, "y": 3, "segment": 2}, move_on(on_map_1, 2, 0)),
        ({"kind": "home"}, HOME),
        ({"kind": "start", "rotation": 3}, Start(3)),
    ]
    for json_move, move in cases:
        parsed = parse_move(game, json_move)
        assert parsed == move
        if isinstance(parsed, Move):
            assert KIND_NAMES[parsed.kind] == json_move["kind"] and game.local(parsed.pos)[0] in (0, 1)
    assert game.local(on_map_1) == (1, -2, 3)


@pytest.mark.parametrize("move, says", [
    (None, "'move' must be a JSON object such as {\"kind\": \"place\", …}, not null"),
    ("place", "'move' must be a JSON object"),
    ({"kind": "PLACE"}, ("the move's 'kind' must be one of \"place\", \"decline\", \"pick\", \"move-on\", "
                         "\"home\", \"start\", \"take-back\", not \"PLACE\"")),
    ({"kind": ["place"]}, "the move's 'kind' must be one of"),
    ({"kind": "place", "map": 2, "x": 0, "y": 1, "rotation": 0}, "'map' must be a whole number from 0 to 1, not 2"),
    ({"kind": "place", "map": 0, "x": 0, "rotation": 0}, "'y' must be a whole number from -32767 to 32767, not null"),
    ({"kind": "place", "map": 0, "x": 0, "y": 1, "rotation": True}, "'rotation' must be a whole number from 0 to 3"),
    ({"kind": "place", "map": 0, "x": 0, "y": 1, "rotation": 0, "follower": -1},
     "'follower' must be a whole number from 0 to 10000 or null, not -1"),
    ({"kind": "place", "map": 0, "x": 0, "y": 1, "rotation": 0, "type": None}, "'type' must be a whole number"),
    ({"kind": "pick", "tile": ""}, "the ruleset has no tile \"\""),
    ({"kind": "pick", "tile": {"id": "D"}}, "'tile' must be the id of a tile in your hand, such as \"D\", not {"),
    ({"kind": "move-on", "map": 0, "x": 0, "y": 0}, "'segment' must be a whole number from 0 to 10000, not null"),
    ({"kind": "home", "segment": None}, "a home move takes no other field, not \"segment\""),
    ({"kind": "start"}, "'rotation' must be a whole number from 0 to 3, not null"),
])
def test_a_malformed_move_is_a_bad_field_saying_what(game: Game, move, says: str) -> None:
    with pytest.raises(BadField) as bad:
        parse_move(game, move)
    assert says in str(bad.value)
