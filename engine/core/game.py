"""A game in progress: board, frontier, feature graph, followers, deck and scores.

This is the engine's hot path, so it works on small ints (see DESIGN.md,
"Speed is designed in"):

* a position is one int (:mod:`engine.geometry`); ``board`` maps it to the
  placed tile's :class:`~engine.rules.tiles.Orientation`, the global id of its
  first segment, and its tile type index;
* the **frontier** maps each empty cell next to the board to an edge
  constraint key (four side codes packed in base ``edge_base``), and the
  ruleset memoises which rotations of which tile type satisfy a key;
* every placed segment gets a global id; features are a **union-find** over
  those ids.  Only roots carry totals: ``open`` (sides still open, for kinds
  that complete by closing), ``fol`` (followers per player, 8 bits a player,
  so a merge is one addition) and ``members`` (segment ids; lists are never
  mutated in place, so a shallow copy of the game is a safe snapshot).

Everything a rule designer may vary comes from the :class:`~engine.rules.ruleset.Ruleset`;
nothing here names a tile, a feature kind or an edition.
"""

from __future__ import annotations

import random
from typing import Sequence

from ..geometry import FACING, RING8, SIDE_STEP, map_local, map_origin
from ..rules.ruleset import Ruleset
from . import choices
from .deck import build_stacks, put_back, take
from .followers import one_follower, others_mask, unpack_followers
from .moves import Move
from .scoring import ScoreEvent, end_scores, end_totals, score_feature


class Game:
    """One game under a ruleset.

    ``Game(ruleset, players=2, seed=7)`` shuffles the ruleset's tiles with
    ``random.Random(seed)``; ``draw_order`` (tile type indices) forces the
    draw order instead, as replays and scenarios need.  ``start`` is the start
    tile's ``(tile type index, rotation)`` (default: the ruleset's start tile,
    rotation 0) and is placed at (0, 0).

    A turn: :attr:`tile` is the tile to place, :attr:`player` the seat to
    play; :meth:`placements` / :meth:`deploy_options` / :meth:`legal_moves`
    list choices; :meth:`play` applies a :class:`Move`, scores what it
    completed and draws the next tile, discarding tiles that fit nowhere
    (RULES.md §3.2 row 4, seed 003).  When :attr:`tile` is None the tiles are
    used up; :meth:`finish` runs final scoring.  Raises
    :class:`IllegalMove` for a move the rules refuse.
    """

    def __init__(self, ruleset: Ruleset, players: int = 2, seed: int | None = None, *,
                 draw_order: Sequence[int] | None = None,
                 start: tuple[int, int] | list[tuple[int, int]] | None = None) -> None:
        if not ruleset.min_players <= players <= ruleset.max_players:
            raise ValueError(f"{ruleset.ref} is for {ruleset.min_players}–{ruleset.max_players} players, not {players}")
        self.ruleset = ruleset
        self.players = players
        self.seed = seed
        self.tiles = ruleset.tiles
        self.board: dict[int, tuple] = {}
        self.parent: list[int] = []
        self.open: list[int] = []
        self.fol: list[int] = []
        self.members: list[list[int] | None] = []
        self.seg_pos: list[int] = []
        self.seg_tile: list[int] = []
        self.seg_kind: list[int] = []
        self.surrounded_at: dict[int, list[int]] = {}
        self.on_board: list[tuple[int, int]] = []
        self.supply = [ruleset.followers] * players
        #: Per seat, what of a feature's packed followers blocks that seat's deployment.
        self.deploy_masks = [others_mask(p) if ruleset.deploy_own else -1 for p in range(players)]
        self.scores = [0] * players
        self.events: list[ScoreEvent] = []
        #: ``(tile type index, Move)`` per turn, ``(tile type index, None)`` per discarded tile.
        self.history: list[tuple[int, Move | None]] = []
        #: Discarded tiles that went back into the stack (``unplaceable: reshuffle``).
        self.returned = 0
        #: ``(turn, tile types that went back during it)``: each type goes back once between placements.
        self.went_back: tuple[int, frozenset[int]] = (0, frozenset())
        self.turn = 0
        self.player = 0
        self.finished = False
        self.tile: int | None = None
        base = ruleset.edge_base
        self._pow = (1, base, base * base, base ** 3)
        self._rng = random.Random(seed)
        self._forced = draw_order is not None
        maps = ruleset.maps
        self.frontiers: list[dict[int, int]] = [{} for _ in range(maps)]
        self.map = 0
        self.frontier = self.frontiers[0]
        #: Start tiles drawn from the stack whose rotation the first player still has to choose.
        self.pending_starts: list[tuple[int, int]] = []
        if start is None and ruleset.start >= 0 and not ruleset.start_drawn:
            start = (ruleset.start, 0)
        starts = None if start is None else (list(start) if isinstance(start, list) else [start] * maps)
        #: ``(tile type index, rotation)`` of each map's start tile, once placed.
        self.starts: list[tuple[int, int]] = []
        if draw_order is None:
            self.stacks = build_stacks(ruleset, self._rng, [tile for tile, _ in starts or ()])
            if start is None and ruleset.start_drawn:
                self.pending_starts = [(m, take(self.stacks[m])) for m in range(maps)]
        else:
            self.stacks = [[list(reversed(draw_order))]] + [[] for _ in range(maps - 1)]
        self.deck: list[int] = []
        for m in range(maps):
            if starts is not None:
                self._enter_map(m)
                self._place(starts[m][0], self.origin(m), starts[m][1])
                self.starts.append(starts[m])
            elif not self.pending_starts:
                self.frontiers[m][self.origin(m)] = 0
        if not self.pending_starts:
            self._next_map()
            self._draw()

    def place_start(self, rotation: int) -> None:
        """Place the next drawn start tile (``deck.start_rule: drawn``) at its map's
        (0, 0) turned ``rotation`` quarter turns; after the last one, play begins."""
        m, tile = self.pending_starts.pop(0)
        self._enter_map(m)
        self._place(tile, self.origin(m), rotation)
        self.starts.append((tile, rotation))
        if not self.pending_starts:
            self._next_map()
            self._draw()

    @property
    def start_tile(self) -> int | None:
        """The drawn start tile waiting for its rotation, if any."""
        return self.pending_starts[0][1] if self.pending_starts else None

    origin = staticmethod(map_origin)
    local = staticmethod(map_local)

    # -- choices (engine/core/choices.py), bound as methods ---------------------

    placements = choices.placements
    placement_count = choices.placement_count
    placement = choices.placement
    deploy_options = choices.deploy_options
    legal_moves = choices.legal_moves
    check = choices.check

    # -- playing ---------------------------------------------------------------

    def play(self, move: Move, *, checked: bool = False) -> list[ScoreEvent]:
        """Play ``move`` for :attr:`player`: place, deploy, score completed features,
        pass the turn and draw the next tile.  Returns this turn's score events.

        ``checked=True`` skips the legality check (for bots that chose from
        :meth:`placements` and :meth:`deploy_options`).
        """
        if not checked:
            self.check(move)
        scored = self.apply(move)
        self.player = (self.player + 1) % self.players
        self._next_map()
        self._draw()
        return scored

    def apply(self, move: Move) -> list[ScoreEvent]:
        """Place, deploy and score ``move`` without passing the turn or drawing
        (what a bot does to a :meth:`copy` to look one move ahead).  Unchecked."""
        tile = self.tile
        self.turn += 1
        base = self._place(tile, move.pos, move.rotation)
        self.history.append((tile, move))
        if move.follower is not None:
            self._deploy(base + move.follower, self.player)
        return self._score_completed(tile, move.pos, base)

    def discard(self) -> None:
        """Discard the current tile (it fits nowhere) and draw the next; the same player goes on.

        Under ``unplaceable: reshuffle`` (seed 001) the tile goes back into what
        is left of its own phase, which is shuffled (a tile pinned last stays
        last), if a tile of another type that can be drawn before it (so not
        the pinned last one) fits now and no tile of its type went back since
        the last placement (the board is the same, so it would fit nowhere
        again); otherwise it leaves the game.  Hence, with N tiles in the
        stacks, K tile types and P placements, a game draws at most
        N + P·(K − 1) ≤ N·K tiles: a draw places, discards or returns a tile;
        at most N are placed or discarded; a return needs a fitting tile
        waiting in the phase, which is placed before the phase runs out, so
        returns fall between placements, at most K − 1 types each time
        (docs/rulesets.md, "Unplaceable tiles").
        """
        self.history.append((self.tile, None))
        if self.ruleset.unplaceable == "reshuffle" and not self._forced and put_back(self):
            self.returned += 1
        self._draw_next()
        if self.tile is None and self.remaining:  # this map's stack ran out mid-turn: on to the next map
            self._next_map()
            self._draw_next()

    def finish(self) -> list[ScoreEvent]:
        """Final scoring (RULES.md §3.1 "Game end"): incomplete features, then farms.

        Idempotent: a second call returns an empty list.
        """
        if self.finished:
            return []
        self.finished = True
        events = [e for e in end_scores(self) if e.points]
        for event in events:
            for p in event.players:
                self.scores[p] += event.points
        self.events.extend(events)
        return events

    def potential_scores(self) -> list[int]:
        """Each player's score if the game ended now (current score + final scoring)."""
        if self.finished:
            return list(self.scores)
        return [a + b for a, b in zip(self.scores, end_totals(self))]

    def copy(self) -> "Game":
        """An independent snapshot (shallow copies suffice: member lists are never mutated)."""
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        for name in ("board", "parent", "open", "fol", "members", "seg_pos", "seg_tile", "seg_kind",
                     "on_board", "supply", "scores", "events", "history", "pending_starts", "starts"):
            setattr(other, name, getattr(self, name).copy())
        other.stacks = [[phase.copy() for phase in stack] for stack in self.stacks]
        other.frontiers = [frontier.copy() for frontier in self.frontiers]
        other._rng = random.Random()
        other._rng.setstate(self._rng.getstate())
        other._enter_map(self.map)
        stack = other.stacks[other.map]
        other.deck = stack[0] if stack else []
        other.surrounded_at = {k: list(v) for k, v in self.surrounded_at.items()}
        return other

    # -- notation ------------------------------------------------------------

    def force_map(self, map_index: int) -> None:
        """Play the current turn on map ``map_index`` (replays and scenarios of multi-map games)."""
        self._enter_map(map_index)

    def force_tile(self, tile: int) -> None:
        """Make ``tile`` the tile to place now (replays and scenarios choose the draw)."""
        self.tile = tile

    @property
    def remaining(self) -> int:
        """Tiles left to draw on every map (the current tile not included)."""
        return sum(len(phase) for stack in self.stacks for phase in stack)

    # -- internals -------------------------------------------------------------

    def _draw(self) -> None:
        """Draw the next tile, discarding every tile that fits nowhere (seed 003)."""
        self._draw_next()
        while self.tile is not None and not self._fits_somewhere(self.tile):
            self.discard()

    def _next_map(self) -> None:
        """Rounds of turns alternate between maps (``deck.maps``); a map whose stack is
        used up is skipped."""
        maps = len(self.stacks)
        if maps == 1:
            return
        wanted = (self.turn // self.players) % maps
        if not self._forced:
            wanted = next((m for m in (*range(wanted, maps), *range(wanted)) if any(self.stacks[m])), wanted)
        self._enter_map(wanted)

    def _enter_map(self, m: int) -> None:
        self.map = m
        self.frontier = self.frontiers[m]

    def _draw_next(self) -> None:
        stack = self.stacks[self.map]
        self.tile = take(stack)
        self.deck = stack[0] if stack else []

    def _fits_somewhere(self, tile: int) -> bool:
        if self.ruleset.constraints[tile]:
            return bool(self.placements(tile))
        fits = self.ruleset.fits
        return any(fits(tile, key) for key in self.frontier.values())

    def _find(self, s: int) -> int:
        parent = self.parent
        while parent[s] != s:
            parent[s] = parent[parent[s]]
            s = parent[s]
        return s

    def _place(self, tile_index: int, pos: int, rotation: int) -> int:
        tile = self.tiles[tile_index]
        orientation = tile.orientations[rotation]
        parent, open_, fol, members = self.parent, self.open, self.fol, self.members
        base = len(parent)
        for j, seg in enumerate(tile.segments):
            parent.append(base + j)
            open_.append(seg.open_sides)
            fol.append(0)
            members.append([base + j])
        self.seg_pos.extend([pos] * len(tile.segments))
        self.seg_tile.extend([base] * len(tile.segments))
        self.seg_kind.extend(tile.kinds)
        if tile.surrounded:
            self.surrounded_at[pos] = [base + j for j in tile.surrounded]
        board, frontier = self.board, self.frontier
        board[pos] = (orientation, base, tile_index)
        frontier.pop(pos, None)
        mirror, pow_ = self.ruleset.edge_mirror, self._pow
        side_codes = orientation.side_codes
        find = self._find
        for side in range(4):
            q = pos + SIDE_STEP[side]
            neighbour = board.get(q)
            if neighbour is None:
                frontier[q] = frontier.get(q, 0) + mirror[side_codes[side]] * pow_[(side + 2) % 4]
                continue
            n_ports = neighbour[0].port_segment
            n_base = neighbour[1]
            for j, port, counts in orientation.joins[side]:
                a = find(base + j)
                b = find(n_base + n_ports[FACING[port]])
                if a == b:
                    open_[a] -= 2 * counts
                    continue
                if len(members[a]) < len(members[b]):
                    a, b = b, a
                parent[b] = a
                open_[a] += open_[b] - 2 * counts
                fol[a] += fol[b]
                members[a] = members[a] + members[b]
                members[b] = None
        return base

    def _deploy(self, segment: int, player: int) -> None:
        root = self._find(segment)
        self.fol[root] += one_follower(player)
        self.on_board.append((segment, player))
        self.supply[player] -= 1

    def _score_completed(self, tile_index: int, pos: int, base: int) -> list[ScoreEvent]:
        """Score and clear every occupied feature the placement at ``pos`` completed."""
        tile = self.tiles[tile_index]
        events: list[ScoreEvent] = []
        fol, open_, find = self.fol, self.open, self._find
        done = []
        for j in tile.closing:
            root = find(base + j)
            if open_[root] == 0 and fol[root] and root not in done:
                done.append(root)
                events.append(self._score(root, complete=True))
        surrounded_at = self.surrounded_at
        if surrounded_at:
            board = self.board
            for q in (pos, *(pos + d for d in RING8)):
                ids = surrounded_at.get(q)
                if ids is None:
                    continue
                if all(q + d in board for d in RING8):
                    for s in ids:
                        if fol[s]:
                            events.append(self._score(s, complete=True))
        return events

    def _score(self, root: int, complete: bool) -> ScoreEvent:
        event = score_feature(self, root, complete=complete, phase="in_game")
        for p in event.players:
            self.scores[p] += event.points
        self.events.append(event)
        self._return_followers(root)
        return event

    def _return_followers(self, root: int) -> None:
        find, kept = self._find, []
        for segment, player in self.on_board:
            if find(segment) == root:
                self.supply[player] += 1
            else:
                kept.append((segment, player))
        self.on_board = kept
        self.fol[root] = 0

    # -- views used by scoring and notation ------------------------------------

    def followers_by_player(self, root: int) -> list[int]:
        """Followers each player has on the feature whose root is ``root``."""
        return unpack_followers(self.fol[root], self.players)

    def occupied_roots(self) -> list[int]:
        """Roots of features holding followers, in order of first deployment."""
        roots: list[int] = []
        for segment, _ in self.on_board:
            root = self._find(segment)
            if root not in roots:
                roots.append(root)
        return roots
