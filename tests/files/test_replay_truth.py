"""Replay refuses a record no game under its ruleset can have written, at the turn and
with the reason: a changed ruleset, more tiles than the ruleset has, turns after the end
of the game, a "finished" game that stops while tiles remain."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engine.core.game import Game
from engine.errors import UserError
from engine.files.record import build_record, load_record, replay
from engine.files.supply import TileSupply
from engine.rules.ruleset import load_ruleset
from engine.rules.source import Document
from engine.sim.play import play_game


@pytest.fixture(scope="module")
def record() -> dict:
    return play_game(load_ruleset("basic"), ["random", "greedy"], 4).record


def refused(tmp_path: Path, data: dict) -> tuple[UserError, Path]:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data, indent=1))
    with pytest.raises(UserError) as info:
        replay(load_record(path))
    assert len(info.value.diagnostics) == 1
    return info.value, path


def test_an_honest_record_replays(tmp_path: Path, record: dict) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(record))
    assert replay(load_record(path))[1] == []


def test_a_turn_after_the_last_tile_is_after_the_end(tmp_path: Path, record: dict) -> None:
    data = copy.deepcopy(record)
    data["turns"].append(dict(data["turns"][-1]))
    error, path = refused(tmp_path, data)
    (found,) = error.diagnostics
    assert found.message == "turn 72 comes after the end of the game: all 72 tiles of basic are drawn before it"
    assert (found.file, found.path, found.code) == (str(path), "$.turns[71]", "replay")
    assert (found.line, found.col) == load_record(path).mark(("turns", 71))  # where that turn is written


def test_one_tile_more_than_the_ruleset_has_is_refused_at_its_turn(tmp_path: Path, record: dict) -> None:
    data = copy.deepcopy(record)
    first = [t["tile"] for t in data["turns"]].index("C")  # basic has one C
    later = first + 1
    data["turns"][later]["tile"] = "C"
    (found,) = refused(tmp_path, data)[0].diagnostics
    assert found.message == f"turn {later + 1} is the 2nd tile C, but basic has 1"
    assert found.path == f"$.turns[{later}]"


def test_a_finished_record_that_stops_early_is_refused(tmp_path: Path, record: dict) -> None:
    data = copy.deepcopy(record)
    last = data["turns"].pop()
    (found,) = refused(tmp_path, data)[0].diagnostics
    assert found.message == ("the record says the game finished, but it stops after turn 70 with 1 tile still "
                             f"to draw (1 × {last['tile']})")
    assert found.path == "$.turns[69]"
    data["finished"] = True
    (found,) = refused(tmp_path, data)[0].diagnostics
    assert found.path == "$.finished" and "stops after turn 70" in found.message


def test_a_game_stopped_early_may_stop_early(tmp_path: Path) -> None:
    played = play_game(load_ruleset("basic"), ["random", "random"], 9)
    game = played.game
    # The same game, stopped after 30 turns: its record says so.
    stopped = Game(load_ruleset("basic"), 2, 9)
    for _, move in game.history[:30]:
        stopped.play(move)
    data = build_record(stopped, "basic", played.record["players"], list(stopped.scores))
    assert data["finished"] is False
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    assert replay(load_record(path))[1] == []


def test_a_changed_ruleset_is_refused_before_any_turn(tmp_path: Path, record: dict) -> None:
    data = dict(record, ruleset_sha256="0" * 64)
    (found,) = refused(tmp_path, data)[0].diagnostics
    assert found.code == "ruleset-changed" and found.path == "$.ruleset_sha256"
    assert found.message.startswith("the game was played under a ruleset with sha256 000000000000…, but 'basic' "
                                    "now has ")
    assert found.message.endswith("the ruleset has changed since, so the record cannot be checked against it")


def test_a_score_mismatch_is_still_a_mismatch_not_an_error(tmp_path: Path, record: dict) -> None:
    data = copy.deepcopy(record)
    data["scores"]["final"][0] += 1
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    (mismatch,) = replay(load_record(path))[1]
    assert mismatch == f"final scores {record['scores']['final']} ≠ recorded {data['scores']['final']}"


def test_reshuffled_records_replay_and_count_a_tile_that_went_back_once() -> None:
    ruleset = load_ruleset("basic+river+unplaceable-reshuffle")
    returned = 0
    for seed in range(140):  # about one random game in 70 sends a tile back (seeds 118 and 136 here)
        played = play_game(ruleset, ["random", "random"], seed)
        returned += played.game.returned
        doc = Document(json.loads(json.dumps(played.record)), "<record>", {})
        assert replay(doc)[1] == [], seed
    assert returned  # some tile did go back, and was drawn again


def supply(ref: str) -> TileSupply:
    return TileSupply(load_ruleset(ref), Document({}, "r.json", {}))


def test_the_supply_counts_start_tiles_and_tiles_set_aside() -> None:
    river = supply("basic+river")  # D: 4 copies, one set aside
    d = load_ruleset("basic+river").tile_ids["D"]
    for n in range(3):
        river.take(d, False, f"turn {n + 1}", ("turns", n))
    with pytest.raises(UserError, match=r"turn 4 is the 4th tile D, but basic\+river has 3 \(4 less 1 set aside\)"):
        river.take(d, False, "turn 4", ("turns", 3))
    basic = supply("basic")
    c = load_ruleset("basic").tile_ids["C"]
    basic.take(c, False, "the start tile", ("start",))
    with pytest.raises(UserError, match="turn 1 is the 2nd tile C, but basic has 1"):
        basic.take(c, True, "turn 1", ("turns", 0))


def test_under_reshuffle_discards_then_a_placement_are_one_copy() -> None:
    reshuffled = supply("basic+unplaceable-reshuffle")
    c = load_ruleset("basic").tile_ids["C"]
    for n in range(3):  # the one C drawn, fitting nowhere, going back, three times
        reshuffled.take(c, True, f"turn {n + 1}", ("turns", n))
    reshuffled.take(c, False, "turn 4", ("turns", 3))  # and placed at last
    with pytest.raises(UserError, match="turn 5 is the 2nd tile C"):
        reshuffled.take(c, True, "turn 5", ("turns", 4))
    plain = supply("basic")
    plain.take(c, True, "turn 1", ("turns", 0))
    with pytest.raises(UserError, match="turn 2 is the 2nd tile C"):  # a discarded tile is gone for good
        plain.take(c, False, "turn 2", ("turns", 1))


def test_a_record_nested_too_deep_is_a_located_error(tmp_path: Path, record: dict) -> None:
    text = json.dumps(record, indent=1).replace('"players": [', '"players": [' + "[" * 5000 + "]" * 5000 + ",", 1)
    path = tmp_path / "deep.json"
    path.write_text(text)
    with pytest.raises(UserError) as info:
        load_record(path)
    (found,) = info.value.diagnostics
    line = text.splitlines().index(next(x for x in text.splitlines() if "[[[[" in x)) + 1
    assert (found.line, found.code) == (line, "yaml-too-large")
    assert found.message == "more than 32 lists and objects nested in one another"
