"""A game whose every draw is a chance event, stepped one action at a time.

The shared core of the OpenSpiel game and the PettingZoo environment.  A
step is a **chance** step (a start tile or a tile is drawn:
:func:`engine.core.chance.draw_outcomes`), a player's **move** (place the
drawn tile, maybe deploy; or place a personal tile offered, or decline it,
:mod:`engine.core.personal`; or pick which held tile to place,
:mod:`engine.core.hands`), or the first player's **start rotation** when the
start tile is drawn from the stack.  Under ``deck.hand`` each tile drawn into a
hand is a chance step of its own, seen by the drawing seat only
(:meth:`ChanceGame.action_to_string`).  Tiles that fit nowhere are the engine's
business: such a draw is discarded and the next draw is due (RULES.md §3.2
row 4, seed 003).  The underlying game's own stacks only supply tiles to
swap: every draw is the outcome given, so nothing hidden is kept.
"""

from __future__ import annotations

from ..core import chance
from ..core.game import Game
from ..core.moves import HOME, IllegalMove, Move, is_decision, is_draw, is_pick
from ..files.notation import format_follower
from ..geometry import map_local
from ..rules.ruleset import Ruleset
from .actions import ActionCodec

#: What ``returns`` may be: 1 to each winner (tied winners all win, RULES.md §3.1) and 0
#: otherwise, or the final points.
RETURNS = ("win", "points")


class ChanceGame:
    """``ChanceGame(ruleset, players=2, returns="win")``: a game stepped by actions.

    :attr:`chance` says whether the next step is a draw (:meth:`outcomes` lists
    ``(tile type index, probability)``); else :attr:`player` (a seat) acts with one
    of :meth:`legal_actions` (:class:`~engine.api.actions.ActionCodec` integers).
    :meth:`apply` takes either kind; :attr:`over` once the tiles are used up, when
    final scoring has run.  Raises ``ValueError`` for a number of players the
    ruleset does not allow, an unknown ``returns`` or an action not legal now.
    """

    def __init__(self, ruleset: Ruleset, players: int = 2, returns: str = "win") -> None:
        if returns not in RETURNS:
            raise ValueError(f"returns must be one of {', '.join(RETURNS)}, not '{returns}'")
        self.ruleset = ruleset
        self.returns_kind = returns
        self.codec = ActionCodec.for_ruleset(ruleset)
        # Seed 0 only orders the tiles the draws swap with: every draw is a chance outcome.
        self.game = Game(ruleset, players, seed=0, draw=False)
        #: A drawn start tile waiting to be drawn again as a chance event (its rotation comes next).
        self.start_due = bool(self.game.pending_starts)
        #: Every action applied, chance outcomes included (what unpickling replays).
        self.actions: list[int] = []
        self._legal: list[int] | None = None

    # -- what the next step is -------------------------------------------------

    @property
    def over(self) -> bool:
        """True once every tile is used up (final scoring has run)."""
        return self.game.finished

    @property
    def chance(self) -> bool:
        """True if the next step is a draw."""
        game = self.game
        return not game.finished and (self.start_due or (not game.pending_starts and game.tile is None
                                                         and game.remaining > 0))

    @property
    def player(self) -> int:
        """The seat to act (the first player turns a drawn start tile)."""
        return 0 if self.game.pending_starts else self.game.player

    def outcomes(self) -> list[tuple[int, float]]:
        """The draw due now: ``(tile type index, probability)`` pairs; ``ValueError`` if
        no draw is due."""
        if not self.chance:
            raise ValueError("no draw is due: a seat is to act" if not self.over else "the game is over")
        if self.start_due:
            return chance.start_outcomes(self.game)
        return chance.draw_outcomes(self.game)

    def legal_moves(self) -> list[Move]:
        """The moves of the seat to act (empty at a chance step or a start rotation)."""
        if self.chance or self.over or self.game.pending_starts:
            return []
        return self.game.legal_moves()

    def legal_actions(self) -> list[int]:
        """The actions of the seat to act, ascending (empty at a chance step)."""
        if self.chance or self.over:
            return []
        if self.game.pending_starts:
            return [self.codec.start_action(r) for r in range(4)]
        if self._legal is None:  # OpenSpiel asks several times a step: listed once per position
            self._legal = sorted(self.codec.encode(move) for move in self.game.legal_moves())
        return list(self._legal)

    # -- stepping ------------------------------------------------------------------

    def apply(self, action: int) -> None:
        """Apply a chance outcome (a tile type index) or the acting seat's action."""
        game = self.game
        if self.over:
            raise ValueError("the game is over")
        if not self.chance and not 0 <= action < self.codec.size:
            raise ValueError(f"action {action} is outside the actions (0 ≤ action < {self.codec.size})")
        self._legal = None
        if self.chance:
            if self.start_due:
                chance.draw_start(game, action)
                self.start_due = False
            else:
                chance.draw(game, action)
        elif game.pending_starts:
            rotation = self.codec.start_rotation(action)
            if rotation is None:
                raise ValueError(f"action {action} does not turn the start tile (a tile is to be turned)")
            game.place_start(rotation)
            self.start_due = bool(game.pending_starts)
        else:
            move = self.codec.decode(action) if self.codec.start_rotation(action) is None else None
            if move is None:
                raise ValueError(f"action {action} turns a start tile, but a tile is to be placed")
            try:
                game.play(move, draw=False)
            except IllegalMove as error:
                raise ValueError(f"action {action} is not legal now: {error}") from None
        self.actions.append(action)
        if not game.finished and not self.chance and game.tile is None and not game.pending_starts:
            game.finish()

    def _decision_string(self, move: Move) -> str:
        """``"wagon to (1,0) road@E"`` or ``"wagon home"`` (the follower moving on now)."""
        game = self.game
        kind = game.movers[0][1] if game.movers else move.type
        name = self.ruleset.follower_types[kind].name
        if move == HOME:
            return f"{name} home"
        m, x, y = map_local(move.pos)
        placed = game.board.get(move.pos)
        where = f"({x},{y})" if self.codec.maps == 1 else f"map {m} ({x},{y})"
        if placed is None or move.follower is None:
            return f"{name} to {where}"
        orientation, _, tile = placed
        return f"{name} to {where} {format_follower(self.ruleset, tile, orientation.rotation, move.follower)}"

    def returns(self) -> list[float]:
        """Per seat: 1 for a winner and 0 otherwise (``returns="win"``), or the points;
        all zeros before the end."""
        game = self.game
        if not self.over:
            return [0.0] * game.players
        if self.returns_kind == "points":
            return [float(points) for points in game.scores]
        best = max(game.scores)
        return [1.0 if points == best else 0.0 for points in game.scores]

    def copy(self) -> ChanceGame:
        """An independent copy (the game copied, the ruleset shared)."""
        other = ChanceGame.__new__(ChanceGame)
        other.ruleset, other.returns_kind, other.codec = self.ruleset, self.returns_kind, self.codec
        other.game = self.game.copy()
        other.start_due = self.start_due
        other.actions = self.actions.copy()
        other._legal = self._legal
        return other

    def __deepcopy__(self, memo: dict) -> ChanceGame:
        # OpenSpiel clones a Python state by deep-copying its attributes: copy, sharing the ruleset.
        return self.copy()

    def __getstate__(self) -> dict:
        # Pickled (OpenSpiel serialises states so) as what it is made of: the ruleset
        # reference, the seats, the returns and the actions, replayed on unpickling.
        return {"ref": self.ruleset.ref, "players": self.game.players, "returns": self.returns_kind,
                "actions": list(self.actions)}

    def __setstate__(self, data: dict) -> None:
        from ..rules.ruleset import load_ruleset

        fresh = ChanceGame(load_ruleset(data["ref"]), data["players"], data["returns"])
        for action in data["actions"]:
            fresh.apply(action)
        self.__dict__.update(fresh.__dict__)

    def action_to_string(self, action: int, chance_step: bool | None = None, seat: int | None = None) -> str:
        """``"draw V"``, ``"turn the start tile 1"``, a move in the project's notation
        (``"V (1,0) r2 road@S"``: tile type, cell, quarter turns, follower), ``"keep AB and
        draw"`` (``and pass`` in the last round) for declining a personal tile, or ``"pick V"``
        for choosing a held tile (``deck.hand``).

        ``seat`` is who reads a chance step: None for the referee, who sees every draw.  A tile
        drawn into a hand is seen by its drawer only, so any other seat reads ``"seat 1 draws a
        tile"`` (a start tile drawn from the stack is face up: ``"draw V"`` for all)."""
        chance_step = self.chance if chance_step is None else chance_step
        tiles = self.ruleset.tiles
        if chance_step:
            if not 0 <= action < len(tiles):
                return f"no tile type {action}"
            if seat is not None and self.game.hands is not None and not self.start_due and seat != self.game.player:
                return f"seat {self.game.player} draws a tile"
            return f"draw {tiles[action].id}"
        if not 0 <= action < self.codec.size:
            return f"no action {action}"
        rotation = self.codec.start_rotation(action)
        if rotation is not None:
            return f"turn the start tile {rotation}"
        move = self.codec.decode(action)
        if is_pick(move):
            return f"pick {tiles[move.pos].id}"
        tile = self.game.tile
        name = tiles[tile].id if tile is not None else "?"
        if is_draw(move):
            return f"keep {name} and pass" if self.game.last_round is not None else f"keep {name} and draw"
        if is_decision(move):
            return self._decision_string(move)
        m, x, y = map_local(move.pos)
        where = f"({x},{y})" if self.codec.maps == 1 else f"map {m} ({x},{y})"
        follower = "" if move.follower is None or tile is None else \
            f" {format_follower(self.ruleset, tile, move.rotation, move.follower, move.type)}"
        return f"{name} {where} r{move.rotation}{follower}"
