"""What a feature pays its majority, as the look-ahead weighs a move (engine/core/lookahead.py).

The real game decides a majority in :func:`engine.core.scoring.majority_in` and pays it in
:func:`engine.core.scoring.score_feature`; the look-ahead works on features as a move would
leave them, described by their packed followers (:mod:`engine.core.followers`) and their
formula inputs, and :class:`Majorities` pays them the same way: each piece weighed by its
type's strength (or the strength it reads from the feature: the mayor's pennants), a tie won
by the seats with a follower on a tile of the tie-break kind (``rules.tie_break``,
:func:`engine.core.ties.broken`), per-seat inputs (``own_T``) read for each majority seat, and
pieces that pay their owner (``pays: owner``: the barn) paying them at the game end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .after_move import add_to
from .followers import count_of, strengths, types_mask, unpack_followers
from .scoring import end_points, feature_facts, inputs_from
from .strength import weights_on
from .totals import adjacent_of, totals

if TYPE_CHECKING:
    from ..rules.kinds import FeatureKind
    from .game import Game


class Majorities:
    """The majority rules of ``game``'s ruleset, and what its features pay their majorities."""

    def __init__(self, game: "Game") -> None:
        self.game = game
        self.kinds = game.ruleset.kinds
        self.players = game.players
        #: Per follower type, what one counts for in a majority (None: one type, each counts 1).
        self.weights = game.weights
        self.types = len(game.ruleset.follower_types)
        #: Kinds whose final score pools several features (1st/2nd-edition farms): scored as a whole.
        self._pooled = {k.index for k in self.kinds if k.pools}
        ruleset = game.ruleset
        #: Followers of the types whose strength reads their feature (the mayor), packed as a mask.
        self._reading = types_mask([index for index, _ in ruleset.feature_strengths], self.players)
        #: Followers of the types that pay their owner (the barn), packed as a mask; and those types.
        self._owning = types_mask(ruleset.owner_types, self.players)
        self._owners = [ruleset.follower_types[index] for index in ruleset.owner_types]
        self._adjacent: dict[int, set[int]] = {}  # per root, the adjacent features' roots: asked once a position
        self._tied_up(game)

    def _tied_up(self, game: "Game") -> None:
        """Under a tie-break (``rules.tie_break``, :func:`engine.core.ties.broken`), note per
        occupied feature the seats with a follower that counts standing on a tile of the marker
        kind (a hill): they win a tied majority there, and so on any feature it joins."""
        self._marker = game.ruleset.tie_kind
        self._up: dict[int, set[int]] = {}
        if self._marker < 0:
            return
        counting = [t.strength > 0 for t in game.ruleset.follower_types]
        for segment, player, type_index, _ in game.on_board:
            if counting[type_index] and self._marker in game.tiles[game.board[game.seg_pos[segment]][2]].kinds:
                self._up.setdefault(game.find(segment), set()).add(player)

    def _up_of(self, roots, deployer: int = -1) -> set[int] | None:
        """The seats that win a tie on the features ``roots`` (joined into one), plus ``deployer``
        (-1: none); None where no tie-break applies."""
        if self._marker < 0:
            return None
        up = {deployer} if deployer >= 0 else set()
        for root in roots:
            up |= self._up.get(root, set())
        return up

    def standing(self, game: "Game", root: int, kind: "FeatureKind") -> tuple[dict[str, int | bool], list[int]]:
        """The inputs of the feature at ``root`` (of ``kind``) and what it pays per seat as it stands
        (its end points; :meth:`_paid`), kept on its :class:`~engine.core.totals.Totals` for the next
        position while its members, facts (:func:`~engine.core.scoring.feature_facts`) and followers
        are the same: a turn changes few of the features the look-ahead starts from.  Not kept under
        a tie-break, which reads where the followers stand."""
        adjacent = self._adjacent_of(root) if kind.adjacency else None
        found, facts, packed = totals(game, root), feature_facts(game, root, kind, adjacent), game.fol[root]
        if self._marker >= 0:  # a tie-break reads where the followers stand: nothing kept
            env = inputs_from(kind, found, facts)
            return env, self._paid(kind, env, packed, False, self._up_of((root,)))
        kept = found.standing
        if kept is not None and kept[1] == packed and kept[0] == facts:
            return kept[2], kept[3]
        env = inputs_from(kind, found, facts)
        vector = self._paid(kind, env, packed, False, None)
        found.standing = (facts, packed, env, vector)
        return env, vector

    def _adjacent_of(self, root: int) -> set[int]:
        """The roots of the features of the adjacency kinds that the feature at ``root`` touches."""
        found = self._adjacent.get(root)
        if found is None:
            found = self._adjacent[root] = adjacent_of(self.game, root)
        return found

    def _own_end(self, kind: "FeatureKind", env: dict) -> int:
        """A feature's end points on its own: ``end_points`` without a pooled final score."""
        if kind.index not in self._pooled:
            return end_points(kind, env)
        return kind.incomplete.points(env) if kind.incomplete is not None and not env["complete"] else 0

    def _paid(self, kind: "FeatureKind", env: dict, packed: int, complete: bool, up: set[int] | None) -> list[int]:
        """Per seat, what a feature of ``kind`` with inputs ``env`` and followers ``packed`` pays
        (a tie won by the seats ``up``, :meth:`_up_of`): its ``complete`` score if ``complete``,
        else its end points, to its majority, each majority seat on its own inputs where the kind
        reads them (``own_T``: the pig's farmer); at the end, each owner of a piece that pays its
        owner what that piece pays (:func:`~engine.core.scoring.owner_paid`).  A feature completed
        with such a piece on it is weighed by trial (:class:`~engine.core.trial.PiecewiseLookahead`)."""
        weights = self.weights
        if packed & self._reading:
            assert weights is not None  # a strength that reads the feature comes with several types
            weights = weights_on(self.game, kind, env, packed, weights, ahead=True)
        vector = self._majority_paid(kind, env, packed, complete, up, weights)
        if packed & self._owning and not complete:
            add_to(vector, self._owners_paid(kind, env, packed))
        return vector

    def _majority_paid(self, kind: "FeatureKind", env: dict, packed: int, complete: bool, up: set[int] | None,
                       weights: tuple[int, ...] | None) -> list[int]:
        if not kind.own:
            if complete:
                return self._vector(kind.complete.points(env) if kind.complete is not None else 0, packed, up, weights)
            return self._vector(self._own_end(kind, env), packed, up, weights)
        vector = [0] * self.players
        if complete and kind.complete is None:
            return vector
        for p in self._majority_by(packed, up, weights):
            mine = dict(env)
            for name, type_index in kind.own:
                mine[name] = count_of(packed, p, type_index, self.players)
            vector[p] = kind.complete.points(mine) if complete and kind.complete is not None else \
                self._own_end(kind, mine)
        return vector

    def _owners_paid(self, kind: "FeatureKind", env: dict, packed: int) -> list[int]:
        """Per seat, what the pieces among ``packed`` that pay their owner pay at the game end on a
        feature of ``kind`` with inputs ``env``: each seat with one, once per end rule the kind
        scores by (incomplete, final), the type's ``score`` or else the kind's formula."""
        vector = [0] * self.players
        rules = [formula for formula in (kind.incomplete, kind.final) if formula is not None]
        for piece in self._owners:
            points = sum((piece.score if piece.score is not None else formula).points(env) for formula in rules)
            for p in range(self.players):
                if count_of(packed, p, piece.index, self.players):
                    vector[p] = vector[p] + points
        return vector

    def majority(self, packed: int, up: set[int] | None) -> list[int]:
        """The seats with the most strength among followers ``packed`` (none when nobody has any),
        a tie narrowed to the seats ``up`` among them if any."""
        return self._majority_by(packed, up, self.weights)

    def _majority_by(self, packed: int, up: set[int] | None, weights: tuple[int, ...] | None) -> list[int]:
        counts = unpack_followers(packed, self.players) if weights is None else strengths(packed, self.players, weights)
        most = max(counts)
        tied = [p for p, count in enumerate(counts) if count == most] if most else []
        if up is not None and len(tied) > 1:
            return [p for p in tied if p in up] or tied
        return tied

    def _vector(self, points: int, packed: int, up: set[int] | None, weights: tuple[int, ...] | None) -> list[int]:
        if up is not None:
            vector = [0] * self.players
            if points and packed:
                for p in self._majority_by(packed, up, weights):
                    vector[p] = points
            return vector
        vector = [0] * self.players
        if points and packed:  # the majority written out: this runs for every option weighed
            counts = unpack_followers(packed, self.players) if weights is None else \
                strengths(packed, self.players, weights)
            most = max(counts)
            if most:
                for p, count in enumerate(counts):
                    if count == most:
                        vector[p] = points
        return vector
