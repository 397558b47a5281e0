"""The README's examples work as written."""

from __future__ import annotations

import re
from pathlib import Path

from engine.files.scenario import load_scenario, run_scenario

README = Path(__file__).parents[1] / "README.md"


def test_readme_scenario_example_holds(tmp_path: Path) -> None:
    blocks = [b for b in re.findall(r"```yaml\n(.*?)```", README.read_text(), re.S) if b.startswith("rulesets:")]
    assert blocks
    for i, block in enumerate(blocks):
        path = tmp_path / f"readme_{i}.yaml"
        path.write_text(block)
        outcomes = run_scenario(load_scenario(path))
        assert outcomes and not any(o.failures for o in outcomes), [o.failures for o in outcomes]
