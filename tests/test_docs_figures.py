"""The tables of docs/study-planning.md say what their committed result files hold.

Each table cell is read back, rounded as the CLI rounds (Python's format), from the
``compare --json`` output kept in
benchmarks/results/ (``benchmarks/cli_result.py``), so a table edited by hand,
or a result file rerun without the table, fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
STUDY = ROOT / "docs" / "study-planning.md"
RESULTS = {"With greedy players": "study-planning-greedy.json", "With search players": "study-planning-mcts.json"}


def tables() -> dict[str, list[list[str]]]:
    """Per section heading (its start), the rows of the table under it: ``[measure, cells…]``."""
    found: dict[str, list[list[str]]] = {}
    for section in re.split(r"^## ", STUDY.read_text(), flags=re.M)[1:]:
        heading = next((name for name in RESULTS if section.startswith(name)), None)
        if heading is None:
            continue
        rows = [[cell.strip() for cell in line.strip().strip("|").split("|")]
                for line in section.splitlines() if line.startswith("|")]
        found[heading] = rows
    return found


def expected(summary: dict, measure: str) -> str:
    """The cell ``measure`` of one ruleset's ``summary`` as the table writes it."""
    seat = re.fullmatch(r"seat (\d) score", measure)
    if seat:
        score = summary["mean_score"][int(seat.group(1)) - 1]
        return f"{score['mean']:.1f} [{score['ci95'][0]:.1f}, {score['ci95'][1]:.1f}]"
    kind = re.fullmatch(r"(\w+) points", measure)
    if kind:
        return f"{summary['points_by_kind'][kind.group(1)]:.1f}"
    if measure == "seat 1 wins":
        return f"{summary['first_seat_win_rate'] * 100:.1f} %"
    if measure == "winning margin":
        return f"{summary['mean_winning_margin']:.1f}"
    raise AssertionError(f"no result field for the row '{measure}'")


@pytest.mark.parametrize("heading", sorted(RESULTS))
def test_every_cell_is_in_the_result_file(heading: str) -> None:
    result = json.loads((ROOT / "benchmarks" / "results" / RESULTS[heading]).read_text())
    assert set(result) == {"provenance", "seconds", "output"} and "+dirty" not in result["provenance"]["commit"]
    header, _, *rows = tables()[heading]
    rulesets = header[1:]
    assert rulesets == list(result["output"]["rulesets"])
    assert len(rows) >= 6
    for measure, *cells in rows:
        measure = measure.removesuffix(" (per player, means)")
        for ref, cell in zip(rulesets, cells):
            assert cell == expected(result["output"]["rulesets"][ref], measure), (heading, measure, ref)


ANALYSE = ROOT / "docs" / "analyse.md"


def test_the_editions_report_quotes_its_result_file() -> None:
    """docs/analyse.md quotes findings of the shipped editions' report (lines starting ``> ``); each is
    one of the findings ``analyse`` wrote into benchmarks/results/analyse-editions.json, and the page
    docs/reports/editions.html holds them too."""
    result = json.loads((ROOT / "benchmarks" / "results" / "analyse-editions.json").read_text())
    assert set(result) == {"provenance", "seconds", "output"} and "+dirty" not in result["provenance"]["commit"]
    section = ANALYSE.read_text().split("## The shipped editions", 1)[1]
    quoted = [line[2:].strip() for line in section.splitlines() if line.startswith("> ")]
    assert len(quoted) >= 4
    findings = result["output"]["findings"]
    page = (ROOT / "docs" / "reports" / "editions.html").read_text()
    for line in quoted:
        assert line in findings, line
        assert line.replace("'", "&#x27;") in page, line


def _quoted_results() -> list[str]:
    """The result files README.md and docs/ name (``benchmarks/results/NAME``)."""
    texts = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return sorted({name for path in texts
                   for name in re.findall(r"benchmarks/results/([\w.-]+\.(?:json|txt))", path.read_text())})


@pytest.mark.parametrize("name", _quoted_results())
def test_quoted_result_files_come_from_clean_trees(name: str) -> None:
    """A figure the docs quote was measured on a committed tree (issue 51): its file exists, names
    its commit, and the commit is not ``+dirty``."""
    path = ROOT / "benchmarks" / "results" / name
    assert path.is_file(), f"{name} is quoted but not committed"
    text = path.read_text()
    if name.endswith(".json"):
        data = json.loads(text)
        commit = data.get("commit") or data.get("provenance", {}).get("commit")
        assert commit, f"{name} names no commit"
        assert "+dirty" not in commit, f"{name} was measured on an uncommitted tree ({commit})"
    else:
        assert re.search(r"\b[0-9a-f]{7,40}\b", text), f"{name} names no commit"
        assert "+dirty" not in text, f"{name} was measured on an uncommitted tree"

