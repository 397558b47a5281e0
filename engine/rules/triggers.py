"""Triggers: at a named moment, an effect on the pieces it concerns (docs/rulesets.md, "Triggers").

One moment and one effect so far: ``when: scored`` (a feature completes and is
scored during the game) with ``effect: move``: each follower of the named type
on the scored feature may, by its owner's choice, move on to a feature that is
not complete and holds no follower, of a kind the type may go on, with a
segment on a tile within ``within`` tiles (a king's move) of the tile it stood
on, instead of going home (Abbey & Mayor's wagon, as Wikicarpedia restates the
new edition's rule: "a feature on the same tile as the wagon or on a tile
orthogonally or diagonally adjacent to it").  The engine's side is
:mod:`engine.core.moving`.
"""

from __future__ import annotations

from .follower_types import FollowerType
from .problems import Problems
from .source import Document


def compile_movers(doc: Document, follower_types: tuple[FollowerType, ...],
                   problems: Problems) -> tuple[tuple[int, int], ...]:
    """``(follower type index, within)`` of each ``when: scored, effect: move`` trigger, in type
    order; problems (``trigger``): an unknown follower type, a type named by two such triggers."""
    by_name = {t.name: t.index for t in follower_types}
    found: dict[int, int] = {}
    for name, spec in doc.data.get("triggers", {}).items():
        at = ("triggers", name)
        index = by_name.get(spec["follower"])
        if index is None:
            known = ", ".join(by_name)
            problems.at(at + ("follower",), f"'{spec['follower']}' is not a follower type (the types: {known})",
                        "trigger")
        elif index in found:
            problems.at(at + ("follower",), f"{spec['follower']} already moves by another trigger", "trigger")
        else:
            found[index] = spec.get("within", 1)
    return tuple(sorted(found.items()))
