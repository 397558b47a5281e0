"""The board: placed tiles, the frontier, and the feature graph over placed segments.

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
  mutated in place, so a shallow copy is a safe snapshot).

Nothing here names a tile, a feature kind or an edition: the
:class:`~engine.rules.ruleset.Ruleset` says what joins what.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

from ..geometry import FACING, SIDE_STEP
from ..rules.ruleset import Ruleset
from ..rules.seats import pieces_at_start
from .followers import one_follower, strengths, types_mask, unpack_followers

if TYPE_CHECKING:
    from ..rules.tiles import Orientation
    from .constrained import Spots
    from .totals import Totals

#: ``members`` of a segment that is no longer a root (shared: member lists are never mutated).
MERGED: list[int] = []


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled, it can still be subclassed (tests do)
class Board:
    """Placed tiles and their features, on ``ruleset.maps`` maps (one frontier each).

    A :class:`~engine.core.game.Game` is a board with a deck, players and scores;
    the board itself has no rules of turn.  ``seats`` is the number of players
    (followers are packed per seat).
    """

    def __init__(self, ruleset: Ruleset, seats: int) -> None:
        self.ruleset = ruleset
        self.tiles = ruleset.tiles
        self.players = seats
        #: position → (orientation, global id of the tile's first segment, tile type index)
        self.board: dict[int, tuple[Orientation, int, int]] = {}
        self.parent: list[int] = []
        self.open: list[int] = []
        self.fol: list[int] = []
        self.members: list[list[int]] = []
        self.seg_pos: list[int] = []
        self.seg_tile: list[int] = []
        self.seg_kind: list[int] = []
        self.surrounded_at: dict[int, list[int]] = {}
        #: ``(segment, seat, follower type, corner)`` of every follower on the board, in order of
        #: deployment; ``corner`` is the board corner (0-3, ``NE SE SW NW``) of a piece standing on
        #: one of its tile's corners (``spot: corner``), -1 for one on the segment.
        self.on_board: list[tuple[int, int, int, int]] = []
        #: Per seat, followers left of each type (``ruleset.follower_types`` order) and in all.
        self.reserve: list[list[int]] = [pieces_at_start(ruleset, p) for p in range(seats)]  # ``seats`` may vary it
        self.supply: list[int] = [sum(counts) for counts in self.reserve]
        #: Every seat's counts of the ``keeps_out`` types (the barn): ``packed & kept_out`` is truthy
        #: when nothing more may be deployed on a feature.
        self.kept_out = types_mask([t.index for t in ruleset.follower_types if t.keeps_out], seats)
        #: Per feature kind, the follower types that go on a segment of it (``spot: segment``), in type order.
        self.segment_types: tuple[tuple[int, ...], ...] = tuple(
            tuple(t.index for t in ruleset.follower_types if t.spot == "segment" and kind.index in t.kinds)
            for kind in ruleset.kinds)
        #: Per feature kind, beside each type of :attr:`segment_types`, what lets it go on a feature of
        #: that kind (:meth:`~engine.rules.follower_types.FollowerType.rule_on`): worked out once, not per spot.
        self.segment_rules: tuple[tuple[int, ...], ...] = tuple(
            tuple(ruleset.follower_types[t].rule_on(kind) for t in on_kind)
            for kind, on_kind in zip(ruleset.kinds, self.segment_types))
        #: Per type, what one follower counts for in a majority (None: every type counts 1, one type).
        self.weights: tuple[int, ...] | None = tuple(t.strength for t in ruleset.follower_types) \
            if len(ruleset.follower_types) > 1 else None
        base = ruleset.edge_base
        self.edge_pow: tuple[int, ...] = (1, base, base * base, base ** 3)
        self.frontiers: list[dict[int, int]] = [{} for _ in range(ruleset.maps)]
        self.map = 0
        self.frontier: dict[int, int] = self.frontiers[0]
        #: Segments of neighbouring tiles whose feature the last placement ended at a wild side
        #: (an abbey's): completion looks at them as well as at the placed tile's own.
        self.closed_at_wild: list[int] = []
        #: Segments of features completed by their kind's completion formula (engine/rules/completes.py):
        #: such a feature stays complete however it grows, so each is noted once, by one of its segments.
        self.done: set[int] = set()
        #: Whether some kind completes by a formula, and whether one reads the tiles around
        #: (``neighbors`` or ``around``): a placement then tests the features around it too.
        self.judging = any(k.completes is not None for k in ruleset.kinds)
        self.judge_around = any(k.completes is not None and (k.neighbourly or bool(k.around)) for k in ruleset.kinds)
        #: The current tile's placements (:func:`~engine.core.choices.placement_table`),
        #: or None to walk the frontier again; dropped whenever the frontier changes.
        self.placement_cache: tuple[list[int], list[tuple[int, ...]], list[int]] | None = None
        #: Per root, its feature's :class:`~engine.core.totals.Totals`, kept while its member list is
        #: the same object (shared with copies: a member list found there is the one they came from).
        self.totals: dict[int, Totals] = {}
        #: What the game-end bonuses pay per seat, by the aggregates, titles and seat playing they
        #: were worked out on (:func:`~engine.core.bonus_part.bonuses_paid`): shared with copies,
        #: as an entry is a function of its key alone.
        self.bonuses_memo: dict[tuple, tuple[int, ...]] = {}
        #: Per tile type whose constraints read the cell alone, where it fits
        #: (:func:`~engine.core.constrained.spots`); each value is never mutated, only replaced.
        self.spots: dict[int, Spots] = {}
        #: Whether some tile type has a segment sharing a side (:attr:`~engine.rules.tiles.Orientation.shared`).
        self.sharing = any(segment.shares for tile in ruleset.tiles for segment in tile.segments)

    def copy_board_into(self, other: Board) -> None:
        """Give ``other`` (a new, empty instance) an independent copy of this board."""
        other.ruleset, other.tiles, other.players = self.ruleset, self.tiles, self.players
        other.board = self.board.copy()
        other.parent = self.parent.copy()
        other.open = self.open.copy()
        other.fol = self.fol.copy()
        other.members = self.members.copy()
        other.seg_pos = self.seg_pos.copy()
        other.seg_tile = self.seg_tile.copy()
        other.seg_kind = self.seg_kind.copy()
        other.surrounded_at = {k: list(v) for k, v in self.surrounded_at.items()}
        other.on_board = self.on_board.copy()
        other.supply = self.supply.copy()
        other.reserve = [counts.copy() for counts in self.reserve]
        other.weights, other.kept_out, other.segment_types = self.weights, self.kept_out, self.segment_types
        other.segment_rules = self.segment_rules
        other.edge_pow = self.edge_pow
        other.frontiers = [frontier.copy() for frontier in self.frontiers]
        other.map = self.map
        other.frontier = other.frontiers[self.map]
        other.placement_cache = self.placement_cache  # never mutated, only replaced
        other.totals = self.totals
        other.spots = self.spots.copy()
        other.bonuses_memo = self.bonuses_memo
        other.closed_at_wild = []
        other.done = set(self.done)
        other.judging, other.judge_around = self.judging, self.judge_around
        other.sharing = self.sharing

    def enter_map(self, m: int) -> None:
        """Make map ``m``'s frontier the one placements look at."""
        self.map = m
        self.frontier = self.frontiers[m]
        self.placement_cache = None

    def is_done(self, root: int) -> bool:
        """Whether the feature at ``root`` completed by its kind's formula (:attr:`done`)."""
        done = self.done
        return bool(done) and any(s in done for s in self.members[root])

    def find(self, s: int) -> int:
        """The root of segment ``s``'s feature (with path halving)."""
        parent = self.parent
        while parent[s] != s:
            parent[s] = parent[parent[s]]
            s = parent[s]
        return s

    def place(self, tile_index: int, pos: int, rotation: int) -> int:
        """Put tile type ``tile_index`` at ``pos`` turned ``rotation`` quarter turns, joining
        its segments to its neighbours' features; returns the global id of its first segment.
        Unchecked: legality is :meth:`~engine.core.game.Game.check`'s business."""
        tile = self.tiles[tile_index]
        orientation = tile.orientations[rotation]
        parent, open_, fol, members = self.parent, self.open, self.fol, self.members
        base = len(parent)
        for j, seg in enumerate(tile.segments):
            parent.append(base + j)
            open_.append(seg.open_sides)
            fol.append(0)
            members.append([base + j])
        count = len(tile.segments)
        self.seg_pos.extend([pos] * count)
        self.seg_tile.extend([base] * count)
        self.seg_kind.extend(tile.kinds)
        if tile.surrounded:
            self.surrounded_at[pos] = [base + j for j in tile.surrounded]
        board, frontier = self.board, self.frontier
        board[pos] = (orientation, base, tile_index)
        frontier.pop(pos, None)
        self.placement_cache = None
        mirror, pow_, wild = self.ruleset.edge_mirror, self.edge_pow, self.ruleset.edge_wild
        side_codes = orientation.side_codes
        sharing = self.sharing
        if wild >= 0:
            self.closed_at_wild = []
        for side in range(4):
            q = pos + SIDE_STEP[side]
            neighbour = board.get(q)
            if neighbour is None:
                frontier[q] = frontier.get(q, 0) + mirror[side_codes[side]] * pow_[(side + 2) % 4]
                continue
            if wild >= 0 and (side_codes[side] == wild or neighbour[0].side_codes[(side + 2) % 4] == wild):
                self._end_at_wild(base, orientation, side, neighbour)
                continue
            n_ports = neighbour[0].port_segment
            n_base = neighbour[1]
            for j, port, counts in orientation.joins[side]:
                a = self.find(base + j)  # a method call, not a bound local: native when compiled
                b = self.find(n_base + n_ports[FACING[port]])
                if a == b:
                    open_[a] = open_[a] - 2 * counts
                    continue
                if len(members[a]) < len(members[b]):
                    a, b = b, a
                parent[b] = a
                open_[a] = open_[a] + open_[b] - 2 * counts
                fol[a] = fol[a] + fol[b]  # not +=: mypyc compiles an item's in-place add as a generic call
                members[a] = members[a] + members[b]
                members[b] = MERGED
            if sharing:
                for j, root, counts in self.shared_meetings(orientation, side, neighbour):
                    self.join(base + j, root, counts)
        return base

    def shared_meetings(self, orientation: Orientation, side: int,
                        neighbour: tuple[Orientation, int, int]) -> list[tuple[int, int, int]]:
        """For a tile turned as ``orientation`` placed (or weighed) with ``neighbour`` (a board entry)
        across ``side``: ``(segment index on the tile, root of the neighbour's feature it joins, open
        sides the join closes)`` for each segment, on either tile, that reaches the side without
        holding it (:attr:`~engine.rules.tiles.Orientation.shared`: JCloisterZone's multi-edge, Hills &
        Sheep's CC!.v, whose two cities meet on one side and are one city once a city joins it there).
        Each closes only its own open side; the holders' join closes theirs."""
        n_orientation, n_base, _ = neighbour
        n_ports = n_orientation.port_segment
        found = [(j, self.find(n_base + n_ports[FACING[port]]), counts) for j, port, counts in orientation.shared[side]]
        for j, port, counts in n_orientation.shared[(side + 2) % 4]:
            found.append((orientation.port_segment[FACING[port]], self.find(n_base + j), counts))
        return found

    def join(self, s: int, t: int, closed: int) -> None:
        """Make placed segments ``s`` and ``t`` one feature, with ``closed`` open sides fewer.
        :meth:`place` makes the same union inline for the joins every placement makes: a call per
        join would cost the hot path; this serves the rarer shared sides."""
        open_, members = self.open, self.members
        a, b = self.find(s), self.find(t)
        if a == b:
            open_[a] = open_[a] - closed
            return
        if len(members[a]) < len(members[b]):
            a, b = b, a
        self.parent[b] = a
        open_[a] = open_[a] + open_[b] - closed
        self.fol[a] = self.fol[a] + self.fol[b]
        members[a] = members[a] + members[b]
        members[b] = MERGED

    def _end_at_wild(self, base: int, orientation: Orientation, side: int,
                     neighbour: tuple[Orientation, int, int]) -> None:
        """Across ``side`` of the tile just placed (segments from ``base``, turned as
        ``orientation``) a wild side meets ``neighbour``'s: nothing joins, and each feature
        crossing the other side ends there, one open side fewer (Abbey & Mayor: the abbey
        closes the roads and cities next to it and borders the fields)."""
        open_ = self.open
        for j, _, counts in orientation.joins[side] + orientation.shared[side]:  # ours, when theirs is wild
            root = self.find(base + j)
            open_[root] = open_[root] - counts
        n_orientation, n_base, _ = neighbour
        opposite = (side + 2) % 4
        for j, _, counts in n_orientation.joins[opposite] + n_orientation.shared[opposite]:  # theirs, when ours is
            if counts:
                root = self.find(n_base + j)
                open_[root] = open_[root] - counts
                self.closed_at_wild.append(n_base + j)

    def deploy(self, segment: int, player: int, kind: int = 0, corner: int = -1) -> None:
        """Put one of ``player``'s followers of type ``kind`` from their supply on placed
        segment ``segment`` (at board corner ``corner`` of its tile, 0-3, for a ``spot: corner``
        type; -1 on the segment)."""
        root = self.find(segment)
        self.fol[root] = self.fol[root] + one_follower(player, kind, self.players)
        self.on_board.append((segment, player, kind, corner))
        self.supply[player] = self.supply[player] - 1
        self.reserve[player][kind] = self.reserve[player][kind] - 1

    def deploy_at(self, tile_index: int, base: int, rotation: int, spot: int, player: int, kind: int) -> int:
        """:meth:`deploy` on spot ``spot`` of the tile of type ``tile_index`` just placed (segments
        from ``base``) turned ``rotation``: a segment index, or past them a corner
        (:meth:`~engine.rules.tiles.TileType.spot_segment`); returns the segment deployed on."""
        tile = self.tiles[tile_index]
        corner = spot - len(tile.segments)
        segment = base + tile.spot_segment(spot)
        self.deploy(segment, player, kind, -1 if corner < 0 else (corner + rotation) % 4)
        return segment

    def return_followers(self, root: int) -> None:
        """Send the followers on the feature at ``root`` back to their owners' supplies."""
        kept = []
        for entry in self.on_board:
            if self.find(entry[0]) == root:
                self.supply[entry[1]] += 1
                self.reserve[entry[1]][entry[2]] += 1
            else:
                kept.append(entry)
        self.on_board = kept
        self.fol[root] = 0

    def return_others(self, root: int, kinds: list[int]) -> None:
        """Send the pieces on the feature at ``root`` of every type but ``kinds`` back to their
        owners' supplies; those of the types ``kinds`` stay (the barn, when farmers score by it)."""
        kept, staying = [], 0
        for entry in self.on_board:
            if self.find(entry[0]) != root:
                kept.append(entry)
            elif entry[2] in kinds:
                kept.append(entry)
                staying += one_follower(entry[1], entry[2], self.players)
            else:
                self.supply[entry[1]] += 1
                self.reserve[entry[1]][entry[2]] += 1
        self.on_board = kept
        self.fol[root] = staying

    def followers_by_player(self, root: int) -> list[int]:
        """Each player's strength on the feature whose root is ``root``: their followers, each
        counted at its type's strength (the large follower as two, a builder as none)."""
        if self.weights is None:
            return unpack_followers(self.fol[root], self.players)
        return self.weighed(root, self.weights)

    def weighed(self, root: int, weights: tuple[int, ...]) -> list[int]:
        """Each player's strength on the feature at ``root``, each type counted at ``weights``
        (a game weighs a strength that reads the feature on it: the mayor's)."""
        return strengths(self.fol[root], self.players, weights)

    def occupied_roots(self) -> list[int]:
        """Roots of features holding followers, in order of first deployment."""
        roots: list[int] = []
        for entry in self.on_board:
            root = self.find(entry[0])
            if root not in roots:
                roots.append(root)
        return roots
