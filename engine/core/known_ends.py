"""What the game end would pay each occupied feature, kept between the candidates of one move.

A look-ahead by trial (:mod:`engine.core.trial`) plays every candidate move on a
copy and reads the score if the game ended after it.  Scoring the whole board
again for each candidate repeats the same work: a tile placed at ``pos`` changes
the end scores of only

* the features with a segment on ``pos`` or on one of the 8 tiles around it (the
  features it joins or closes, a wild side's neighbours, the cloisters it
  surrounds, the ``around`` counts it changes: docs/rulesets.md, "Feature kinds");
* the features of an adjacency kind (farms) touching one of those (a city it
  completes is one more completed city for them);
* any feature whose root, followers or open sides the move changed in another way
  (a follower sent home by a trigger): checked for every kept feature.

:class:`KnownEnds` works out each occupied feature's end scores once per position
and hands them to :func:`engine.core.game_end.end_scores` for every feature none
of these touch.  Features that pool their final score (1st- and 2nd-edition
farms) and bonuses are worked out whole, and a ruleset whose kinds complete by a
formula (which may read other features) keeps nothing.  The test
(tests/core/test_known_ends.py) compares every candidate's value with scoring the
whole board, under every shipped option.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..geometry import RING8
from ..rules.kinds import ScoreRangeError
from .scoring import Scored, is_complete, kind_of, score_feature
from .totals import adjacent_of

if TYPE_CHECKING:
    from .game import Game

#: The rules under which :func:`engine.core.game_end.end_scores` scores a feature on its own.
RULES = ("incomplete", "final")


class KnownEnds:
    """The end scores (``Paid``, points only) of every occupied feature of ``game``, by root and
    rule (``incomplete``, ``final``), and which of them a placement may change.

    Use: :meth:`near` once per placement position, then :meth:`get` from the end scoring of a
    copy on which a move there was played.  ``usable`` is False where nothing is kept (a
    completion formula, or a score beyond the range: the trial then meets it as it always did)."""

    def __init__(self, game: "Game") -> None:
        self.game = game
        kinds = game.ruleset.kinds
        self.usable = not any(kind.completes for kind in kinds)
        #: Kinds whose final score pools several features: never kept.
        self._pooled = {k.index for k in kinds if k.pools}
        self._scores: dict[tuple[int, str], list[Scored]] = {}
        self._state: dict[int, tuple[int, int, list[int]]] = {}
        self._adjacent: dict[int, set[int]] = {}
        self._dirty: frozenset[int] = frozenset()
        self._trial: "Game | None" = None
        if self.usable:
            try:
                self._keep(game)
            except ScoreRangeError:
                self.usable = False

    def _keep(self, game: "Game") -> None:
        kinds = game.ruleset.kinds
        for root in game.occupied_roots():
            kind = kinds[kind_of(game, root)]
            self._state[root] = (game.fol[root], game.open[root], game.members[root])
            complete = is_complete(game, root)
            self._scores[(root, "incomplete")] = [] if kind.incomplete is None or complete else score_feature(
                game, root, complete=False, phase="final", rule="incomplete", explain=False)
            if kind.final is not None and kind.index not in self._pooled:
                self._scores[(root, "final")] = score_feature(game, root, complete=False, phase="final",
                                                              rule="final", explain=False)
            if kind.adjacency:
                self._adjacent[root] = adjacent_of(game, root)

    def near(self, pos: int) -> None:
        """Note that the next trials place a tile at ``pos``: the features with a segment on it or
        around it, and the kept features of an adjacency kind touching one of those, are worked
        out again (the module's docstring says why)."""
        game = self.game
        board, find = game.board, game.find
        touched: set[int] = set()
        for d in (0, *RING8):
            placed = board.get(pos + d)
            if placed is not None:
                first = placed[1]
                touched.update(find(first + j) for j in range(len(game.tiles[placed[2]].segments)))
        touched.update(root for root, adjacent in self._adjacent.items() if not adjacent.isdisjoint(touched))
        self._dirty = frozenset(touched)

    def watch(self, trial: "Game") -> None:
        """Score ``trial`` (a copy of the game with one move played at the last :meth:`near`) next."""
        self._trial = trial

    def get(self, root: int, rule: str) -> list[Scored] | None:
        """The kept end scores of the feature at ``root`` under ``rule`` on the watched trial, or
        None when they must be worked out (a feature the move may have changed, or not kept)."""
        found = self._scores.get((root, rule))
        if found is None or root in self._dirty:
            return None
        trial = self._trial
        assert trial is not None, "watch a trial first"
        fol, open_, members = self._state[root]
        if trial.parent[root] != root or trial.fol[root] != fol or trial.open[root] != open_ \
                or trial.members[root] is not members:
            return None
        return found
