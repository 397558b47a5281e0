"""Follower types compiled from ``followers`` and ``follower_types``.

Type 0 is ``normal``: ``followers`` of them per player, strength 1, on every
deployable kind.  Each entry of ``follower_types`` adds a type (docs/rulesets.md,
"Follower types"): a count per player, a strength in majorities (an integer or
a formula over the constants: the large follower counts as two, a builder or a
pig as none; or a formula over the feature it stands on: the mayor counts as its
city's ``pennants``), the kinds it may go on, ``needs``: types of which the same
player must already have a follower on the feature (the builder and the pig),
and ``extra_turn``: extending a feature holding one gives its owner one more
tile (the builder).  Deploy rules and payout (the barn): ``spot: corner`` puts it
where four tiles' corners of its kind meet instead of on a segment; ``join`` lets
it go on a feature other players' pieces hold; ``keeps_out`` refuses every piece
a feature holding one; ``pays: owner`` takes it out of the majority and pays each
owner with one on a scored feature, ``score`` points (a formula over the feature;
default the kind's own).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from .kind_inputs import shared_inputs
from .kinds import FeatureKind, Score, compile_score
from .problems import Problems
from .source import Document

NORMAL = "normal"
#: In ``needs``: any of the player's followers that can count in a majority (strength above 0, or
#: a strength formula).
ANY = "any"
#: The most one follower counts for in a majority, as a number or worked out on a feature.
MAX_STRENGTH = 255
#: What lets a type go on a feature of a kind it goes on (:meth:`FollowerType.rule_on`): ``needs``
#: met (asked each time), always (``join``), the feature free under ``rules.deploy``, or never.
NEEDS: Final = 0
JOINS: Final = 1
FREE: Final = 2
NEVER: Final = 3


@dataclass(frozen=True, slots=True)
class FollowerType:
    """``count`` per player; ``strength`` per follower in a majority; ``kinds`` the kind
    indices it may go on; ``needs`` type indices one of which the player must already have
    on the feature (empty: the ruleset's ``rules.deploy`` decides)."""

    name: str
    index: int
    count: int
    strength: int
    kinds: frozenset[int]
    needs: tuple[int, ...] = ()
    #: Extending a feature that holds one of its owner's followers of this type gives an extra turn.
    extra_turn: bool = False
    #: A strength that reads the feature (``pennants``): worked out on each feature it is weighed on
    #: (:func:`engine.core.strength.feature_weights`); ``strength`` is then 1, what the type counts
    #: as where no feature is at hand (``needs: [any]``, pictures).
    strength_of: Score | None = None
    #: ``segment`` (default) or ``corner``: where four tiles' corners of one of its kinds meet.
    spot: str = "segment"
    #: It may go on a feature other players' pieces hold (``rules.deploy`` does not apply to it).
    join: bool = False
    #: No piece is deployed on a feature holding one.
    keeps_out: bool = False
    #: ``pays: owner``: out of the majority; each seat with one on a scored feature is paid ``score``.
    pays_owner: bool = False
    #: What it pays its owner (``pays: owner``), over the feature's inputs; None: the kind's formula.
    score: Score | None = None
    #: How pictures draw it (:data:`engine.view.figures.FIGURES`): ``meeple`` (default), ``barn``
    #: (default on a corner), ``builder``, ``pig``, ``mayor`` or ``wagon``.
    figure: str = "meeple"

    def rule_on(self, kind: FeatureKind) -> int:
        """What lets one go on a feature of ``kind`` (one of :attr:`kinds`): :data:`NEEDS` when it
        has ``needs``; else :data:`NEVER` on a kind that takes no followers, :data:`JOINS` with
        ``join``, :data:`FREE` (the feature free under ``rules.deploy``) otherwise."""
        if self.needs:
            return NEEDS
        if not kind.deployable:
            return NEVER
        return JOINS if self.join else FREE


def compile_follower_types(doc: Document, kinds: list[FeatureKind], problems: Problems) -> tuple[FollowerType, ...]:
    """The normal type, then ``follower_types`` in document order; problems are collected
    (``follower-type``: the names normal and any, an unknown kind, an unknown type in ``needs``, a
    strength formula that is not a number; a warning for a kind that takes no followers)."""
    data = doc.data
    deployable = frozenset(k.index for k in kinds if k.deployable)
    by_name = {k.name: k for k in kinds}
    specs = data.get("follower_types", {})
    names = [NORMAL, *specs]
    constants = data.get("constants", {})
    found = [FollowerType(NORMAL, 0, data.get("followers", 7), 1, deployable)]
    for index, (name, spec) in enumerate(specs.items(), start=1):
        at = ("follower_types", name)
        if name == NORMAL:
            problems.at(at, "'normal' is the type of 'followers'; give its count there", "follower-type", key=True)
            continue
        if name == ANY:
            problems.at(at, "'any' is the word needs uses for every type that counts; name the type otherwise",
                        "follower-type", key=True)
            continue
        allowed = set()
        for i, kind_name in enumerate(spec.get("kinds", ())):
            kind = by_name.get(kind_name)
            if kind is None:
                problems.at(at + ("kinds", i), f"'{kind_name}' is not a feature kind", "follower-type")
            elif not kind.deployable:  # an option took the kind's followers away (no-farmers): a warning
                problems.warn(at + ("kinds", i), f"'{kind_name}' takes no followers (deployable: false), so no "
                              f"{name} goes there", "follower-type")
            else:
                allowed.add(kind.index)
        needs = []
        for i, other in enumerate(spec.get("needs", ())):
            if other == ANY:
                needs.append(-1)  # filled in below, once every type's strength is known
            elif other not in names or other == name:
                problems.at(at + ("needs", i), f"'{other}' is not another follower type (types: "
                            f"{', '.join(n for n in names if n != name)}; or any)", "follower-type")
            else:
                needs.append(names.index(other))
        on = frozenset(allowed) if "kinds" in spec else deployable
        strength = spec.get("strength", 1)
        strength_of = None
        listed = [k for k in spec.get("kinds", ()) if k in by_name]
        if len(listed) < len(spec.get("kinds", ())):
            continue  # a strength reads what the type's kinds have: not checked against kinds in error
        if not isinstance(strength, str) and not 0 <= strength <= MAX_STRENGTH:
            problems.at(at + ("strength",), f"strength {strength} is outside 0-{MAX_STRENGTH}", "follower-type")
            continue
        if isinstance(strength, str):  # a formula; previous: the strength it replaces
            inputs = piece_formula_inputs(data, listed if "kinds" in spec else [kinds[k].name for k in sorted(on)])
            score = compile_score(doc, at + ("strength",), strength, inputs, problems)
            if score is None:
                continue
            if all(n in constants for _, formula in score.items for n in formula.names):
                strength = score(constants)  # constants only: one number for the whole game
                if not 0 <= strength <= MAX_STRENGTH:
                    problems.at(at + ("strength",), f"strength {strength} is outside 0-{MAX_STRENGTH}",
                                "follower-type")
                    continue
            else:
                strength, strength_of = 1, score
        payout = _payout(doc, at, spec, listed if "kinds" in spec else [kinds[k].name for k in sorted(on)],
                         [kinds[k] for k in sorted(on)], problems)
        if payout is None:
            continue
        pays_owner, score = payout
        found.append(FollowerType(name, index, spec["count"], 0 if pays_owner else strength, on, tuple(needs),
                                  bool(spec.get("extra_turn", False)), None if pays_owner else strength_of,
                                  spec.get("spot", "segment"), bool(spec.get("join", False)),
                                  bool(spec.get("keeps_out", False)), pays_owner, score,
                                  spec.get("figure", "barn" if spec.get("spot") == "corner" else "meeple")))
    counting = tuple(t.index for t in found if t.strength > 0)
    return tuple(replace(t, needs=tuple(dict.fromkeys(n2 for n in t.needs for n2 in ((n,) if n >= 0 else counting)
                                                     if n2 != t.index)))
                 for t in found)


def _payout(doc: Document, at: tuple, spec: dict, kind_names: list[str], on: list[FeatureKind],
            problems: Problems) -> tuple[bool, Score | None] | None:
    """``(pays its owner, what it pays)`` of a type; None after a problem (``follower-type``): a
    ``score`` without ``pays: owner``, a ``strength`` with it (it weighs in no majority), a corner
    ``spot`` on a kind whose ports are not half-sides (only a half-side kind's segment can hold a
    tile's corner), a formula that does not compile."""
    owner = spec.get("pays", "majority") == "owner"
    if owner and "strength" in spec:
        problems.at(at + ("strength",), "a piece that pays its owner stays out of every majority, so a strength "
                    "has nothing to weigh: leave it out, or pay the majority (pays: majority)", "follower-type")
        return None
    if spec.get("spot") == "corner":
        whole = sorted(k.name for k in on if k.ports != "half")
        if whole:
            problems.at(at + ("spot",), f"a corner lies on a kind whose ports are half-sides (fields); "
                        f"{', '.join(whole)} {'is' if len(whole) == 1 else 'are'} not", "follower-type")
            return None
    if "score" not in spec:
        return owner, None
    if not owner:
        problems.at(at + ("score",), "score is what a piece pays its owner: give it with 'pays: owner'",
                    "follower-type", key=True)
        return None
    score = compile_score(doc, at + ("score",), spec["score"], piece_formula_inputs(doc.data, kind_names), problems)
    return (owner, score) if score is not None else None


def piece_formula_inputs(data: dict, kinds: list[str]) -> dict[str, type]:
    """What a formula worked out on the feature a piece stands on may read (a strength, a
    ``score``, a score trigger's): the constants, and the inputs that every kind of ``kinds``
    (those the type may go on) gives its features (``tiles``, ``segments``, ``complete``, shared
    attributes such as a city's ``pennants``, a field's ``completed_cities``)."""
    inputs = shared_inputs([data["features"][name] for name in kinds])
    inputs.update({c: int for c in data.get("constants", {})})
    return inputs
