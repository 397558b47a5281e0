"""The README's table of planning under the richer rulesets says what its two committed result
files hold (benchmarks/rulesets.py): a table edited by hand, or a result file rerun without
the table, fails here."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).parents[1]
RESULTS = ROOT / "benchmarks" / "results"
WORKLOADS = ("random", "greedy", "mcts")


def ratio(x: float) -> str:
    """A multiple of basic's as the table writes it: two decimals, as the result file holds it."""
    return f"{x:.2f}×"


def table_rows() -> list[list[str]]:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("**Planning under the richer rulesets.**"):]
    lines = section[section.index("| ruleset |"):].splitlines()
    table = lines[:next(i for i, line in enumerate(lines) if not line.startswith("|"))]
    return [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in table[2:]]


def test_every_cell_is_in_the_result_files() -> None:
    now = json.loads((RESULTS / "rulesets-spots.json").read_text())
    before = json.loads((RESULTS / "rulesets-standing.json").read_text())
    assert "+dirty" not in now["commit"] and before["commit"] == "4d1c77f"
    assert now["commit"] in (ROOT / "README.md").read_text()
    rows = table_rows()
    assert [row[0].strip("`") for row in rows] == list(now["table"])
    for name, *cells in rows:
        ref = name.strip("`")
        for workload, cell in zip(WORKLOADS, cells):
            if ref == "basic":
                assert cell == f"{now['table'][ref][workload]['median_s'] * 1000:.1f} ms"
                continue
            was = ratio(before["table"][ref][workload]["x_basic"])
            assert cell == f"{ratio(now['table'][ref][workload]['x_basic'])} ({was})", (ref, workload)
