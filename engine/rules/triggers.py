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
from .kinds import FeatureKind
from .problems import Problems
from .source import Document


def compile_movers(doc: Document, follower_types: tuple[FollowerType, ...], kinds: list[FeatureKind],
                   problems: Problems) -> tuple[tuple[int, int], ...]:
    """``(follower type index, within)`` of each ``when: scored, effect: move`` trigger, in type
    order; problems (``trigger``): an unknown follower type, a type named by two such triggers;
    warnings (``trigger-never-fires``): a type no player has, or one that goes only on kinds that
    never complete during the game (fields), so nothing of it is ever scored to move on."""
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
            _never_fires(follower_types[index], kinds, at + ("follower",), problems)
    return tuple(sorted(found.items()))


def _never_fires(follower_type: FollowerType, kinds: list[FeatureKind], at: tuple, problems: Problems) -> None:
    name = follower_type.name
    if not follower_type.count:
        problems.warn(at, f"no player has a {name} (count 0), so this trigger never fires", "trigger-never-fires")
    elif all(kinds[k].completion == "never" for k in follower_type.kinds):
        where = ", ".join(sorted(kinds[k].name for k in follower_type.kinds))
        problems.warn(at, f"a {name} goes only on {where}, which never complete during the game, so it is never "
                      "scored to move on and this trigger never fires", "trigger-never-fires")
