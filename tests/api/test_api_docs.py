"""docs/api.md's code runs as written, and its table of sizes is what the code counts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.api.actions import DEFAULT_CROP, ActionCodec
from engine.rules.ruleset import load_ruleset

API = Path(__file__).parents[2] / "docs" / "api.md"


@pytest.mark.parametrize("index", range(6))
def test_the_code_blocks_run(index):
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")
    blocks = re.findall(r"```python\n(.*?)```", API.read_text(), re.S)
    assert len(blocks) == 6
    if "sb3_contrib" in blocks[index]:
        pytest.importorskip("sb3_contrib", reason="the rl extra is not installed")
    exec(compile(blocks[index], f"docs/api.md block {index + 1}", "exec"), {})


def test_the_table_of_sizes_is_what_the_code_counts():
    from engine.api.observation import Layout
    from engine.api.planes import CompactLayout

    pytest.importorskip("numpy", reason="the observation needs numpy")
    text = API.read_text()
    section = text[text.index("| ruleset | placements | slots |"):].split("\n\n")[0]
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in section.splitlines()[2:]]
    assert len(rows) == 10
    for name, placements, slots, actions, planes, floats, compact_planes, compact_values in rows:
        ref = re.match(r"`([^`]+)`", name).group(1)
        if "every expansion" in name:
            ref = ("basic+river+inns-and-cathedrals+traders-and-builders+abbey-and-mayor+king-and-robber-baron"
                   "+hills+vineyards")
        ruleset = load_ruleset(ref)
        codec, layout = ActionCodec.for_ruleset(ruleset, DEFAULT_CROP), Layout(ruleset, 2, DEFAULT_CROP)
        compact = CompactLayout(ruleset, 2, DEFAULT_CROP)
        counted = [f"{codec.placements:,}", str(codec.slots), f"{codec.size:,}", str(layout.pieces[0][1][1]),
                   f"{layout.size:,}", str(compact.board_shape[0]), f"{compact.size:,}"]
        assert [placements, slots, actions, planes, floats, compact_planes, compact_values] == counted, name


def test_the_crop_figures_are_the_committed_spans():
    import json

    spans = json.loads((API.parents[1] / "benchmarks" / "results" / "board-spans.json").read_text())
    text = " ".join(API.read_text().split())
    games = spans["games"]
    assert f"over {games['random']:,} random-player and {games['greedy']} greedy games" in text
    assert f"the widest map was {spans['widest']} cells" in text
    assert f"`{spans['command']}`" in text
    assert spans["widest"] < DEFAULT_CROP and len(spans["rulesets"]) == 30


def test_the_cost_table_is_the_committed_result_file():
    """Each row of "What it costs" is read back from benchmarks/results/observation.json."""
    import json

    result = json.loads((API.parents[1] / "benchmarks" / "results" / "observation.json").read_text())
    text = API.read_text()
    assert f"commit {result['commit']}" in " ".join(text.split()) and "+dirty" not in result["commit"]
    names = {"basic": "basic",
             "basic+abbey-and-mayor+inns-and-cathedrals+traders-and-builders": "basic + A&M + I&C + T&B"}
    for row in result["rows"]:
        cells = [names[row["ruleset"]], row["observation"], f"{row['values']:,}", f"{row['fill_us']:,.0f} µs",
                 f"{row['openspiel_us']:,.0f} µs", f"{row['openspiel_list_us']:,.0f} µs",
                 f"{row['pettingzoo_step_us']:,.0f} µs", f"{row['engine_move_us']:,.0f} µs",
                 f"{row['train_step_ms']:.1f} ms"]
        assert "| " + " | ".join(cells) + " |" in text, cells
