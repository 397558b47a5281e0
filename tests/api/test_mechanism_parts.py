"""The observations' mechanism parts (engine/api/mechanism_parts.py): each ruleset gets the parts
of the mechanisms it has, in the registry's order, the same numbers in both layouts."""

from __future__ import annotations

import math

import pytest

from engine.api.mechanism_parts import PARTS, parts_of
from engine.rules.ruleset import load_ruleset

pytest.importorskip("numpy", reason="the observations need numpy")

#: Per ruleset, the mechanisms whose parts it has.
HAS = {
    "basic": [],
    "basic+traders-and-builders": ["tokens"],
    "basic+abbey-and-mayor": ["personal"],
    "basic+king-and-robber-baron": ["titles"],
    "basic+hand-of-two": ["hands"],
    "basic+draw-three-keep-one+king-and-robber-baron+traders-and-builders": ["tokens", "titles", "hands"],
}


@pytest.mark.parametrize("ref", HAS)
def test_a_ruleset_has_the_parts_of_its_mechanisms_in_order(ref: str) -> None:
    from engine.api.observation import Layout
    from engine.api.planes import CompactLayout

    ruleset = load_ruleset(ref)
    parts = parts_of(ruleset, 3)
    assert [part.mechanism for part in parts] == HAS[ref]
    assert [p.mechanism for p in PARTS if p.mechanism in HAS[ref]] == HAS[ref]
    compact, full = CompactLayout(ruleset, 3, 35), Layout(ruleset, 3, 35)
    for part in parts:
        assert [name for name, _ in part.compact] == [name for name, _ in part.full]
        assert [n for _, n in part.compact] == [math.prod(shape) for _, shape in part.full]
        assert set(part.compact) <= set(compact.scalars) and set(part.full) <= set(full.pieces)
    named = {name for part in parts for name, _ in part.compact}
    assert named == {name for name, _ in compact.scalars} - {"to_move", "scores", "potential", "pieces", "tile",
                                                               "unseen"}


def test_every_part_is_in_some_shipped_ruleset() -> None:
    seen = {mechanism for mechanisms in HAS.values() for mechanism in mechanisms}
    assert seen == {part.mechanism for part in PARTS}
