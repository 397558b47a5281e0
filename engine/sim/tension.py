"""How a game's lead moves: lead changes, the turn that decided it, comebacks.

Each function reads a game's **trajectory**: after every placement turn ``t`` (1…T), each
seat's potential score — its score if the game ended then, final scoring included
(:meth:`engine.core.game.Game.potential_scores`), the engine's evaluation of who is ahead.
After the last turn it is the final score.  The **leaders** after a turn are the seats with
the highest potential score (several when tied).

The measures follow Ludii's game metrics (Ludeme/Ludii, Evaluation/src/metrics/single/
stateEvaluation: LeadChange, "average number of times the expected winner changes";
DecisivenessMoves, the share of the game played before the eventual winner is clearly
ahead) and Browne's aesthetic criteria for evolved games (C. Browne, Automatic Generation
and Evaluation of Recombination Games, 2008: lead change, drama, decisiveness), read with
the potential score as the evaluation.  docs/analyse.md defines each.
"""

from __future__ import annotations

import math
from typing import Sequence

#: A trajectory: per placement turn, each seat's potential score.
Trajectory = Sequence[Sequence[int]]


def leaders(scores: Sequence[int]) -> frozenset[int]:
    """The seats with the highest score (all of them when tied).

    >>> sorted(leaders([3, 7, 7]))
    [1, 2]
    """
    top = max(scores)
    return frozenset(p for p, s in enumerate(scores) if s == top)


def lead_changes(trajectory: Trajectory) -> int:
    """How many turns (after the first) change the set of leaders: a tie forming or breaking
    counts, as a new sole leader does.  0 for a game of at most one turn.

    >>> lead_changes([[0, 0], [2, 0], [2, 3], [5, 3]])
    3
    """
    sets = [leaders(scores) for scores in trajectory]
    return sum(1 for before, after in zip(sets, sets[1:]) if before != after)


def decided_turn(trajectory: Trajectory) -> int:
    """The first turn from which the leaders stay those of the last turn to the end (1…T): the
    turn the game was decided at, as the potential score tells.  A game led by its winners
    from the first turn is decided at turn 1; one whose lead changes on the last turn at T.

    >>> decided_turn([[0, 0], [2, 0], [2, 3], [5, 3], [6, 3]])
    4
    """
    if not trajectory:
        raise ValueError("a game of no turns has no decided turn")
    final = leaders(trajectory[-1])
    turn = len(trajectory)
    while turn > 1 and leaders(trajectory[turn - 2]) == final:
        turn -= 1
    return turn


def comeback(trajectory: Trajectory, winners: Sequence[int], point: float = 2 / 3) -> bool:
    """Whether none of the eventual ``winners`` was among the leaders after the turn at
    ``point`` of the game (turn ⌈point·T⌉; by default two thirds of the way): the game was
    won from behind (Browne's "drama", counted per game).

    >>> comeback([[0, 0], [0, 2], [1, 4], [9, 4]], [0])
    True
    """
    if not trajectory:
        raise ValueError("a game of no turns has no comeback")
    turn = max(1, math.ceil(len(trajectory) * point))
    return not leaders(trajectory[turn - 1]) & set(winners)
