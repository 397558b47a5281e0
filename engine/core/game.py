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
from dataclasses import dataclass
from typing import Sequence

from ..geometry import RING8, SIDE_STEP, STRIDE, facing_port, unpack
from .deck import build_stacks, reshuffle
from ..rules.ruleset import Ruleset
from .scoring import ScoreEvent, end_scores, end_totals, score_feature

_FACING = tuple(facing_port(p) for p in range(12))
#: Maps of a multi-map game lie this many columns apart on one plane (far beyond any tile count).
MAP_SPAN = 1 << 16
_PLAYER_BITS = 8
_PLAYER_MASK = (1 << _PLAYER_BITS) - 1


class IllegalMove(Exception):
    """A move the rules refuse; ``reason`` is ``placement`` or ``follower``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Move:
    """One turn's choice: place the current tile at ``pos`` (packed) turned
    ``rotation`` quarter turns clockwise, and deploy a follower on segment
    ``follower`` of the tile type (an index into its segments) or not (None)."""

    pos: int
    rotation: int
    follower: int | None = None

    @property
    def at(self) -> tuple[int, int]:
        """The position as ``(x, y)``."""
        return unpack(self.pos)


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
        self.scores = [0] * players
        self.events: list[ScoreEvent] = []
        #: ``(tile type index, Move)`` per turn, ``(tile type index, None)`` per discarded tile.
        self.history: list[tuple[int, Move | None]] = []
        #: Discarded tiles that went back into the stack (``unplaceable: reshuffle``).
        self.returned = 0
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
                self.pending_starts = [(m, self._take(self.stacks[m])) for m in range(maps)]
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

    @staticmethod
    def origin(map_index: int) -> int:
        """Packed position of (0, 0) on map ``map_index`` (maps lie far apart on one plane)."""
        return map_index * MAP_SPAN * STRIDE

    def local(self, pos: int) -> tuple[int, int, int]:
        """``(map, x, y)`` of a packed position, x and y relative to that map's start tile."""
        x, y = unpack(pos)
        m = (x + MAP_SPAN // 2) // MAP_SPAN
        return m, x - m * MAP_SPAN, y

    # -- choices ---------------------------------------------------------------

    def placements(self, tile: int | None = None) -> list[tuple[int, int]]:
        """Legal ``(pos, rotation)`` placements of ``tile`` (default: the current tile):
        the edges match, and so do the ruleset's placement constraints."""
        tile = self.tile if tile is None else tile
        fits = self.ruleset.fits
        found = [(pos, r) for pos, key in self.frontier.items() for r in fits(tile, key)]
        constraints = self.ruleset.constraints[tile]
        if constraints:
            found = [(pos, r) for pos, r in found if all(c.allows(self, tile, pos, r) for c in constraints)]
        return found

    def placement_count(self) -> int:
        """How many legal placements the current tile has (no list is built for an
        unconstrained tile: random play counts, then indexes)."""
        tile = self.tile
        if self.ruleset.constraints[tile]:
            return len(self.placements())
        table, fits = self.ruleset.fit_table(tile), self.ruleset.fits
        total = 0
        for key in self.frontier.values():
            rotations = table.get(key)  # the memo first: this loop is most of random play
            total += len(rotations if rotations is not None else fits(tile, key))
        return total

    def placement(self, n: int) -> tuple[int, int]:
        """The ``n``-th legal placement, in :meth:`placements` order."""
        tile = self.tile
        if self.ruleset.constraints[tile]:
            return self.placements()[n]
        table, fits = self.ruleset.fit_table(tile), self.ruleset.fits
        for pos, key in self.frontier.items():
            rotations = table.get(key)
            if rotations is None:
                rotations = fits(tile, key)
            if n < len(rotations):
                return pos, rotations[n]
            n -= len(rotations)
        raise IndexError("placement index out of range")

    def deploy_options(self, pos: int, rotation: int) -> list[int]:
        """Segments of the current tile a follower may go on if it is placed at ``pos``, ``rotation``.

        A segment qualifies when its kind is deployable and the feature it
        would belong to after the placement holds no follower (with the
        ruleset's ``own-or-empty`` policy: none of another player's), and the
        player has a follower in supply (RULES.md §3.1, "Deploy restriction").
        """
        if not self.supply[self.player]:
            return []
        tile = self.tiles[self.tile]
        orientation = tile.orientations[rotation]
        kinds = self.ruleset.kinds
        n = len(tile.segments)
        group = list(range(n))
        busy = [False] * n
        seen: dict[int, int] = {}
        fol, board, find = self.fol, self.board, self._find
        mask = ~(_PLAYER_MASK << (_PLAYER_BITS * self.player)) if self.ruleset.deploy_own else -1
        for side in range(4):
            neighbour = board.get(pos + SIDE_STEP[side])
            if neighbour is None:
                continue
            n_orientation, n_base, _ = neighbour
            n_ports = n_orientation.port_segment
            for j, port, _ in orientation.joins[side]:
                root = find(n_base + n_ports[_FACING[port]])
                g = _local_find(group, j)
                if fol[root] & mask:
                    busy[g] = True
                other = seen.get(root)
                if other is None:
                    seen[root] = g
                else:
                    other = _local_find(group, other)
                    if other != g:
                        group[other] = g
                        busy[g] = busy[g] or busy[other]
        return [j for j, seg in enumerate(tile.segments)
                if kinds[seg.kind].deployable and not busy[_local_find(group, j)]]

    def legal_moves(self) -> list[Move]:
        """Every legal :class:`Move` for the current tile: each placement with no
        follower and with each follower option."""
        moves = []
        for pos, r in self.placements():
            moves.append(Move(pos, r))
            moves.extend(Move(pos, r, j) for j in self.deploy_options(pos, r))
        return moves

    # -- playing ---------------------------------------------------------------

    def check(self, move: Move) -> None:
        """Raise :class:`IllegalMove` unless ``move`` is legal for the current tile."""
        if self.tile is None:
            raise IllegalMove("placement", "the game has no tile left to place")
        key = self.frontier.get(move.pos)
        if move.pos in self.board:
            raise IllegalMove("placement", "that cell already holds a tile")
        if key is None:
            raise IllegalMove("placement", "that cell does not touch the board")
        if move.rotation not in self.ruleset.fits(self.tile, key):
            raise IllegalMove("placement", "the tile's sides do not match its neighbours there")
        for constraint in self.ruleset.constraints[self.tile]:
            if not constraint.allows(self, self.tile, move.pos, move.rotation):
                kind = self.ruleset.kinds[constraint.kind].name
                why = {"extend": f"the tile must continue the {kind}",
                       "no-u-turn": f"the {kind} may not turn back on itself"}[constraint.rule]
                raise IllegalMove("placement", why)
        if move.follower is not None:
            tile = self.tiles[self.tile]
            if not 0 <= move.follower < len(tile.segments):
                raise IllegalMove("follower", "the tile has no such segment")
            if move.follower not in self.deploy_options(move.pos, move.rotation):
                kind = self.ruleset.kinds[tile.segments[move.follower].kind]
                if not kind.deployable:
                    why = f"no follower may go on a {kind.name}"
                elif not self.supply[self.player]:
                    why = "the player has no follower left in supply"
                else:
                    why = f"the {kind.name} already holds a follower"
                raise IllegalMove("follower", why)

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

        Under ``unplaceable: reshuffle`` (seed 001) the tile goes back into the
        stack, which is shuffled, unless no tile left fits anywhere: then the
        rest of the stack is discarded too, so the game still ends.
        """
        tile = self.tile
        self.history.append((tile, None))
        if self.ruleset.unplaceable == "reshuffle" and not self._forced:
            if any(self._fits_somewhere(t) for t in set(self.deck)):
                self.deck.append(tile)
                reshuffle(self.deck, self._phase_last(), self._rng)
                self.returned += 1
            else:
                self.history.extend((t, None) for t in reversed(self.deck))
                self.deck.clear()
        self._draw_next()

    def _phase_last(self) -> int | None:
        """The tile pinned last in the phase being drawn (kept last when it is reshuffled)."""
        phases, stack = self.ruleset.phases, self.stacks[self.map]
        return phases[len(phases) - len(stack)].last if phases and stack else None

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

    @staticmethod
    def _take(stack: list[list[int]]) -> int | None:
        """Draw from a stack: its current phase, moving on when a phase is used up."""
        while stack and not stack[0]:
            stack.pop(0)
        return stack[0].pop() if stack else None

    def _draw_next(self) -> None:
        stack = self.stacks[self.map]
        self.tile = self._take(stack)
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
                b = find(n_base + n_ports[_FACING[port]])
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
        self.fol[root] += 1 << (_PLAYER_BITS * player)
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
        f = self.fol[root]
        return [(f >> (_PLAYER_BITS * p)) & _PLAYER_MASK for p in range(self.players)]

    def occupied_roots(self) -> list[int]:
        """Roots of features holding followers, in order of first deployment."""
        roots: list[int] = []
        for segment, _ in self.on_board:
            root = self._find(segment)
            if root not in roots:
                roots.append(root)
        return roots


def _local_find(group: list[int], j: int) -> int:
    while group[j] != j:
        j = group[j]
    return j
