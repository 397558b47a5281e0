"""The moves the web table takes, as JSON: an object tagged by ``kind`` with the fields that kind
needs, turned into a :class:`~engine.core.moves.Move` by one parser per kind (:data:`PARSERS`;
a new kind of move is one entry).  docs/web.md, "The API", lists them:

* ``{"kind": "place", "map", "x", "y", "rotation", "follower", "type"}``: the tile to place at
  ``(x, y)`` on map ``map`` turned ``rotation`` quarter turns clockwise, a follower of type
  ``type`` (0, normal, when left out) on spot ``follower`` (an index into the tile type's
  segments, then its corners, as the state's options give) or none (null or left out);
* ``{"kind": "decline"}``: keep the personal tile offered and draw instead (``deck.personal``);
* ``{"kind": "pick", "tile"}``: place the tile of the hand whose id is ``tile`` (``deck.hand``);
* ``{"kind": "move-on", "map", "x", "y", "segment"}``: move the follower whose feature scored on
  to segment ``segment`` of the tile at ``(x, y)``; ``{"kind": "home"}``: take it home instead;
* ``{"kind": "start", "rotation"}``: turn the drawn start tile (a :class:`Start`, not a Move:
  :meth:`~engine.core.game.Game.place_start` takes it);
* ``{"kind": "take-back"}``: take back the player's last answer, when its decision is revocable
  (a :class:`TakeBack`, not a Move: the table keeps the game as it was before that answer).

Parsing checks the JSON only (a field missing, of the wrong type, out of range, or unknown to
the kind): :class:`BadField`.  Whether the rules allow the move is
:meth:`~engine.core.game.Game.check`'s.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core import moving
from ..core.moves import DRAW, HOME, Move, move_on, pick
from ..geometry import MAP_SPAN, pack

if TYPE_CHECKING:
    from ..core.game import Game

#: The largest |x| and |y| a move may name: a cell of its own map (maps lie MAP_SPAN columns apart).
REACH = MAP_SPAN // 2 - 1


class BadField(ValueError):
    """A field of a request body that is missing, of the wrong type or out of range; the
    message names the field and what it must be."""


@dataclass(frozen=True)
class Start:
    """The drawn start tile turned ``rotation`` quarter turns clockwise (``deck.start_rule: drawn``)."""

    rotation: int


@dataclass(frozen=True)
class TakeBack:
    """Take back the last answer, if its decision kind is revocable (a tile of the hand picked)."""


def whole(data: dict[str, Any], key: str, *, low: int = -10**6, high: int = 10**6, none: bool = False) -> Any:
    """``data[key]`` as a whole number in ``[low, high]`` (or None when ``none``); :class:`BadField` if not."""
    value = data.get(key)
    if value is None and none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        wanted = f"a whole number from {low} to {high}" + (" or null" if none else "")
        raise BadField(f"'{key}' must be {wanted}, not {json.dumps(value)[:40]}")
    return value


def parse_move(game: Game, move: Any) -> Move | Start | TakeBack:
    """The move (or start tile's rotation) the JSON object ``move`` names, for ``game`` as it
    stands (a cell is a packed position of its map, a tile id a tile type); :class:`BadField`."""
    if not isinstance(move, dict):
        example = '{"kind": "place", …}'
        raise BadField(f"'move' must be a JSON object such as {example}, not {json.dumps(move)[:40]}")
    parser = PARSERS.get(move["kind"]) if isinstance(move.get("kind"), str) else None
    if parser is None:
        kinds = ", ".join(f'"{name}"' for name in PARSERS)
        raise BadField(f"the move's 'kind' must be one of {kinds}, not {json.dumps(move.get('kind'))[:40]}")
    return parser(game, move)


def _fields(move: dict[str, Any], *known: str) -> None:
    """:class:`BadField` for a field the move's kind does not take (a typo would otherwise be
    dropped unseen: a follower sent as "folower" placed none)."""
    unknown = [key for key in move if key != "kind" and key not in known]
    if unknown:
        takes = f"takes {', '.join(repr(k) for k in known)}" if known else "takes no other field"
        raise BadField(f"a {move['kind']} move {takes}, not {json.dumps(unknown[0])[:40]}")


def _cell(game: Game, move: dict[str, Any]) -> int:
    """The packed position of the move's ``map``, ``x``, ``y``."""
    m = whole(move, "map", low=0, high=game.ruleset.maps - 1)
    x, y = whole(move, "x", low=-REACH, high=REACH), whole(move, "y", low=-REACH, high=REACH)
    return pack(x, y) + game.origin(m)


def _place(game: Game, move: dict[str, Any]) -> Move:
    _fields(move, "map", "x", "y", "rotation", "follower", "type")
    pos = _cell(game, move)
    return Move(pos, whole(move, "rotation", low=0, high=3), whole(move, "follower", low=0, high=10**4, none=True),
                whole(move, "type", low=0, high=255) if "type" in move else 0)


def _decline(game: Game, move: dict[str, Any]) -> Move:
    _fields(move)
    return DRAW


def _pick(game: Game, move: dict[str, Any]) -> Move:
    _fields(move, "tile")
    tile = move.get("tile")
    if not isinstance(tile, str):
        raise BadField(f"'tile' must be the id of a tile in your hand, such as \"D\", not {json.dumps(tile)[:40]}")
    index = game.ruleset.tile_ids.get(tile)
    if index is None:
        raise BadField(f"the ruleset has no tile {json.dumps(tile[:40])}")
    return pick(index)


def _move_on(game: Game, move: dict[str, Any]) -> Move:
    _fields(move, "map", "x", "y", "segment")
    pos = _cell(game, move)
    segment = whole(move, "segment", low=0, high=10**4)
    movers = moving.of(game).movers
    return move_on(pos, segment, movers[0][1] if movers else 0)  # the type of the follower to move


def _home(game: Game, move: dict[str, Any]) -> Move:
    _fields(move)
    return HOME


def _start(game: Game, move: dict[str, Any]) -> Start:
    _fields(move, "rotation")
    return Start(whole(move, "rotation", low=0, high=3))


def _take_back(game: Game, move: dict[str, Any]) -> TakeBack:
    _fields(move)
    return TakeBack()


#: Each kind of move the table takes, by the name its JSON object's ``kind`` gives (the core's
#: :data:`~engine.core.moves.KIND_NAMES`, ``start`` and ``take-back``), with the parser of its fields.
PARSERS: dict[str, Callable[[Game, dict[str, Any]], Move | Start | TakeBack]] = {
    "place": _place, "decline": _decline, "pick": _pick, "move-on": _move_on, "home": _home, "start": _start,
    "take-back": _take_back,
}


__all__ = ["PARSERS", "BadField", "Start", "TakeBack", "parse_move", "whole"]
