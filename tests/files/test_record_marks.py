"""What a record (format version 2) says beyond the moves: which tiles were extra turns, and
the final scores that paid 0; and that a version 1 record, which said neither, still replays."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.cli import app
from engine.core.game import Game
from engine.errors import UserError
from engine.files.record import load_record, replay
from engine.files.scenario import load_scenario, run_scenario
from engine.files.turn_entries import play_turn
from engine.rules.ruleset import load_ruleset
from engine.rules.source import load_yaml
from engine.sim.play import play_game
from engine.view.viewer import replay_html

SCENARIOS = Path(__file__).parents[1] / "scenarios"


@pytest.fixture(scope="module")
def builder_game() -> dict:
    """A greedy game under Traders & Builders in which builders earn extra turns."""
    return play_game(load_ruleset("basic+traders-and-builders"), ["greedy", "greedy"], 4).record


def extra_by_seats(record: dict) -> list[int]:
    """The indices of the placements that are extra turns, worked out from the seats alone:
    a placement whose seat placed the tile before it too (a discard keeps the seat, so it
    does not count as the tile before)."""
    placements = [i for i, t in enumerate(record["turns"]) if not t.get("discarded")]
    return [b for a, b in zip(placements, placements[1:])
            if record["turns"][a]["player"] == record["turns"][b]["player"]]


def write(tmp_path: Path, data: dict) -> Path:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data, indent=1))
    return path


def test_the_record_marks_every_extra_turn_and_no_other(builder_game: dict) -> None:
    marked = [i for i, t in enumerate(builder_game["turns"]) if t.get("extra_turn")]
    assert builder_game["version"] == 5
    assert marked and marked == extra_by_seats(builder_game)


def test_replay_checks_the_marks(tmp_path: Path, builder_game: dict) -> None:
    assert replay(load_record(write(tmp_path, builder_game)))[1] == []
    first = extra_by_seats(builder_game)[0]
    unmarked = copy.deepcopy(builder_game)
    del unmarked["turns"][first]["extra_turn"]
    assert replay(load_record(write(tmp_path, unmarked)))[1] == [
        f"turn {first + 1} is not marked as an extra turn, but it is one"]
    wrong = copy.deepcopy(builder_game)
    wrong["turns"][0]["extra_turn"] = True
    assert replay(load_record(write(tmp_path, wrong)))[1] == [
        "turn 1 is marked as an extra turn, but it is not one"]


def test_play_json_and_the_viewer_mark_the_extra_turns(tmp_path: Path, builder_game: dict) -> None:
    record = tmp_path / "g.json"
    outcome = CliRunner().invoke(app, ["play", "-r", "basic+traders-and-builders", "-p", "greedy,greedy",
                                       "-s", "4", "--record", str(record), "--json", "-"])
    assert outcome.exit_code == 0, outcome.output
    turns = json.loads(record.read_text())["turns"]
    placements = [t for t in turns if not t.get("discarded")]
    # Events number the turns by the tiles placed, from 1.
    assert json.loads(outcome.stdout)["extra_turns"] == [n for n, t in enumerate(placements, 1) if t.get("extra_turn")]
    page = replay_html(load_record(record))
    payload = json.loads(re.search(r"const DATA = (\{.*?\});\n", page).group(1).replace("<\\/", "</"))
    titles = [step["title"] for step in payload["steps"][1:-1]]  # between the start and final scoring
    assert [n for n, title in enumerate(titles) if title.endswith("(an extra turn)")] == \
        [i for i, t in enumerate(turns) if t.get("extra_turn")]
    # Followers in words, as the log gives them: "builder on city@N", not "follower on builder:city@N".
    builders = [title for title in titles if "builder" in title]
    assert builders and all(re.search(r", builder on \w+@\w+", title) for title in builders)


def test_a_follower_whose_feature_pays_0_at_the_end_gets_its_score_event() -> None:
    # Scenario 65 (Inns & Cathedrals): A's knight stays on an open cathedral city, which pays
    # 0 at game end (Wikicarpedia's Inns & Cathedrals rules).
    doc = load_yaml(str(SCENARIOS / "65_inns_cathedrals_incomplete_cathedral_completed_inn.yaml"))
    game = Game(load_ruleset("basic+inns-and-cathedrals"), 2, 0, draw_order=[])
    for i, turn in enumerate(doc.data["turns"]):
        play_turn(game, turn, doc, ("turns", i))
    final = [e for e in game.finish() if e.kind == "city"]
    assert [(e.rule, e.points, e.players, e.tiles) for e in final] == [("incomplete", 0, (0,), ((0, -1), (0, 0)))]
    assert final[0].explain(["A", "B"]).endswith("→ 0 for A")


def test_a_version_1_record_replays_as_written(tmp_path: Path) -> None:
    # Version 1 wrote no extra_turn marks and left out final scores of 0: a game with both.
    ruleset = load_ruleset("basic+traders-and-builders+inns-and-cathedrals")
    for seed in range(40):
        record = play_game(ruleset, ["greedy", "greedy"], seed).record
        if any(t.get("extra_turn") for t in record["turns"]) and \
                any(e["phase"] == "final" and e["points"] == 0 for e in record["events"]):
            break
    else:
        pytest.fail("no seed gave a game with an extra turn and a final score of 0")
    old = copy.deepcopy(record)
    old["version"] = 1
    for turn in old["turns"]:
        turn.pop("extra_turn", None)
    old["events"] = [e for e in old["events"] if e["phase"] != "final" or e["points"]]
    assert replay(load_record(write(tmp_path, old)))[1] == []
    assert replay(load_record(write(tmp_path, {**old, "version": 2})))[1] != []  # version 2 reads them as missing
    old["turns"][0]["extra_turn"] = False
    with pytest.raises(UserError) as info:
        replay(load_record(write(tmp_path, old)))
    (found,) = info.value.diagnostics
    assert (found.message, found.path) == ("a version 1 record has no extra_turn marks (version 2 added them)",
                                           "$.turns[0].extra_turn")


def test_a_scenario_that_misplaces_an_extra_turn_fails(tmp_path: Path) -> None:
    # Scenario 67: turn 5 earns A an extra turn, turn 6 is it.  Swapped marks fail at turn 5.
    text = (SCENARIOS / "67_traders_builders_builder_extra_turn.yaml").read_text()
    swapped = text.replace("extra_turn: false}", "extra_turn: TRUE}").replace(
        "extra_turn: true}", "extra_turn: false}").replace("TRUE", "true")
    path = tmp_path / "s.yaml"
    path.write_text(swapped)
    outcomes = run_scenario(load_scenario(path))
    assert {tuple(o.failures) for o in outcomes} == {
        ("turn 5 (A: U at [3, 0] r1): marked as an extra turn, but it is not one",)}


def test_a_record_refuses_an_illegal_probe(tmp_path: Path, builder_game: dict) -> None:
    # A newcomer added `illegal: follower` to a record's turn: replay played it as if it were not there.
    builder_game["turns"][3]["illegal"] = "placement"
    with pytest.raises(UserError, match="'illegal' probes belong in scenarios") as raised:
        replay(load_record(write(tmp_path, builder_game)))
    assert raised.value.diagnostics[0].code == "replay"
    # Every reader of records refuses it alike (a second look found rescore and render playing it).
    from engine.sim.rescore import rescore
    from engine.view.render import board_after

    for read in (lambda doc: rescore(doc, []), board_after):
        with pytest.raises(UserError, match="'illegal' probes belong in scenarios"):
            read(load_record(write(tmp_path, builder_game)))
