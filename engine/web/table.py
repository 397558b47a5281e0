"""One game at the web table: humans who answer through the page, bots who answer at once.

A :class:`Table` holds a :class:`~engine.core.game.Game`, its seats and the record
it keeps on disk.  The page asks for :meth:`Table.state` (what a player may see:
the board as SVG, scores, the drawn tile and, on a human's turn, every legal
placement with its follower spots) and sends a human's move with
:meth:`Table.place`, a drawn start tile's rotation with :meth:`Table.turn_start`, or
the choice to keep a personal tile offered (``deck.personal``) with :meth:`Table.keep`,
or where a follower whose feature scored moves on (``triggers``) with :meth:`Table.move_on`;
bots then play until a human must answer again or the game is over.  Nothing
here serves HTTP (that is :mod:`engine.web.app`); everything is plain data.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..bots.players import Player, check_seats, make_player
from ..core.game import Game
from ..core.moves import DRAW, HOME, MOVE_ON, IllegalMove, Move
from ..errors import UserError
from ..files.notation import follower_name, format_follower, moved_on_phrase, place_name
from ..files.output import write_json
from ..files.record import build_record, history_seats
from ..rules.ruleset import Ruleset
from ..view.render import PLAYER_COLOURS, board_svg
from ..view.tile_svg import spot_anchor, tile_group

#: Units of a tile in the board picture the page shows (SVG units, as :func:`board_svg` draws).
TILE = 60


class Refused(Exception):
    """A request the game cannot take now (``status`` 409: not your turn, stale turn,
    game over) or at all (400: a move the rules refuse, a malformed move)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Seat:
    """A seat at the table: its name (``greedy-2``), spec (``greedy``, ``human``) and bot."""

    name: str
    spec: str
    bot: Player | None

    @property
    def human(self) -> bool:
        return self.bot is None


class Table:
    """A game of ``ruleset`` (reference ``ref``, as the record names it) between ``specs``
    (bot specs or ``human``, in seat order) with ``seed``.  ``save`` is the file the record
    is written to after every turn (``finished: false`` until final scoring), or None.

    Raises :class:`UserError` (code ``players``) for a wrong spec or seat count.  The
    methods that change the game take a lock: two requests at once play one move.
    """

    def __init__(self, ruleset: Ruleset, ref: str, specs: list[str], seed: int, *, save: Path | None = None) -> None:
        check_seats(specs, ruleset.min_players, ruleset.max_players, ruleset.ref)
        self.ruleset, self.ref, self.seed, self.save = ruleset, ref, seed, save
        self.seats = [Seat(f"{spec}-{i + 1}", spec, None if spec == "human" else make_player(spec, seed, i))
                      for i, spec in enumerate(specs)]
        self.game = Game(ruleset, len(specs), seed)
        self.in_game: list[int] | None = None
        #: Why the record could not be saved after the last turn (the game goes on), or None.
        self.save_error: str | None = None
        #: Why the game stopped before its end, or None: a rule of the ruleset failed while a move
        #: was scored or weighed (a score or a strength out of range, located at its formula).
        self.stopped: str | None = None
        self._lock = threading.Lock()
        with self._lock:
            self._advance()

    # -- what the page sees ------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def state(self) -> dict[str, Any]:
        """Everything the page shows, as JSON-ready data: never the order of the stack.

        Keys: ``ruleset``, ``seed``, ``players`` (name, spec, human, colour, score,
        followers left, ``pieces``: left of each follower type by name, ``by_kind``: points each
        feature kind and bonus paid so far, ``in_game``: the score before final scoring), ``turn`` (turns played), ``remaining`` (tiles left to draw),
        ``finished``, ``stopped`` (why the game stopped before its end: a rule of the ruleset
        failed while a move was scored; or None), ``to_play`` (the seat to answer, or None), ``maps`` and ``map``
        (how many maps, and the one in play, from 0), ``tile_size``, ``board`` (the SVG
        of :func:`board_svg` with coordinates and, on a human's turn, the legal cells as
        spots), ``log`` (a line per turn, ``turn N: …``), ``events`` (every score: text, turn, phase,
        kind, points, players, map, tiles), ``saved_as`` (the record's file name, or
        None) and ``save_error`` (why the last save failed, or None).  On a human's
        turn also ``tile`` (id and its SVG in each rotation) with ``options`` (per legal
        cell: map, x, y, and per legal rotation the follower spots: segment index,
        notation, name, follower word, anchor in tile units), or ``start`` (the drawn
        start tile to turn).  Under ``deck.personal`` each player has ``personal`` (own
        tiles held), and a tile of one's own offered instead of a draw has ``own``: what
        keeping it does, ``draw`` or (once the stacks are used up) ``pass``.  When a human's
        follower may move on after its feature scored, ``moving`` replaces ``tile``: the
        follower type's name and ``options`` (map, x, y, segment, notation, name) besides home.
        """
        with self._lock:
            return self._state()

    def record(self) -> dict[str, Any]:
        """The game's record as far as it has gone (``finished: false`` until the end)."""
        with self._lock:
            return self._record()

    # -- what the page sends -----------------------------------------------------------

    def place(self, turn: int, map_index: int, x: int, y: int, rotation: int, follower: int | None,
              kind: int = 0) -> None:
        """Play the human's move for turn ``turn`` (the state's ``turn``, so a move sent twice
        is not played twice): the drawn tile at ``(x, y)`` on map ``map_index`` turned
        ``rotation`` quarter turns clockwise, a follower of type ``kind`` (0: normal) on
        segment ``follower`` (an index into the tile type's segments, as the state's options
        give) or none.  Then the bots play.  Raises :class:`Refused`."""
        with self._lock:
            self._expect_human(turn)
            if self.game.start_tile is not None:
                raise Refused("the start tile is to be turned first", 409)
            local = self.game.local
            match = [pos for pos, r in self.game.placements() if local(pos) == (map_index, x, y) and r == rotation]
            if not match:
                raise Refused(f"tile {self._tile_id()} does not fit at map {map_index} ({x},{y}) turned {rotation * 90}°")
            try:
                self.game.play(Move(match[0], rotation, follower, kind))
            except IllegalMove as error:
                raise Refused(str(error)) from None
            except UserError as error:  # the move was placed, then a rule failed scoring it
                self._stop(error)
                return
            self._advance()

    def keep(self, turn: int) -> None:
        """Keep the personal tile offered for turn ``turn`` and draw instead (or pass, once the
        stacks are used up); then the bots play.  Raises :class:`Refused` when no tile of the
        player's own is offered."""
        with self._lock:
            self._expect_human(turn)
            if not self.game.personal_turn:
                raise Refused(f"tile {self._tile_id()} was drawn: only a tile of your own may be kept instead", 409)
            self.game.play(DRAW)
            self._advance()

    def move_on(self, turn: int, map_index: int | None = None, x: int = 0, y: int = 0,
                segment: int | None = None) -> None:
        """Move the human's follower whose feature just scored on to ``segment`` of the tile at
        ``(x, y)`` on map ``map_index``, or home when ``segment`` is None; then the bots play.
        Raises :class:`Refused`."""
        with self._lock:
            self._expect_human(turn)
            game = self.game
            if not game.movers:
                raise Refused("no follower of yours is moving on now", 409)
            if segment is None:
                move = HOME
            else:
                pos = next((pos for pos in game.board if game.local(pos) == (map_index or 0, x, y)), None)
                if pos is None:
                    raise Refused(f"no tile lies at ({x},{y})")
                move = Move(pos, MOVE_ON, segment, game.movers[0][1])
            try:
                game.play(move)
            except IllegalMove as error:
                raise Refused(str(error)) from None
            self._advance()

    def turn_start(self, turn: int, rotation: int) -> None:
        """Turn the drawn start tile ``rotation`` quarter turns and place it (a human in seat
        0, as the rules have the first player do); then the bots play.  Raises :class:`Refused`."""
        with self._lock:
            self._expect_human(turn)
            if self.game.start_tile is None:
                raise Refused("there is no start tile to turn", 409)
            self.game.place_start(rotation)
            self._advance()

    # -- the game ----------------------------------------------------------------------

    def _seat_to_answer(self) -> int | None:
        game = self.game
        if game.finished or self.stopped is not None:
            return None
        return 0 if game.start_tile is not None else game.player

    def _expect_human(self, turn: int) -> None:
        seat = self._seat_to_answer()
        if seat is None:
            raise Refused(f"the game stopped: {self.stopped}" if self.stopped else "the game is over", 409)
        if not self.seats[seat].human:
            raise Refused(f"it is {self.seats[seat].name}'s turn", 409)
        if turn != self.game.turn:
            raise Refused(f"that move was for turn {turn + 1}, but turn {self.game.turn + 1} is being played "
                          "(reload the page)", 409)

    def _advance(self) -> None:
        """Let the bots play until a human must answer or the tiles run out; then final scoring.
        A rule that fails meanwhile (:class:`UserError`) stops the game (:meth:`_stop`)."""
        try:
            self._play_bots()
        except UserError as error:
            self._stop(error)
            return
        self._save()

    def _stop(self, error: UserError) -> None:
        """End the game where it stands, saying why: the page shows it and takes no more moves
        (a half-scored move cannot be taken back); the record so far is saved as unfinished."""
        self.stopped = error.render()
        self._save()

    def _play_bots(self) -> None:
        game = self.game
        while not game.finished:
            if game.start_tile is not None:
                if self.seats[0].human:
                    break
                game.place_start(self.seats[0].bot.choose_start(game))  # type: ignore[union-attr]
                continue
            if game.tile is None:
                self.in_game = list(game.scores)
                game.finish()
                break
            seat = self.seats[game.player]
            if seat.human:
                break
            game.play(seat.bot.choose(game), checked=True)  # type: ignore[union-attr]

    def _save(self) -> None:
        if self.save is not None:
            try:
                write_json(self.save, self._record())
                self.save_error = None
            except UserError as error:  # the move stands; the page says the record is not saved
                self.save_error = error.render()

    def _record(self) -> dict[str, Any]:
        players = [{"name": seat.name, "kind": seat.spec} for seat in self.seats]
        return build_record(self.game, self.ref, players, self.in_game or list(self.game.scores))

    def _tile_id(self) -> str:
        return self.ruleset.tiles[self.game.tile].id if self.game.tile is not None else "—"

    def _state(self) -> dict[str, Any]:
        game, ruleset = self.game, self.ruleset
        seat = self._seat_to_answer()
        human_turn = seat is not None and self.seats[seat].human
        options = self._options() if human_turn and game.start_tile is None and not game.movers else []
        spots = [(o["map"], o["x"], o["y"]) for o in options]
        state: dict[str, Any] = {
            "ruleset": self.ref, "seed": self.seed, "turn": game.turn, "remaining": game.remaining,
            "finished": game.finished, "to_play": seat, "maps": ruleset.maps, "map": game.map, "tile_size": TILE,
            "players": [{"name": s.name, "spec": s.spec, "human": s.human, "colour": PLAYER_COLOURS[i % len(PLAYER_COLOURS)],
                         "score": game.scores[i], "followers": game.supply[i],
                         "pieces": {t.name: game.reserve[i][t.index] for t in ruleset.follower_types},
                         "by_kind": dict(game.kind_points[i]),
                         "in_game": (self.in_game or game.scores)[i],
                         "tokens": dict(zip(ruleset.tokens, game.tokens[i])),
                         **({"personal": game.personal[i]} if ruleset.personal_tile >= 0 else {})}
                        for i, s in enumerate(self.seats)],
            "board": board_svg(game, self.names, size=TILE, coordinates=True, spots=spots,
                               recent=self._since_last_turn(seat)),
            "log": self._log(), "events": self._events(), "saved_as": self.save.name if self.save else None,
            "save_error": self.save_error, "stopped": self.stopped,
        }
        if human_turn and game.start_tile is not None:
            tile = game.start_tile
            state["start"] = {"tile": ruleset.tiles[tile].id,
                              "svg": [tile_group(ruleset, tile, r, TILE) for r in range(4)]}
        elif human_turn and game.movers:
            state["moving"] = {"follower": ruleset.follower_types[game.movers[0][1]].name,
                               "options": self._destinations()}
        elif human_turn and game.tile is not None:
            tile = game.tile
            state["tile"] = {"id": ruleset.tiles[tile].id, "svg": [tile_group(ruleset, tile, r, TILE) for r in range(4)]}
            if game.personal_turn:
                state["tile"]["own"] = "pass" if game.last_round is not None else "draw"
            state["options"] = options
        return state

    def _options(self) -> list[dict[str, Any]]:
        """Per legal cell of the drawn tile, its legal rotations and their follower spots."""
        game, ruleset, tile = self.game, self.ruleset, self.game.tile
        assert tile is not None
        cells: dict[tuple[int, int, int], dict[str, Any]] = {}
        for pos, rotation in game.placements():
            m, x, y = game.local(pos)
            cell = cells.setdefault((m, x, y), {"map": m, "x": x, "y": y, "rotations": {}})
            spots = []
            for segment, kind_of_follower in game.deploy_choices(pos, rotation):
                kind = ruleset.kinds[ruleset.tiles[tile].segments[ruleset.tiles[tile].spot_segment(segment)].kind]
                ax, ay = spot_anchor(ruleset, tile, rotation, segment, 1.0, inset=0.12)  # a corner's in its cell
                typed = ruleset.follower_types[kind_of_follower].name + " " if kind_of_follower else ""
                spots.append({"segment": segment, "type": kind_of_follower,
                              "notation": format_follower(ruleset, tile, rotation, segment, kind_of_follower),
                              "name": place_name(ruleset, tile, rotation, segment),
                              "follower": typed + kind.follower, "anchor": [round(ax, 3), round(ay, 3)]})
            cell["rotations"][str(rotation)] = spots
        return sorted(cells.values(), key=lambda c: (c["map"], c["y"], c["x"]))

    def _destinations(self) -> list[dict[str, Any]]:
        """Where the human's follower may move on: map, x, y, segment, notation and name."""
        game, found = self.game, []
        for move in game.legal_moves():
            if move == HOME:
                continue
            orientation, _, tile = game.board[move.pos]
            m, x, y = game.local(move.pos)
            found.append({"map": m, "x": x, "y": y, "segment": move.follower,
                          "notation": format_follower(self.ruleset, tile, orientation.rotation, move.follower),
                          "name": place_name(self.ruleset, tile, orientation.rotation, move.follower)})
        return found

    def _log(self) -> list[str]:
        """A line per history entry: ``turn N: who placed what where``, with the follower (N as the
        score list numbers turns: placements only), or an unnumbered discard; a line per follower
        that moved on after its turn."""
        game, ruleset, lines, turn = self.game, self.ruleset, [], 0
        for (tile, move), seat in zip(game.history, history_seats(game)):
            tile_id = ruleset.tiles[tile].id
            if move is None:
                lines.append(f"{tile_id} fits nowhere: set aside; {self.names[seat]} draws again")
                continue
            turn += 1
            if turn in game.personal_turns:
                tile_id += " (their own tile)"
            m, x, y = game.local(move.pos)
            where = f"map {m} " if ruleset.maps > 1 else ""
            follower = ""
            if move.follower is not None:
                kind = ruleset.kinds[ruleset.tiles[tile].segments[ruleset.tiles[tile].spot_segment(move.follower)].kind]
                who = follower_name(ruleset, move.type, kind.follower)
                follower = f", {who} on {place_name(ruleset, tile, move.rotation, move.follower)}"
            lines.append(f"turn {turn}: {self.names[seat]} placed {tile_id} at {where}({x},{y}) turned "
                         f"{move.rotation * 90}°{follower}")
            lines.extend(self._moved_on(turn))
        return lines

    def _since_last_turn(self, seat: int | None) -> list[int]:
        """Where the tiles placed since human seat ``seat`` last placed one lie (all of them before
        its first turn), so the page can mark every move made meanwhile; none when no human is to
        play."""
        if seat is None or not self.seats[seat].human:
            return []
        found: list[int] = []
        for (_, move), who in zip(self.game.history, history_seats(self.game)):
            if move is None:
                continue
            found = [] if who == seat else found + [move.pos]
        return found

    def _moved_on(self, turn: int) -> list[str]:
        """A line per follower that moved on (or went home) after turn ``turn``'s scoring."""
        return [f"{self.names[seat]}'s {moved_on_phrase(self.game, kind, move)}"
                for when, seat, kind, move in self.game.decisions if when == turn]

    def _events(self) -> list[dict[str, Any]]:
        return [{"text": e.explain(self.names), "words": e.words(self.names), "turn": e.turn, "phase": e.phase, "kind": e.kind, "points": e.points,
                 "players": list(e.players), "map": e.map or 0, "tiles": [list(t) for t in e.tiles]}
                for e in self.game.events]


__all__ = ["Refused", "Seat", "Table", "TILE"]
