"""Buried tiles (deck.bury) in records and scenarios: written per turn, replayed, resumed, and every
way a record or a scenario can get them wrong refused with its place."""

from __future__ import annotations

import copy
import json

import pytest

from engine.core import burial
from engine.errors import UserError
from engine.files.record import record_from_text, replay
from engine.files.resume import resume
from engine.files.scenario import run_scenario
from engine.rules.ruleset import load_ruleset
from engine.rules.source import load_yaml
from engine.sim.play import play_game

RECORD = play_game(load_ruleset("basic+hills"), ["greedy", "random"], 3, ref="basic+hills").record
FIRST = next(i for i, turn in enumerate(RECORD["turns"]) if "buried" in turn)


def doc_of(record: dict):
    return record_from_text(json.dumps(record, indent=1), "game.json")


def edited(change) -> dict:
    record = copy.deepcopy(RECORD)
    change(record)
    return record


def test_a_record_names_each_buried_tile_and_replays() -> None:
    assert RECORD["version"] == 5
    assert sum("buried" in turn for turn in RECORD["turns"]) == 8  # one under each of the 8 hills
    game, problems = replay(doc_of(RECORD))
    assert problems == [] and len(burial.of(game).buried) == 8
    _, resumed, _ = resume(doc_of(RECORD))
    assert burial.of(resumed).buried == burial.of(game).buried


@pytest.mark.parametrize("finished", [True, False])
def test_a_record_missing_a_buried_tile_is_refused_at_its_turn(finished: bool) -> None:
    def change(record: dict) -> None:
        record["turns"][FIRST].pop("buried")
        if not finished:
            record["finished"] = False
            del record["turns"][FIRST + 5:]
    with pytest.raises(UserError, match=f"turn {FIRST + 1} places {RECORD['turns'][FIRST]['tile']}, which has a "
                                        "hill, with .* tiles left to draw, so a tile went under it") as error:
        replay(doc_of(edited(change)))
    assert error.value.diagnostics[0].code == "replay" and error.value.diagnostics[0].path == f"$.turns[{FIRST}]"


def test_a_copy_too_many_says_how_many_were_buried() -> None:
    """Every buried tile named as the first one's type: the supply runs out, and says burials took copies."""
    first = RECORD["turns"][FIRST]["buried"]
    hills = load_ruleset("basic+hills")
    count = hills.tiles[hills.tile_ids[first]].count
    record = edited(lambda r: [t.update(buried=first) for t in r["turns"] if "buried" in t])
    with pytest.raises(UserError, match=rf"but basic\+hills has {count} \(\d of them buried under placed tiles\)"):
        replay(doc_of(record))


def test_a_tile_buried_under_a_tile_without_a_hill_is_refused() -> None:
    plain = next(i for i, turn in enumerate(RECORD["turns"]) if "at" in turn and not turn["tile"].startswith("HS_"))
    record = edited(lambda r: r["turns"][plain].update(buried="E"))
    with pytest.raises(UserError, match=f"nothing is buried under {RECORD['turns'][plain]['tile']}: it has no hill") \
            as error:
        replay(doc_of(record))
    assert error.value.diagnostics[0].code == "buried"


def test_a_version_4_record_has_no_buried_tiles() -> None:
    with pytest.raises(UserError, match="a version 4 record has no buried tiles"):
        replay(doc_of(edited(lambda r: r.update(version=4))))


def test_resume_checks_the_buried_tile_against_the_seed() -> None:
    other = "E" if RECORD["turns"][FIRST]["buried"] != "E" else "K"
    record = edited(lambda r: r["turns"][FIRST].update(buried=other))
    with pytest.raises(UserError,
                       match=f"buries {RECORD['turns'][FIRST]['buried']} under this tile, the record {other}"):
        resume(doc_of(record))


SCENARIO = """\
rulesets: [{ref}]
players: [A, B]
start: {{tile: D, rotation: 0}}
turns:
  - {{tile: HS_RFR_h, at: [1, 0], rotation: 1, buried: {buried}}}
"""


def run(ref: str, buried: str):
    return run_scenario(load_yaml("s.yaml", text=SCENARIO.format(ref=ref, buried=buried)))


def test_a_scenario_may_name_the_buried_tile() -> None:
    (outcome,) = run("basic+hills", "K")
    assert outcome.failures == []


def test_a_scenario_burying_a_tile_the_ruleset_lacks_is_refused() -> None:
    with pytest.raises(UserError, match="more C tiles than the 1") as error:
        run_scenario(load_yaml("s.yaml", text=SCENARIO.format(ref="basic+hills", buried="C").replace(
            "turns:\n", "turns:\n  - {tile: C, at: [0, -1], rotation: 0}\n")))
    assert error.value.diagnostics[0].code == "scenario-supply" and error.value.diagnostics[0].line == 6


def test_a_scenario_burying_under_a_ruleset_without_burial_is_refused() -> None:
    text = SCENARIO.format(ref="basic", buried="K").replace("HS_RFR_h, at: [1, 0], rotation: 1",
                                                            "E, at: [0, -1], rotation: 2")
    with pytest.raises(UserError, match="basic buries no tiles") as error:
        run_scenario(load_yaml("s.yaml", text=text))
    assert error.value.diagnostics[0].code == "buried"


def test_a_probe_buries_nothing() -> None:
    text = SCENARIO.format(ref="basic+hills", buried="K").replace("rotation: 1, buried",
                                                                  "rotation: 1, illegal: placement, buried")
    with pytest.raises(UserError, match="a probe \\(illegal\\) is not played, so nothing is buried under it") as error:
        run_scenario(load_yaml("s.yaml", text=text))
    assert error.value.diagnostics[0].code == "scenario"


def test_rescore_under_hills_without_burial_plays_the_same_moves(tmp_path) -> None:
    """A designer's "hills, but nothing buried": the moves are the same, the buried tiles stay unplayed."""
    from engine.sim.rescore import differing_events, rescore

    (tmp_path / "nobury.yaml").write_text("name: nobury\ndescription: hills, nothing buried\nsource: a test\n"
                                          "overrides: [hills]\npatch:\n  deck:\n    bury: null\n")
    (tmp_path / "game.json").write_text(json.dumps(RECORD))
    doc = record_from_text(json.dumps(RECORD), str(tmp_path / "game.json"))
    own, other = rescore(doc, ["basic+hills+nobury.yaml"])
    assert other.stopped is None and other.scores == own.scores and differing_events(own, other) == []
