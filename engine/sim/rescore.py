"""Rescoring a recorded game under other rulesets: the same moves, other rules.

Each ruleset replays the record's turns (same tiles, positions, rotations and
followers; under a ruleset without hands, a turn's ``hand`` is left out: the move is the same).
A turn that ruleset refuses — a deployment a house rule allowed,
a placement a constraint forbids — ends that ruleset's column there, with the
turn and the reason; otherwise the game is finished and scored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..core.game import Game
from ..core.scoring import points_by_kind
from ..errors import UserError
from ..files.record import check_finished, replay_start
from ..files.supply import TileSupply
from ..files.turn_entries import play_turn
from ..rules.ruleset import load_ruleset, load_ruleset_for
from ..rules.source import Document


@dataclass
class Column:
    """One ruleset's scoring of the recorded moves."""

    ref: str
    scores: list[int]
    by_kind: list[dict[str, int]]
    events: list[dict]
    stopped: tuple[int, str] | None = None  # (1-based turn, why) when a move is illegal here
    kinds: list[str] = field(default_factory=list)


def rescore(doc: Document, refs: list[str]) -> list[Column]:
    """The record's own ruleset first, then each of ``refs`` (once each; the record's
    own ruleset is not repeated).

    Raises :class:`UserError` for an unknown ruleset, a record whose moves its
    own ruleset refuses (a corrupt record) or that says it finished with tiles left to
    draw or held (:func:`~engine.files.record.check_finished`, as a replay does), or a record
    whose players or start tile a ruleset cannot take at all.
    """
    data = doc.data
    own = _column(doc, data["ruleset"], strict=True)
    return [own, *(_column(doc, ref) for ref in dict.fromkeys(refs) if ref != data["ruleset"])]


def _column(doc: Document, ref: str, *, strict: bool = False) -> Column:
    data = doc.data
    # The record's own ruleset is named in the record: an error in it is reported there.
    ruleset = load_ruleset_for(doc, ("ruleset",)) if strict else load_ruleset(ref, Path(doc.file).parent)
    players = len(data["players"])
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise UserError(f"{ref} is for {ruleset.min_players}–{ruleset.max_players} players; the record has {players}",
                        code="players", **doc.where(("players",)))
    game = Game(ruleset, players, data["seed"], draw_order=[], start=replay_start(ruleset, doc))
    supply = TileSupply(ruleset, doc)  # a ruleset with fewer tiles (deck.size) stops its column
    for m, (tile, _) in enumerate(game.starts):
        supply.take(tile, False, "the start tile", ("starts", m) if "starts" in data else ("start",))
    stopped = None
    for i, turn in enumerate(data["turns"]):
        # How the tile was chosen (a hand) and what went under it (a burial): the move is the same.
        dropped = {key for key, keep in (("hand", ruleset.hand is not None), ("buried", ruleset.bury_kind >= 0))
                   if not keep}
        if dropped & set(turn):
            turn = {key: value for key, value in turn.items() if key not in dropped}
        try:
            supply.take_turn(turn, i)
            play_turn(game, turn, doc, ("turns", i))
        except UserError as error:
            if strict:
                raise  # the record's own ruleset refuses its moves: the record is broken
            stopped = (i + 1, error.diagnostics[0].message)
            break
    if stopped is None:
        if strict and data.get("finished", True):
            check_finished(game, doc, supply)  # as replay does: a stub that claims an end is broken
        game.finish()
    kinds = list(ruleset.categories)
    return Column(ref, list(game.scores), points_by_kind(game), [e.to_json() for e in game.events], stopped, kinds)


def event_key(event: dict) -> tuple:
    """What identifies a score event across rulesets: when, which feature kind, which tiles, for whom."""
    return (event["phase"], event["turn"], event["kind"], tuple(map(tuple, event["tiles"])), tuple(event["players"]))


def differing_events(base: Column, other: Column) -> list[tuple[dict | None, dict | None]]:
    """Score events that differ between two columns (in points or in who scores),
    as ``(event in base or None, event in other or None)`` pairs."""
    mine = {event_key(e): e for e in base.events}
    theirs = {event_key(e): e for e in other.events}
    out = []
    for key in [*mine, *(k for k in theirs if k not in mine)]:
        a, b = mine.get(key), theirs.get(key)
        if a is None or b is None or (a["points"], a["players"]) != (b["points"], b["players"]):
            out.append((a, b))
    return out
