"""A human at a terminal as a :class:`~engine.bots.players.Player`.

``HumanPlayer`` shows each turn as text (the board around the play area, the scores, the
drawn tile in its four rotations and the numbered legal moves, drawn by
:mod:`engine.cli.screen`) and reads the answer through an ``input`` callable, so the same
class serves a real terminal (``builtins.input``) and tests (a function that pops scripted
answers).  Everything is printed through a :class:`rich.console.Console` (tests capture it).

An answer is a number from the list, or the move typed in the README's notation (read by
:func:`~engine.cli.move_input.parse_move`).  Anything else is refused with the reason and
asked again: a typo must never end a game.  ``?`` prints help and every legal move; ``q``
(or end of input) raises :class:`~engine.sim.play.QuitGame`, which the play loop catches;
then :meth:`HumanPlayer.ask_save` asks whether to save the game so far, and where: nothing
is written that the player did not ask for.
"""

from __future__ import annotations

import builtins
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from rich.console import Console
from rich.text import Text

from ..core import burial, moving, personal, tallies
from ..core.game import Game
from ..core.hands import of as hands_of
from ..core.moves import HOME, Move
from ..core.titles import held_by
from ..errors import UserError
from ..files.notation import format_follower, place_name
from ..files.output import check_writable
from ..files.record import history_seats
from ..sim.play import QuitGame  # the play loop catches it and stops the game where it stands
from ..view.supply import supply_words
from .hand_choice import choose_tile, hand_note, held_count
from .move_input import MoveInputError, decline_word, distinct, move_notation, parse_move
from .move_list import move_list
from .output import terminal_console
from .screen import SEAT_STYLES, board_text, kind_letter, tile_text, title_words
from .turn_screen import move_lines, show_screen

__all__ = ["HumanPlayer", "Choice"]


@dataclass(frozen=True)
class Choice:
    """One numbered item of the move list: its number, the move, and how the move is written."""

    number: int
    move: Move
    text: str


class HumanPlayer:
    """A player who answers at a terminal: implements the :class:`~engine.bots.players.Player` protocol.

    ``input`` is called with a prompt and returns the answer (``builtins.input``
    at a terminal, a script in tests); output goes to ``console`` (a new
    :func:`~engine.cli.output.terminal_console` by default).  ``max_listed`` caps the
    lines of moves listed each turn (the rest are one ``?`` away), so a turn with 100+
    legal moves still leaves the board on screen.
    """

    def __init__(self, name: str, *, input: Callable[[str], str] = builtins.input,
                 console: Console | None = None, max_listed: int = 8,
                 seat_names: list[str] | None = None) -> None:
        self.name = name
        self.seat_names = seat_names  # every seat's name, to label the score line; else P1, P2, …
        self._input = input
        self.console = console if console is not None else terminal_console()  # names and ids shown as text
        self.max_listed = max_listed
        self._seen_history = 0
        self._seen_events = 0
        self._seen_decisions = 0
        #: True once the input has ended (end of file, Ctrl-C): nothing more can be asked.
        self.input_ended = False
        #: True if it ended with Ctrl-C: the command then exits 130, as every command does on it.
        self.interrupted = False

    # -- the Player protocol ---------------------------------------------------

    def choose(self, game: Game) -> Move:
        """Show the turn, then ask until the answer is a legal move for ``game.tile`` (or, for a
        follower that may move on after its feature scored, a destination or home)."""
        decision = game.decision()
        assert decision is not None, "a player is asked only while a decision is pending"
        asked = {"move-on": self._choose_move_on, "pick": lambda game: choose_tile(self, game)}.get(decision.name)
        if asked is not None:  # a decision other than placing the tile: each kind's own prompt
            return asked(game)
        choices = self.choices(game)
        self.show_turn(game, choices)
        while True:
            answer = self.ask("Your move (number, X,Y rR [KIND@PORT], ? help, q quit): ")
            if answer in ("?", "h", "help"):
                self.show_help(game, choices)
                continue
            if answer.lower() in ("b", "board"):  # the whole board, every row, and the moves under it
                c = self.console
                c.print(board_text(game, max_width=c.width), end="")
                for part in [move_list(game, choices, self.max_listed, c.width), *self._after_moves(game)]:
                    c.print(part, soft_wrap=False)
                continue
            try:
                move = self._interpret(game, answer, choices)
            except MoveInputError as error:  # every way an answer can be wrong; anything else is a bug
                self.refuse(str(error))
                continue
            self.console.print(Text(f"→ {move_notation(game, move)}", style="bold green"))
            return move

    def _choose_move_on(self, game: Game) -> Move:
        """Ask where the follower whose feature just scored moves on: a number from the list of
        destinations, a destination as listed (``0,0 road@E``), or ``home`` (spelt out: ``h`` is
        help, as at the tile prompt) to take it home (:mod:`engine.core.moving`); ``?`` lists them
        again, ``b`` redraws the board."""
        ruleset = game.ruleset
        name = ruleset.follower_types[moving.of(game).movers[0][1]].name
        options = [move for move in game.legal_moves() if move != HOME]
        written = []
        for move in options:
            orientation, _, tile = game.board[move.pos]
            _, x, y = game.local(move.pos)
            written.append((f"{x},{y} {format_follower(ruleset, tile, orientation.rotation, move.follower)}",
                            place_name(ruleset, tile, orientation.rotation, move.follower)))
        c = self.console
        listing = Text(f"Your {name}'s feature has scored. Move it on to a feature that is not complete and holds "
                       "no follower, within reach, or take it home:\n", style="bold")
        for number, (notation, where) in enumerate(written, start=1):
            listing.append(f"  {number}) {notation}  ({where})\n", style=None)
        listing.rstrip()
        show_screen(c, game, Text(f"Turn {game.turn} · P{game.player + 1} {self.name} · your {name} may move on",
                                  style="bold"), self.news(game), [self.scores_line(game), listing])
        while True:
            answer = self.ask(f"Move the {name} on (1–{len(options)} or X,Y KIND@PORT, home, ? help, b board, "
                               "q quit): ")
            typed = re.sub(r"\s*,\s*", ",", re.sub(r"\s+", " ", answer.strip().lower()))
            if typed in ("?", "h", "help", "b", "board"):  # h is help, as at the tile prompt: home is spelt out
                if typed in ("b", "board"):
                    c.print(board_text(game, max_width=c.width), end="")
                c.print(listing)
                continue
            numbers = [str(n) for n in range(1, len(options) + 1)]
            by_text = {notation.lower(): move for move, (notation, _) in zip(options, written)}
            chosen = (HOME if typed == "home" else options[int(typed.rstrip(")")) - 1]
                      if typed.rstrip(")") in numbers else by_text.get(typed))
            if chosen is None:
                self.refuse(f"'{answer}' is not a choice: type a number from 1 to {len(options)}, a destination "
                             f"as listed (e.g. {written[0][0]}), or home")
                continue
            shown = "home" if chosen == HOME else "to " + written[options.index(chosen)][0]
            c.print(Text(f"→ {name} {shown}", style="bold green"))
            return chosen

    def choose_start(self, game: Game) -> int:
        """Ask for the rotation (0–3) of a start tile drawn from the stack (``game.start_tile``)."""
        tile = game.start_tile
        ruleset = game.ruleset
        self.console.rule(Text(f"{self.name}: turn the start tile {ruleset.tiles[tile].id}", style="bold"))
        self.console.print(tile_text(ruleset, tile))
        while True:
            answer = self.ask("Start tile rotation (0–3 or r0–r3, ? help, q quit): ")
            if answer in ("?", "h", "help"):
                self.console.print("The start tile goes at 0,0. Give its rotation: 0, 1, 2 or 3 clockwise "
                                   "quarter turns from the drawing r0 (r1 = 90°, r2 = 180°, r3 = 270°); "
                                   "q quits.", highlight=False)
                self.console.print(tile_text(ruleset, tile))
                continue
            found = re.fullmatch(r"r?\s*([+-]?\d+)", answer, re.IGNORECASE)
            if found and 0 <= int(found[1]) <= 3:
                return int(found[1])
            self.refuse(f"'{answer}' is not a rotation: type 0, 1, 2 or 3 (clockwise quarter turns)")

    # -- what the player sees --------------------------------------------------

    def choices(self, game: Game) -> list[Choice]:
        """The legal moves, numbered from 1 in reading order (by row, then column, then rotation),
        each placement first without a follower, then with each follower spot (and type); one move
        per result, a symmetric tile's alike rotations listed once (any of them may be typed).
        Declining a personal tile is typed (d), not numbered: the numbers stay placements."""
        placements = sorted(game.placements(), key=lambda pr: (*reversed(game.local(pr[0])[1:]), pr[1]))
        moves = [Move(pos, r, follower, kind) for pos, r in placements
                 for follower, kind in ((None, 0), *game.deploy_choices(pos, r))]
        return [Choice(n, move, move_notation(game, move)) for n, move in enumerate(distinct(game, moves), 1)]

    def show_turn(self, game: Game, choices: list[Choice]) -> None:
        """The whole turn screen: header, news since the last turn, board, scores, tile, moves,
        fitted to the terminal's height (:func:`~engine.cli.turn_screen.show_screen`)."""
        ruleset, tile = game.ruleset, game.tile
        c = self.console
        where = f" · map {game.map} (maps 0–{ruleset.maps - 1})" if ruleset.maps > 1 else ""
        own = " (your own)" if personal.of(game).offered else ""
        heading = Text(f"Turn {game.turn + 1} · P{game.player + 1} {self.name} · tile {ruleset.tiles[tile].id}{own}"
                       f" · {game.remaining} left to draw{where}", style="bold")
        drawing = tile_text(ruleset, tile, legal={r for _, r in game.placements()})
        drawing.rstrip()
        above = [self.scores_line(game),
                 Text(f"Your tile {ruleset.tiles[tile].id} (edges N E S W; rotations are clockwise quarter turns):",
                      style="bold"),
                 drawing]
        note = hand_note(game) if hands_of(game) is not None else None
        above += [note] if note is not None else []
        after = self._after_moves(game)
        listed = move_lines(c, game, above + after, self.max_listed)
        show_screen(c, game, heading, self.news(game), [*above, move_list(game, choices, listed, c.width), *after])

    def _after_moves(self, game: Game) -> list[Text]:
        """What the turn screen says under the moves: the own tile's choice, how to answer."""
        after = []
        if personal.of(game).offered:
            instead = ("pass: the stacks are used up, and this is the last round"
                       if personal.of(game).last_round is not None else "draw a tile from the stack instead")
            after.append(Text(f"{game.ruleset.tiles[game.tile].id} is your own tile, placed instead of drawing: "
                              f"place it, or type d to keep it and {instead}.", style="bold yellow"))
        after.append(Text("Type a number or a move like 3,-1 r2 city@N; ? help, b board, q quit.", style="dim"))
        return after

    def show_help(self, game: Game, choices: list[Choice]) -> None:
        """The notation, the coordinate system and every legal move."""
        kinds = ", ".join(f"{k.name} ({kind_letter(game.ruleset, k.index)})" for k in game.ruleset.kinds)
        self.console.print(Text(
            "How to answer\n"
            "  a number from the list            e.g. 3\n"
            "  X,Y rR                            place the tile without a follower, e.g. 3,-1 r2\n"
            "  X,Y rR KIND@PORT                  and put a follower there, e.g. 3,-1 r2 city@N\n"
            "  X,Y rR KIND                       a port-less feature, e.g. 0,1 r0 cloister\n"
            f"  d                                 keep your own tile (a personal one) and {decline_word(game)} "
            "instead\n"
            "  ? help   b redraw the board   q quit (you are asked whether to save the game so far)\n"
            "Coordinates: x grows east, y grows SOUTH; the start tile is at 0,0, so 0,-1 is north of it.\n"
            "Rotations: r0–r3 are clockwise quarter turns of the tile as drawn at r0 (r1 = 90°).\n"
            "Ports (board orientation, after turning): sides N E S W; half-sides NL NR EL ER SL SR WL WR,\n"
            "  left/right as seen from the tile's centre looking out (NL is the west half of N).\n"
            f"Feature kinds: {kinds}.  On the board a tile is a 5×3 block: its ports round the edge,\n"
            "  its id in the middle; a digit is a follower of that seat; ╭───╮ boxes are cells where\n"
            "  your tile fits.", style=None))
        self.console.print(move_list(game, choices, None, self.console.width))

    def scores_line(self, game: Game) -> Text:
        """One line: each seat's colour, score, pieces left by type, tokens collected (goods) and
        titles held; ``◀`` marks the seat to play."""
        out = Text("Scores  ")
        for seat in range(game.players):
            out.append(f" {seat + 1} ", style=SEAT_STYLES[seat % len(SEAT_STYLES)])
            named = self.seat_names[seat] if self.seat_names and seat < len(self.seat_names) else (
                self.name if seat == game.player else "")
            who = f" P{seat + 1} {named}".rstrip() + (" ◀" if seat == game.player else "")
            out.append(who, style="bold" if seat == game.player else None)
            goods = "".join([*(f", {n} {name}" for name, n in zip(game.ruleset.tokens, tallies.of(game).tokens[seat])),
                             *(f", holds the {title_words(title)} title" for title in held_by(game, seat))])
            if game.ruleset.personal_tile >= 0:
                goods += f", {personal.of(game).held[seat]} {game.ruleset.tiles[game.ruleset.personal_tile].id} held"
            goods += held_count(game, seat)
            out.append(f" {game.scores[seat]} pts, {supply_words(game.ruleset, game.reserve[seat])}{goods}   ")
        out.rstrip()
        return out

    def news(self, game: Game) -> list[str]:
        """What was played and scored since this player last looked (oldest first), so a bot's turn
        is not missed; marks it seen."""
        seats = history_seats(game)
        names = [f"P{s + 1}" for s in range(game.players)]
        lines = []
        placements = sum(1 for _, move in game.history[:self._seen_history] if move is not None)
        for (tile, move), seat in list(zip(game.history, seats))[self._seen_history:]:
            tile_id = game.ruleset.tiles[tile].id
            if move is None:
                lines.append(f"tile {tile_id} fitted nowhere: discarded")
            else:
                placements += 1
                own = " (their own tile)" if placements in personal.of(game).turns else ""
                lines.append(f"{names[seat]} placed {tile_id}{own} at {move_notation(game, move, tile)}")
                if any(turn == placements for turn, _ in burial.of(game).buried):  # deck.bury: never which tile
                    lines.append("  a tile from the stack went under it, unseen")
        lines += [f"scored: {event.explain(names)}" for event in game.events[self._seen_events:]]
        for _, seat, kind, move in moving.of(game).decisions[self._seen_decisions:]:
            follower = f"{names[seat]}'s {game.ruleset.follower_types[kind].name}"
            if move == HOME:
                lines.append(f"{follower} went home")
            else:
                orientation, _, tile = game.board[move.pos]
                _, x, y = game.local(move.pos)
                lines.append(f"{follower} moved on to {x},{y} "
                             f"{format_follower(game.ruleset, tile, orientation.rotation, move.follower)}")
        self._seen_history, self._seen_events = len(game.history), len(game.events)
        self._seen_decisions = len(moving.of(game).decisions)
        return lines

    # -- input -----------------------------------------------------------------

    def ask_save(self, suggested: str) -> Path | None:
        """After a quit, ask whether to save the game so far: the file to write, or None.

        A file name is taken once it can be written (a missing folder or a
        non-file is refused and asked again; an existing file only after a
        ``y`` to overwrite it); ``y`` takes ``suggested``; Enter, ``n`` or the
        end of input means no file.  Nothing is asked once the input has ended.
        """
        while not self.input_ended:
            answer = self._line(f"Save the game so far? [file name, y = {suggested}, Enter = don't save]: ")
            if answer is None or answer.lower() in ("", "n", "no"):
                return None
            path = Path(suggested if answer.lower() in ("y", "yes") else answer)
            try:
                check_writable(path)
            except UserError as error:
                self.refuse(error.diagnostics[0].message if error.diagnostics else str(error))
                continue
            if not path.exists():
                return path
            again = self._line(f"{path} exists: overwrite it? [y/N]: ")
            if again is not None and again.lower() in ("y", "yes"):
                return path
        return None

    def ask(self, prompt: str) -> str:
        """One answer, stripped; ``q`` or a closed input (end of file, Ctrl-C) quits the game."""
        answer = self._line(prompt)
        if answer is None:
            raise QuitGame("input ended")
        if answer.lower() in ("q", "quit", "exit"):
            raise QuitGame(f"{self.name} quit")
        return answer

    def _line(self, prompt: str) -> str | None:
        """One answer, stripped, or None when the input has ended (end of file, Ctrl-C)."""
        try:
            answer = self._input(prompt)
        except EOFError:
            self.input_ended = True
            return None
        except KeyboardInterrupt:
            self.input_ended = self.interrupted = True
            return None
        return str(answer if answer is not None else "").strip()

    def _interpret(self, game: Game, answer: str, choices: list[Choice]) -> Move:
        """A move from a list number or typed notation; :class:`MoveInputError` when neither."""
        if not answer:
            raise MoveInputError("type a number from the list, or a move like 3,-1 r2 city@N (? for help)")
        if re.fullmatch(r"[+-]?\d+\)?", answer):
            number = int(answer.rstrip(")"))
            if not 1 <= number <= len(choices):
                raise MoveInputError(f"there is no move {number}: the list goes from 1 to {len(choices)}")
            return choices[number - 1].move
        return parse_move(game, answer)

    def refuse(self, reason: str) -> None:
        self.console.print(Text(f"✗ {reason}", style="bold red"))
