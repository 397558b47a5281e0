"""rescore, compare and scenario checks under issue 15's rules: a short deck, game-end bonuses.
(A newcomer found rescore playing 71 turns under a 40-tile deck, bonuses missing from the
paired differences, and scenarios ignoring deck.size.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.errors import UserError
from engine.files.record import load_record
from engine.files.scenario import load_scenario, run_scenario
from engine.sim.rescore import rescore

ROOT = Path(__file__).parents[2]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=600)


def test_rescoring_a_whole_game_under_a_short_deck_stops_after_its_tiles(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    assert run("play", "--ruleset", "basic", "--seed", "2", "--quiet", "--record", str(record)).returncode == 0
    base, short = rescore(load_record(record), ["basic+short-game"])
    assert base.stopped is None
    assert short.stopped is not None and short.stopped[0] == 41 and "after the end of the game" in short.stopped[1]


def test_rescore_names_a_bonus_and_counts_it_per_kind(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    assert run("play", "--ruleset", "basic", "--seed", "2", "--quiet", "--record", str(record)).returncode == 0
    base, bonus = rescore(load_record(record), ["basic+longest-road-bonus"])
    assert "longest-road" in bonus.kinds
    paid = [e for e in bonus.events if e["kind"] == "longest-road"]
    assert len(paid) == 1 and paid[0]["points"] == 5
    assert [sum(by_kind.values()) for by_kind in bonus.by_kind] == bonus.scores
    result = run("rescore", str(record), "--ruleset", "basic+longest-road-bonus")
    assert result.returncode == 0, result.stderr
    assert "longest-road bonus: 5 for" in result.stdout and "(?,?)" not in result.stdout


def test_compare_pairs_the_bonus_points_too(tmp_path: Path) -> None:
    out = tmp_path / "compare.json"
    result = run("compare", "basic", "basic+longest-road-bonus", "--games", "6", "--seed", "1", "--workers", "1",
                 "--json", str(out))
    assert result.returncode == 0, result.stderr
    difference = json.loads(out.read_text())["differences"][0]["points_by_kind_difference"]
    # Every game has a longest road held, worth 5 to each holder (tied holders all score it).
    assert difference["longest-road"]["mean"] >= 5.0
    assert "-0.00" not in result.stdout


def test_a_scenario_cannot_play_more_tiles_than_the_deck_deals(tmp_path: Path) -> None:
    option = tmp_path / "three.yaml"
    option.write_text("name: three\ndescription: three tiles\nsource: test\npatch:\n  deck:\n    size: 3\n")
    scenario = tmp_path / "s.yaml"
    turns = "\n".join(f"  - {{tile: U, at: [{x}, 0], rotation: 1}}" for x in range(1, 5))
    scenario.write_text(f"rulesets: [basic+{option}]\nplayers: [A, B]\nturns:\n{turns}\n"
                        f"expect:\n  basic+{option}: {{final: {{A: 0, B: 0}}}}\n")
    with pytest.raises(UserError, match="turn 4 is one more than the 3 tiles deck.size deals"):
        run_scenario(load_scenario(scenario))


def test_rescore_takes_a_personal_tile_from_its_player_not_the_stack(tmp_path: Path) -> None:
    abbeys = ROOT / "tests" / "scenarios" / "rulesets" / "abbey-supply.yaml"
    record = tmp_path / "game.json"
    assert run("play", "--ruleset", str(abbeys), "--players", "random,random", "--seed", "1", "--quiet",
               "--record", str(record)).returncode == 0
    turns = json.loads(record.read_text())["turns"]
    first = next(i for i, turn in enumerate(turns) if turn.get("personal"))
    own, basic = rescore(load_record(record), ["basic"])
    assert own.stopped is None  # the abbeys (count 0 in the stacks) are the players' own
    assert basic.stopped is not None and basic.stopped[0] == first + 1
