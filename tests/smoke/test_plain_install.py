"""The command line as a plain ``pip install .`` gives it: no extras, nothing but pytest to
test with (``.ci/run`` runs this folder in such a venv; the main run collects it too).

Every command a new user tries first works and writes what it says; a feature that needs
an extra says which one to install, before any game is played.  Commands run in a
temporary folder, so ``python -m engine.cli`` imports the installed package, not a
checkout beside it.  Nothing here may import hypothesis, numpy, scipy, matplotlib,
distributed or cairosvg.
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "tests" / "scenarios" / "01_s1_tiny_city.yaml"


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "engine.cli", *args], capture_output=True, text=True,
                            cwd=tmp_path, timeout=300, stdin=subprocess.DEVNULL)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def ok(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    result = run(tmp_path, *args)
    assert result.returncode == 0, (args, result.stdout, result.stderr)
    return result


def test_the_shipped_rulesets_are_found_wherever_the_package_is(tmp_path: Path) -> None:
    import engine
    from engine.resources import data_dir, rulesets_dir

    installed = ROOT not in Path(engine.__file__).resolve().parents
    folder = rulesets_dir()
    assert (folder / "basic.yaml").is_file() and (folder / "schema" / "record.schema.json").is_file()
    assert any(data_dir("grammar").iterdir())
    if installed:  # a wheel carries its data inside the package
        assert folder == Path(engine.__file__).resolve().parent / "_data" / "rulesets"
    listed = ok(tmp_path, "rulesets", "list").stdout
    assert "basic" in listed and "river" in listed


def test_play_replay_render_rescore(tmp_path: Path) -> None:
    played = ok(tmp_path, "play", "-p", "random,greedy", "-s", "7", "--record", "g.json")
    assert "Record written to g.json" in played.stdout
    assert "agree with the record" in ok(tmp_path, "replay", "g.json", "--html", "g.html").stdout
    assert (tmp_path / "g.html").read_text().startswith("<!DOCTYPE html>")
    ok(tmp_path, "render", "g.json", "--turn", "5", "--svg", "board.svg")
    assert (tmp_path / "board.svg").read_text().startswith("<svg")
    assert "differ from basic" in ok(tmp_path, "rescore", "g.json", "-r", "first-edition").stdout


def test_simulate_and_compare_need_no_extra(tmp_path: Path) -> None:
    simulated = ok(tmp_path, "simulate", "basic", "-n", "60", "-w", "2", "--out", "games.jsonl",
                   "--json", "simulate.json")
    assert "seat 1 (random) score" in simulated.stdout
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == 60
    ok(tmp_path, "compare", "basic", "first-edition", "-n", "60", "-w", "2", "--json", "compare.json")
    compared = json.loads((tmp_path / "compare.json").read_text())
    (difference,) = compared["differences"]
    low, high = difference["mean_score_difference"][0]["ci95"]
    assert low <= difference["mean_score_difference"][0]["mean"] <= high
    again = ok(tmp_path, "compare", "basic", "first-edition", "-n", "60", "-w", "1", "--json", "-").stdout
    assert json.loads(again)["differences"] == compared["differences"]  # any worker count, same numbers


def test_rulesets_tiles_scenarios_and_doctor(tmp_path: Path) -> None:
    assert "tiles" in ok(tmp_path, "tiles", "basic").stdout
    ok(tmp_path, "tiles", "basic", "--svg", "atlas.svg")
    assert "farm" in ok(tmp_path, "rulesets", "show", "basic").stdout
    assert ok(tmp_path, "scenario", "check", str(SCENARIO)).stdout.startswith("ok")
    report = json.loads(ok(tmp_path, "doctor", "--json", "-").stdout)
    assert set(report["extras"]) >= {"stats", "dask", "render"}


@pytest.mark.skipif(find_spec("matplotlib") is not None, reason="matplotlib is installed")
def test_plot_without_matplotlib_says_which_extra_before_playing(tmp_path: Path) -> None:
    result = run(tmp_path, "compare", "basic", "first-edition", "-n", "100000", "--plot", "f.png")
    assert result.returncode == 2 and "carcassonne-rules[stats]" in result.stderr and not result.stdout
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(find_spec("cairosvg") is not None, reason="cairosvg is installed")
def test_png_without_cairosvg_says_which_extra_and_writes_nothing(tmp_path: Path) -> None:
    result = run(tmp_path, "tiles", "basic", "--svg", "atlas.svg", "--png", "atlas.png")
    assert result.returncode == 2 and "carcassonne-rules[render]" in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(find_spec("distributed") is not None, reason="distributed is installed")
def test_scheduler_without_distributed_says_which_extra(tmp_path: Path) -> None:
    result = run(tmp_path, "simulate", "basic", "-n", "100000", "--scheduler", "tcp://127.0.0.1:8786")
    assert result.returncode == 2 and "carcassonne-rules[dask]" in result.stderr and not result.stdout


def test_the_search_bot_plays_and_its_record_replays(tmp_path: Path) -> None:
    played = ok(tmp_path, "play", "-p", "mcts:20,greedy", "-s", "3", "--quiet", "--record", "g.json")
    assert "mcts" in played.stdout
    assert json.loads((tmp_path / "g.json").read_text())["players"][0]["kind"] == "mcts:20"
    assert "agree with the record" in ok(tmp_path, "replay", "g.json").stdout


@pytest.mark.parametrize("module, library, extra", [("engine.api.openspiel", "pyspiel", "openspiel"),
                                                    ("engine.api.pettingzoo", "pettingzoo", "pettingzoo")])
def test_the_game_apis_say_which_extra_they_need(module: str, library: str, extra: str) -> None:
    if find_spec(library) is not None:
        pytest.skip(f"{library} is installed")
    result = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and f"carcassonne-rules[{extra}]" in result.stderr


@pytest.mark.skipif(find_spec("sb3_contrib") is not None, reason="the rl extra is installed")
def test_a_policy_player_without_the_rl_extra_says_which_extra_before_playing(tmp_path: Path) -> None:
    (tmp_path / "p.zip").write_bytes(b"")
    result = run(tmp_path, "play", "-p", "policy:p.zip,greedy", "-s", "3", "--record", "g.json")
    assert result.returncode == 2 and "carcassonne-rules[rl]" in result.stderr and not result.stdout
    assert [path.name for path in tmp_path.iterdir()] == ["p.zip"]


@pytest.mark.skipif(find_spec("uvicorn") is not None, reason="the web extra is installed")
def test_serve_without_the_web_extra_says_which_extra_and_writes_nothing(tmp_path: Path) -> None:
    result = run(tmp_path, "serve", "--port", "8799")
    assert result.returncode == 2 and "carcassonne-rules[web]" in result.stderr and not result.stdout
    assert list(tmp_path.iterdir()) == []  # no records folder


def test_the_web_table_page_files_are_installed() -> None:
    """The page's script and style ship in the package (``pip install .`` takes package data)."""
    import engine

    static = Path(engine.__file__).parent / "web" / "static"
    assert {p.name for p in static.iterdir()} >= {"table.js", "table.css", "index.js", "replay.js"}
