"""What the game end pays: the features' final scores, then the game-end bonuses.

RULES.md §3.1 "Game end" scores incomplete features and farms
(:func:`engine.core.scoring.end_scores`); a ruleset's ``bonuses`` come after
them, in the order the ruleset lists them (docs/rulesets.md, "Game-end
bonuses").  A bonus compares the players on its ``value``, a formula over
their aggregates (:func:`engine.core.tallies.aggregates`): with ``award:
most`` the player or players with the greatest value score ``points``
(``ties: all`` pays every tied player in full, ``ties: none`` nobody on a
tie); with ``award: each`` every player scores ``points`` on their own value.
A value of 0 or less earns nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules.kinds import ScoreRangeError
from .scoring import Paid, ScoreEvent, Scored, check_totals, end_scores
from .tallies import aggregates

if TYPE_CHECKING:
    from ..rules.bonuses import Bonus
    from .game import Game


def final_scores(game: "Game", explain: bool = True) -> list[Scored]:
    """Every score the game end pays, not applied: the features' (:func:`end_scores`), then
    each bonus's.  Raises :class:`~engine.errors.UserError` ``score-range`` for a score, or a
    total after it, beyond ±MAX_POINTS."""
    events = end_scores(game, explain)
    if not game.ruleset.bonuses:
        return events
    shares: list[dict[str, int]] = [{} for _ in range(game.players)]
    for event in events:
        for p in event.players:
            shares[p][event.kind] = shares[p].get(event.kind, 0) + event.points
    inputs = aggregates(game, shares)
    bonuses = [event for bonus in game.ruleset.bonuses for event in _bonus(game, bonus, inputs, explain)]
    totals = list(game.scores)
    check_totals(game, events, totals)  # bonuses count from the totals after the features' scores
    check_totals(game, bonuses, totals)
    return events + bonuses


def end_totals(game: "Game") -> list[int]:
    """Points each seat would get from the game end now (as :func:`final_scores`)."""
    totals = [0] * game.players
    for event in final_scores(game, explain=False):
        for p in event.players:
            totals[p] += event.points
    return totals


def _bonus(game: "Game", bonus: "Bonus", inputs: list[dict[str, int]], explain: bool) -> list[Scored]:
    try:
        values = [int(bonus.value(env)) for env in inputs]
        if bonus.award == "each":
            winners = [(p,) for p, v in enumerate(values) if v > 0]
        else:
            best = max(values)
            tied = tuple(p for p, v in enumerate(values) if v == best)
            winners = [tied] if best > 0 and (len(tied) == 1 or bonus.ties == "all") else []
        found: list[Scored] = []
        for group in winners:
            # Tied players whose aggregates give the same points share one event.
            by_points: dict[int, list[int]] = {}
            for p in group:
                by_points.setdefault(int(bonus.points({**inputs[p], "value": values[p]})), []).append(p)
            for points, players in by_points.items():
                env = {**inputs[players[0]], "value": values[players[0]]}
                if not explain:
                    found.append(Paid(bonus.name, "bonus", points, tuple(players)))
                    continue
                found.append(ScoreEvent(phase="final", turn=game.turn, kind=bonus.name, rule="bonus",
                                        formula=bonus.points.text, points=points, players=tuple(players),
                                        followers=(), inputs={"value": values[players[0]]},
                                        terms=tuple(bonus.points.terms(env)), values=tuple(values)))
        return found
    except ScoreRangeError as error:
        raise error.at(f"turn {game.turn}, the {bonus.name} bonus") from None
