"""Every scenario file in tests/scenarios holds: exact scores worked out from the rules text."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.files.scenario import load_scenario, run_scenario

SCENARIOS = sorted((Path(__file__).parents[1] / "scenarios").glob("*.yaml"))


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 10


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario(path: Path) -> None:
    doc = load_scenario(path)
    assert doc.data.get("expect"), "a scenario must state expected scores"
    outcomes = run_scenario(doc)
    for outcome in outcomes:
        assert not outcome.failures, f"[{outcome.ruleset}] " + "; ".join(outcome.failures)
    assert {o.ruleset for o in outcomes} >= set(doc.data["expect"])
