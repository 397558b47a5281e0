"""Titles: bonuses held during play that pass to whoever beats the holder (``award: title``).

A title (King & Robber Baron's King and Robber Baron cards) is a bonus whose
``value`` is watched after every turn.  Its **record** is the greatest value
any seat has reached since the game began: a seat whose value beats the record
takes the title (and the holder's own new best raises the record); on a tie the
holder keeps it (``ties: first``); a value of 0 or less never takes it.  Two
seats beating the record in the same turn: the greater value wins, and between
equal ones the holder, then the seat playing, then the seats after it in turn
order.  At game end the holder scores the
title's ``points`` (:func:`engine.core.game_end.final_scores`), reading its own
aggregates and ``value``, the record.

The rule is King & Robber Baron's, cross-checked: "anyone who completes a city
that is made using more tiles than the current largest city gets to be the
king", paid "1 point for each completed city" at the end (nurdz.com,
KingAndThief); "if another player completes a larger town during the game, then
they become King" (brettspielwelt.de, CCKoenig); the shipped option is
``rulesets/options/king-and-robber-baron.yaml`` and docs/rulesets.md, "Titles".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..rules.bonuses import read_by
from . import tallies
from .mechanism import Mechanism, MechanismState
from .scoring import Paid, Scored, ScoreEvent
from .tallies import aggregates, kinds_read

if TYPE_CHECKING:
    from ..rules.bonuses import Bonus
    from ..rules.ruleset import Ruleset
    from .game import Game

#: The mechanism's name, its state's key in ``game.states`` (a constant: a native string, looked up
#: on every turn).
NAME: Final = "titles"


class Settled:
    """The titles' own state in a game (``game.states["titles"]``): per title (``ruleset.titles``),
    ``(holder seat or -1, record)``; what the aggregates they read
    were made of when they were last settled (None: not yet, or they read a ``largest_K``, which
    any placement may change).  The other aggregates come from the features held and completed,
    the tokens and the points per kind, which change only as features complete and score: a turn
    that changed none of them changes no title's value, and :func:`settle` then passes none without working the
    aggregates out (a random game under King & Robber Baron spent 60 % of its time there)."""

    __slots__ = ("holders", "made_of", "watched")

    def __init__(self, titles: int, watched: bool) -> None:
        self.holders: list[tuple[int, int]] = [(-1, 0)] * titles
        #: Whether the titles read only aggregates :func:`made_of` follows.
        self.watched = watched
        self.made_of: tuple | None = None

    def copy(self) -> "Settled":
        other = Settled(0, self.watched)
        other.holders = self.holders.copy()
        other.made_of = self.made_of
        return other


def of(game: "Game") -> Settled:
    """The game's :class:`Settled`; under a ruleset without titles, a new empty one."""
    found = game.states.get(NAME)
    if found is None:
        return Settled(0, False)
    assert isinstance(found, Settled)
    return found


def made_of(game: "Game") -> tuple:
    """What the bonuses' aggregates other than ``largest_K`` are made of, per seat: how many
    features it held and completed, its tokens, its points per kind."""
    gathered = tallies.of(game)
    return (tuple(len(notes) for notes in gathered.held), tuple(len(notes) for notes in gathered.closed),
            tuple(tuple(tokens) for tokens in gathered.tokens),
            tuple(tuple(points.values()) for points in game.kind_points))


def settle(game: "Game", tile: int, base: int) -> list[Scored]:
    """After a placement by :attr:`~engine.core.game.Game.player` (tile type ``tile``, segments from
    ``base``: the moment's arguments, unused): pass each title whose record
    someone beats, updating :attr:`Settled.holders` (holders and records).  Returns a 0-point event
    per title passed (rule ``title``, ``players`` the new holder, ``values`` every seat's)."""
    state = of(game)
    if state.watched:
        now = made_of(game)
        if now == state.made_of:  # the values are those the titles were last settled on
            return []
        state.made_of = now
    inputs = aggregates(game, [{} for _ in range(game.players)], read_by(game.ruleset.titles))
    passed: list[Scored] = []
    held = state.holders
    after = passing(game.ruleset.titles, inputs, held, game.player)
    for i, (title, values, (taker, record)) in enumerate(after):
        holder = held[i][0]
        held[i] = (taker, record)
        if taker == holder:
            continue
        if not game.explain:
            passed.append(Paid(title.name, "title", 0, (taker,)))
            continue
        event = ScoreEvent(phase="in_game", turn=game.turn, kind=title.name, rule="title",
                           formula=title.value.text, points=0, players=(taker,), followers=(),
                           inputs={"value": values[taker]}, values=tuple(values),
                           holder=holder)
        passed.append(event)
        game.events.append(event)
    return passed


def passing(titles: "tuple[Bonus, ...]", inputs: list[dict[str, int]], held: list[tuple[int, int]],
            playing: int) -> list[tuple["Bonus", list[int], tuple[int, int]]]:
    """Per title, held as ``held`` says (``(holder, record)``), every seat's value on its
    aggregates ``inputs`` and the ``(holder, record)`` after them, the seat ``playing`` having
    just placed its tile (:func:`settle`; a look-ahead's too)."""
    found = []
    for title, (holder, record) in zip(titles, held):
        values = [int(title.value(env)) for env in inputs]
        found.append((title, values, _challenger(values, holder, record, playing)))
    return found


def _challenger(values: list[int], holder: int, record: int, playing: int) -> tuple[int, int]:
    """``(holder, record)`` of a title held by ``holder`` (-1: nobody) with ``record``, after
    seats reached ``values``: the greatest value above the record takes it, the holder first
    among equals (it keeps its title, its record raised), then the seat ``playing``, then turn
    order."""
    best = max(values)
    if best <= max(record, 0):
        return holder, record
    if holder >= 0 and values[holder] == best:
        return holder, best
    seats = len(values)
    return next(p for p in ((playing + k) % seats for k in range(seats)) if values[p] == best), best


def holders(game: "Game") -> dict[str, dict[str, int | None]]:
    """Each title's holder (a seat, None: nobody yet) and its record (the value that holds it), by name:
    what ``play --json``, the web table and the terminal show."""
    return {title.name: {"holder": holder if holder >= 0 else None, "value": record}
            for title, (holder, record) in zip(game.ruleset.titles, of(game).holders)}


def held_by(game: "Game", seat: int) -> list[str]:
    """The names of the titles ``seat`` holds, in the ruleset's order."""
    return [title.name for title, (holder, _) in zip(game.ruleset.titles, of(game).holders) if holder == seat]


def _uses(ruleset: "Ruleset") -> bool:
    return bool(ruleset.titles)


def _settled(game: "Game") -> MechanismState:
    titles = game.ruleset.titles
    return Settled(len(titles), not any(kinds_read(game.ruleset, "largest_", read_by(titles))))


MECHANISM: Mechanism = Mechanism(NAME, _uses, scored=settle, state=_settled)
