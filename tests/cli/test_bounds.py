"""Numeric options are bounded by click before any work: out of range is a usage error
(exit 2) that names the option, and nothing is played or written."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300)


@pytest.mark.parametrize("args, option", [
    (("simulate", "basic", "--games", "0"), "'--games'"),
    (("simulate", "basic", "--games", str(10**9 + 1)), "'--games'"),
    (("simulate", "basic", "--games", str(10**12)), "'--games'"),
    (("compare", "basic", "first-edition", "-n", str(10**12)), "'--games'"),
    (("simulate", "basic", "--seed", str(2**63)), "'--seed'"),
    (("simulate", "basic", "--seed", "-1"), "'--seed'"),
    (("compare", "basic", "first-edition", "--seed", str(10**30)), "'--seed'"),
    (("simulate", "basic", "--workers", "513"), "'--workers'"),
    (("simulate", "basic", "--workers", "0"), "'--workers'"),
    (("compare", "basic", "first-edition", "-w", "100000"), "'--workers'"),
    (("play", "--seed", str(2**63)), "'--seed'"),
    (("render", "g.json", "--turn", str(10**9 + 1), "--svg", "b.svg"), "'--turn'"),
    (("render", "g.json", "--turn", "-1", "--svg", "b.svg"), "'--turn'"),
])
def test_out_of_range_is_a_usage_error(tmp_path: Path, args: tuple[str, ...], option: str) -> None:
    (tmp_path / "g.json").write_text("{}")
    result = run(*args, "--json", "out.json", cwd=tmp_path) if args[0] in ("simulate", "compare") else \
        run(*args, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "Usage:" in result.stderr and option in result.stderr and "Traceback" not in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


def test_the_largest_values_are_accepted(tmp_path: Path) -> None:
    result = run("simulate", "basic", "-n", "2", "-s", str(2**63 - 1), "-w", "512", "--json", "-", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["seed"] == 2**63 - 1
    assert run("play", "-s", str(2**63 - 1), "-q", cwd=tmp_path).returncode == 0


def test_render_turn_beyond_the_record_is_a_usage_error(tmp_path: Path) -> None:
    assert run("play", "-s", "2", "-q", "--record", "g.json", cwd=tmp_path).returncode == 0
    turns = len(json.loads((tmp_path / "g.json").read_text())["turns"])
    result = run("render", "g.json", "--turn", str(turns + 1), "--svg", "b.svg", cwd=tmp_path)
    assert result.returncode == 2 and "Usage:" in result.stderr
    assert f"Invalid value for '--turn': {turns + 1} is more than the {turns} turns of g.json" in result.stderr
    assert not (tmp_path / "b.svg").exists()
    assert run("render", "g.json", "--turn", str(turns), "--svg", "b.svg", cwd=tmp_path).returncode == 0
