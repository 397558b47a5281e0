"""Playing the turn entries of a record or a scenario on a game: placements, discards, tiles of a
player's own (``personal``) and the choices of followers moving on (``move``).

:func:`~engine.files.record.replay`, the scenario runner, ``rescore`` and the pictures share
these, so an entry means the same wherever it is read: a drawn tile is forced (declining a
personal tile offered, and sending home a follower whose choice the entries leave out).
"""

from __future__ import annotations

from ..core import burial, hands, moving, personal, titles
from ..core.game import Game
from ..core.moves import DRAW, HOME, IllegalMove, Move, move_on
from ..errors import UserError
from ..geometry import pack
from ..rules.ruleset import Ruleset
from ..rules.source import Document
from .notation import parse_deployment, parse_follower


def tile_index(ruleset: Ruleset, tile_id: str, doc: Document, path: tuple) -> int:
    """Index of tile type ``tile_id``; :class:`UserError` at ``path`` if unknown."""
    index = ruleset.tile_ids.get(tile_id)
    if index is None:
        raise UserError(f"tile '{tile_id}' is not a tile type of ruleset {ruleset.ref}",
                        code="tile-unknown", **doc.where(path))
    return index


def enter_turn_map(game: Game, turn: dict, doc: Document, path: tuple) -> None:
    """Play the turn on the map it names (``map``), if it names one; :class:`UserError` ``map``
    at ``path`` for a map the ruleset does not have."""
    if "map" in turn:
        if not 0 <= turn["map"] < game.ruleset.maps:
            raise UserError(f"there is no map {turn['map']} (the ruleset has {game.ruleset.maps})", code="map",
                            **doc.where(path + ("map",)))
        game.enter_map(turn["map"])


def entry_pos(game: Game, turn: dict, key: str, doc: Document, path: tuple) -> int:
    """The packed position ``turn[key]`` (``[x, y]``) names on the entry's map (which it enters);
    :class:`UserError` ``position`` for one outside the board's range."""
    x, y = turn[key]
    enter_turn_map(game, turn, doc, path)
    try:
        return pack(x, y) + game.origin(game.map)
    except ValueError as error:
        raise UserError(str(error), code="position", **doc.where(path + (key,))) from None


def turn_move(game: Game, turn: dict, doc: Document, path: tuple) -> Move:
    """The :class:`Move` a turn entry describes, for the game's current tile."""
    pos = entry_pos(game, turn, "at", doc, path)
    follower, kind = None, 0
    if "follower" in turn:
        try:
            follower, kind = parse_deployment(game.ruleset, game.tile, turn["rotation"], turn["follower"])
        except ValueError as error:
            raise UserError(str(error), code="follower-notation", **doc.where(path + ("follower",))) from None
    return Move(pos, turn["rotation"], follower, kind)


def last_drawn_turn(turns: list[dict]) -> int:
    """The index of the last turn that drew its tile (not ``personal``), -1 for none: in a
    finished game, the turns after it are the last round of personal tiles."""
    return max((i for i, turn in enumerate(turns) if not turn.get("personal") and "move" not in turn), default=-1)


def take_tile(game: Game, turn: dict, doc: Document, path: tuple) -> None:
    """Make the tile of ``turn`` (the entry at ``path``, ``("turns", i)``) the one to place: a
    drawn tile is forced (declining a personal tile the game offered); a ``personal`` one must
    be the tile the game offers.  In a finished game the personal turns after the last drawn
    tile are the last round, where the seats before the turn's ``player`` pass first.
    :class:`UserError` for an unknown tile; :class:`IllegalMove` ``placement`` for a personal
    tile the player may not place now."""
    if "move" in turn:
        return  # a follower moving on: no tile
    while moving.of(game).movers:  # a follower that could have moved on, and the record goes on: it went home
        game.play(HOME)
    tile = tile_index(game.ruleset, turn["tile"], doc, path + ("tile",))
    if hands.of(game) is not None:
        _take_from_hand(game, turn, tile, doc, path)
        return
    if "hand" in turn:
        raise UserError(f"{game.ruleset.ref} has no hands of tiles (deck.hand): a turn names its tile alone",
                        code="hand", **doc.where(path + ("hand",)))
    if not turn.get("personal"):
        game.force_tile(tile)
        return
    ruleset = game.ruleset
    if ruleset.personal_tile < 0:
        raise IllegalMove("placement", "the ruleset has no personal tiles (deck.personal)")
    if tile != ruleset.personal_tile:
        raise IllegalMove("placement", f"{turn['tile']} is not a personal tile (deck.personal: "
                                       f"{ruleset.tiles[ruleset.personal_tile].id})")
    tiles = personal.of(game)
    if tiles.last_round is None and doc.data.get("finished", True) and path[-1] > last_drawn_turn(doc.data["turns"]):
        personal.start_last_round(game)
    if tiles.last_round is not None and "player" in turn:
        while tiles.offered and game.player != turn["player"]:
            game.play(DRAW)
    if not tiles.offered:
        seat = turn.get("player", game.player)
        held = tiles.held[seat] if 0 <= seat < game.players else 0
        why = (f"seat {seat} has no personal tile left" if not held else
               "the last round of personal tiles is over (once the stacks are used up, each seat is offered "
               "its personal tile once, in turn order)" if tiles.last_round == [] and game.tile is None else
               f"seat {seat}'s personal tile fits nowhere now")
        raise IllegalMove("placement", why)


def _take_from_hand(game: Game, turn: dict, tile: int, doc: Document, path: tuple) -> None:
    """Under ``deck.hand``: the turn's seat (``player``: the seats before it passed over, holding
    nothing) held ``hand`` (default: the tile alone) and places ``tile``; a discarded tile is the one
    to set aside.  :class:`IllegalMove` (``placement``) for a tile not in the hand; :class:`UserError`
    (``hand``) where the entries and the hands disagree otherwise (a kept tile missing, a seat passed
    over that holds tiles)."""
    try:
        if "player" in turn and 0 <= turn["player"] < game.players:
            try:
                hands.pass_to(game, turn["player"])
            except ValueError as error:
                raise UserError(str(error), code="hand", **doc.where(path + ("player",))) from None
        if turn.get("discarded"):  # drawn, or held since an earlier turn: it leaves the hand
            hands.drop(game, tile)
            game.force_tile(tile)
            return
        held = [tile_index(game.ruleset, t, doc, path + ("hand", i))
                for i, t in enumerate(turn.get("hand", [turn["tile"]]))]
        if tile not in held:  # a probe may try it (illegal: placement); a record never holds it
            raise IllegalMove("placement", f"the player holds no {turn['tile']} (the hand: {', '.join(turn['hand'])})")
        hands.force(game, held, tile, "hand" in turn)
    except ValueError as error:
        raise UserError(str(error), code="hand", **doc.where(path + (("hand",) if "hand" in turn else ()))) from None


def decision_move(game: Game, turn: dict, doc: Document, path: tuple) -> Move:
    """The :class:`Move` of an entry ``{move: TYPE, to: [x, y], follower: KIND@PORT}`` or ``{move: TYPE,
    home: true}``: the choice for the follower moving on now (:mod:`engine.core.moving`).
    :class:`UserError` when no follower of that type is to move on now, or the entry names no
    segment of a placed tile; whether the rules allow it is :meth:`Game.check`'s."""
    ruleset = game.ruleset
    if not moving.of(game).movers:
        raise UserError(nothing_moving(game, turn["move"]), code="replay", **doc.where(path))
    kind = moving.of(game).movers[0][1]
    name = ruleset.follower_types[kind].name
    if turn["move"] != name:
        raise UserError(f"the {name} that scored is to move on, not a {turn['move']}", code="replay",
                        **doc.where(path + ("move",)))
    if turn.get("home"):
        return HOME
    pos = entry_pos(game, turn, "to", doc, path)
    placed = game.board.get(pos)
    if placed is None:
        raise UserError(f"no tile lies at ({turn['to'][0]},{turn['to'][1]})", code="replay",
                        **doc.where(path + ("to",)))
    orientation, _, tile = placed
    try:
        segment = parse_follower(ruleset, tile, orientation.rotation, turn["follower"])
    except ValueError as error:
        raise UserError(str(error), code="follower-notation", **doc.where(path + ("follower",))) from None
    return move_on(pos, segment, kind)


def nothing_moving(game: Game, name: str) -> str:
    """Why no follower of type ``name`` may move on now."""
    types = {t.name: t.index for t in game.ruleset.follower_types}
    if types.get(name) not in dict(game.ruleset.movers):
        movers = [game.ruleset.follower_types[t].name for t, _ in game.ruleset.movers]
        return (f"no {name} moves on after scoring under this ruleset (no trigger with effect move names it"
                + (f"; the ones that do: {', '.join(movers)})" if movers else ")"))
    return f"no {name} is moving on now (its feature did not just score, or it has nowhere to go)"


def play_turn(game: Game, turn: dict, doc: Document, path: tuple) -> None:
    """Play one record turn (placement or discard) whose tile :func:`take_tile` has made the one
    to place; :class:`UserError` if the rules refuse it, or for a scenario's probe (``illegal``): a
    record holds the turns that were played (replay, rescore and the pictures all read it so)."""
    if "illegal" in turn:  # the shape is the scenario's, where a probe is a turn refused and not played
        raise UserError("a record holds the turns that were played: 'illegal' probes belong in scenarios "
                        "(carcassonne scenario check)", code="replay", **doc.where(path + ("illegal",)))
    try:
        if "move" in turn:
            game.play(decision_move(game, turn, doc, path))
            return
        take_tile(game, turn, doc, path)
    except IllegalMove as error:
        raise UserError(f"illegal {error.reason}: {error}", code="replay", **doc.where(path)) from None
    if turn.get("discarded"):
        enter_turn_map(game, turn, doc, path)
        if game.placements():
            raise UserError(f"tile {turn['tile']} is recorded as discarded but fits on the board",
                            code="replay", **doc.where(path))
        game.discard()
        return
    move = turn_move(game, turn, doc, path)
    force_burial(game, turn, doc, path)
    try:
        game.play(move)
    except IllegalMove as error:
        raise UserError(f"illegal {error.reason}: {error}", code="replay", **doc.where(path)) from None


def force_burial(game: Game, turn: dict, doc: Document, path: tuple) -> None:
    """Before placement ``turn`` is played: the tile its ``buried`` names (if it names one) is the one
    the placement buries (:func:`engine.core.burial.force`).  :class:`UserError` ``buried`` where the
    rules bury nothing under the turn's tile: no ``deck.bury``, or a tile without a segment of its kind."""
    if "buried" not in turn:
        return
    ruleset, where = game.ruleset, doc.where(path + ("buried",))
    buried = tile_index(ruleset, turn["buried"], doc, path + ("buried",))
    if ruleset.bury_kind < 0:
        raise UserError(f"{ruleset.ref} buries no tiles (it has no deck.bury)", code="buried", **where)
    if game.tile is None or ruleset.bury_kind not in ruleset.tiles[game.tile].kinds:
        raise UserError(f"nothing is buried under {turn['tile']}: it has no {ruleset.kinds[ruleset.bury_kind].name} "
                        "(deck.bury)", code="buried", **where)
    burial.force(game, buried)


def extra_turn_mismatch(game: Game, turn: dict) -> str | None:
    """How placement ``turn`` and ``game``, about to play it, disagree on its being an extra
    turn (``extra_turn: true``; no mark says it is not one), or None if they agree."""
    said = bool(turn.get("extra_turn"))
    if said == game.extra_turn:
        return None
    return "marked as an extra turn, but it is not one" if said else "not marked as an extra turn, but it is one"


def titles_mismatch(doc: Document, game: Game, said: dict[str, str | None], path: tuple, names: list[str],
                    code: str = "scenario") -> str | None:
    """How the holders of titles after a turn differ from what the turn's ``titles`` says
    (``{king: A, robber-baron: null}``, null for nobody; ``names`` the players' names in seat
    order), or None.  Scenarios and records check it alike.  Raises :class:`UserError` for a
    title the ruleset (``game.ruleset.ref``) has not, or a player the game has not (``code``,
    located at the entry)."""
    held = dict(zip((t.name for t in game.ruleset.titles), titles.of(game).holders))
    wrong = []
    for title, who in said.items():
        if title not in held:
            raise UserError(f"unknown title '{title}' under {game.ruleset.ref} (its titles: "
                            f"{', '.join(held) or 'none'})", code=code, **doc.where(path + ("titles", title)))
        if who is not None and who not in names:
            raise UserError(f"unknown player '{who}' (players: {', '.join(names)}; null for nobody)",
                            code=code, **doc.where(path + ("titles", title)))
        holder = held[title][0]
        got = names[holder] if holder >= 0 else None
        if got != who:
            wrong.append(f"expected {who or 'nobody'} to hold the {title}, but {got or 'nobody'} does")
    return "; ".join(wrong) or None
