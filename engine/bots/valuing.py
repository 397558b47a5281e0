"""How the bots value a position, and the options of every decision, in one place.

The placement decision's moves are valued by the look-ahead (:func:`engine.core.trial.look_ahead`);
any other decision kind (:mod:`engine.core.mechanisms`) by :data:`BY_DECISION`, or, for a kind
not listed there, each option played on a copy of the game (:func:`trial_values`): a mechanism
that adds a decision kind is played by the bots without a line here.  A move a mechanism offers
beside the placements (the personal tile's decline) is valued by :data:`BY_OFFER`, or by trial.
"""

from __future__ import annotations

from typing import Callable

from ..core.choices import PLACE_DECISION, decision_kind, offered
from ..core.game import Game
from ..core.moves import DECLINE, Move
from ..core.supply_value import kept_points, turns_ahead
from ..core.trial import look_ahead

#: A decision's options with the bots' measure of each: ``(move, points per seat)``.
Valued = list[tuple[Move, list[int]]]


def measure(game: Game, keep: int = 0, turns: list[int] | None = None) -> list[int]:
    """The bots' measure of a position, per seat: the score if the game ended now, plus ``keep``
    points for each follower in the seat's supply that it has a turn left to place (``turns`` per
    seat; default those of ``game`` before its drawn tile is placed,
    :func:`~engine.core.supply_value.turns_ahead`)."""
    potential = game.potential_scores()
    if not keep:
        return potential
    kept = kept_points(game.supply, turns_ahead(game, after_move=False) if turns is None else turns, keep)
    return [points + extra for points, extra in zip(potential, kept)]


def margin(totals: list[int], me: int) -> int:
    """``me``'s points minus the best opponent's (0 with no opponent)."""
    best = 0
    first = True
    for p, points in enumerate(totals):
        if p != me and (first or points > best):
            best, first = points, False
    return totals[me] - best


def trial_values(game: Game, keep: int = 0, moves: list[Move] | None = None) -> Valued:
    """``(move, measure per seat)`` for each of ``moves`` (default: the legal moves), each played
    on a copy with no draw after it (:func:`measure`): a follower that may move on
    (:mod:`engine.core.moving`), or any decision kind :data:`BY_DECISION` does not name."""
    found = []
    turns = turns_ahead(game, after_move=True)
    for move in game.legal_moves() if moves is None else moves:
        trial = game.copy()
        trial.explain = False
        trial.play(move, checked=True, draw=False)
        found.append((move, measure(trial, keep, turns)))
    return found


def pick_values(game: Game, keep: int = 0) -> Valued:
    """``(pick, measure per seat)`` for each tile type the player holds (``deck.hand``): the
    measures of its best move by the player's margin, each pick played on a copy."""
    me = game.player
    found = []
    for pick in game.legal_moves():
        trial = game.copy()
        trial.explain = False
        trial.play(pick, checked=True, draw=False)
        found.append((pick, max((totals for _, totals in look_ahead(trial, keep).moves()),
                                key=lambda t: margin(t, me))))
    return found


def declining_value(game: Game, move: Move, keep: int) -> list[int]:
    """Declining the personal tile offered (:data:`~engine.core.moves.DRAW`): the position as it
    stands, the player with one more turn ahead (nothing is placed now)."""
    return measure(game, keep, turns_ahead(game, after_move=True, declined=True))


#: The valuation of each decision kind but placing, by name (others: :func:`trial_values`).
BY_DECISION: dict[str, Callable[[Game, int], Valued]] = {"pick": pick_values}

#: The valuation of each kind of move offered beside the placements (others: by trial).
BY_OFFER: dict[int, Callable[[Game, Move, int], list[int]]] = {DECLINE: declining_value}


def decision_values(game: Game, keep: int = 0) -> Valued:
    """The options of a decision other than placing, valued (:data:`BY_DECISION`, else by trial)."""
    value = BY_DECISION.get(decision_kind(game).name)
    return trial_values(game, keep) if value is None else value(game, keep)


def offered_values(game: Game, keep: int = 0) -> Valued:
    """The moves offered beside the placements (:func:`~engine.core.choices.offered`), valued."""
    found = []
    for move in offered(game):
        value = BY_OFFER.get(move.kind)
        found.append((move, value(game, move, keep)) if value is not None else trial_values(game, keep, [move])[0])
    return found


def candidates(game: Game, keep: int = 0) -> Valued:
    """Every option of the decision the player to move faces, valued: placements by the
    look-ahead, then what is offered beside them; another decision kind's by :func:`decision_values`."""
    if decision_kind(game) is not PLACE_DECISION:
        return decision_values(game, keep)
    return look_ahead(game, keep).moves() + offered_values(game, keep)
