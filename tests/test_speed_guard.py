"""The speed guard's instruction check (benchmarks/instructions.py) fails when the engine gets
slower, on the interpreter that recorded the counts and on any other (issue 51): a deliberate
20 % slowdown of either build fails, a whole interpreter that is slower at everything does not,
and nothing passes uncompared."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from engine.build_info import COMPILED, PURE, engine_build

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from instructions import REFERENCE, TOLERANCE, WORKLOADS, check  # noqa: E402

GUARD_FILES = {build: ROOT / "benchmarks" / "results" / f"instructions-guard-{build}.json"
               for build in ("compiled", "pure")}
RECORDED_PYTHON = "3.11.7 (main, May  9 2026, 07:35:25) [GCC 12.2.0]"
#: Counts as a guard file holds them: every workload, then the reference.
COUNTS = {**{name: 1_000_000 * (i + 1) for i, name in enumerate(WORKLOADS)}, REFERENCE: 50_000_000}


def _recorded(tmp_path: Path, counts: dict[str, int], engine: str | None = None,
              python: str = RECORDED_PYTHON) -> Path:
    path = tmp_path / "recorded.json"
    path.write_text(json.dumps({"engine": engine or engine_build(), "python": python,
                                "instructions": counts}))
    return path


def _scaled(counts: dict[str, int], workloads: float, reference: float = 1.0) -> dict[str, int]:
    return {name: round(n * (reference if name == REFERENCE else workloads)) for name, n in counts.items()}


def test_a_20_percent_slowdown_fails_under_the_recording_python(tmp_path: Path) -> None:
    recorded = _recorded(tmp_path, COUNTS)
    assert check(_scaled(COUNTS, 1.2), recorded, RECORDED_PYTHON) == 1
    assert check(_scaled(COUNTS, 1.05), recorded, RECORDED_PYTHON) == 0
    assert check(COUNTS, recorded, RECORDED_PYTHON) == 0


def test_a_20_percent_slowdown_fails_under_another_python(tmp_path: Path) -> None:
    """A build date a day later is another interpreter: compared by the reference, not skipped."""
    recorded = _recorded(tmp_path, COUNTS)
    other = RECORDED_PYTHON.replace("May  9", "May 10")
    assert check(_scaled(COUNTS, 1.2), recorded, other) == 1
    assert check(_scaled(COUNTS, 10.0), recorded, other) == 1
    # An interpreter 20 % slower at everything moves the reference alike: not the engine's fault.
    assert check(_scaled(COUNTS, 1.2, reference=1.2), recorded, other) == 0
    # An interpreter 20 % faster at everything but the engine no faster: the engine got slower.
    assert check(COUNTS, recorded, other) == 0
    assert check(_scaled(COUNTS, 1.0, reference=0.8), recorded, other) == 1


def test_nothing_passes_uncompared(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    no_reference = {name: n for name, n in COUNTS.items() if name != REFERENCE}
    other = RECORDED_PYTHON.replace("GCC 12.2.0", "GCC 13.1.0")
    assert check(COUNTS, _recorded(tmp_path, no_reference), other) == 1
    assert "holds no reference count" in capsys.readouterr().out
    other_build = PURE if engine_build() == COMPILED else COMPILED
    assert check(COUNTS, _recorded(tmp_path, COUNTS, engine=other_build), RECORDED_PYTHON) == 1
    missing = dict(COUNTS)
    del missing[next(iter(WORKLOADS))]
    assert check(COUNTS, _recorded(tmp_path, missing), RECORDED_PYTHON) == 1


@pytest.mark.parametrize("build", sorted(GUARD_FILES))
def test_the_committed_counts_fail_a_slowdown_of_their_build(build: str, tmp_path: Path) -> None:
    """Each build's committed guard file: complete, from a clean tree, and a 20 % slowdown of
    every workload measured against it fails under its own Python and under another."""
    data = json.loads(GUARD_FILES[build].read_text())
    assert set(data["instructions"]) == {*WORKLOADS, REFERENCE}
    assert "+dirty" not in data["commit"] and data["engine"].startswith(build)
    counts = data["instructions"]
    recorded = _recorded(tmp_path, counts, python=data["python"])
    for version in (data["python"], data["python"] + " (another build)"):
        assert check(_scaled(counts, 1.0 + (TOLERANCE - 1.0) / 2), recorded, version) == 0
        assert check(_scaled(counts, 1.2), recorded, version) == 1
