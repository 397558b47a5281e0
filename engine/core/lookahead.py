"""One-move look-ahead without copying the game: what each candidate move is worth.

A search bot asks, for every legal move, "what would each player's score be if
the game ended right after it?" (current score plus final scoring).  Copying
and replaying the game for each candidate repeats work for every feature on
the board; this module instead starts from the per-feature values of the
current position (computed once per decision) and, for each placement, works
out only what the placement changes:

* the **groups** the new tile's segments form with the features they join
  (merged totals: open sides, followers, tiles, attributes), scored as
  complete (paid now) or as at game end;
* occupied features of an **adjacency** kind (farms) not joined by the tile,
  when a feature they touch is completed by it (one more completed city);
* occupied **surrounded** features (cloisters) around the new tile, which gain
  a neighbour and may complete.

Each follower option then changes only its own group's majority.  The test
suite checks every value against copying the game and playing the move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import UserError
from ..geometry import FACING, RING8, SIDE_STEP
from ..rules.kinds import ScoreRangeError
from .after_move import Group, add_to, complete_after, local_root, meet_group, subtract_from
from .deployment import choices_given, current_tile
from .followers import one_follower, pieces_by_player
from .majorities import Majorities
from .moves import Move
from .pooled import pool_total
from .scoring import kind_of, make_inputs
from .supply_value import kept_points, turns_ahead
from .totals import totals

if TYPE_CHECKING:
    from ..rules.kinds import FeatureKind
    from ..rules.tiles import TileType
    from .game import Game


class Lookahead(Majorities):
    """Values of candidate moves in one position of ``game`` (valid until the game changes).

    :meth:`potentials` gives, for one placement, each follower option with the
    per-seat potential (score if the game ended after the move) it leads to,
    plus ``keep`` points for each follower in the seat's supply after the move
    that it has a turn left to place (:func:`kept_points`; 0: the potential alone;
    the bots' ``keep`` setting).
    A score beyond ±MAX_POINTS is a :class:`~engine.errors.UserError` naming the turn weighed.
    """

    def __init__(self, game: "Game", keep: int = 0) -> None:
        self.keep = keep
        try:
            self._start(game)
        except ScoreRangeError as error:
            raise _looking_ahead(error, game) from None

    def _start(self, game: "Game") -> None:
        Majorities.__init__(self, game)
        self._special = self._reading | self._owning  # pieces the written-out majority below does not weigh
        self.contrib: dict[int, list[int]] = {}
        self.envs: dict[int, dict] = {}
        self._target_envs: dict[tuple[int, int], dict] = {}
        self._complete_now: dict[int, bool] = {}
        self._pool: list[tuple[int, "FeatureKind", list[int], set[int]]] = []
        potential = list(game.scores)
        for root in game.occupied_roots():
            kind = self.kinds[kind_of(game, root)]
            self.envs[root], vector = self.standing(game, root, kind)
            self.contrib[root] = vector
            for p in range(self.players):
                potential[p] = potential[p] + vector[p]
            if kind.index in self._pooled:
                self._pool.append((root, kind, game.followers_by_player(root), self._adjacent_of(root)))
        self._pool_roots = {entry[0] for entry in self._pool}
        self._pool_base = pool_total(self, None) if self._pooled else [0] * self.players
        self.potential = [a + b for a, b in zip(potential, self._pool_base)]
        self.turns = turns_ahead(game, after_move=True) if self.keep else []
        self._watch = []  # occupied features that count completed neighbours (3rd-edition farms)
        for root in self.envs:
            kind = self.kinds[kind_of(game, root)]
            if kind.adjacency and kind.index not in self._pooled:
                self._watch.append((root, kind, self._adjacent_of(root)))
        self._targets = {a for k in self.kinds for a in k.adjacency}
        self._completion = [k.completion for k in self.kinds]
        #: Kinds whose occupied features a bonus reads (``largest_K``), or None: :meth:`potentials` then notes in
        #: :attr:`local`, per option, whether the move completes nothing and leaves those kinds' features as they were.
        self.watched: frozenset[int] | None = None
        self.local: list[bool] = []
        #: With :attr:`watched` set, the last placement weighed (for BonusPart): its groups, the surrounded features
        #: around it (complete or not), its position; per option the group a follower joins (or None), packed follower.
        self.placed: tuple[list[Group], dict[int, bool], int] = ([], {}, 0)
        self.deployed: list[tuple[Group | None, int]] = []
        #: Follower types not weighed here: an option deploying one has an empty vector (PiecewiseLookahead's trial).
        self.skipped: frozenset[int] = frozenset()
        #: True when the caller weighs a placement meeting a wild side elsewhere (PiecewiseLookahead).
        self.wild_checked = False

    def potentials(self, pos: int, rotation: int) -> list[tuple[int | None, int, list[int]]]:
        """``(follower segment or None, follower type, potential per seat)`` for each legal
        follower choice of placing the current tile at ``pos``, ``rotation``, in the order of
        :meth:`~engine.core.game.Game.deploy_choices` (none first)."""
        try:
            return self._potentials(pos, rotation)
        except ScoreRangeError as error:
            raise _looking_ahead(error, self.game) from None

    def _potentials(self, pos: int, rotation: int) -> list[tuple[int | None, int, list[int]]]:
        game, kinds = self.game, self.kinds
        tile = game.tiles[current_tile(game)]
        segments = tile.segments
        orientation = tile.orientations[rotation]
        board, fol, open_ = game.board, game.fol, game.open
        n = len(segments)
        local = list(range(n))
        merged = False
        group_of_root: dict[int, int] = {}
        closed_joins = [0] * n
        sharing, steps, joins = game.sharing, SIDE_STEP, orientation.joins  # globals and attributes read once
        for side in range(4):
            neighbour = board.get(pos + steps[side])
            if neighbour is None:
                continue
            n_ports, n_base = neighbour[0].port_segment, neighbour[1]
            for j, port, counts in joins[side]:
                root = game.find(n_base + n_ports[FACING[port]])
                closed_joins[j] = closed_joins[j] + 2 * counts
                other = group_of_root.get(root)
                if other is None:
                    group_of_root[root] = j
                elif meet_group(local, other, j):  # two new segments join one feature: one after the move
                    merged = True
            if sharing:
                for j, root, counts in game.shared_meetings(orientation, side, neighbour):
                    closed_joins[j] = closed_joins[j] + counts
                    other = group_of_root.setdefault(root, j)
                    if other != j and meet_group(local, other, j):
                        merged = True
        reps = [local_root(local, j) for j in range(n)] if merged else local
        groups: list[Group | None] = [None] * n
        for j, segment in enumerate(segments):
            group = groups[reps[j]]
            if group is None:
                group = groups[reps[j]] = Group(segment.kind)
            group.locals.append(j)
            group.open += segment.open_sides - closed_joins[j]
        root_group: dict[int, Group] = {}
        for root, j in group_of_root.items():
            joined = groups[reps[j]]
            assert joined is not None  # every segment has a group
            root_group[root] = joined
            group = joined
            group.roots.append(root)
            group.open += open_[root]
            group.fol += fol[root]
        live = [g for g in groups if g is not None]
        neighbours_here = sum(1 for d in RING8 if pos + d in board) if tile.surrounded else 0
        completed = False
        completion = self._completion
        for group in live:
            how = completion[group.kind]
            if how == "closed":
                group.complete = group.open == 0
            elif how == "surrounded":
                group.complete = neighbours_here == 8
            if group.complete and group.kind in self._targets:
                completed = True

        # Surrounded features around the new tile gain a neighbour.
        gained: dict[int, bool] = {}
        surrounded_at = game.surrounded_at
        if surrounded_at:
            for d in RING8:
                ids = surrounded_at.get(pos + d)
                if ids:
                    count = sum(1 for e in RING8 if pos + d + e in board) + 1
                    for s in ids:
                        gained[s] = count == 8
                        if count == 8 and kind_of(game, s) in self._targets:
                            completed = True

        delta = [0] * self.players
        for group in live:
            if group.fol:
                group.value = self._group_value(group, group.fol, groups, reps, root_group, gained, pos,
                                                neighbours_here)
                add_to(delta, group.value)
                for root in group.roots:
                    subtract_from(delta, self.contrib.get(root))
        for s, complete in gained.items():
            if s in self.envs:
                kind = kinds[kind_of(game, s)]
                env = dict(self.envs[s], neighbors=self.envs[s]["neighbors"] + 1, complete=complete)
                for name, k in kind.around:  # the new tile is one of the 8 around it
                    env[name] += tile.kinds.count(k)
                add_to(delta, self._paid(kind, env, fol[s], complete, self._up_of((s,))))
                subtract_from(delta, self.contrib[s])
        if completed:
            # Farms not joined by the tile that touch a feature the tile completes.
            finished = [g for g in live if g.complete]
            for root, kind, touched in self._watch:
                if root in root_group:
                    continue
                gains = [sum(1 for g in finished if g.kind == a and touched.intersection(g.roots))
                         + sum(1 for s, complete in gained.items()
                               if complete and s in touched and kind_of(game, s) == a) for a in kind.adjacency]
                if any(gains):
                    env = dict(self.envs[root])
                    for name, gain in zip(kind.adjacency_inputs, gains):
                        env[name] += gain
                    add_to(delta, self._paid(kind, env, fol[root], False, self._up_of((root,))))
                    subtract_from(delta, self.contrib[root])

        context = (groups, reps, root_group, gained, pos, neighbours_here, live)
        pool = self._pool_base
        if self._pooled and (completed or any(r in self._pool_roots for r in root_group)):
            pool = pool_total(self, context)
            add_to(delta, pool)
            subtract_from(delta, self._pool_base)

        base = [a + b for a, b in zip(self.potential, delta)]
        keep, turns = self.keep, self.turns
        supply: list[int] = []
        if keep:  # followers on the features the tile completes go back to their supplies
            supply = list(game.supply)
            for group in live:
                if group.complete and group.fol:
                    add_to(supply, pieces_by_player(group.fol, self.players, self.types))
            for s, complete in gained.items():
                if complete and fol[s]:
                    add_to(supply, pieces_by_player(fol[s], self.players, self.types))
            add_to(base, kept_points(supply, turns, keep))
        track = self.watched is not None
        watched = self.watched if self.watched is not None else frozenset()
        untouched = track and not any(g.complete or (g.fol and g.kind in watched) for g in live) \
            and not any(gained.values())
        if track:
            self.local = [untouched]
            self.placed, self.deployed = (live, gained, pos), [(None, 0)]
        options: list[tuple[int | None, int, list[int]]] = [(None, 0, base)]
        me = game.player
        if not game.supply[me]:
            return options
        if self.weights is None:  # one follower type: every deployable free segment (the hot path)
            bit, mask = one_follower(me), game.deploy_masks[me]
            for j, segment in enumerate(segments):
                group = groups[reps[j]]
                assert group is not None  # every segment has a group
                if kinds[segment.kind].deployable and not group.fol & mask:
                    # Passed one by one: unpacking a tuple costs the compiled build dearly on this path.
                    options.append((j, 0, self._deployed(group, bit, 0, base, pool, supply, context, groups, reps,
                                                         root_group, gained, pos, neighbours_here)))
                    if track:
                        self.local.append(untouched and group.kind not in watched)
                        self.deployed.append((group, bit))
            return options
        skipped = self.skipped
        for j, t in self._choices(tile, pos, rotation, groups, reps):  # each type where the rules let it go
            if t in skipped:
                options.append((j, t, []))
                if track:
                    self.local.append(False)
                    self.deployed.append((None, 0))
                continue
            group = groups[reps[j]]
            assert group is not None  # every segment has a group
            bit = one_follower(me, t, self.players)
            options.append((j, t, self._deployed(group, bit, t, base, pool, supply, context, groups, reps,
                                                 root_group, gained, pos, neighbours_here)))
            if track:
                self.local.append(untouched and group.kind not in watched)
                self.deployed.append((group, bit))
        return options

    def _deployed(self, group: Group, bit: int, type_index: int, base: list[int], pool: list[int],
                  supply: list[int], context: tuple, groups: list, reps: list[int], root_group: dict,
                  gained: dict[int, bool], pos: int, neighbours_here: int) -> list[int]:
        """The potential per seat of the placement with a follower of type ``type_index`` (packed
        ``bit``) deployed on ``group``: ``base`` is the placement's potential without it, ``pool``
        the pooled kinds' points and ``supply`` the supplies after it; the rest describe the
        placement (:meth:`_potentials`)."""
        me, weights = self.game.player, self.weights
        up = self._marker >= 0 and (weights is None or weights[type_index] > 0) \
            and self._marker in self.game.tiles[current_tile(self.game)].kinds  # a follower on a hill tile
        value = self._group_value(group, group.fol + bit, groups, reps, root_group, gained, pos, neighbours_here,
                                  me if up else -1)
        vector = list(base)
        subtract_from(vector, group.value)
        add_to(vector, value)
        if group.kind in self._pooled:
            subtract_from(vector, pool)
            add_to(vector, pool_total(self, context, (group, group.fol + bit)))
        keep, turns = self.keep, self.turns
        if keep and not group.complete:  # the follower leaves the supply (one on a completed feature is back)
            vector[me] = vector[me] - (keep * (min(supply[me], turns[me]) - min(supply[me] - 1, turns[me])))
        return vector

    def moves(self) -> list[tuple[Move, list[int]]]:
        """Every legal move of the current tile with the potential per seat it leads to."""
        return [(Move(pos, rotation, j, t), vector) for pos, rotation in self.game.placements()
                for j, t, vector in self.potentials(pos, rotation)]

    # -- internals -------------------------------------------------------------

    def _choices(self, tile: TileType, pos: int, rotation: int, groups: list, reps: list[int]) -> list[tuple[int, int]]:
        """The deploy choices of the placement weighed, from its groups where they are the game's (no wild side)."""
        game = self.game
        if game.done or not (self.wild_checked or game.ruleset.edge_wild < 0):
            return game.deploy_choices(pos, rotation)
        return choices_given(game, tile, pos, rotation, [groups[reps[j]].fol for j in range(len(tile.segments))])

    def _group_value(self, group: "Group", packed: int, groups, reps, root_group, gained, pos,
                     neighbours_here, deployer: int = -1) -> list[int] | None:
        """Per-seat points of a group with followers ``packed`` after the move, or None if
        unoccupied; ``deployer`` the seat whose new follower there stands on a hill (-1: none)."""
        if not packed:
            return None
        kind = self.kinds[group.kind]
        env = group.inputs  # the same for every follower option of the placement: worked out once
        if env is None:
            env = group.inputs = self._group_inputs(kind, group, groups, reps, root_group, gained, pos, neighbours_here)
        up = self._up_of(group.roots, deployer) if self._marker >= 0 else None
        if kind.own or up is not None or packed & self._special:
            return self._paid(kind, env, packed, group.complete, up)
        points = group.points  # the common case written out: this runs for every option weighed
        if points is None:
            if group.complete:
                points = kind.complete.points(env) if kind.complete is not None else 0
            else:
                points = self._own_end(kind, env)
            group.points = points
        return self._vector(points, packed, None, self.weights)

    def _done(self, target, gained) -> bool:
        if isinstance(target, Group):
            return target.complete
        if target in gained:
            return gained[target]
        # A feature the tile neither joins nor surrounds is as complete as it is now: asked once a position.
        found = self._complete_now.get(target)
        if found is None:
            found = self._complete_now[target] = complete_after(self.game, target, gained)
        return found

    def _kind_of(self, target) -> int:
        return target.kind if isinstance(target, Group) else kind_of(self.game, target)

    def _group_inputs(self, kind: "FeatureKind", group: "Group", groups, reps, root_group, gained, pos,
                      neighbours_here) -> dict:
        game = self.game
        tile = game.tiles[current_tile(game)]
        segments = len(group.locals)
        attrs = [0] * len(kind.attributes)
        for j in group.locals:
            for i, value in enumerate(tile.segments[j].attrs):
                attrs[i] = attrs[i] + value
        joined = [totals(game, root) for root in group.roots]
        for found in joined:
            segments += len(found.members)
            for i, value in enumerate(found.attrs):
                attrs[i] = attrs[i] + value
        if len(joined) == 1:  # one feature extended (the common case): its tiles counted without a copy
            tiles = len(joined[0].positions) + (pos not in joined[0].positions)
        else:
            positions: set[int] = {pos}
            for found in joined:
                positions |= found.positions
            tiles = len(positions)
        adjacent: list[int] | None = None
        if kind.adjacency:
            # Adjacent features after the move: a group the tile forms, or an untouched root.
            targets: set = set()
            for root in group.roots:
                for t in self._adjacent_of(root):
                    targets.add(root_group.get(t, t))
            for j in group.locals:
                for a in tile.segments[j].adjacent:
                    targets.add(groups[reps[a]])
            done = [self._kind_of(target) for target in targets if self._done(target, gained)]
            adjacent = [done.count(a) for a in kind.adjacency]
        around = None
        if kind.around:  # a port-less feature on the new tile: the tiles around it now
            ring = [game.tiles[game.board[pos + d][2]].kinds for d in RING8 if pos + d in game.board]
            around = [sum(kinds.count(k) for kinds in ring) for _, k in kind.around]
        return make_inputs(kind, tiles=tiles, segments=segments, complete=group.complete,
                           attrs=attrs, neighbours=neighbours_here, adjacent=adjacent, around=around)


def _looking_ahead(error: ScoreRangeError, game: "Game") -> UserError:
    """A score range error of a look-ahead, naming the turn being weighed: ``turn 13, looking ahead: …``."""
    return error.at(f"turn {game.turn + 1}, looking ahead")
