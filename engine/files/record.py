"""Game records: the JSON file a played game leaves, and replaying it.

A record holds the format version, the ruleset reference and the sha256 of
the merged ruleset, the seed, the players, the start tile, every turn in the
scenario turn shape (``{tile, at, rotation, follower}`` or ``{tile,
discarded: true}``; ``extra_turn: true`` on a tile a player placed as an extra
turn, ``personal: true`` on a personal tile), every score event and the in-game
and final scores.  Replaying re-plays the turns under the ruleset and checks
every score.

Version 2 added ``extra_turn`` and final-scoring events that pay 0 points (a
follower on a feature whose formula gives 0 at game end); a version 1 record
has neither, and replays as written.  Version 3 added ``personal``
(``deck.personal``): a turn without it drew its tile, so a personal tile the
game offered then was declined; the personal turns after the last drawn tile
are the last round (:mod:`engine.core.personal`), where a seat that does not
appear passed.  It also added the entries of a follower moving on after its
feature scored (``triggers``: the wagon; :mod:`engine.core.moving`):
``{player, move: TYPE, to: [x, y], follower: KIND@PORT}`` or ``{player, move:
TYPE, home: true}``, after the turn that scored it; where the game awaits such
a choice and the next entry is a tile, the follower went home.  Version 4
added ``hand`` (``deck.hand``): the tiles the player chose among.  Version 5
added ``buried`` (``deck.bury``): the tile taken from the stack and buried
under the turn's tile, out of the game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core import burial, moving, personal
from ..core.game import Game
from ..core.hands import of as hands_of
from ..core.moves import HOME, IllegalMove, Move
from ..errors import UserError
from ..rules.reading import decode_text, read_bytes
from ..rules.ruleset import Ruleset, load_ruleset_for
from ..rules.source import Document
from .notation import format_follower
from .record_text import RefCheck, record_from_text
from .supply import TileSupply
from .turn_entries import extra_turn_mismatch, play_turn, take_tile, tile_index, titles_mismatch

FORMAT = "carcassonne-record"
VERSION = 5
#: The keys of a turn entry that later versions added: the version that added each, and what it holds.
SINCE = {"extra_turn": (2, "extra_turn marks"), "personal": (3, "personal marks"),
         "move": (3, "entries of a follower moving on"), "hand": (4, "hands of tiles"), "buried": (5, "buried tiles")}


def history_seats(game: Game) -> list[int]:
    """The seat behind each entry of ``game.history``: the turn passes after a placement,
    not after a discard (the same player draws again) nor after a move that earned an extra
    turn (``extra_turn``)."""
    return list(game.seats)


def turn_entries(game: Game) -> list[dict[str, Any]]:
    """The game's turns in record/scenario shape, with the seat that played each."""
    ruleset, entries = game.ruleset, []
    several, extra, own, turn = ruleset.maps > 1, set(game.extra_turns), set(personal.of(game).turns), 0
    decisions, buried = list(moving.of(game).decisions), dict(burial.of(game).buried)
    hands = hands_of(game)
    for (tile, move), seat in zip(game.history, history_seats(game)):
        tile_id = ruleset.tiles[tile].id
        if move is None:
            entries.append({"tile": tile_id, "discarded": True})
            continue
        turn += 1
        m, x, y = game.local(move.pos)
        entry: dict[str, Any] = {"player": seat, "tile": tile_id, "at": [x, y], "rotation": move.rotation}
        if turn in extra:
            entry["extra_turn"] = True
        if turn in own:
            entry["personal"] = True
        if hands is not None:
            entry["hand"] = [ruleset.tiles[t].id for t in hands.shown[turn - 1]]
        if turn in buried:
            entry["buried"] = ruleset.tiles[buried[turn]].id
        if several:
            entry["map"] = m
        if move.follower is not None:
            entry["follower"] = format_follower(ruleset, tile, move.rotation, move.follower, move.type)
        entries.append(entry)
        while decisions and decisions[0][0] == turn:
            entries.append(decision_entry(game, *decisions.pop(0)[1:]))
    return entries


def decision_entry(game: Game, seat: int, kind: int, move: Move) -> dict[str, Any]:
    """The record entry of ``seat``'s choice for their follower of type ``kind`` moving on
    (:mod:`engine.core.moving`)."""
    ruleset = game.ruleset
    if move == HOME:
        return {"player": seat, "move": ruleset.follower_types[kind].name, "home": True}
    m, x, y = game.local(move.pos)
    orientation, _, tile = game.board[move.pos]
    entry: dict[str, Any] = {"player": seat, "move": ruleset.follower_types[kind].name, "to": [x, y],
                             "follower": format_follower(ruleset, tile, orientation.rotation, move.follower, 0)}
    if ruleset.maps > 1:
        entry["map"] = m
    return entry


def build_record(game: Game, ruleset_ref: str, players: list[dict[str, str]],
                 in_game: list[int]) -> dict[str, Any]:
    """The record of a finished game (``in_game``: totals before final scoring)."""
    ruleset = game.ruleset
    starts = [{"tile": ruleset.tiles[t].id, "rotation": r} for t, r in game.starts]
    record = {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": ruleset_ref,
        "ruleset_sha256": ruleset.sha256,
        "seed": game.seed if game.seed is not None else 0,
        "players": players,
        "start": starts[0] if starts else None,
        "turns": turn_entries(game),
        "events": [e.to_json() for e in game.events],
        "scores": {"in_game": in_game, "final": list(game.scores)},
    }
    if len(starts) > 1:
        record["starts"] = starts
    if not game.finished:
        record["finished"] = False
    return record


def load_record(path: str | Path, ref_check: RefCheck | None = None) -> Document:
    """Read and schema-check a record file; :class:`UserError` on any problem.

    The file is read once, as :func:`engine.rules.reading.read_bytes` reads
    every input (a regular file of at most 16 MiB; a leading UTF-8 BOM is
    dropped, as for YAML), must be JSON, and must look like a record
    (:data:`RECORD_SHAPE`) before its schema is checked (:func:`record_from_text`).
    """
    file = str(path)
    return record_from_text(decode_text(read_bytes(path), file), file, ref_check)


def check_finished(game: Game, doc: Document, supply: TileSupply) -> None:
    """For a record that says it finished (``finished`` true or absent), played up to its last
    turn as ``game``, drawing from ``supply``: raise :class:`UserError` (code ``replay``, at
    ``finished`` or the last turn) unless every tile was drawn and no seat still holds one (a
    game with hands ends once none does); a game ends only then."""
    turns = doc.data["turns"]
    where = ("finished",) if "finished" in doc.data else ("turns", len(turns) - 1) if turns else ("turns",)
    supply.check_used_up(len(turns), where)
    hands = hands_of(game)
    held = [(seat, tile) for seat, tiles in enumerate(hands.held) for tile, _, _ in tiles] if hands else []
    if held:
        seat, tile = held[0]
        raise UserError(f"the record says the game finished, but seat {seat} still holds "
                        f"{game.ruleset.tiles[tile].id} (kept from its last turn)", code="replay", **doc.where(where))


def replay(doc: Document) -> tuple[Game, list[str]]:
    """Re-play a record's turns under its ruleset; return the game and every mismatch found.

    Raises :class:`UserError` (with the turn's location) for a record no game
    under the ruleset can have written: a ruleset whose sha256 is not the
    recorded one (it changed since), more tiles of a type than the ruleset has,
    turns after every tile was drawn, a record that says it finished with tiles
    left to draw (:class:`~engine.files.supply.TileSupply`); and when a turn
    cannot be played at all: unknown tile, bad follower notation, illegal move.
    A mismatch (a score, an event, the seat of a turn) is returned, not raised.
    """
    data = doc.data
    ruleset = load_ruleset_for(doc, ("ruleset",))
    problems: list[str] = []
    check_players(ruleset, doc)
    check_ruleset_unchanged(ruleset, doc)
    game = Game(ruleset, len(data["players"]), data["seed"], draw_order=[], start=replay_start(ruleset, doc))
    supply = TileSupply(ruleset, doc)
    for m, (tile, _) in enumerate(game.starts):
        supply.take(tile, False, "the start tile", ("starts", m) if "starts" in data else ("start",))
    marks_extra = data.get("version", VERSION) >= 2  # version 1 did not mark extra turns
    for i, turn in enumerate(data["turns"]):
        _check_version(doc, turn, i)
        try:
            take_tile(game, turn, doc, ("turns", i))  # first: in the last round, seats pass before it
        except IllegalMove as error:
            raise UserError(f"illegal {error.reason}: {error}", code="replay", **doc.where(("turns", i))) from None
        if "player" in turn and turn["player"] != game.player:
            problems.append(f"turn {i + 1} is recorded for seat {turn['player']}, but seat {game.player} plays it")
        mismatch = extra_turn_mismatch(game, turn) if marks_extra and "at" in turn else None
        if mismatch:
            problems.append(f"turn {i + 1} is {mismatch}")
        supply.take_turn(turn, i)  # an unknown tile is take_tile's error
        play_turn(game, turn, doc, ("turns", i))
        mismatch = titles_mismatch(doc, game, turn.get("titles", {}), ("turns", i),
                                   [p["name"] for p in data["players"]], "replay")
        if mismatch:
            problems.append(f"turn {i + 1}: {mismatch}")
    if game.scores != data["scores"]["in_game"]:
        problems.append(f"in-game scores {game.scores} ≠ recorded {data['scores']['in_game']}")
    if data.get("finished", True):
        check_finished(game, doc, supply)
        game.finish()
    if game.scores != data["scores"]["final"]:
        problems.append(f"final scores {game.scores} ≠ recorded {data['scores']['final']}")
    recorded = data["events"]
    mine = [e.to_json() for e in game.events
            if marks_extra or e.phase != "final" or e.points]  # version 1 left out final scores of 0
    if mine != recorded:
        problems.append(f"score events differ: replay has {len(mine)}, record {len(recorded)}"
                        + _first_difference(mine, recorded))
    return game, problems


def replay_start(ruleset: Ruleset, doc: Document) -> Any:
    """The ``start`` argument of :class:`Game` for replaying record ``doc`` under ``ruleset``:
    one ``(tile, rotation)``, a list of them (one per map), or None."""
    data = doc.data
    if "starts" in data:
        starts = [(tile_index(ruleset, s["tile"], doc, ("starts", i, "tile")), s["rotation"])
                  for i, s in enumerate(data["starts"])]
        if len(starts) != ruleset.maps:
            raise UserError(f"{len(starts)} start tiles for {ruleset.maps} maps", code="replay",
                            **doc.where(("starts",)))
        return starts
    start = data.get("start")
    if start is None:
        return None
    return tile_index(ruleset, start["tile"], doc, ("start", "tile")), start["rotation"]


def _first_difference(mine: list, recorded: list) -> str:
    for i, (a, b) in enumerate(zip(mine, recorded)):
        if a != b:
            return f"; first at event {i}: replay {a} vs record {b}"
    return ""


def check_ruleset_unchanged(ruleset: Ruleset, doc: Document) -> None:
    """:class:`UserError` at ``$.ruleset_sha256`` unless ``ruleset`` (the record's, loaded now) is
    the one the game was played under: its moves would be checked against other rules."""
    data = doc.data
    if ruleset.sha256 != data["ruleset_sha256"]:
        raise UserError(f"the game was played under a ruleset with sha256 {data['ruleset_sha256'][:12]}…, but "
                        f"'{data['ruleset']}' now has {ruleset.sha256[:12]}…: the ruleset has changed since, so "
                        "the record cannot be checked against it", code="ruleset-changed",
                        **doc.where(("ruleset_sha256",)))


def _check_version(doc: Document, turn: dict, i: int) -> None:
    """:class:`UserError` ``replay`` if turn entry ``i`` holds a key its record's version did not
    have yet (:data:`SINCE`): such a record was not written by this engine."""
    version = doc.data.get("version", VERSION)
    for key, (since, what) in SINCE.items():
        if key in turn and version < since:
            raise UserError(f"a version {version} record has no {what} (version {since} added them)",
                            code="replay", **doc.where(("turns", i, key)))


def check_players(ruleset: Ruleset, doc: Document) -> None:
    """:class:`UserError` at ``$.players`` unless the record's seat count is one ``ruleset`` allows."""
    seats = len(doc.data["players"])
    if not ruleset.min_players <= seats <= ruleset.max_players:
        raise UserError(f"{ruleset.ref} is for {ruleset.min_players}–{ruleset.max_players} players, "
                        f"not {seats}", code="players", **doc.where(("players",)))
