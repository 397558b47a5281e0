"""Follower notation: KIND@PORT in board orientation, bare kinds, numbered port-less segments."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.files.notation import format_follower, parse_follower
from engine.rules.ruleset import load_ruleset

BASIC = load_ruleset("basic")
BASIC_FILE = Path(__file__).parents[2] / "rulesets" / "basic.yaml"


def tile(tile_id: str) -> int:
    return BASIC.tile_ids[tile_id]


@pytest.mark.parametrize("tile_id, rotation, text, kind, ports", [
    ("E", 2, "city@S", "city", {"S"}),          # the cap turned to face south
    ("D", 0, "road@W", "road", {"W", "E"}),
    ("D", 0, "field@EL", "field", {"EL", "WR"}),
    ("D", 1, "field@SL", "field", {"SL", "NR"}),  # after one quarter turn EL→SL, WR→NR
    ("A", 0, "cloister", "cloister", set()),
])
def test_parse_names_the_segment(tile_id: str, rotation: int, text: str, kind: str, ports: set[str]) -> None:
    from engine.geometry import PORTS
    j = parse_follower(BASIC, tile(tile_id), rotation, text)
    segment = BASIC.tiles[tile(tile_id)].segments[j]
    assert BASIC.kinds[segment.kind].name == kind
    board_ports = {PORTS[p] for p in BASIC.tiles[tile(tile_id)].orientations[rotation].segment_ports[j]}
    assert ports <= board_ports


@pytest.mark.parametrize("text, message", [
    ("city@Q", "not a side"),
    ("city@", "names no port"),
    ("@N", "unknown feature kind"),
    ("city", "named by a port"),
    ("field@W", "2 field segments touch W"),
    ("castle@N", "unknown feature kind 'castle'"),
    ("cloister", "has no cloister"),
    ("city@S", "touches S"),
])
def test_bad_notation_says_why(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_follower(BASIC, tile("D"), 0, text)


def test_every_segment_round_trips() -> None:
    for t in BASIC.tiles:
        for rotation in range(4):
            for j in range(len(t.segments)):
                text = format_follower(BASIC, t.index, rotation, j)
                assert parse_follower(BASIC, t.index, rotation, text) == j, (t.id, rotation, text)


def test_two_portless_segments_are_numbered(tmp_path: Path) -> None:
    text = BASIC_FILE.read_text().replace(
        "      - {kind: cloister}\n      - {kind: road, ports: [S]}",
        "      - {kind: cloister}\n      - {kind: cloister}\n      - {kind: road, ports: [S]}", 1)
    path = tmp_path / "twin.yaml"
    path.write_text(text)
    rs = load_ruleset(str(path))
    a = rs.tile_ids["A"]
    assert [format_follower(rs, a, 0, j) for j in (0, 1)] == ["cloister#1", "cloister#2"]
    assert parse_follower(rs, a, 0, "cloister#2") == 1
    with pytest.raises(ValueError, match="cloister#1 … cloister#2"):
        parse_follower(rs, a, 0, "cloister")
