"""What the game end pays: the features' final scores, then the game-end bonuses.

RULES.md §3.1 "Game end" scores incomplete features and farms
(:func:`end_scores`); a ruleset's ``bonuses`` come after
them, in the order the ruleset lists them (docs/rulesets.md, "Game-end
bonuses").  A bonus compares the players on its ``value``, a formula over
their aggregates (:func:`engine.core.tallies.aggregates`): with ``award:
most`` the player or players with the greatest value score ``points``
(``ties: all`` pays every tied player in full, ``ties: none`` nobody on a
tie); with ``award: each`` every player scores ``points`` on their own value;
with ``award: title`` the title's holder (:mod:`engine.core.titles`) scores.
A value of 0 or less earns nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules.bonuses import read_by
from ..rules.kinds import ScoreRangeError
from .scoring import (
    Paid,
    Scored,
    ScoreEvent,
    check_totals,
    count_by_kind,
    explained,
    feature_inputs,
    is_complete,
    kind_of,
    majority_in,
    own_env,
    owner_paid,
    paid_only,
    score_feature,
)
from .tallies import aggregates
from .titles import of as titles_of
from .totals import adjacent_of

if TYPE_CHECKING:
    from ..rules.bonuses import Bonus
    from ..rules.kinds import FeatureKind
    from .game import Game
    from .known_ends import KnownEnds


def final_scores(game: "Game", explain: bool = True, known: "KnownEnds | None" = None) -> list[Scored]:
    """Every score the game end pays, not applied: the features' (:func:`end_scores`, taking
    those ``known`` keeps), then each bonus's.  Raises :class:`~engine.errors.UserError`
    ``score-range`` for a score, or a total after it, beyond ±MAX_POINTS."""
    events = end_scores(game, explain, known)
    if not game.ruleset.bonuses:
        return events
    read = read_by(game.ruleset.bonuses)
    shares: list[dict[str, int]] = [{} for _ in range(game.players)]
    if any(name.startswith("points_") for name in read):  # the only aggregate the final scores change
        for event in events:
            for p in event.players:
                shares[p][event.kind] = shares[p].get(event.kind, 0) + event.points
    inputs = aggregates(game, shares, read)
    bonuses = [event for bonus in game.ruleset.bonuses for event in bonus_scores(game, bonus, inputs, explain)]
    totals = list(game.scores)
    check_totals(game, events, totals)  # bonuses count from the totals after the features' scores
    check_totals(game, bonuses, totals)
    return events + bonuses


def end_totals(game: "Game", known: "KnownEnds | None" = None) -> list[int]:
    """Points each seat would get from the game end now (as :func:`final_scores`; ``known``:
    the end scores of another position's features that ``game`` still has,
    :mod:`engine.core.known_ends`)."""
    totals = [0] * game.players
    for event in final_scores(game, explain=False, known=known):
        for p in event.players:
            totals[p] = totals[p] + event.points
    return totals


def bonus_scores(game: "Game", bonus: "Bonus", inputs: list[dict[str, int]], explain: bool,
                 titles: list[tuple[int, int]] | None = None) -> list[Scored]:
    """What ``bonus`` pays at the game end, the seats' aggregates being ``inputs`` and the titles
    held as ``titles`` says (default: the game's, :attr:`~engine.core.titles.Settled.holders`)."""
    try:
        values = [int(bonus.value(env)) for env in inputs]
        winners: list[tuple[int, ...]]
        if bonus.award == "each":
            winners = [(p,) for p, v in enumerate(values) if v > 0]
        elif bonus.award == "title":  # its holder, on its record (engine/core/titles.py)
            held = titles_of(game).holders if titles is None else titles
            holder, record = held[game.ruleset.titles.index(bonus)]
            winners = [(holder,)] if holder >= 0 else []
            if holder >= 0:
                values[holder] = record
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


def end_scores(game: "Game", explain: bool = True, known: "KnownEnds | None" = None) -> list:
    """Final-scoring events (:class:`ScoreEvent`, or with ``explain=False`` :class:`Paid`),
    not applied (RULES.md §3.1 "Game end"): first every
    occupied incomplete feature under its ``incomplete`` formula, then, kind by
    kind, the ``final`` scores (farms) under the kind's majority rule:

    * ``majority: feature`` — each occupied feature for its majority (3rd-edition farms);
      with ``adjacent_pays_once`` each completed adjacent feature pays a player
      at most once over all their features (2nd-edition farms, per-player
      reading of RULES.md §5 point 1: order-independent);
    * ``majority: adjacent`` — each completed adjacent feature (city) once, for
      the majority of followers on all features of the kind touching it
      (1st-edition farms, seed 000).

    ``known`` (:class:`~engine.core.known_ends.KnownEnds`, points only) gives the scores of the
    features a look-ahead's move left as they were.
    Raises :class:`UserError` ``score-range`` for a score, or a total after it, beyond ±MAX_POINTS.
    """
    kinds = game.ruleset.kinds
    make = explained if explain else paid_only
    roots = [(root, kinds[kind_of(game, root)]) for root in game.occupied_roots()]
    events = [event for root, kind in roots if kind.incomplete is not None
              for event in _feature_end(game, root, "incomplete", explain, known)]
    for kind in kinds:
        mine = [root for root, k in roots if k is kind]
        if kind.final is None or not mine:
            continue
        if kind.pools:
            paying = _final_by_adjacent if kind.majority == "adjacent" else _final_paying_once
            events.extend(paying(game, kind, mine, make))
            if game.ruleset.owner_types:  # pieces that pay their owner do so feature by feature
                events.extend(event for root in mine for event in owner_paid(
                    game, root, kind, "final", feature_inputs(game, root, kind), "final", explain))
        else:
            events.extend(event for root in mine for event in _feature_end(game, root, "final", explain, known))
    check_totals(game, events, list(game.scores))
    return events


def _feature_end(game: "Game", root: int, rule: str, explain: bool, known: "KnownEnds | None") -> list[Scored]:
    """The feature at ``root``'s own end score under ``rule`` (``incomplete``: only if it is not
    complete; ``final``), from ``known`` where it keeps it."""
    found = known.get(root, rule) if known is not None else None
    if found is not None:
        return found
    if rule == "incomplete" and is_complete(game, root):
        return []
    return score_feature(game, root, complete=False, phase="final", rule=rule, explain=explain)


def _completed_adjacent(game: "Game", root: int) -> list[int]:
    """Completed adjacent features of the feature at ``root``, in a stable order."""
    return sorted(t for t in adjacent_of(game, root) if is_complete(game, t))


def _final_by_adjacent(game: "Game", kind: "FeatureKind", roots: list[int], make) -> list[Scored]:
    counts: dict[int, list[int]] = {}
    packed: dict[int, list[int]] = {}  # per target, the followers of every feature touching it
    sources: dict[int, list[int]] = {}  # and those features (where a tie-break looks)
    for root in roots:
        followers = game.followers_by_player(root)
        for target in _completed_adjacent(game, root):
            total = counts.setdefault(target, [0] * game.players)
            packed.setdefault(target, []).append(game.fol[root])
            sources.setdefault(target, []).append(root)
            for p, n in enumerate(followers):
                total[p] = total[p] + n
    kinds = game.ruleset.kinds
    events = []
    for target, followers in counts.items():
        env = target_inputs(game, kind, target)
        name = kinds[kind_of(game, target)].name
        players = majority_in(game, sources[target], followers)
        for group in ([(p,) for p in players] if kind.own else [players]):
            mine = own_env(game, kind.own, env, packed[target], group[0]) if kind.own and group else env
            events.append(make(game, kind, f"final, per {name}", kind.final, mine, followers,
                               group, target, "final", target=name))
    return events


def target_inputs(game: "Game", kind: "FeatureKind", target: int) -> dict[str, int | bool]:
    """The inputs of a ``majority: adjacent`` final score paid for the adjacent feature at
    ``target``: that feature's own inputs, and each of ``kind``'s adjacency inputs, 1 for the
    target's kind and 0 for the others (so one formula can pay cities and cloisters)."""
    target_kind = kind_of(game, target)
    env = feature_inputs(game, target, game.ruleset.kinds[target_kind])
    env.update((name, int(k == target_kind)) for k, name in zip(kind.adjacency, kind.adjacency_inputs))
    return env


def _final_paying_once(game: "Game", kind: "FeatureKind", roots: list[int], make) -> list[Scored]:
    paid: list[set[int]] = [set() for _ in range(game.players)]
    assert kind.adjacency, "only a kind that pays per adjacent feature pays each once"
    names = "/".join(game.ruleset.kinds[k].name for k in kind.adjacency)
    events = []
    for root in roots:
        env = feature_inputs(game, root, kind)
        followers = game.followers_by_player(root)
        completed = set(_completed_adjacent(game, root))
        for p in majority_in(game, [root], followers):
            fresh = completed - paid[p]
            paid[p] |= completed
            mine = own_env(game, kind.own, env, [game.fol[root]], p) if kind.own else dict(env)
            mine.update(zip(kind.adjacency_inputs, count_by_kind(game, kind, fresh)))
            events.append(make(game, kind, f"final, each {names} once per player",
                               kind.final, mine, followers, (p,), root, "final"))
    return events
