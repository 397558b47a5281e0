"""A command never writes one of its outputs over another, or over a file it reads
(found by a hostile newcomer: `replay g.json --json g.json` replaced the record)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=120)


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("record")
    assert run("play", "-s", "3", "-q", "--record", "game.json", cwd=folder).returncode == 0
    return folder / "game.json"


@pytest.mark.parametrize("args, kept", [
    (("replay", "{r}", "--json", "{r}"), "{r}"),
    (("replay", "{r}", "--html", "{r}"), "{r}"),
    (("render", "{r}", "--svg", "{r}"), "{r}"),
    (("render", "{r}", "--svg", "b.svg", "--png", "b.svg"), "{r}"),
    (("rescore", "{r}", "-r", "first-edition", "--json", "{r}"), "{r}"),
    (("play", "-s", "1", "-q", "--record", "{r}", "--json", "{r}"), "{r}"),
    (("simulate", "basic", "-n", "2", "-w", "1", "--out", "{r}", "--json", "{r}"), "{r}"),
    (("tiles", "basic", "--svg", "{r}", "--png", "{r}"), "{r}"),
    (("rulesets", "validate", "rules.yaml", "--json", "rules.yaml"), "rules.yaml"),
    (("rulesets", "show", "rules.yaml", "--json", "rules.yaml"), "rules.yaml"),
    (("simulate", "rules.yaml", "-n", "2", "-w", "1", "--json", "./rules.yaml"), "rules.yaml"),
    (("scenario", "check", "s1.yaml", "--json", "s1.yaml"), "s1.yaml"),
])
def test_an_output_over_another_file_of_the_command_is_refused(args: tuple[str, ...], kept: str, record: Path,
                                                               tmp_path: Path) -> None:
    shutil.copy(record, tmp_path / "game.json")
    shutil.copy(ROOT / "rulesets" / "basic.yaml", tmp_path / "rules.yaml")
    scenario = (ROOT / "tests" / "scenarios" / "01_s1_tiny_city.yaml").read_text()
    (tmp_path / "s1.yaml").write_text(scenario)
    target = tmp_path / kept.replace("{r}", "game.json")
    before = target.read_bytes()
    result = run(*(a.replace("{r}", "game.json") for a in args), cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "is the same file as" in result.stderr and "Traceback" not in result.stderr
    assert target.read_bytes() == before


def test_render_checks_the_seat_count_like_replay(record: Path, tmp_path: Path) -> None:
    data = json.loads(record.read_text())
    data["players"] = data["players"][:1]
    one = tmp_path / "one.json"
    one.write_text(json.dumps(data))
    for args in (("render", "one.json", "--svg", "x.svg"), ("replay", "one.json")):
        result = run(*args, cwd=tmp_path)
        assert result.returncode == 2 and "is for 2–5 players, not 1" in result.stderr, result.stderr
    assert not (tmp_path / "x.svg").exists()


def test_a_kind_without_formulas_plays_and_lists_its_points(tmp_path: Path) -> None:
    """A kind may score nothing (here the road): its events still reach the score table and JSON."""
    (tmp_path / "no-road-points.yaml").write_text("extends: basic\nname: no-road-points\n"
                                                   "features:\n  road:\n    scoring: null\n")
    result = run("play", "-r", "no-road-points.yaml", "-s", "1", "-q", "--json", "out.json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    data = json.loads((tmp_path / "out.json").read_text())
    assert [sum(p.values()) for p in data["points_by_kind"]] == data["scores"]["final"]
    assert all(p.get("road", 0) == 0 for p in data["points_by_kind"])
