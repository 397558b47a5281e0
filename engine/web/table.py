"""One game at the web table: humans who answer through the page, bots who answer at once.

A :class:`Table` holds a :class:`~engine.core.game.Game`, its seats and the record
it keeps on disk.  The page asks for :meth:`Table.state` (what a player may see:
the board as SVG, scores, the drawn tile and, on a human's turn, every legal
placement with its follower spots) and sends each move of a human with
:meth:`Table.play`, a JSON object tagged by its kind (:mod:`engine.web.moves_json`): a
placement, a drawn start tile's rotation, a personal tile declined (``deck.personal``), the
tile of the hand to place (``deck.hand``), or where a follower whose feature scored moves on
(``triggers``); bots then play, in a thread of the table's own, until a human must answer
again or the game is over: a bot thinking holds up no request (it thinks on a copy of the
game, so the page reads the game meanwhile, and is told who is thinking and for how long).
What the page sees is built in :mod:`engine.web.table_state`; nothing here serves HTTP (that is
:mod:`engine.web.app`); everything is plain data.
"""

from __future__ import annotations

import secrets
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..bots.players import Player, check_seats, make_player
from ..core import burial
from ..core.game import Game
from ..core.hands import of as hands_of
from ..core.moves import PICK, IllegalMove, Move
from ..errors import UserError
from ..files.output import write_json
from ..files.record import build_record, load_record
from ..files.resume import resume
from ..rules.references import portable_ref
from ..rules.ruleset import Ruleset
from .moves_json import BadField, Start, TakeBack, parse_move
from .table_state import TILE, build_state


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
    is written to after every move (``finished: false`` until final scoring), or None.
    ``game`` (with ``in_game``, its scores before final scoring if it is over) is a game
    already under way, resumed from its record (:meth:`resume`); its bots are seeded from the
    turn it resumed at (:func:`~engine.bots.players.make_player`).

    Raises :class:`UserError` (code ``players``) for a wrong spec or seat count.  The
    methods that change the game take a lock: two requests at once play one move.  The bots
    play in a thread of the table's own, started whenever one is to play (:meth:`settle`
    waits for them).
    """

    def __init__(self, ruleset: Ruleset, ref: str, specs: list[str], seed: int, *, save: Path | None = None,
                 game: Game | None = None, in_game: list[int] | None = None, names: list[str] | None = None,
                 base: Path | None = None) -> None:
        check_seats(specs, ruleset.min_players, ruleset.max_players, ruleset.ref)
        self.ruleset, self.ref, self.seed, self.save = ruleset, ref, seed, save
        #: The ruleset as the record names it: a path relative to the record's folder (``ref``'s paths
        #: are relative to ``base``, default the working directory), so the record resumes and
        #: replays from anywhere (:func:`~engine.rules.references.portable_ref`).
        self.record_ref = ref if save is None or game is not None else portable_ref(ref, save.parent, base)
        resumed_at = game.turn if game is not None else 0
        self.seats = [Seat(names[i] if names else f"{spec}-{i + 1}", spec,
                           None if spec == "human" else make_player(spec, seed, i, resumed_at=resumed_at))
                      for i, spec in enumerate(specs)]
        self.game = game if game is not None else Game(ruleset, len(specs), seed)
        self.in_game = in_game
        #: Why the record could not be saved after the last move (the game goes on), or None.
        self.save_error: str | None = None
        #: Why the game stopped before its end, or None: a rule of the ruleset failed while a move
        #: was scored or weighed (a score or a strength out of range, located at its formula).
        self.stopped: str | None = None
        #: The seat whose bot is thinking and since when (``time.monotonic()``), or None.
        self.thinking: tuple[int, float] | None = None
        #: Counts the changes to the game: the page redraws only when it moves on.
        self.version = 0
        #: Tells this table's versions from those of the same game before a restart.
        self._epoch = secrets.token_hex(3)
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._built: tuple[int, dict[str, Any]] | None = None
        #: The game as it was before the human's last answer, while that answer may be taken back
        #: (its decision kind is revocable: a tile of the hand picked), else None.
        self.before: Game | None = None
        self._runner: threading.Thread | None = None
        with self._lock:
            self._moved(save=game is None)  # a resumed game's record is the one it was read from

    @classmethod
    def resume(cls, path: Path) -> Table:
        """The table whose record was saved at ``path``, as it stood at its last move (its
        record goes on being saved there); :class:`UserError` for a record that cannot be
        resumed (:func:`~engine.files.resume.resume`)."""
        doc = load_record(path)
        ruleset, game, in_game = resume(doc)
        players = doc.data["players"]
        try:
            return cls(ruleset, doc.data["ruleset"], [p["kind"] for p in players], doc.data["seed"], save=path,
                       game=game, in_game=in_game, names=[p["name"] for p in players])
        except UserError as error:  # a seat this version cannot seat (a bot's setting out of range)
            raise UserError(error.diagnostics[0].message, code="players", **doc.where(("players",))) from None

    # -- what the page sees ------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def state(self) -> dict[str, Any]:
        """Everything the page shows (:func:`~engine.web.table_state.build_state`, built once a
        change), with ``version`` (it changes when the game does) and ``thinking`` (None, or
        ``{seat, name, seconds}``: the bot thinking and for how long).  Never waits for a bot."""
        with self._lock:
            if self._built is None or self._built[0] != self.version:
                self._built = (self.version, build_state(self))
            (version, built), thinking = self._built, self.thinking  # read together: one moment's
        about = None if thinking is None else {"seat": thinking[0], "name": self.seats[thinking[0]].name,
                                               "seconds": round(time.monotonic() - thinking[1], 1)}
        return {**built, "version": f"{self._epoch}.{version}", "thinking": about}

    def record(self) -> dict[str, Any]:
        """The game's record as far as it has gone (``finished: false`` until the end)."""
        with self._lock:
            return self._record()

    def download(self) -> dict[str, Any]:
        """The record the page offers (:meth:`record`); :class:`Refused` (409) while a game with
        hands (``deck.hand``) goes on: each turn names the hand its player held, so the record
        would tell what every seat kept, or returned to the stack, as it was saved; and while a
        game goes on in which a tile was buried (``deck.bury``), which the record names."""
        with self._lock:
            going_on = not self.game.finished and self.stopped is None
            if going_on and hands_of(self.game) is not None:
                raise Refused("the record names the tiles each player held: it can be downloaded once the "
                              "game is over", 409)
            if going_on and burial.of(self.game).buried:
                raise Refused("the record names the tiles buried unseen under placed ones: it can be downloaded "
                              "once the game is over", 409)
            return self._record()

    def settle(self, timeout: float | None = None) -> bool:
        """Wait until no bot is to play (a human must answer, or the game is over or stopped);
        False if ``timeout`` seconds passed first."""
        with self._changed:
            return self._changed.wait_for(lambda: self._runner is None, timeout)

    # -- what the page sends -----------------------------------------------------------

    def play(self, turn: int, move: Any) -> None:
        """Play the human's ``move`` for turn ``turn`` (the state's ``turn``, so a move sent twice
        is not played twice): a JSON object tagged by its ``kind`` (:mod:`engine.web.moves_json`),
        a placement, a personal tile declined, a tile of the hand picked, a follower moved on or
        sent home, the drawn start tile's rotation, or the last answer taken back (when its
        decision is revocable: :attr:`before`).  Then the bots play.  Raises
        :class:`Refused`: 409 for a move the game does not ask for now (out of turn, another
        kind of decision, the game over), 400 for a malformed move or one the rules refuse.  A
        pick is not saved: the record holds placements, and is as it was until the tile is placed."""
        with self._lock:
            self._expect_human(turn)
            try:
                parsed = parse_move(self.game, move)
            except BadField as error:
                raise Refused(str(error)) from None
            if isinstance(parsed, TakeBack):
                self._take_back()
                return
            if isinstance(parsed, Start) or self.game.start_tile is not None:
                self.before = None
                self._turn_start(parsed)
                return
            revocable = self._check(parsed)
            self.before = self.game.copy() if revocable else None
            self._play(parsed, save=parsed.kind != PICK)

    def _take_back(self) -> None:
        """Restore the game as it was before the human's last answer (lock held); :class:`Refused`
        (409) unless that answer may be taken back."""
        if self.before is None:
            raise Refused("there is no answer to take back: only a tile of the hand picked can be, until it is "
                          "placed", 409)
        self.game, self.before = self.before, None
        self._moved(save=False)

    def _turn_start(self, move: Move | Start) -> None:
        """Turn the drawn start tile as ``move`` says (lock held; a human in seat 0, as the rules
        have the first player do); :class:`Refused` (409) for any other move, or for a start
        move when no start tile waits."""
        if self.game.start_tile is None:
            raise Refused("there is no start tile to turn", 409)
        if not isinstance(move, Start):
            raise Refused("the start tile is to be turned first", 409)
        self.game.place_start(move.rotation)
        self._moved()

    def _check(self, move: Move) -> bool:
        """:class:`Refused` unless the rules allow ``move`` now (lock held), with their reason:
        409 when the decision asked now takes no move of its kind, else 400.  Whether the decision
        is revocable (:attr:`~engine.core.mechanism.DecisionKind.revocable`)."""
        decision = self.game.decision()
        if decision is None:  # no tile to place: the game is at its end (not reached: _moved ends it)
            raise Refused("there is nothing to decide now", 409)
        try:
            self.game.check(move)
        except IllegalMove as error:
            raise Refused(str(error), 400 if move.kind in decision.kind.moves else 409) from None
        return decision.kind.revocable

    # -- the game ----------------------------------------------------------------------

    def seat_to_answer(self) -> int | None:
        """The seat whose answer the game awaits (the first player turns a drawn start tile), or
        None once it is over or stopped."""
        game = self.game
        if game.finished or self.stopped is not None:
            return None
        return 0 if game.start_tile is not None else game.player

    def _expect_human(self, turn: int) -> None:
        seat = self.seat_to_answer()
        if seat is None:
            raise Refused(f"the game stopped: {self.stopped}" if self.stopped else "the game is over", 409)
        if not self.seats[seat].human:
            raise Refused(f"it is {self.seats[seat].name}'s turn", 409)
        if turn != self.game.turn:
            raise Refused(f"that move was for turn {turn + 1}, but turn {self.game.turn + 1} is being played",
                          409)

    def _play(self, move: Move, save: bool = True) -> None:
        """Play a human's checked ``move`` (lock held); a rule that fails scoring it stops the game
        (:meth:`_stop`).  ``save`` as for :meth:`_moved`."""
        try:
            self.game.play(move, checked=True)
        except UserError as error:  # the move was placed, then a rule failed scoring it
            self._stop(error)
            return
        self._moved(save)

    def _moved(self, save: bool = True) -> None:
        """After a move (lock held): final scoring once the tiles have run out, the record saved
        (unless ``save`` is False, or no tile has been placed yet: a table nobody played in leaves
        no record), and the bots' thread started if a bot is to play and none runs."""
        game = self.game
        if not game.finished and self.stopped is None and game.start_tile is None and game.tile is None:
            self.in_game = list(game.scores)
            try:
                game.finish()
            except UserError as error:
                self._stop(error)
                return
        self.version += 1
        if save and (game.history or game.finished):
            self._save()
        self._changed.notify_all()
        if self._runner is None and self._bot_to_play() is not None:
            self._runner = threading.Thread(target=self._run_bots, name=f"bots of {self.save or self.ref}",
                                            daemon=True)
            self._runner.start()

    def _bot_to_play(self) -> int | None:
        seat = self.seat_to_answer()
        return seat if seat is not None and not self.seats[seat].human else None

    def _run_bots(self) -> None:
        """The bots' thread: each bot to play thinks on a copy of the game, without the lock (the
        page reads the game, and is told who thinks), then its move is played under the lock; until
        a human must answer or the game is over.  A bot that picks a tile of its hand
        (``deck.hand``) thinks on to its placement, as one move for the page.  A rule that fails
        meanwhile stops the game; so does anything unexpected, its traceback on the server's
        standard error."""
        while True:
            with self._lock:
                seat = self._bot_to_play()
                if seat is None:
                    self._runner = None
                    self._changed.notify_all()
                    return
                view, start = self.game.copy(), self.game.start_tile is not None
                if self.thinking is None:  # else it goes on from the tile it picked
                    self.thinking = (seat, time.monotonic())
            bot = self.seats[seat].bot
            assert bot is not None
            try:
                choice = bot.choose_start(view) if start else bot.choose(view)
                with self._lock:
                    if start:
                        self.game.place_start(choice)  # type: ignore[arg-type]
                    else:
                        self.game.play(choice, checked=True)  # type: ignore[arg-type]
                    # A bot's pick shows nothing: the page would learn from a change of version that
                    # its hand held two tile types, so the pick and the placement are one change.
                    if start or choice.kind != PICK:  # type: ignore[union-attr]
                        self.thinking = None
                        self._moved()
            except UserError as error:
                with self._lock:
                    self._stop(error)
            except Exception as error:  # noqa: BLE001 - a bug must stop the game, not the thread unseen
                traceback.print_exception(error, file=sys.stderr)
                with self._lock:
                    self.stopped = f"internal error: {type(error).__name__} (the server's log has the details)"
                    self._stop_changed()

    def _stop(self, error: UserError) -> None:
        """End the game where it stands, saying why (lock held): the page shows it and takes no
        more moves (a half-scored move cannot be taken back); the record so far is saved as
        unfinished."""
        self.stopped = error.render()
        self._stop_changed()

    def _stop_changed(self) -> None:
        self.thinking = self.before = None
        self.version += 1
        self._save()
        self._changed.notify_all()

    def _save(self) -> None:
        if self.save is not None:
            try:
                write_json(self.save, self._record())
                self.save_error = None
            except UserError as error:  # the move stands; the page says the record is not saved
                self.save_error = error.render()

    def _record(self) -> dict[str, Any]:
        players = [{"name": seat.name, "kind": seat.spec} for seat in self.seats]
        return build_record(self.game, self.record_ref, players, self.in_game or list(self.game.scores))


__all__ = ["Refused", "Seat", "Table", "TILE"]
