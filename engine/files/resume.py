"""Resuming a game from its record: the game its seed deals, with the record's turns played on it.

:func:`~engine.files.record.replay` forces each recorded tile, since a record's stack order
is not written down; that is right for checking a record, but a game to *go on* needs the
tiles still to come.  Here the stack is the one the seed deals, as when the game began, and
each recorded turn must find on top of it the tile it names: the web table saves a record
after every move and resumes its games from them after a restart
(:meth:`engine.web.table.Table.resume`).
"""

from __future__ import annotations

from typing import Any

from ..core import burial, moving, personal
from ..core.game import Game
from ..core.hands import of as hands_of
from ..core.moves import DRAW, HOME, IllegalMove, pick
from ..errors import UserError
from ..rules.ruleset import Ruleset, load_ruleset_for
from ..rules.source import Document
from .record import check_players, check_ruleset_unchanged, replay_start
from .turn_entries import decision_move, turn_move


def resume(doc: Document) -> tuple[Ruleset, Game, list[int] | None]:
    """The ruleset, game and in-game scores (before final scoring; None while the game goes on)
    of record ``doc``, re-dealt from its seed with every recorded turn played on it: the game
    as it stood when the record was written, its stacks holding what is still to come.

    :class:`UserError` (located in the record) for a record that cannot be resumed: its
    ruleset changed since (sha256), a seat count the ruleset does not allow, a turn whose
    tile is not the one the seed deals there (the record was edited, or another version of
    the engine dealt it), a move the rules refuse, or scores that differ from the recorded
    ones."""
    data = doc.data
    ruleset = load_ruleset_for(doc, ("ruleset",))
    check_players(ruleset, doc)
    check_ruleset_unchanged(ruleset, doc)
    game = Game(ruleset, len(data["players"]), data["seed"])
    _start(game, ruleset, doc)
    entries = 0  # the record's entries so far that are history entries (placements and discards)
    for i, turn in enumerate(data["turns"]):
        path = ("turns", i)
        try:
            _play(game, turn, entries, doc, path)
        except IllegalMove as error:
            raise UserError(f"illegal {error.reason}: {error}", code="resume", **doc.where(path)) from None
        entries += "move" not in turn
    in_game = None
    if data.get("finished", True):
        _settle(game)  # HOME and DRAW: legal whenever a follower is queued or a tile offered
        if game.tile is not None or game.remaining:
            raise UserError("the record says the game finished, but its seed leaves tiles to draw",
                            code="resume", **doc.where(("turns",)))
        in_game = list(game.scores)
        game.finish()
    recorded = data["scores"]["in_game" if in_game is None else "final"]
    if game.scores != recorded:
        raise UserError(f"the turns give scores {game.scores}, the record {recorded}", code="resume",
                        **doc.where(("scores",)))
    return ruleset, game, in_game


def _settle(game: Game) -> None:
    """Make the choices a finished record leaves unwritten after its last entry: a follower that
    could have moved on went home, and each seat offered its personal tile in the last round
    passed (a pass, like a decline, is not an entry)."""
    while moving.of(game).movers or personal.of(game).offered and personal.of(game).last_round is not None:
        game.play(HOME if moving.of(game).movers else DRAW)


def _start(game: Game, ruleset: Ruleset, doc: Document) -> None:
    """Place the recorded start tile when the ruleset draws one; check it is the one the seed dealt."""
    recorded = replay_start(ruleset, doc)
    if game.start_tile is not None:  # drawn: one a map, each turned as the record says
        wanted = [] if recorded is None else [recorded] if isinstance(recorded, tuple) else recorded
        where = ("starts",) if "starts" in doc.data else ("start",)
        for tile, rotation in wanted:
            if game.start_tile is None:
                raise UserError("the record turns more start tiles than the ruleset draws", code="resume",
                                **doc.where(where))
            _same_tile(game, game.start_tile, tile, doc, where)
            game.place_start(rotation)
        return  # any start still to turn: the first player had not turned it yet
    if recorded is not None:
        dealt = list(game.starts)
        wanted = [recorded] if isinstance(recorded, tuple) else recorded
        if [t for t, _ in dealt] != [t for t, _ in wanted]:
            raise UserError("the record's start tile is not the one its ruleset and seed give", code="resume",
                            **doc.where(("starts",) if "starts" in doc.data else ("start",)))


def _play(game: Game, turn: dict[str, Any], entries: int, doc: Document, path: tuple) -> None:
    """Play one recorded entry on ``game``, ``entries`` placements and discards having been
    played; a discard is only checked, since the game sets a tile that fits nowhere aside as
    it draws it."""
    if "move" in turn:
        game.play(decision_move(game, turn, doc, path))
        return
    while moving.of(game).movers:  # a follower that could have moved on, and the record goes on: it went home
        game.play(HOME)
    history, tiles = game.history, personal.of(game)
    if turn.get("discarded"):
        if tiles.offered and len(history) <= entries:  # not yet drawn: the personal tile offered was
            game.play(DRAW)  # declined, and the tile drawn instead fit nowhere
        if len(history) <= entries or history[entries][1] is not None or \
                game.ruleset.tiles[history[entries][0]].id != turn["tile"]:
            raise UserError(f"the record sets {turn['tile']} aside here, but the seed's deal does not",
                            code="resume", **doc.where(path))
        return
    if len(history) > entries:
        raise UserError(f"the seed's deal sets {game.ruleset.tiles[history[entries][0]].id} aside here, but the "
                        "record does not", code="resume", **doc.where(path))
    if turn.get("personal"):
        while tiles.offered and game.player != turn.get("player", game.player):
            game.play(DRAW)  # the seats before it passed in the last round
        if not tiles.offered:
            raise UserError(f"no personal tile is offered to seat {turn.get('player', game.player)} here",
                            code="resume", **doc.where(path))
    elif tiles.offered:
        game.play(DRAW)  # the personal tile offered was declined
    if game.tile is None:
        raise UserError("the record goes on after every tile was drawn", code="resume", **doc.where(path))
    if turn.get("player", game.player) != game.player:
        raise UserError(f"the record gives this turn to seat {turn['player']}, but seat {game.player} plays it",
                        code="resume", **doc.where(path + ("player",)))
    recorded = game.ruleset.tile_ids.get(turn["tile"], -1)
    hands = hands_of(game)
    if hands is not None:
        _same_hand(game, turn, doc, path)
        if hands.picking and recorded in hands.types(game.player):
            game.play(pick(recorded))  # the tile the player chose from the hand the seed dealt
    _same_tile(game, game.tile, recorded, doc, path + ("tile",))
    game.play(turn_move(game, turn, doc, path), checked=True)
    under = burial.of(game).buried
    buried = under[-1][1] if under and under[-1][0] == game.turn else -1
    if buried != game.ruleset.tile_ids.get(turn.get("buried", ""), -1):
        dealt = game.ruleset.tiles[buried].id if buried >= 0 else "nothing"
        raise UserError(f"the seed's deal buries {dealt} under this tile, the record {turn.get('buried', 'nothing')}: "
                        "it cannot be resumed (it was edited, or another version of the engine dealt it)",
                        code="resume", **doc.where(path))


def _same_hand(game: Game, turn: dict[str, Any], doc: Document, path: tuple) -> None:
    """Under ``deck.hand``: the turn's ``hand``, if it gives one, is what the seed dealt the player."""
    hands = hands_of(game)
    assert hands is not None, "hands only"
    dealt = sorted(game.tiles[t].id for t, _, _ in hands.held[game.player])
    if "hand" in turn and sorted(map(str, turn["hand"])) != dealt:
        raise UserError(f"the seed deals the hand {', '.join(dealt)} here, "
                        f"the record {', '.join(map(str, turn['hand']))}: "
                        "it cannot be resumed (it was edited, or another version of the engine dealt it)",
                        code="resume", **doc.where(path + ("hand",)))


def _same_tile(game: Game, dealt: int, recorded: int, doc: Document, path: tuple) -> None:
    if dealt != recorded:
        name = game.ruleset.tiles[recorded].id if recorded >= 0 else "a tile this ruleset does not have"
        raise UserError(f"the seed deals {game.ruleset.tiles[dealt].id} here, the record {name}: it cannot be "
                        "resumed (it was edited, or another version of the engine dealt it)", code="resume",
                        **doc.where(path))


__all__ = ["resume"]
