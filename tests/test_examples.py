"""The examples run as their docstrings say: the learned value trains at a tiny size, and its
committed full run says what docs/learning.md quotes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="the example needs numpy (the stats extra)")

ROOT = Path(__file__).parents[1]
RESULT = ROOT / "benchmarks" / "results" / "learn-a-value.json"


def test_the_learned_value_trains_and_plays_at_a_tiny_size(tmp_path):
    result = tmp_path / "learn.json"
    run = subprocess.run([sys.executable, "examples/learn_a_value.py", "--games", "3", "--rounds", "1", "--eval", "1",
                          "--final", "1", "--mcts-games", "1", "--seconds", "0.01", "--workers", "1",
                          "--result", str(result)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    report = json.loads(result.read_text())
    assert [c["round"] for c in report["curve"]] == [0, 1] and report["chosen round"] in (0, 1)
    assert len(report["weights"]) == len(report["features"]) == 9
    assert report["curve"][1]["positions"] > report["curve"][0]["positions"] > 0
    for match in (report["final"]["against greedy"], report["final"]["against random"],
                  report["search, model leaf against playouts"]):
        assert match["games"] == 2 and 0 <= match["share"] <= 1
    assert report["command"].startswith("python examples/learn_a_value.py --games 3")


def test_a_bad_ruleset_is_refused_before_any_work():
    run = subprocess.run([sys.executable, "examples/learn_a_value.py", "--ruleset", "no-such-ruleset"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "no-such-ruleset" in run.stderr and "Traceback" not in run.stderr


def test_docs_quote_the_committed_full_run():
    report = json.loads(RESULT.read_text())
    text = (ROOT / "docs" / "learning.md").read_text()
    final = report["final"]
    for name, match in (("greedy", final["against greedy"]), ("random", final["against random"]),
                        ("the search bot with greedy playouts", report["search, model leaf against playouts"])):
        low, high = match["interval"]
        assert f"{match['share'] * 100:.1f} % [{low * 100:.1f}, {high * 100:.1f}] of {match['games']} games " \
               f"against {name}" in text
    assert f"(round {report['chosen round']})" in text
    curve = ", ".join(f"{c['against greedy']['share'] * 100:.1f} %" for c in report["curve"])
    assert " ".join(curve.split()) in " ".join(text.split())
    assert re.search(rf"trained in {report['training seconds'] // 60} min", text)
    assert report["command"] in text
