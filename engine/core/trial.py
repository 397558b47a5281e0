"""Which look-ahead a ruleset gets, and the three that are not by features alone.

:class:`~engine.core.lookahead.Lookahead` works out a move's value from the
features it touches.  Game-end bonuses and titles compare the players on the
whole game: :class:`BonusLookahead` adds them to the features' values, as they
stand or as the move leaves them (:mod:`engine.core.bonus_part`).  Pieces that
read, guard or leave their feature (:func:`special_types`) and wild sides change
only what a move reaches: :class:`PiecewiseLookahead` weighs by features the
moves that meet none of them.  What none of these follows (completion formulas,
such pieces beside bonuses or pooled farms: :func:`by_trial`)
:class:`TrialLookahead` plays on a copy of the game, exact by construction.
docs/lookahead.md describes them.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from ..errors import UserError
from ..geometry import SIDE_STEP
from ..rules.bonuses import read_by
from .after_move import add_to
from .bonus_part import BonusPart, bonuses_paid
from .followers import types_mask
from .game_end import end_totals
from .known_ends import KnownEnds
from .lookahead import Lookahead
from .moves import Move
from .supply_value import kept_points, turns_ahead
from .tallies import aggregates, kinds_read

if TYPE_CHECKING:
    from ..rules.ruleset import Ruleset
    from .game import Game


class TrialLookahead:
    """The :class:`~engine.core.lookahead.Lookahead` interface, by playing each move on a copy
    of ``game`` and reading :meth:`~engine.core.game.Game.potential_scores` (plus ``keep`` points
    a follower in the supply, :func:`~engine.core.supply_value.kept_points`, as the look-ahead's)."""

    def __init__(self, game: "Game", keep: int = 0) -> None:
        self.game = game
        self.keep = keep
        self.turns = turns_ahead(game, after_move=True) if keep else []
        #: The end scores of the features a move leaves as they were, worked out once a position.
        self.known = KnownEnds(game)
        self._near: int | None = None  # the position known.near was last told

    def potentials(self, pos: int, rotation: int) -> list[tuple[Move, list[int]]]:
        """``(move, potential per seat)`` for each legal follower choice of placing the current
        tile at ``pos``, ``rotation`` (none, then each spot and follower type); a score beyond
        ±MAX_POINTS is a :class:`~engine.errors.UserError` naming the turn weighed."""
        choices = ((None, 0), *self.game.deploy_choices(pos, rotation))
        return [(move, self.value(move)) for move in (Move(pos, rotation, j, kind) for j, kind in choices)]

    def value(self, move: Move) -> list[int]:
        """The potential per seat after ``move``, a legal move of the current tile (as :meth:`potentials`)."""
        known = self.known if self.known.usable else None
        if known is not None and move.pos != self._near:
            known.near(move.pos)
            self._near = move.pos
        trial = self.game.copy()
        trial.explain = False
        try:
            trial.apply(move)
            if known is not None:
                known.watch(trial)
            vector = [a + b for a, b in zip(trial.scores, end_totals(trial, known))]
        except UserError as error:  # a score beyond the range: say it was met weighing a move
            raise _looking_ahead(error) from None
        if self.keep:
            add_to(vector, kept_points(trial.supply, self.turns, self.keep))
        return vector

    def moves(self) -> list[tuple[Move, list[int]]]:
        """Every legal move of the current tile with the potential per seat it leads to."""
        return [found for pos, rotation in self.game.placements() for found in self.potentials(pos, rotation)]


class BonusLookahead:
    """The :class:`~engine.core.lookahead.Lookahead` interface under game-end bonuses and titles,
    by features where a move leaves the bonuses' inputs as they were, by trial elsewhere.

    A bonus compares the players on aggregates of the whole game (:mod:`engine.core.tallies`).
    A move changes them only by completing a feature (tokens handed out, a feature held or
    closed, a title passed) or, for a ``largest_K`` input, by changing an occupied feature of
    kind K (it grows, merges or gains a follower).  Every other candidate is worth what the
    features' look-ahead gives plus the bonuses as they stand (worked out once a position);
    those are worth the features' value plus the bonuses after the move
    (:class:`~engine.core.bonus_part.BonusPart`), or where that cannot say (a tie-break), what
    playing them on a copy gives (:class:`TrialLookahead`).  ``potentials`` gives
    ``(follower segment or None, potential per seat)`` as the features' look-ahead does."""

    def __init__(self, game: "Game", keep: int = 0) -> None:
        self.game = game
        self.features = Lookahead(game, keep)
        reads = read_by(game.ruleset.bonuses)
        self.features.watched = frozenset(k for k, read in enumerate(kinds_read(game.ruleset, "largest_", reads))
                                          if read)
        self.keep = keep
        self._trial: TrialLookahead | None = None  # made when a move must be played on a copy
        #: The bonuses after a move that changes their inputs, where it can say (else the trial plays it).
        self.part = BonusPart(game, self.features)
        # No bonus here reads points_K (by_trial), the one aggregate the final scores change; a move
        # that changes no aggregate still settles the titles on these values.
        inputs = aggregates(game, [{} for _ in range(game.players)], read_by(game.ruleset.bonuses))
        try:
            self.bonus = bonuses_paid(game, inputs)
        except UserError as error:
            raise _looking_ahead(error) from None

    def potentials(self, pos: int, rotation: int) -> list[tuple[int | None, int, list[int]]]:
        """``(follower segment or None, follower type, potential per seat)`` for each legal
        follower choice of placing the current tile at ``pos``, ``rotation``."""
        options = self.features.potentials(pos, rotation)
        found = []
        for i, ((j, t, vector), local) in enumerate(zip(options, self.features.local)):
            if local:
                found.append((j, t, [a + b for a, b in zip(vector, self.bonus)]))
            elif self.part.usable:
                found.append((j, t, [a + b for a, b in zip(vector, self._bonus_after(i))]))
            else:
                if self._trial is None:
                    self._trial = TrialLookahead(self.game, self.keep)
                found.append((j, t, self._trial.value(Move(pos, rotation, j, t))))
        return found

    def _bonus_after(self, option: int) -> list[int]:
        try:
            return self.part.vector(option)
        except UserError as error:  # a score beyond the range: say it was met weighing a move
            raise _looking_ahead(error) from None

    def moves(self) -> list[tuple[Move, list[int]]]:
        """Every legal move of the current tile with the potential per seat it leads to."""
        return [(Move(pos, rotation, j, t), vector) for pos, rotation in self.game.placements()
                for j, t, vector in self.potentials(pos, rotation)]


def special_types(ruleset: "Ruleset") -> frozenset[int]:
    """The follower types (indices) that send a ruleset to :class:`PiecewiseLookahead`: those
    whose strength reads their feature, that stand on a corner, keep others out or pay their
    owner, a score trigger's type and the types that move on."""
    found = {index for index, _ in ruleset.feature_strengths}
    found.update(ruleset.corner_types, ruleset.owner_types, (index for index, _ in ruleset.movers))
    found.update(trigger.follower for trigger in ruleset.scorers)
    found.update(t.index for t in ruleset.follower_types if t.keeps_out)
    return frozenset(found)


class PiecewiseLookahead:
    """The :class:`~engine.core.lookahead.Lookahead` interface for a ruleset with special follower
    types or wild sides (:func:`special_types`, ``edge_wild``) and neither game-end bonuses nor a
    pooled farm rule, by features where the features' look-ahead follows the move and by trial
    where it does not.

    The features' look-ahead weighs a strength read from the feature (the mayor's) and a piece
    that pays its owner at the game end (the barn); a piece that keeps others out changes only
    where followers may go.  What it does not follow happens only where a move reaches: a wild
    side ends the features of the tiles on either side of it; a trigger goes off on a feature of
    the placed tile that holds its piece and others (a farm joined to a barn's); a follower that
    moves on (the wagon) or a piece that pays its owner does so as its feature completes; and a
    special type deployed (on a corner, setting off a trigger, …).  So a placement is played on a
    copy (:class:`TrialLookahead`) when a side of the tile or of a neighbour it meets is wild, or
    a feature it forms would set off a trigger or completes with such a piece on it; an option
    that deploys a piece on a corner, one that sets off a trigger as it is deployed, or one that
    acts as its feature completes on a feature the move completes is played on a copy too; the
    rest are weighed by features.
    ``potentials`` gives ``(follower segment or None, follower type, potential per seat)`` in the
    order of :meth:`~engine.core.game.Game.deploy_choices` (none first), as the features' does."""

    def __init__(self, game: "Game", keep: int = 0) -> None:
        self.game = game
        self.keep = keep
        ruleset, players = game.ruleset, game.players
        #: Types that act as their feature completes: they move on, or pay their owner.
        acting = [index for index, _ in ruleset.movers] + list(ruleset.owner_types)
        self.features = Lookahead(game, keep)
        # Deployed on a corner, or setting off a trigger as it is: left to the trial.
        self.features.skipped = frozenset([*ruleset.corner_types,
                                           *(trigger.follower for trigger in ruleset.scorers
                                             if trigger.when == "deployed")])
        self.features.wild_checked = True  # :meth:`potentials` plays a placement meeting a wild side on a copy
        self.features.watched = frozenset()  # so that it notes each placement's groups (``placed``, ``deployed``)
        self._trial: TrialLookahead | None = None  # made when a candidate must be played on a copy
        self._wild = ruleset.edge_wild
        self._beside_wild: dict[int, bool] = {}  # per cell, whether a neighbour turns a wild side to it
        self._acting = frozenset(acting)
        self._on_completion = types_mask(acting, players)
        #: Per trigger that goes off on the placed tile's features: its piece, and the others it scores.
        self._triggers = [(types_mask([trigger.follower], players),
                           types_mask([t.index for t in ruleset.follower_types
                                       if t.index != trigger.follower and not t.pays_owner], players))
                          for trigger in ruleset.scorers if trigger.when == "placed"]

    def potentials(self, pos: int, rotation: int) -> list[tuple[int | None, int, list[int]]]:
        """``(follower segment or None, follower type, potential per seat)`` for each legal follower
        choice of placing the current tile at ``pos``, ``rotation``; a score beyond ±MAX_POINTS is a
        :class:`~engine.errors.UserError` naming the turn weighed."""
        options = None if self._meets_wild(pos, rotation) else self.features.potentials(pos, rotation)
        if options is None or self._unfollowed():
            return [(move.follower, move.type, vector) for move, vector in self._by_trial().potentials(pos, rotation)]
        deployed, acting = self.features.deployed, self._acting
        for i, (j, t, vector) in enumerate(options):
            group, bit = deployed[i]
            # Left to the trial by the features' look-ahead, a piece that acts as its feature
            # completes on one that does, or a follower that joins a trigger's piece.
            if not vector or (group is not None and ((t in acting and group.complete)
                                                     or self._sets_off(group.fol + bit))):
                options[i] = (j, t, self._by_trial().value(Move(pos, rotation, j, t)))
        return options

    def moves(self) -> list[tuple[Move, list[int]]]:
        """Every legal move of the current tile with the potential per seat it leads to."""
        return [(Move(pos, rotation, j, t), vector) for pos, rotation in self.game.placements()
                for j, t, vector in self.potentials(pos, rotation)]

    def _meets_wild(self, pos: int, rotation: int) -> bool:
        """Whether placing the current tile at ``pos``, ``rotation`` puts a wild side against a
        neighbour, its own or the neighbour's."""
        wild = self._wild
        if wild < 0:
            return False
        beside = self._beside_wild.get(pos)  # the neighbours' sides: the same for every rotation here
        if beside is None:
            beside = self._beside_wild[pos] = self._wild_facing(pos)
        if beside:
            return True
        game = self.game
        tile = game.tile
        assert tile is not None, "a look-ahead needs a tile to place"
        codes = game.tiles[tile].orientations[rotation].side_codes
        return any(codes[side] == wild and pos + SIDE_STEP[side] in game.board for side in range(4))

    def _wild_facing(self, pos: int) -> bool:
        """Whether a neighbour of the cell ``pos`` turns a wild side to it."""
        board, wild = self.game.board, self._wild
        for side in range(4):
            neighbour = board.get(pos + SIDE_STEP[side])
            if neighbour is not None and neighbour[0].side_codes[(side + 2) % 4] == wild:
                return True
        return False

    def _unfollowed(self) -> bool:
        """Whether the placement the features' look-ahead last weighed (its ``placed``) forms a
        feature that sets off a trigger, or completes a feature (one it forms, or one around it
        that it surrounds) with a piece on it that moves on or pays its owner."""
        live, gained, _ = self.features.placed
        on_completion = self._on_completion
        for group in live:
            if (group.complete and group.fol & on_completion) or self._sets_off(group.fol):
                return True
        fol = self.game.fol
        return any(complete and fol[s] & on_completion for s, complete in gained.items())

    def _sets_off(self, packed: int) -> bool:
        """Whether a feature of the placed tile with followers ``packed`` sets off a trigger (its
        piece beside others)."""
        return any(packed & piece and packed & others for piece, others in self._triggers)

    def _by_trial(self) -> TrialLookahead:
        if self._trial is None:
            self._trial = TrialLookahead(self.game, self.keep)
        return self._trial


def _looking_ahead(error: UserError) -> UserError:
    """``turn 17: …`` (or ``turn 17, the X bonus: …``) as ``turn 17, looking ahead…``, as
    :class:`~engine.core.lookahead.Lookahead` says it."""
    first = error.diagnostics[0]
    message = re.sub(r"^(turn \d+)(?=[,:])", r"\1, looking ahead", first.message)
    return UserError.from_diagnostics([replace(first, message=message), *error.diagnostics[1:]])


def look_ahead(game: "Game", keep: int = 0) -> Lookahead | BonusLookahead | PiecewiseLookahead | TrialLookahead:
    """The look-ahead for ``game``'s ruleset: by features; under game-end bonuses by features
    and by trial (:class:`BonusLookahead`); beside special follower types or wild sides by
    features and by trial (:class:`PiecewiseLookahead`); or by trial (:func:`by_trial`) under a
    completion formula (engine/rules/completes.py), a bonus reading ``points_K`` (which every
    score changes), and the combinations :func:`by_trial` names."""
    if by_trial(game.ruleset):
        return TrialLookahead(game, keep)
    if piecewise(game.ruleset):
        return PiecewiseLookahead(game, keep)
    return BonusLookahead(game, keep) if game.ruleset.bonuses else Lookahead(game, keep)


def piecewise(ruleset: "Ruleset") -> bool:
    """Whether ``ruleset`` has follower types the features' look-ahead does not weigh
    (:func:`special_types`, beside another type) or wild sides: :class:`PiecewiseLookahead` weighs
    its moves, unless :func:`by_trial` sends every move to the trial."""
    return (len(ruleset.follower_types) > 1 and bool(special_types(ruleset))) or ruleset.edge_wild >= 0


def by_trial(ruleset: "Ruleset") -> bool:
    """Whether the look-ahead plays every candidate of ``ruleset`` on a copy (:func:`look_ahead`
    says when).  Follower types of a fixed strength on a segment are weighed by features, and
    the others (:func:`special_types`) and wild sides piecewise; a pooled farm rule (1st and
    2nd editions) beside several types, a tie-break or ``around`` inputs, ``around`` on a kind
    that does not complete when surrounded, a completion formula, a bonus reading ``points_K``,
    and special types or wild sides beside game-end bonuses or a pooled farm rule send the
    ruleset to the trial, as does a strength read from the feature beside a tie-break."""
    kinds = ruleset.kinds
    pooled = any(k.pools for k in kinds)
    around = any(kind.around for kind in kinds)
    pooling = pooled and (len(ruleset.follower_types) > 1 or ruleset.tie_kind >= 0 or around)
    # The look-ahead by features follows the tiles placed around the features that complete when
    # surrounded: one that never does may count them (around) all the same.
    unfollowed = any(kind.around and kind.completion != "surrounded" for kind in kinds)
    # The features' look-ahead breaks a tie by static strengths, the game by those a mayor reads.
    special = piecewise(ruleset) and (bool(ruleset.bonuses) or pooled
                                      or bool(ruleset.feature_strengths and ruleset.tie_kind >= 0))
    return special or pooling or unfollowed or any(kind.completes for kind in kinds) \
        or any(name.startswith("points_") for name in read_by(ruleset.bonuses))
