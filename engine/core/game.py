"""A game in progress: a board (:mod:`engine.core.board`) with a deck, players and scores.

The turn loop: draw a tile (discarding those that fit nowhere), let the
current player place it and deploy, score what it completed, pass the turn.
Everything a rule designer may vary comes from the :class:`~engine.rules.ruleset.Ruleset`;
nothing here names a tile, a feature kind or an edition.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from mypy_extensions import mypyc_attr

from ..geometry import map_local, map_origin
from ..rules.ruleset import Ruleset
from ..rules.seats import categories_at_start, points_at_start
from . import choices, completion, deployment
from .board import Board
from .deck import Pins, Stack, build_stacks, drawn, put_back, take
from .followers import others_mask, strengths
from .game_end import end_totals, final_scores
from .mechanism import Decision, Mechanism, MechanismState
from .mechanisms import moments_for
from .moves import PLACE, Move
from .pickled import game_fields, unpickled_game
from .scoring import Scored, ScoreEvent
from .snapshot import copy_game_into
from .strength import feature_weights


@mypyc_attr(allow_interpreted_subclasses=True)  # as Board
class Game(Board):
    """One game under a ruleset.

    ``Game(ruleset, players=2, seed=7)`` shuffles the ruleset's tiles with
    ``random.Random(seed)``; ``draw_order`` (tile type indices) forces the
    draw order instead, as replays and scenarios need.  ``start`` is the start
    tile's ``(tile type index, rotation)`` (default: the ruleset's start tile,
    rotation 0) and is placed at (0, 0).

    A turn: :attr:`tile` is the tile to place, :attr:`player` the seat to play; :meth:`decision`
    says what they decide now (place the tile, pick a held one, move a follower on, …) and its
    options; :meth:`placements` / :meth:`deploy_options` / :meth:`legal_moves` list choices;
    :meth:`play` applies a :class:`Move`, scores what it completed and draws the next tile,
    discarding tiles that fit nowhere (RULES.md §3.2 row 4, seed 003).  When :attr:`tile` is None
    the tiles are used up; :meth:`finish` runs final scoring.  Raises :class:`IllegalMove` for a
    move the rules refuse.  The ruleset's mechanisms (:mod:`engine.core.mechanisms`) act at the
    turn's moments through :attr:`moments` (a personal tile offered instead of a draw, a hand of
    tiles to pick from, …: :mod:`engine.core.mechanisms`).
    """

    def __init__(self, ruleset: Ruleset, players: int = 2, seed: int | None = None, *,
                 draw_order: Sequence[int] | None = None,
                 start: tuple[int, int] | list[tuple[int, int]] | None = None, explain: bool = True,
                 draw: bool = True, mechanisms: tuple[Mechanism, ...] | None = None) -> None:
        if not ruleset.min_players <= players <= ruleset.max_players:
            raise ValueError(f"{ruleset.ref} is for {ruleset.min_players}–{ruleset.max_players} players, not {players}")
        super().__init__(ruleset, players)
        self.seed = seed
        #: The mechanisms' handlers per moment (:mod:`engine.core.mechanisms`; ``mechanisms``: try one not
        #: yet registered), and each one's own state by name.
        self.moments = moments_for(ruleset, mechanisms)
        self.states: dict[str, MechanismState] = {name: make(self) for name, make in self.moments.states}
        #: Per seat, what of a feature's packed followers blocks that seat's deployment.
        types = len(ruleset.follower_types)
        self.deploy_masks = [others_mask(p, players, types) if ruleset.deploy_own else -1 for p in range(players)]
        self.scores = [points_at_start(ruleset, p) for p in range(players)]  # 0 unless ``seats`` says
        #: Per seat, the points each score category (``ruleset.categories``: start, kinds, bonuses) paid.
        self.kind_points = [categories_at_start(ruleset, p) for p in range(players)]
        #: False: score points only, with no :class:`ScoreEvent` (simulation; ``events`` stays empty).
        self.explain = explain
        self.events: list[ScoreEvent] = []
        #: ``(tile type index, Move)`` per turn, ``(tile type index, None)`` per discarded tile.
        self.history: list[tuple[int, Move | None]] = []
        #: Discarded tiles that went back into the stack (``unplaceable: reshuffle``), and ``(turn, tile
        #: types that went back during it)``: each type goes back once between placements.
        self.returned = 0
        self.went_back: tuple[int, frozenset[int]] = (0, frozenset())
        self.turn, self.player = 0, 0
        #: The seat behind each entry of :attr:`history` (an extra turn keeps the seat).
        self.seats: list[int] = []
        #: Whether the current turn is an extra one, whether the move being played earned one (a mechanism
        #: sets it: engine/core/extra_turns.py), and the turns that were extra ones (what records mark).
        self.extra_turn, self.earned_turn = False, False
        self.extra_turns: tuple[int, ...] = ()
        self.finished = False
        self.tile: int | None = None
        self.rng = random.Random(seed)
        #: Whether :attr:`rng` is shared with a copy: the first to draw takes its own (engine/core/snapshot.py).
        self.rng_shared = False
        #: True when the draw order was given (replays, scenarios): nothing is reshuffled.
        self.forced = draw_order is not None
        #: False: the game never draws by itself; each draw is a chance step (engine/api/turns.py).
        self.auto_draw = draw
        maps = ruleset.maps
        #: Start tiles drawn from the stack whose rotation the first player still has to choose.
        self.pending_starts: list[tuple[int, int]] = []
        if start is None and ruleset.start >= 0 and not ruleset.start_drawn:
            start = (ruleset.start, 0)
        starts = None if start is None else (list(start) if isinstance(start, list) else [start] * maps)
        #: ``(tile type index, rotation)`` of each map's start tile, once placed.
        self.starts: list[tuple[int, int]] = []
        self.stacks: list[Stack]
        #: Per map, which ends of its phases hold pinned tiles (:data:`~engine.core.deck.Pins`).
        self.pins: list[Pins]
        #: Per phase, the tiles ``deck.size`` left out of the game or buried (``deck.bury``): hidden like the
        #: stacks' order.
        self.box: list[list[int]]
        if draw_order is None:
            self.stacks, self.pins, self.box = build_stacks(ruleset, self.rng, [tile for tile, _ in starts or ()])
            if start is None and ruleset.start_drawn:
                self.pending_starts = [(m, drawn(take(self.stacks[m], self.pins[m]))) for m in range(maps)]
        else:
            self.stacks = [[list(reversed(draw_order))]] + [[] for _ in range(maps - 1)]
            self.pins = [[[False, False]]] + [[] for _ in range(maps - 1)]
            self.box = [[] for _ in range(len(ruleset.phases) or 1)]
        self.deck: list[int] = []
        for m in range(maps):
            if starts is not None:
                self.enter_map(m)
                self.place(starts[m][0], self.origin(m), starts[m][1])
                self.starts.append(starts[m])
            elif not self.pending_starts:
                self.frontiers[m][self.origin(m)] = 0
        if not self.pending_starts:
            self._next_map()
            self.open_turn(draw)

    def place_start(self, rotation: int) -> None:
        """Place the next drawn start tile (``deck.start_rule: drawn``) at its map's
        (0, 0) turned ``rotation`` quarter turns; after the last one, play begins."""
        m, tile = self.pending_starts.pop(0)
        self.enter_map(m)
        self.place(tile, self.origin(m), rotation)
        self.starts.append((tile, rotation))
        if not self.pending_starts:
            self._next_map()
            self.open_turn(self.auto_draw)

    @property
    def start_tile(self) -> int | None:
        """The drawn start tile waiting for its rotation, if any."""
        return self.pending_starts[0][1] if self.pending_starts else None

    # Methods, not staticmethod attributes: a compiled class pickles its attributes, and a
    # staticmethod does not pickle.
    def origin(self, m: int) -> int:
        """The packed position of map ``m``'s (0, 0) (:func:`~engine.geometry.map_origin`)."""
        return map_origin(m)

    def local(self, pos: int) -> tuple[int, int, int]:
        """``(map, x, y)`` of packed position ``pos`` (:func:`~engine.geometry.map_local`)."""
        return map_local(pos)

    # -- choices (engine/core/choices.py) --------------------------------------

    def placements(self, tile: int | None = None) -> list[tuple[int, int]]:
        """Legal ``(pos, rotation)`` placements of ``tile`` (default: the current one)."""
        return choices.placements(self, tile)

    def placement_count(self) -> int:
        """How many legal placements the current tile has."""
        return choices.placement_count(self)

    def placement(self, n: int) -> tuple[int, int]:
        """The ``n``-th legal placement, in :meth:`placements` order."""
        return choices.placement(self, n)

    def deploy_options(self, pos: int, rotation: int) -> list[int]:
        """Segments of the current tile a follower may go on, placed at ``pos``, ``rotation``."""
        return deployment.deploy_options(self, pos, rotation)

    def deploy_choices(self, pos: int, rotation: int) -> list[tuple[int, int]]:
        """``(spot, follower type)`` pairs the current player may deploy there
        (:func:`~engine.core.deployment.deploy_choices`)."""
        return deployment.deploy_choices(self, pos, rotation)

    def decision(self) -> Decision | None:
        """What :attr:`player` decides now (:class:`~engine.core.mechanism.Decision`: its kind's name,
        ``place``, ``pick``, ``move-on``, …, and its options); None when nothing is asked (the game
        is over, a draw is due, or a drawn start tile waits for :meth:`place_start`)."""
        if self.tile is None:
            return None
        return Decision(choices.decision_kind(self), self.player, self)

    def legal_moves(self) -> list[Move]:
        """Every legal :class:`Move` of the decision the player to move faces."""
        return choices.legal_moves(self)

    def check(self, move: Move) -> None:
        """Raise :class:`IllegalMove` unless ``move`` is legal for the current tile."""
        choices.check(self, move)

    def fits_somewhere(self, tile: int) -> bool:
        """Whether ``tile`` has a legal placement now."""
        return choices.fits_somewhere(self, tile)

    # -- playing ---------------------------------------------------------------

    def play(self, move: Move, *, checked: bool = False, draw: bool = True) -> list[Scored]:
        """Play ``move`` for :attr:`player`.  A placement: place, deploy, score completed features, run
        the mechanisms' handlers, pass the turn and draw the next tile; returns this turn's score
        events.  A move of another kind (:mod:`engine.core.moves`) goes to the mechanism that owns
        it (``moments.plays``): decline the personal tile offered, pick a held tile, move a follower on.

        ``checked=True`` skips the legality check (for bots that chose from :meth:`legal_moves` or
        :meth:`placements` and :meth:`deploy_options`).  ``draw=False`` stops before the draw (:attr:`tile`
        is None, tiles remain): the draw is then a chance event (:meth:`draw_one`, engine/core/chance.py)."""
        if not checked:
            self.check(move)
        if move.kind != PLACE:
            return self.moments.plays[move.kind](self, move, draw)
        scored = self.apply(move)
        for holds in self.moments.holds:  # a decision for other seats before the turn passes
            if holds(self):
                return scored
        self.pass_turn(draw)
        return scored

    def pass_turn(self, draw: bool) -> None:
        """The turn is over: the turn-end handlers run, the next seat plays (or this one again, once,
        for an extra turn it earned) and its turn opens (:meth:`open_turn`)."""
        for end in self.moments.turn_end:
            end(self)
        if self.earned_turn:  # the player goes again, at once (and only once)
            self.extra_turn, self.earned_turn = True, False
        else:
            self.extra_turn, self.player = False, (self.player + 1) % self.players
        self._next_map()
        self.open_turn(draw)

    def open_turn(self, draw: bool) -> None:
        """Open the current seat's turn: a turn-start handler may set its tile (a personal tile
        offered); else the tile is drawn (``draw=False``: the draw is left due)."""
        for start in self.moments.turn_start:
            if start(self, draw):
                return
        self.draw_or_wait(draw)

    def draw_one(self) -> bool:
        """After ``play(..., draw=False)``: draw the top tile of the current map's stack (which
        :func:`engine.core.chance.draw` arranges), with no further draw.  True if it is now
        :attr:`tile`; False if it fit nowhere and was discarded (:meth:`discard`): the next draw
        is then due, maybe on another map, unless the stacks are used up.  A mechanism may draw
        otherwise (``deck.hand``: into the player's hand, :func:`engine.core.hands.draw_one`)."""
        draw_one = self.moments.draw_one
        if draw_one is not None:
            return draw_one(self)
        self._draw_next()
        tile = self.tile
        if tile is None or self.fits_somewhere(tile):
            return tile is not None
        self.set_aside()
        self.tile, self.placement_cache = None, None
        if not any(self.stacks[self.map]) and self.remaining:
            self._next_map()
        for drawn_handler in self.moments.drawn:
            drawn_handler(self)
        return False

    def apply(self, move: Move) -> list[Scored]:
        """Place, deploy and score ``move`` and run the mechanisms' handlers at each moment, without
        passing the turn or drawing (what a bot does to a :meth:`copy` to look one move ahead).
        Unchecked."""
        tile = drawn(self.tile)
        self.turn += 1
        base = self.place(tile, move.pos, move.rotation)
        self.history.append((tile, move))
        self.seats.append(self.player)
        if self.extra_turn:
            self.extra_turns += (self.turn,)
        moments = self.moments
        for placed in moments.placed:
            placed(self, tile, base)
        scored: list[Scored] = []  # what a deployment set off (a barn's farmers), then what the tile completed
        if move.follower is not None:
            segment = self.deploy_at(tile, base, move.rotation, move.follower, self.player, move.type)
            for deployed in moments.deployed:
                scored += deployed(self, segment, move.type)
        scored += completion.score_completed(self, tile, move.pos, base)
        for after in moments.scored:
            scored += after(self, tile, base)
        return scored

    def discard(self) -> None:
        """Discard the current tile (it fits nowhere) and draw the next; the same player goes on.  Under
        ``unplaceable: reshuffle`` (seed 001) it may go back (:func:`~engine.core.deck.put_back`: when,
        and why games end)."""
        self.set_aside()
        self._draw_next()
        if self.tile is None and self.remaining:  # this map's stack ran out mid-turn: on to the next map
            self._next_map()
            self._draw_next()

    def finish(self) -> list[Scored]:
        """Final scoring (RULES.md §3.1 "Game end"): incomplete features, then farms, then the
        ruleset's bonuses and titles.  A follower whose feature pays 0 (Inns & Cathedrals' open
        cathedral city) gets its event too, as a feature completed in the game does.  Idempotent:
        a second call returns an empty list."""
        if self.finished:
            return []
        self.finished = True
        events = final_scores(self, self.explain)
        completion.pay(self, events)
        if self.explain:
            self.events.extend(e for e in events if isinstance(e, ScoreEvent))
        return events

    def weighed(self, root: int, weights: tuple[int, ...]) -> list[int]:
        """Each player's strength on the feature at ``root`` (:meth:`~engine.core.board.Board.weighed`)."""
        return strengths(self.fol[root], self.players, self.type_weights(root, weights))

    def type_weights(self, root: int, weights: tuple[int, ...]) -> tuple[int, ...]:
        """``weights``, a strength that reads the feature at ``root`` (the mayor's) worked out on it."""
        return feature_weights(self, root, weights) if self.ruleset.feature_strengths else weights

    def potential_scores(self) -> list[int]:
        """Each player's score if the game ended now (current score + final scoring)."""
        if self.finished:
            return list(self.scores)
        return [a + b for a, b in zip(self.scores, end_totals(self))]

    def copy(self) -> Game:
        """An independent snapshot (shallow copies suffice: member lists are never mutated)."""
        other = Game.__new__(Game)
        copy_game_into(self, other)
        return other

    def __copy__(self) -> Game:
        return self.copy()  # a copy of a game in progress is one to play on: independent

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.copy()  # copy.deepcopy (OpenSpiel's clone, a researcher's): the same snapshot

    def __reduce__(self) -> tuple[Any, ...]:
        # The compiled build cannot rebuild a game field by field: engine/core/pickled.py says how.
        return (unpickled_game, (type(self), self.ruleset, self.players, game_fields(self)))

    def force_tile(self, tile: int) -> None:
        """Make ``tile`` the tile to place now (replays choose the draw and the map); the mechanisms
        hear of it (``forced``: a personal tile offered is declined)."""
        self.tile, self.placement_cache = tile, None
        for forced in self.moments.forced:
            forced(self)

    @property
    def remaining(self) -> int:
        """Tiles left to draw on every map (the current tile not included)."""
        return sum(len(phase) for stack in self.stacks for phase in stack)

    # -- internals -------------------------------------------------------------

    def draw_or_wait(self, draw: bool) -> None:
        """Draw the turn's tile (``draw=False``: leave the draw due, :meth:`draw_one`), or let the
        mechanism that draws otherwise do so (``deck.hand``); then the tile-drawn handlers run (the
        stacks used up, the last round of personal tiles may begin: :mod:`engine.core.personal`)."""
        draw_instead = self.moments.draw
        if draw_instead is not None:
            draw_instead(self, draw)
        elif draw:
            self._draw()
        else:
            self.tile, self.placement_cache = None, None
        for drawn_handler in self.moments.drawn:
            drawn_handler(self)

    def _draw(self) -> None:
        """Draw the next tile, discarding every tile that fits nowhere (seed 003)."""
        self._draw_next()
        while self.tile is not None and not self.fits_somewhere(self.tile):
            self.discard()

    def _next_map(self) -> None:
        """Rounds of turns alternate between maps (``deck.maps``); a map whose stack is
        used up is skipped."""
        maps = len(self.stacks)
        if maps == 1:
            return
        wanted = (self.turn // self.players) % maps
        if not self.forced:
            wanted = next((m for m in (*range(wanted, maps), *range(wanted)) if any(self.stacks[m])), wanted)
        self.enter_map(wanted)

    def set_aside(self) -> None:
        """Discard the current tile: into the history, and back into its phase or out of the game."""
        self.history.append((drawn(self.tile), None))
        self.seats.append(self.player)
        if self.ruleset.unplaceable == "reshuffle" and not self.forced and put_back(self):
            self.returned += 1

    def _draw_next(self) -> None:
        stack = self.stacks[self.map]
        self.tile = take(stack, self.pins[self.map])
        self.deck = stack[0] if stack else []
        self.placement_cache = None
