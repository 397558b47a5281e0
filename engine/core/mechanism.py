"""The shape of a mechanism: handlers at the named moments of a turn, and the decisions it asks for.

A mechanism (burial, hands of tiles, personal tiles, extra turns, score triggers,
tallies, titles, followers that move on, …) is one module of ``engine/core`` that ends with a
:class:`Mechanism` entry, listed once in :data:`engine.core.mechanisms.REGISTRY`.
The turn loop (:mod:`engine.core.game`) runs, at each moment, the handlers of the
mechanisms its ruleset uses (:class:`Moments`), in registry order, and names none of
them.  The moments of a turn, in order (docs/architecture.md, "Moments"):

========================  ================================================  ======================
moment                    handler                                           returns
========================  ================================================  ======================
turn start                ``turn_start(game, draw)``                        True: it set the tile
                                                                            (no draw this turn)
the draw                  ``draw(game, draw)`` replaces the stack's draw;   —
                          ``draw_one(game)`` a chance step's draw           True: a tile to place
tile drawn                ``drawn(game)``                                   —
tile set from outside     ``forced(game)``: a replay names the turn's tile  —
                          (:meth:`~engine.core.game.Game.force_tile`)
tile placed               ``placed(game, tile type, first segment)``        —
piece deployed            ``deployed(game, placed segment, follower type)`` score events
feature completed         ``completed(game, root, holders, noted)`` after   score events
                          its scoring, occupied or not (``holders``: its
                          majority, if any; ``noted``: not completed before)
feature scored            ``feature_scored(game, root)`` before its         —
                          followers go home (occupied features only)
tile's scoring done       ``scored(game, tile type, first segment)``        score events
decision left open        ``holds(game)``: a decision for another seat      True: the turn waits
turn end                  ``turn_end(game)``                                —
========================  ================================================  ======================

A mechanism with state of its own gives ``state(game)``, called once as the game begins: an
object with a ``copy()`` method, kept in ``game.states[name]`` and copied with the game
(:mod:`engine.core.snapshot`).  A mechanism that asks the player something adds a :class:`DecisionKind` (what is asked,
when it is pending, its legal options, why a move is refused) and a handler per move
kind it owns in ``plays`` (:mod:`engine.core.moves`' kinds); ``options`` adds moves to the
placement decision (the personal tile's decline).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional, Protocol

if TYPE_CHECKING:
    from ..rules.ruleset import Ruleset
    from .game import Game
    from .moves import Move
    from .scoring import Scored

TurnStart = Callable[["Game", bool], bool]
Draw = Callable[["Game", bool], None]
DrawOne = Callable[["Game"], bool]
Step = Callable[["Game"], None]
Placed = Callable[["Game", int, int], None]
Deployed = Callable[["Game", int, int], "list[Scored]"]
FeatureScored = Callable[["Game", int], None]
Completed = Callable[["Game", int, "tuple[int, ...]", bool], "list[Scored]"]
Scoring = Callable[["Game", int, int], "list[Scored]"]
Holds = Callable[["Game"], bool]
Play = Callable[["Game", "Move", bool], "list[Scored]"]
Options = Callable[["Game"], "list[Move]"]
Check = Callable[["Game", "Move"], None]
State = Callable[["Game"], "MechanismState"]


class MechanismState(Protocol):
    """A mechanism's own state in a game: anything with an independent :meth:`copy`."""

    def copy(self) -> "MechanismState":
        """An independent copy, for a copy of the game."""


class DecisionKind:
    """One kind of thing the player to move is asked (``name``: ``place``, ``pick``, ``move-on``, …).

    ``pending(game)`` says whether it is asked now, ``options(game)`` lists its legal moves, and
    ``check(game, move)`` raises :class:`~engine.core.moves.IllegalMove` unless ``move`` is one of
    them, with the reason a player reads; ``moves`` are the move kinds it takes.  ``revocable``
    says that its answer draws nothing, scores nothing and shows nobody anything new (which tile
    of a hand to place), so a table may let the player take it back until their next answer."""

    __slots__ = ("name", "pending", "options", "check", "moves", "revocable")

    def __init__(self, name: str, pending: Holds, options: Options, check: Check, moves: tuple[int, ...],
                 revocable: bool = False) -> None:
        self.name = name
        self.pending = pending
        self.options = options
        self.check = check
        self.moves = moves
        self.revocable = revocable


class Decision:
    """What :attr:`player` decides now: :attr:`kind` (a :class:`DecisionKind`) and :meth:`options`."""

    __slots__ = ("kind", "player", "game")

    def __init__(self, kind: DecisionKind, player: int, game: "Game") -> None:
        self.kind = kind
        self.player = player
        self.game = game

    @property
    def name(self) -> str:
        """The decision kind's name (``place``, ``pick``, ``move-on``, …)."""
        return self.kind.name

    def options(self) -> "list[Move]":
        """The legal moves, in the order bots and the action codecs index them."""
        return self.kind.options(self.game)

    def __repr__(self) -> str:
        return f"Decision({self.kind.name!r}, player={self.player})"


class Mechanism:
    """A mechanism's registry entry: ``name``, ``uses(ruleset)`` (whether a ruleset needs it), ``state``
    (its own state's factory, module docstring) and its handlers, each None when it has nothing to do at that
    moment (module docstring's table).
    ``refusals`` maps each move kind it owns to ``(reason, message)``: why that kind of move is
    refused when the mechanism is not asking for it (a decline with no personal tile offered)."""

    __slots__ = ("name", "uses", "state", "turn_start", "draw", "draw_one", "drawn", "forced", "placed", "deployed",
                 "completed", "feature_scored", "scored", "holds", "turn_end", "decisions", "plays", "options",
                 "refusals")

    def __init__(self, name: str, uses: "Callable[[Ruleset], bool]", *, state: Optional[State] = None,
                 turn_start: Optional[TurnStart] = None,
                 draw: Optional[Draw] = None, draw_one: Optional[DrawOne] = None, drawn: Optional[Step] = None,
                 forced: Optional[Step] = None,
                 placed: Optional[Placed] = None, deployed: Optional[Deployed] = None,
                 completed: Optional[Completed] = None, feature_scored: Optional[FeatureScored] = None,
                 scored: Optional[Scoring] = None,
                 holds: Optional[Holds] = None, turn_end: Optional[Step] = None,
                 decisions: tuple[DecisionKind, ...] = (), plays: Optional[dict[int, Play]] = None,
                 options: Optional[Options] = None, refusals: Optional[dict[int, tuple[str, str]]] = None) -> None:
        self.name = name
        self.uses = uses
        self.state = state
        self.turn_start = turn_start
        self.draw = draw
        self.draw_one = draw_one
        self.drawn = drawn
        self.forced = forced
        self.placed = placed
        self.deployed = deployed
        self.completed = completed
        self.feature_scored = feature_scored
        self.scored = scored
        self.holds = holds
        self.turn_end = turn_end
        self.decisions = decisions
        self.plays = plays or {}
        self.options = options
        self.refusals = refusals or {}

    def __repr__(self) -> str:
        return f"Mechanism({self.name!r})"
