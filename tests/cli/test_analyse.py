"""``carcassonne analyse``: the HTML page is whole and offline, and bad usage is refused before any
game is played (exit 2, a located message, nothing written)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.cli import app


def invoke(*args: str):
    return CliRunner().invoke(app, ["analyse", *args])


def run(*args: str) -> subprocess.CompletedProcess:
    """The command as a user runs it: errors become file:line:col messages and exit 2."""
    return subprocess.run([sys.executable, "-m", "engine.cli", "analyse", *args], capture_output=True, text=True,
                          timeout=300)


def test_the_html_report_is_one_offline_page(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    page = tmp_path / "report.html"
    outcome = invoke("basic", "basic+tiny-city", "-n", "3", "-p", "random,random", "--workers", "1",
                     "--html", str(page))
    assert outcome.exit_code == 0, outcome.output
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and text.count("<svg") == 1 and "</html>" in text
    assert "Under basic+tiny-city the first seat wins" in text and "carcassonne-rules" in text
    assert not re.search(r"""(src|href)\s*=\s*["']?https?:""", text)  # nothing is fetched from the network


@pytest.mark.parametrize("args, message", [
    (["basic", "--sweep", "farm_points=5..1"], "LOW must not be above HIGH"),
    (["basic", "--sweep", "farm_points"], "--sweep wants NAME=LOW..HIGH"),
    (["basic", "--sweep", "farm_points=1..100"], "at most 25"),
    (["basic", "--sweep", "farm_pts=1..3"], "basic has no constant 'farm_pts' to sweep"),
    (["basic", "--strong", "greedy"], "--strong and --weak go together"),
    (["basic", "basic"], "a ruleset reference is given twice"),
    (["basic", "--strong", "nobody", "--weak", "random"], "nobody"),
    (["basic", "--ladder", "greedy"], "--ladder greedy: name at least two bots, weakest first"),
    (["basic", "--ladder", "random,greedy", "--strong", "mcts", "--weak", "random"], "give --ladder or --strong"),
    (["basic", "--ladder", "random,nobody"], "nobody"),
    (["basic", "--ladder", "random,greedy", "-p", "random,random,random"], "the skill measure plays two-player"),
])
def test_bad_usage_is_refused_before_any_game(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "out.json"
    outcome = run(*args, "-n", "2", "--json", str(out))
    assert outcome.returncode == 2 and message in outcome.stderr, (outcome.stdout, outcome.stderr)
    assert "Traceback" not in outcome.stderr and not out.exists()


def test_deals_is_the_option_and_the_report_reads_back(tmp_path: Path) -> None:
    """Issue 50: ``-n`` said games and counted deals; ``--deals`` names it (``-n`` and ``--games`` still
    work).  The JSON says what was not measured and why, and the findings say so."""
    out = tmp_path / "out.json"
    outcome = run("basic", "--deals", "3", "-p", "random,random", "--workers", "1", "--json", str(out))
    assert outcome.returncode == 0, outcome.stderr
    data = json.loads(out.read_text())
    assert data["games"] == 3 and data["ladder"] == [] and data["not_measured"] == {
        "skill": "no --strong/--weak or --ladder was given"}
    assert any(line.startswith("Skill was not measured") for line in data["findings"])
    unit = data["units"][0]
    assert unit["shape"]["turns"]["mean"] == 71 and unit["shape"]["seconds"]["mean"] > 0
    assert 0 <= unit["balance"]["draw_rate"]["mean"] <= 1
    help_text = run("--help").stdout
    assert "--deals" in " ".join(help_text.split())

