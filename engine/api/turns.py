"""A game whose every draw is a chance event, stepped one action at a time.

The shared core of the OpenSpiel game and the PettingZoo environment.  A
step is a **chance** step (a start tile or a tile is drawn:
:func:`engine.core.chance.draw_outcomes`), a player's **move** (place the
drawn tile: a cell and rotation, then where a follower goes, if anywhere; or place
a personal tile offered, or decline it,
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

from ..core import chance, moving, personal
from ..core.choices import offered
from ..core.game import Game
from ..core.hands import of as hands_of
from ..core.moves import DECLINE, DRAW, GO_HOME, HOME, MOVE_ON, PLACE, Move
from ..files.notation import format_follower
from ..geometry import map_local
from ..rules.ruleset import Ruleset
from .actions import DEFAULT_CROP, ActionCodec, CropTooSmall, full_crop, windows

#: What ``returns`` may be: 1 to each winner (tied winners all win, RULES.md §3.1) and 0
#: otherwise; the final points; or zero-sum, each seat's mean over the others of +1 for more
#: points, −1 for fewer and 0 for as many (two seats: +1 and −1, or 0 and 0 for a tie).
RETURNS = ("win", "points", "zero-sum")


class ChanceGame:
    """``ChanceGame(ruleset, players=2, returns="win", crop=DEFAULT_CROP)``: a game stepped by actions.

    :attr:`chance` says whether the next step is a draw (:meth:`outcomes` lists
    ``(tile type index, probability)``); else :attr:`player` (a seat) acts with one
    of :meth:`legal_actions` (:class:`~engine.api.actions.ActionCodec` integers over a
    crop of ``crop`` cells; 0: :func:`~engine.api.actions.full_crop`, which no game
    outgrows).  Placing a tile is two steps of the same seat: the cell and rotation
    (then :attr:`placing` holds them), and the follower spot, skipped when the
    placement allows no follower.  :meth:`apply` takes either kind; :attr:`over` once the
    tiles are used up, when final scoring has run.  Raises ``ValueError`` for a number of
    players the ruleset does not allow, an unknown ``returns``, a crop under 3 cells or an
    action not legal now, and :class:`~engine.api.actions.CropTooSmall` once the board
    outgrows the crop.
    """

    def __init__(self, ruleset: Ruleset, players: int = 2, returns: str = "win", crop: int = DEFAULT_CROP) -> None:
        if returns not in RETURNS:
            raise ValueError(f"returns must be one of {', '.join(RETURNS)}, not '{returns}'")
        self.ruleset = ruleset
        self.returns_kind = returns
        if crop == 0 and not isinstance(crop, bool):
            crop = full_crop(ruleset, players)
        self.codec = ActionCodec.for_ruleset(ruleset, crop)
        # Seed 0 only orders the tiles the draws swap with: every draw is a chance outcome.
        self.game = Game(ruleset, players, seed=0, draw=False)
        #: A drawn start tile waiting to be drawn again as a chance event (its rotation comes next).
        self.start_due = bool(self.game.pending_starts)
        #: Every action applied, chance outcomes included (what unpickling replays), and for each the
        #: seat a draw went to when only that seat sees it (``deck.hand``), else -1.
        self.actions: list[int] = []
        self.seen_by: list[int] = []
        #: The cell and rotation chosen (packed position, quarter turns) while the follower spot is to choose.
        self.placing: tuple[int, int] | None = None
        self._legal: list[int] | None = None
        self._window: list[tuple[int, int]] | None = None
        self._window_key = (0, 0)
        self._options: dict[tuple[int, int], list[Move]] | None = None

    @classmethod
    def following(cls, game: Game, crop: int = DEFAULT_CROP) -> ChanceGame:
        """A state over a copy of ``game``, a game in play (of the engine's own loop, not made of
        actions), at its seat's decision: what a policy trained through these APIs reads to choose
        that seat's move (:mod:`engine.api.policy`).  Its :attr:`actions` start empty (the draws
        before were the game's own), so :meth:`history_seen` holds the actions from here on only."""
        state = cls.__new__(cls)
        state.ruleset, state.returns_kind = game.ruleset, "win"
        state.codec = ActionCodec.for_ruleset(game.ruleset, crop if crop else full_crop(game.ruleset, game.players))
        state.game, state.start_due = game.copy(), False
        state.actions, state.seen_by, state.placing = [], [], None
        state._legal, state._window, state._window_key, state._options = None, None, (0, 0), None
        return state

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

    @property
    def window(self) -> list[tuple[int, int]]:
        """Per map, the corner of the crop (:func:`~engine.api.actions.windows`) in this position."""
        game = self.game
        # The windows follow the tiles and the frontier, which change only when a tile is placed.
        key = (len(game.board), sum(len(frontier) for frontier in game.frontiers))
        if self._window is None or key != self._window_key:
            self._window, self._window_key = windows(game, self.codec.crop), key
        return self._window

    def outcomes(self) -> list[tuple[int, float]]:
        """The draw due now: ``(tile type index, probability)`` pairs; ``ValueError`` if
        no draw is due."""
        if not self.chance:
            raise ValueError("no draw is due: a seat is to act" if not self.over else "the game is over")
        if self.start_due:
            return chance.start_outcomes(self.game)
        return chance.draw_outcomes(self.game)

    def legal_moves(self) -> list[Move]:
        """The whole moves open to the seat to act (empty at a chance step or a start rotation;
        while :attr:`placing`, those of the chosen placement)."""
        if self.chance or self.over or self.game.pending_starts:
            return []
        if self.placing is not None:
            return list(self.options()[self.placing])
        return self.game.legal_moves()

    def options(self) -> dict[tuple[int, int], list[Move]]:
        """The moves that place the tile, by ``(packed position, rotation)``."""
        if self._options is None:
            self._options = {}
            for move in self.game.legal_moves():
                if move.kind == PLACE:
                    self._options.setdefault((move.pos, move.rotation), []).append(move)
        return self._options

    def legal_actions(self) -> list[int]:
        """The actions of the seat to act, ascending (empty at a chance step)."""
        if self.chance or self.over:
            return []
        if self._legal is None:  # OpenSpiel asks several times a step: listed once per position
            self._legal = sorted(self._actions())
        return list(self._legal)

    def _actions(self) -> list[int]:
        codec, game = self.codec, self.game
        if game.pending_starts:
            return [codec.start_action(r) for r in range(4)]
        if self.placing is not None:
            return [codec.follower_action(move.follower, move.type) for move in self.options()[self.placing]]
        decision = game.decision()
        assert decision is not None, "a step that is neither chance nor over asks something"
        if decision.name != "place":
            return [self._action(move) for move in decision.options()]
        window = self.window
        found = [codec.place_action(pos, rotation, window) for pos, rotation in self.options()]
        return found + [self._action(move) for move in offered(game)]

    def _action(self, move: Move) -> int:
        """The one action of ``move``, a move of a kind other than placing (a placement takes two)."""
        codec, game = self.codec, self.game
        if move.kind in (MOVE_ON, GO_HOME):
            return codec.move_on_action(move, moving.of(game).movers[0][2])
        return codec.draw_action if move.kind == DECLINE else codec.pick_action(move.tile)

    def actions_for(self, move: Move) -> list[int]:
        """The actions that play the whole engine ``move`` from here (what a bot of
        :mod:`engine.bots` chose): one, or a placement and then its follower spot.  ``ValueError``
        for a move not legal now."""
        codec = self.codec
        if move not in self.legal_moves():
            raise ValueError(f"the move {move} is not legal now")
        if move.kind != PLACE:
            return [self._action(move)]
        spot = codec.follower_action(move.follower, move.type)
        if self.placing is not None:
            return [spot]
        placement = codec.place_action(move.pos, move.rotation, self.window)
        return [placement] if len(self.options()[(move.pos, move.rotation)]) == 1 else [placement, spot]

    # -- stepping ------------------------------------------------------------------

    def apply(self, action: int) -> None:
        """Apply a chance outcome (a tile type index) or the acting seat's action."""
        game = self.game
        if self.over:
            raise ValueError("the game is over")
        if self.chance:
            drawer = game.player if hands_of(game) is not None and not self.start_due else -1
            if self.start_due:
                chance.draw_start(game, action)
                self.start_due = False
            else:
                chance.draw(game, action)
        else:
            drawer = -1
            if action not in self.legal_actions():
                raise ValueError(f"action {action} is not legal now ({self.action_to_string(action)})")
            self._act(action)
        self.actions.append(action)
        self.seen_by.append(drawer)
        self._legal = None
        if self.placing is None:
            self._options = None
        if not game.finished and not self.chance and game.tile is None and not game.pending_starts:
            game.finish()

    def _act(self, action: int) -> None:
        """Play the seat's legal ``action``."""
        codec, game = self.codec, self.game
        if codec.block(action) == "start":
            game.place_start(action - codec.starts_from)
            self.start_due = bool(game.pending_starts)
            return
        move = self.move_for(action)
        if move is None:  # a placement with follower spots: the spot is the next decision
            self.placing = codec.placement(action, self.window)
            return
        self.placing = None
        game.play(move, draw=False)

    def move_for(self, action: int) -> Move | None:
        """The whole engine move the acting seat's legal ``action`` (not a start rotation) makes
        from here, or None for a placement whose follower spot is still to choose: what
        :meth:`apply` plays, and what a player choosing by actions (:mod:`engine.api.policy`)
        returns to the engine's loop."""
        codec, game = self.codec, self.game
        block = codec.block(action)
        if block == "follower":
            assert self.placing is not None
            spot, kind = codec.follower(action)
            return next(m for m in self.options()[self.placing] if m.follower == spot and m.type == kind)
        if block == "place":
            moves = self.options()[codec.placement(action, self.window)]
            return moves[0] if len(moves) == 1 else None  # one: nowhere to put a follower
        if block == "move on":
            return codec.move_on(action, moving.of(game).movers[0][2])
        if block == "pick":
            return codec.pick(action)
        return DRAW

    def _decision_string(self, move: Move) -> str:
        """``"wagon to (1,0) road@E"`` or ``"wagon home"`` (the follower moving on now)."""
        game = self.game
        movers = moving.of(game).movers
        kind = movers[0][1] if movers else move.type
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

    def history_seen(self, seat: int) -> str:
        """The actions so far as ``seat`` knows them, one per step (``"12 845 ? 3"``): a draw
        into another seat's hand (``deck.hand``) reads ``?``.  Perfect recall: two states
        ``seat`` cannot tell apart give the same string."""
        return " ".join("?" if 0 <= drawer != seat else str(action)
                        for action, drawer in zip(self.actions, self.seen_by))

    def returns(self) -> list[float]:
        """Per seat: 1 for a winner and 0 otherwise (``returns="win"``), the points, or the
        zero-sum return in [−1, 1] (:data:`RETURNS`); all zeros before the end."""
        game = self.game
        if not self.over:
            return [0.0] * game.players
        scores = game.scores
        if self.returns_kind == "points":
            return [float(points) for points in scores]
        if self.returns_kind == "zero-sum":
            others = max(len(scores) - 1, 1)
            return [sum((mine > theirs) - (mine < theirs) for theirs in scores) / others for mine in scores]
        best = max(scores)
        return [1.0 if points == best else 0.0 for points in scores]

    def copy(self) -> ChanceGame:
        """An independent copy (the game copied, the ruleset shared)."""
        other = ChanceGame.__new__(ChanceGame)
        other.ruleset, other.returns_kind, other.codec = self.ruleset, self.returns_kind, self.codec
        other.game = self.game.copy()
        other.start_due, other.placing = self.start_due, self.placing
        other.actions, other.seen_by = self.actions.copy(), self.seen_by.copy()
        other._legal, other._window, other._options = self._legal, self._window, self._options
        other._window_key = self._window_key
        return other

    def __deepcopy__(self, memo: dict) -> ChanceGame:
        # OpenSpiel clones a Python state by deep-copying its attributes: copy, sharing the ruleset.
        return self.copy()

    def __getstate__(self) -> dict:
        # Pickled (OpenSpiel serialises states so) as what it is made of: the ruleset (its
        # document: no file is read on loading), the seats, the returns and the actions, replayed
        # on unpickling.
        return {"ruleset": self.ruleset, "players": self.game.players, "returns": self.returns_kind,
                "crop": self.codec.crop, "actions": list(self.actions)}

    def __setstate__(self, data: dict) -> None:
        fresh = ChanceGame(data["ruleset"], data["players"], data["returns"], data["crop"])
        for action in data["actions"]:
            fresh.apply(action)
        self.__dict__.update(fresh.__dict__)

    def action_to_string(self, action: int, chance_step: bool | None = None, seat: int | None = None) -> str:
        """What ``action`` does, in the project's notation: ``"draw V"``, ``"turn the start tile
        1"``, ``"V (1,0) r2"`` (tile type, cell, quarter turns: the first decision of a placement),
        ``"road@S"`` or ``"no follower"`` (the second), ``"keep AB and draw"`` (``and pass`` in the
        last round) for declining a personal tile, ``"wagon to (2,1) road@S"`` or ``"wagon home"``
        for a follower moving on, ``"pick V"`` for choosing a held tile (``deck.hand``).

        ``seat`` is who reads a chance step: None for the referee, who sees every draw.  A tile
        drawn into a hand is seen by its drawer only, so any other seat reads ``"seat 1 draws a
        tile"`` (a start tile drawn from the stack is face up: ``"draw V"`` for all)."""
        chance_step = self.chance if chance_step is None else chance_step
        tiles = self.ruleset.tiles
        if chance_step:
            if not 0 <= action < len(tiles):
                return f"no tile type {action}"
            if seat is not None and hands_of(self.game) is not None and not self.start_due and seat != self.game.player:
                return f"seat {self.game.player} draws a tile"
            return f"draw {tiles[action].id}"
        codec, game = self.codec, self.game
        try:
            block = codec.block(action)
        except ValueError:
            return f"no action {action}"
        tile = game.tile if game.tile is not None else game.start_tile
        name = tiles[tile].id if tile is not None else "?"
        if block == "start":
            return f"turn the start tile {action - codec.starts_from}"
        if block == "pick":
            return f"pick {tiles[action - codec.pick_from].id}"
        if block == "decline":
            return f"keep {name} and pass" if personal.of(game).last_round is not None else f"keep {name} and draw"
        if block == "move on":
            if not moving.of(game).movers:
                return f"move-on action {action} (no follower moves on now)"
            return self._decision_string(codec.move_on(action, moving.of(game).movers[0][2]))
        if block == "follower":
            spot, kind = codec.follower(action)
            if spot is None:
                return "no follower"
            if self.placing is None or tile is None:
                return f"follower spot {spot} type {kind}"
            return format_follower(self.ruleset, tile, self.placing[1], spot, kind)
        try:
            pos, rotation = codec.placement(action, self.window)
        except CropTooSmall:
            return f"placement action {action}"
        m, x, y = map_local(pos)
        where = f"({x},{y})" if codec.maps == 1 else f"map {m} ({x},{y})"
        return f"{name} {where} r{rotation}"
