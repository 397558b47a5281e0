"""Loading records and scenarios (engine.files.record.load_record, engine.files.scenario.load_scenario):
read like every input, one byte-order-mark policy for JSON and YAML, and a file of another kind
refused without quoting it."""

from __future__ import annotations

import codecs
import json
import os
from pathlib import Path

import pytest

from engine.errors import UserError
from engine.files.record import load_record, replay
from engine.files.scenario import load_scenario, run_scenario

ROOT = Path(__file__).parents[2]
GAME = ROOT / "tests" / "hostile" / "paths" / "game.json"
SCENARIO = ROOT / "tests" / "scenarios" / "01_s1_tiny_city.yaml"


def diagnostic(load, path: Path) -> tuple:
    with pytest.raises(UserError) as info:
        load(path)
    (found,) = info.value.diagnostics
    assert "SECRET" not in info.value.render()
    return found.message, found.line, found.col, found.code


def test_a_record_with_a_leading_bom_is_the_same_record(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(codecs.BOM_UTF8 + GAME.read_bytes())
    doc, plain = load_record(path), load_record(GAME)
    assert doc.data == plain.data and doc.marks == plain.marks  # columns count after the mark
    game, problems = replay(doc)
    assert problems == [] and game.scores == plain.data["scores"]["final"]


def test_a_scenario_with_a_leading_bom_holds(tmp_path: Path) -> None:
    path = tmp_path / "bom.yaml"
    path.write_bytes(codecs.BOM_UTF8 + SCENARIO.read_bytes())
    (outcome,) = run_scenario(load_scenario(path))
    assert outcome.failures == [] and outcome.final == {"A": 4, "B": 0}


@pytest.mark.parametrize("content, expected", [
    (codecs.BOM_UTF8 * 2 + b"{}", ("not valid JSON: a byte-order mark where a value should be", 1, 1, "json-syntax")),
    (b'{"format": \xef\xbb\xbf"carcassonne-record"}', ("not valid JSON: Expecting value", 1, 12, "json-syntax")),
    (codecs.BOM_UTF16_LE + '{"format": 1}'.encode("utf-16-le"),
     ("UTF-16 text (it starts with a UTF-16 byte-order mark): save it as UTF-8", 1, 1, "encoding")),
], ids=["two-boms", "bom-inside", "utf16"])
def test_bad_json_is_a_located_error(tmp_path: Path, content: bytes, expected: tuple) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(content)
    assert diagnostic(load_record, path) == expected


def test_an_integer_python_will_not_convert_is_bad_json_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(b'{"seed": ' + b"9" * 5000 + b"}")
    message, line, col, code = diagnostic(load_record, path)
    assert message.startswith("not valid JSON: ") and "digits" in message and code == "json-syntax"


def test_a_file_of_another_kind_is_no_record_or_scenario(tmp_path: Path) -> None:
    secrets = tmp_path / "secrets.json"
    secrets.write_text(json.dumps({"password": "SECRET", "token": ["SECRET"]}))
    assert diagnostic(load_record, secrets) == (
        f"{secrets} is not a record file: it has none of the keys of a game record (format, ruleset, turns)",
        1, 1, "not-record")
    assert diagnostic(load_scenario, secrets) == (
        f"{secrets} is not a scenario file: it has none of the keys of a scenario (rulesets, players, turns, "
        "expect)", 1, 1, "not-scenario")
    text = tmp_path / "notes.txt"
    text.write_text("SECRET: [unclosed\n")
    assert diagnostic(load_scenario, text)[3] == "not-scenario"


def test_a_record_and_a_scenario_given_for_each_other_are_named_for_what_they_are(tmp_path: Path) -> None:
    # Both have players and turns, so each passes the other's first look; what only the
    # other kind has (a record's format, a scenario's rulesets) tells them apart.
    assert diagnostic(load_scenario, GAME) == (
        f"{GAME} is not a scenario file: it is a game record or a command's --json output: it has 'format', "
        "which a scenario does not have", 2, 13, "not-scenario")
    as_json = tmp_path / "s.json"
    as_json.write_text(json.dumps({"rulesets": ["basic"], "players": ["A", "B"], "turns": []}, indent=1))
    assert diagnostic(load_record, as_json) == (
        f"{as_json} is not a record file: it is a scenario: it has 'rulesets', which a record does not have",
        2, 14, "not-record")


def test_a_yaml_file_given_as_a_record_is_told_what_a_record_is() -> None:
    assert diagnostic(load_record, SCENARIO) == (
        "not valid JSON: Expecting value (a game record is the JSON file that carcassonne play --record FILE "
        "writes)", 1, 1, "json-syntax")


def test_odd_files_are_refused_before_they_are_opened(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo.json")
    for load in (load_record, load_scenario):
        assert diagnostic(load, tmp_path / "fifo.json") == (
            f"cannot read {tmp_path / 'fifo.json'}: not a regular file (a named pipe)", None, None, "io")
        assert diagnostic(load, Path("/dev/zero"))[0] == "cannot read /dev/zero: not a regular file (a device)"
