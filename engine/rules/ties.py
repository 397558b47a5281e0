"""Tie-breaks (``rules.tie_break``): a tied majority read again from where followers stand.

``rules: {tie_break: hill}`` names a feature kind that marks tiles (Hills & Sheep's
hills, a segment of a kind nobody stands on): when players tie for the majority of a
feature, those of them with a follower on the feature standing on a tile that has a
segment of that kind win it; if none of them has, they all share it as usual (RULES.md
§3.1).  The rule is Hills & Sheep's: "if two or more players occupy the same feature
equally ... but one of the tied players has a follower standing on a hill tile, that
player ... will score all the points for that feature" (blackdragongames.net,
carcassonne-hills-and-sheep); "hills, that may break ties in a feature being scored"
(Wikicarpedia, Hills_&_Sheep).  How the engine applies it is :mod:`engine.core.ties`;
docs/rulesets.md, "Rules".
"""

from __future__ import annotations

from .kinds import FeatureKind
from .problems import Problems
from .source import Document


def compile_tie_break(doc: Document, kinds: list[FeatureKind], problems: Problems) -> int:
    """The index of the kind ``rules.tie_break`` names, -1 without one; an unknown kind is a
    problem (``kind-unknown``)."""
    name = doc.data.get("rules", {}).get("tie_break")
    if name is None:
        return -1
    names = [kind.name for kind in kinds]
    if name not in names:
        problems.at(("rules", "tie_break"), f"unknown feature kind '{name}' (kinds: {', '.join(names)})",
                    "kind-unknown")
        return -1
    return names.index(name)
