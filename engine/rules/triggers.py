"""Triggers: at a named moment, an effect on the pieces it concerns (docs/rulesets.md, "Triggers").

``when: scored`` (a feature completes and is scored during the game) with
``effect: move``: each follower of the named type
on the scored feature may, by its owner's choice, move on to a feature that is
not complete and holds no follower, of a kind the type may go on, with a
segment on a tile within ``within`` tiles (a king's move) of the tile it stood
on, instead of going home (Abbey & Mayor's wagon, as Wikicarpedia restates the
new edition's rule: "a feature on the same tile as the wagon or on a tile
orthogonally or diagonally adjacent to it").  The engine's side is
:mod:`engine.core.moving`.

``when: deployed`` (a piece of the type is deployed) or ``when: placed`` (a tile
is placed, after its deployment) with ``effect: score``: a feature that holds a
piece of the type and pieces of other types is scored at once with the
trigger's ``score``, for the majority of those other pieces, which go home
(Abbey & Mayor's barn: placed on a field with farmers, they score 3 points a
completed city; a tile that joins farmers' field to a barn's, 1 point).  The
engine's side is :mod:`engine.core.triggered`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .follower_types import FollowerType, piece_formula_inputs
from .kind_inputs import own_inputs
from .kinds import FeatureKind, Score, compile_score
from .problems import Problems
from .seats import seat_gives
from .source import Document

#: The moment each effect may be set off at.
MOMENTS = {"move": ("scored",), "score": ("deployed", "placed")}


@dataclass(frozen=True, slots=True)
class ScoreTrigger:
    """``effect: score``: at ``when`` (``deployed`` or ``placed``), a feature holding a piece of
    type ``follower`` (an index) and pieces of other types scores ``score`` for their majority;
    ``own`` are the ``(own_T input, type index)`` pairs the score reads, so that each majority
    player is scored on their own pieces (a pig beside the farmers a barn scores)."""

    name: str
    when: str
    follower: int
    score: Score
    own: tuple[tuple[str, int], ...] = ()


def compile_triggers(doc: Document, follower_types: tuple[FollowerType, ...], kinds: list[FeatureKind],
                     problems: Problems) -> tuple[tuple[tuple[int, int], ...], tuple[ScoreTrigger, ...]]:
    """``(movers, scorers)``: ``(follower type index, within)`` of each ``when: scored, effect:
    move`` trigger, in type order, and each ``effect: score`` trigger in document order.
    Problems (``trigger``): an unknown follower type, a type moved by two triggers, an effect at a
    moment it cannot have, ``within`` on a score or ``score`` missing from one, a formula that
    does not compile; warnings (``trigger-never-fires``): a type no player has, or one that goes
    only on kinds that never complete during the game (fields), so nothing of it is ever scored
    to move on."""
    by_name = {t.name: t.index for t in follower_types}
    movers: dict[int, int] = {}
    scorers = []
    for name, spec in doc.data.get("triggers", {}).items():
        at = ("triggers", name)
        index = by_name.get(spec["follower"])
        effect, when = spec["effect"], spec["when"]
        if when not in MOMENTS[effect]:
            problems.at(at + ("when",), f"effect {effect} happens when {' or '.join(MOMENTS[effect])}, not when "
                        f"{when}", "trigger")
        elif effect == "score" and "score" not in spec:
            problems.at(at, "effect score needs 'score': the points the other pieces' majority scores", "trigger",
                        key=True)
        elif effect == "score" and "within" in spec:
            problems.at(at + ("within",), "'within' is how far a piece moves on (effect move)", "trigger", key=True)
        elif effect == "move" and "score" in spec:
            problems.at(at + ("score",), "'score' is what effect score pays", "trigger", key=True)
        elif index is None and spec["follower"] in doc.data.get("follower_types", {}):
            continue  # a type with a problem of its own, reported there
        elif index is None:
            known = ", ".join(by_name)
            problems.at(at + ("follower",), f"'{spec['follower']}' is not a follower type (the types: {known})",
                        "trigger")
        elif effect == "score":
            # The kinds it is written for, taking followers or not (no-farmers: a warning elsewhere).
            listed = doc.data.get("follower_types", {}).get(spec["follower"], {}).get("kinds")
            on = [k.name for k in kinds if k.name in listed] if listed else \
                [kinds[k].name for k in sorted(follower_types[index].kinds)]
            own = own_inputs(doc.data)
            inputs = {**piece_formula_inputs(doc.data, on), **{n: int for n in own}}
            score = compile_score(doc, at + ("score",), spec["score"], inputs, problems)
            if score is not None:
                reads = tuple((n, t) for n, t in own.items() if any(n in f.names for _, f in score.items))
                scorers.append(ScoreTrigger(name, when, index, score, reads))
            if not follower_types[index].count and not seat_gives(doc, spec["follower"]):
                problems.warn(at + ("follower",), f"no player has a {spec['follower']} (count 0), so this trigger "
                              "never fires", "trigger-never-fires")
        elif index in movers:
            problems.at(at + ("follower",), f"{spec['follower']} already moves by another trigger", "trigger")
        else:
            movers[index] = spec.get("within", 1)
            _never_fires(follower_types[index], kinds, at + ("follower",), problems, seat_gives(doc, spec["follower"]))
    return tuple(sorted(movers.items())), tuple(scorers)


def _never_fires(follower_type: FollowerType, kinds: list[FeatureKind], at: tuple, problems: Problems,
                 given: bool) -> None:
    name = follower_type.name
    if not follower_type.count and not given:  # ``given``: some seat has one all the same (``seats``)
        problems.warn(at, f"no player has a {name} (count 0), so this trigger never fires", "trigger-never-fires")
    elif all(kinds[k].completion == "never" for k in follower_type.kinds):
        where = ", ".join(sorted(kinds[k].name for k in follower_type.kinds))
        problems.warn(at, f"a {name} goes only on {where}, which never complete during the game, so it is never "
                      "scored to move on and this trigger never fires", "trigger-never-fires")
