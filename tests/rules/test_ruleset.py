"""Loading rulesets: the shipped basic game, and broken files reported at their line."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import UserError
from engine.rules.ruleset import load_ruleset
from engine.rules.tiles import EdgeCodes

BASIC_FILE = Path(__file__).parents[2] / "rulesets" / "basic.yaml"


def test_basic_loads_with_every_tile_type() -> None:
    rs = load_ruleset("basic")
    assert [t.id for t in rs.tiles] == [chr(c) for c in range(ord("A"), ord("X") + 1)]
    assert sum(t.count for t in rs.tiles) == 72
    assert rs.tiles[rs.start].id == "D"
    assert (rs.min_players, rs.max_players, rs.followers) == (2, 5, 7)
    assert [k.name for k in rs.kinds] == ["road", "city", "cloister", "field"]
    assert load_ruleset(str(BASIC_FILE)).sha256 == rs.sha256


def test_field_city_adjacency_follows_the_port_ring() -> None:
    rs = load_ruleset("basic")
    d = rs.tiles[rs.tile_ids["D"]]
    fields = [s for s in d.segments if rs.kinds[s.kind].name == "field"]
    # The strip between city and road touches the city; the southern field does not (RULES.md §1.1).
    assert [len(f.adjacent) for f in fields] == [1, 0]
    h = rs.tiles[rs.tile_ids["H"]]
    field = next(s for s in h.segments if rs.kinds[s.kind].name == "field")
    assert len(field.adjacent) == 2


def test_rotations_turn_the_edges_clockwise() -> None:
    rs = load_ruleset("basic")
    e = rs.tiles[rs.tile_ids["E"]]  # C/F/F/F
    city = e.orientations[0].side_codes[0]
    assert [o.side_codes.index(city) for o in e.orientations] == [0, 1, 2, 3]


def test_edge_codes_mirror_each_other() -> None:
    codes = EdgeCodes()
    road = codes.code((3, 0, 3))
    odd = codes.code((1, -1, 2))
    assert codes.mirror[road] == road
    assert codes.mirror[codes.mirror[odd]] == odd != codes.mirror[odd]


def broken(tmp_path: Path, old: str, new: str) -> Path:
    text = BASIC_FILE.read_text()
    assert old in text
    path = tmp_path / "broken.yaml"
    path.write_text(text.replace(old, new, 1))
    return path


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


@pytest.mark.parametrize("old, new, needle, code", [
    ("- {kind: city, ports: [N]}\n      - {kind: road, ports: [E, W]}",
     "- {kind: castle, ports: [N]}\n      - {kind: road, ports: [E, W]}", "castle", "kind-unknown"),
    ("edges: CRFR", "edges: CRRR", "edges: CRRR", "edge-mismatch"),
    ("start: D", "start: Z", "start: Z", "start-tile"),
    ("complete: 2 * tiles + 2 * pennants", "complete: 2 * tiles + 2 * pennant", "2 * pennant", "formula-name"),
    ("complete: 2 * tiles + 2 * pennants", "complete: 2 * tiles + * pennants", "+ * pennants", "formula-syntax"),
])
def test_meaning_errors_point_at_the_line(tmp_path: Path, old: str, new: str, needle: str, code: str) -> None:
    path = broken(tmp_path, old, new)
    with pytest.raises(UserError) as caught:
        load_ruleset(str(path))
    diagnostics = caught.value.diagnostics
    assert any(d.code == code and d.line == line_of(path, needle) and d.file == str(path) for d in diagnostics), \
        caught.value.render()


def test_a_port_covered_twice_is_reported(tmp_path: Path) -> None:
    path = broken(tmp_path, "- {kind: field, ports: [EL, WR]}", "- {kind: field, ports: [EL, WR, SL]}")
    with pytest.raises(UserError) as caught:
        load_ruleset(str(path))
    assert "port-twice" in caught.value.render()


def test_all_problems_of_a_file_are_reported_together(tmp_path: Path) -> None:
    path = broken(tmp_path, "start: D", "start: Z")
    path.write_text(path.read_text().replace("edges: CRFR", "edges: CRRR"))
    with pytest.raises(UserError) as caught:
        load_ruleset(str(path))
    assert {"start-tile", "edge-mismatch"} <= {d.code for d in caught.value.diagnostics}


def test_schema_errors_carry_the_location(tmp_path: Path) -> None:
    path = broken(tmp_path, "count: 4", "cuont: 4")
    with pytest.raises(UserError) as caught:
        load_ruleset(str(path))
    text = caught.value.render()
    assert f"{path}:{line_of(path, 'cuont')}:" in text
    assert "count" in text


def test_formula_column_inside_a_quoted_scalar(tmp_path: Path) -> None:
    path = broken(tmp_path, "final: farm_points * completed_cities", 'final: "farm_points * complete_cities"')
    with pytest.raises(UserError) as caught:
        load_ruleset(str(path))
    (diagnostic,) = caught.value.diagnostics
    line = path.read_text().splitlines()[diagnostic.line - 1]
    assert line[diagnostic.col - 1:].startswith("complete_cities")
    assert "did you mean 'completed_cities'" in diagnostic.message


def test_two_kinds_with_one_edge_letter_is_one_clear_error(tmp_path: Path) -> None:
    path = broken(tmp_path, "    edge: R\n", "    edge: C\n")
    with pytest.raises(UserError) as caught:
        load_ruleset(str(path))
    assert [d.code for d in caught.value.diagnostics] == ["edge-letter"]
    assert "already the edge of kind 'road'" in caught.value.render()


@pytest.mark.parametrize("old, new", [("count: 4", "count: 4.0"), ("count: 4", "count: 1000000"),
                                      ("followers: 7", "followers: 300")])
def test_counts_must_be_small_true_integers(tmp_path: Path, old: str, new: str) -> None:
    path = broken(tmp_path, old, new)
    with pytest.raises(UserError) as caught:
        load_ruleset(str(path))
    assert all(d.code == "schema" for d in caught.value.diagnostics)
