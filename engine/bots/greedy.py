"""The greedy bot: the move that leaves it furthest ahead if the game ended now."""

from __future__ import annotations

import random
from typing import TypeVar

from ..core.choices import PLACE_DECISION, decision_kind
from ..core.game import Game
from ..core.lookahead import Lookahead
from ..core.moves import Move
from ..core.trial import BonusLookahead, PiecewiseLookahead, TrialLookahead, look_ahead
from .valuing import decision_values, margin, offered_values

T = TypeVar("T")


class GreedyPlayer:
    """Maximises its own score-if-the-game-ended-now minus the best opponent's,
    computed with the ruleset's own formulas (so it plays any variant's scoring)
    from the features each move touches (:class:`~engine.core.lookahead.Lookahead`).
    Ties between equally good moves are broken at random.  Declining a personal tile
    offered (:data:`~engine.core.moves.DRAW`) is worth the margin as it stands, since
    nothing is placed now: the bot places its abbey as soon as that gains anything.  A
    follower that may move on is weighed the same way, each destination and home
    tried on a copy of the game, and a tile of the hand (``deck.hand``) by the best move it
    allows.

    ``keep`` (points, default 0) adds that much to a seat's measure for each follower in its
    supply that it has a turn left to place: a follower placed costs ``keep`` unless its feature
    completes at once (:func:`~engine.core.supply_value.kept_points`).  ``greedy:keep=2`` won 71.1 %
    of 400 seat-swapped ``basic`` games against plain greedy, at no cost a move
    (benchmarks/results/strength-greedy-keep-2-vs-greedy.json).
    """

    name = "greedy"

    def __init__(self, seed: int | str | None = None, *, keep: int = 0) -> None:
        self.rng = random.Random(seed)
        self.keep = keep

    def choose_start(self, game: Game) -> int:
        # On an empty board every rotation scores alike: pick one at random.
        return self.rng.randrange(4)

    def choose(self, game: Game) -> Move:
        me, keep = game.player, self.keep
        if decision_kind(game) is not PLACE_DECISION:  # a held tile to pick, a follower to move on, …
            candidates = decision_values(game, keep)
        else:
            look = look_ahead(game, keep)
            extra = offered_values(game, keep)  # the personal tile's decline, …
            if not isinstance(look, TrialLookahead) and not extra:
                return self._place(game, look)
            candidates = look.moves() + extra
        best = _ties(candidates, me)
        return best[self.rng.randrange(len(best))]

    def _place(self, game: Game, look: Lookahead | BonusLookahead | PiecewiseLookahead) -> Move:
        """The best placement of the drawn tile, as :meth:`choose` weighs it (the same ties, in the
        same order), building a :class:`Move` only for the one chosen."""
        me = game.player
        # The loop of _ties written out: this is greedy's hot path, and a tuple a candidate costs 3 %.
        best: list[tuple[int, int, int | None, int]] = []
        best_value = 0
        for pos, rotation in game.placements():
            for j, t, totals in look.potentials(pos, rotation):
                value = margin(totals, me)
                if not best or value > best_value:
                    best, best_value = [(pos, rotation, j, t)], value
                elif value == best_value:
                    best.append((pos, rotation, j, t))
        pos, rotation, j, t = best[self.rng.randrange(len(best))]
        return Move(pos, rotation, j, t)


def _ties(candidates: list[tuple[T, list[int]]], me: int) -> list[T]:
    """The candidates of the largest :func:`margin` for ``me``, in their order (the bot picks among them)."""
    best: list[T] = []
    best_value = 0
    for candidate, totals in candidates:
        value = margin(totals, me)
        if not best or value > best_value:
            best, best_value = [candidate], value
        elif value == best_value:
            best.append(candidate)
    return best
