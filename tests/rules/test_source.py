"""Tests for the position-keeping YAML loader (engine.rules.source, engine.rules.yaml_nodes) and schema checks
(engine.rules.validate).

Every user-facing problem must name file, line and column, so most tests
assert exact positions.  Inputs are inline YAML; files only where reading is
the point.
"""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from engine.errors import UserError
from engine.rules import yaml_nodes
from engine.rules.source import Document, Shape, json_path, load_yaml, load_yaml_cached
from engine.rules.validate import SCHEMA_DIR, check, schema

ROOT = Path(__file__).parents[2]
BASIC = ROOT / "rulesets" / "basic.yaml"
SCHEMAS = ("ruleset", "scenario", "record")


def load(text: str, file: str = "t.yaml") -> Document:
    return load_yaml(file, text=textwrap.dedent(text))


def errors(text: str, schema_name: str | None = None) -> list[Any]:
    """The diagnostics that loading (and checking) ``text`` raises; fails if none."""
    with pytest.raises(UserError) as info:
        doc = load(text)
        if schema_name:
            check(doc, schema_name)
    return info.value.diagnostics


# ------------------------------------------------------------------ marks


def test_marks_of_values_list_items_and_nested_keys() -> None:
    doc = load("""\
        name: basic
        tiles:
          D:
            count: 4
            segments:
              - {kind: city, ports: [N]}
              - kind: road
                ports: [E, W]
        """)
    assert doc.mark(()) == (1, 1)
    assert doc.mark(("name",)) == (1, 7)
    assert doc.mark(("tiles",)) == (3, 3)  # a block mapping starts at its first key
    assert doc.mark(("tiles", "D", "count")) == (4, 12)
    assert doc.mark(("tiles", "D", "segments", 0)) == (6, 9)
    assert doc.mark(("tiles", "D", "segments", 0, "kind")) == (6, 16)
    assert doc.mark(("tiles", "D", "segments", 0, "ports", 0)) == (6, 30)
    assert doc.mark(("tiles", "D", "segments", 1, "kind")) == (7, 15)
    assert doc.mark(("tiles", "D", "segments", 1, "ports", 1)) == (8, 20)
    assert doc.key_mark(("tiles", "D")) == (3, 3)
    assert doc.key_mark(("tiles", "D", "count")) == (4, 5)
    assert doc.key_mark(("tiles", "D", "segments", 0)) == (6, 9)  # list item: no key, the value


def test_mark_falls_back_to_nearest_ancestor() -> None:
    doc = load("a:\n  b: 1\n")
    assert doc.mark(("a", "missing", 3)) == doc.mark(("a",)) == (2, 3)
    assert load("").mark(("x",)) == (None, None)


def test_where_is_ready_for_user_error() -> None:
    doc = load("tiles:\n  D: {count: 4}\n", file="r.yaml")
    where = doc.where(("tiles", "D", "count"))
    assert where == {"file": "r.yaml", "line": 2, "col": 14, "path": "$.tiles.D.count"}
    assert doc.where(("tiles", "D", "count"), key=True)["col"] == 7
    rendered = UserError("bad", code="x", **where).render()
    assert rendered == "r.yaml:2:14: error: bad (at $.tiles.D.count) [x]"


def test_json_path() -> None:
    assert json_path(()) == "$"
    assert json_path(("tiles", "D", "segments", 0, "kind")) == "$.tiles.D.segments[0].kind"
    assert json_path(("a b", "it's", "x-1")) == "$['a b']['it\\'s'].x-1"


def test_alias_values_are_copies_marked_at_the_anchor() -> None:
    doc = load("""\
        base: &b {x: 1, y: [2]}
        m:
          <<: *b
          y: 3
        n: *b
        """)
    assert doc.data == {"base": {"x": 1, "y": [2]}, "m": {"x": 1, "y": 3}, "n": {"x": 1, "y": [2]}}
    assert doc.data["n"] is not doc.data["base"] and doc.data["n"]["y"] is not doc.data["base"]["y"]
    assert doc.mark(("m", "x")) == doc.mark(("base", "x")) == (1, 14)
    assert doc.mark(("m", "y")) == (4, 6)  # explicit key beats the merged one
    assert doc.mark(("n",)) == (1, 7)


# ------------------------------------------------------------------ scalars


@pytest.mark.parametrize("text", ["on", "off", "yes", "no", "y", "n", "Yes", "NO", "ON"])
def test_yaml11_booleans_stay_strings(text: str) -> None:
    assert load(f"v: {text}\n").data == {"v": text}


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("true", True), ("True", True), ("TRUE", True), ("false", False), ("FALSE", False),
        ("017", 17), ("-3", -3), ("+4", 4), ("0o17", 15), ("0x1F", 31),
        ("1.5", 1.5), ("1e3", 1000.0), (".5", 0.5), ("-.inf", float("-inf")),
        ("~", None), ("null", None), ("", None),
        ("1_000", "1_000"), ("2024-01-01", "2024-01-01"), ("0b101", "0b101"), ("tRUE", "tRUE"),
        ("'true'", "true"), ('"017"', "017"), ("!!str 5", "5"), ("!!int '7'", 7), ("!!float 2", 2.0),
    ],
)
def test_scalars_follow_yaml12_core(text: str, value: Any) -> None:
    got = load(f"v: {text}\n").data["v"]
    assert got == value and type(got) is type(value)


def test_nan() -> None:
    value = load("v: .nan\n").data["v"]
    assert value != value


def test_empty_and_comment_only_documents_are_none() -> None:
    assert load("").data is None
    assert load("# nothing here\n").data is None


# ------------------------------------------------------------------ structural errors


def test_duplicate_key_reported_at_second_with_first_line() -> None:
    found = errors("""\
        tiles:
          D:
            count: 4
            edges: CRFR
            count: 5
          E:
            count: 1
          E: {count: 2}
        """)
    assert [(d.line, d.col, d.message, d.code) for d in found] == [
        (5, 5, "duplicate key 'count' (first at line 3)", "yaml-duplicate-key"),
        (8, 3, "duplicate key 'E' (first at line 6)", "yaml-duplicate-key"),
    ]
    assert found[0].path == "$.tiles.D.count"
    assert found[0].file == "t.yaml"


def test_duplicate_key_in_json() -> None:
    (found,) = errors('{\n "a": 1,\n "a": 2\n}\n')
    assert (found.line, found.code) == (3, "yaml-duplicate-key")


def test_non_string_keys_rejected() -> None:
    found = errors("1: a\ntrue: b\nnull: c\n? [x]\n: d\n'2': fine\n")
    assert [(d.line, d.code) for d in found] == [(1, "yaml-key"), (2, "yaml-key"), (3, "yaml-key"), (4, "yaml-key")]
    assert "quote it" in found[0].message


@pytest.mark.parametrize(
    ("text", "line", "col"),
    [
        ("a: b: c\n", 1, 5),
        ("a: [1, 2\nb: 3\n", 2, 2),
        ("a:\n  - x\n  y: 1\n", 3, 3),
        ("a: 'unterminated\n", 2, 1),
        ("a:\n\tb: 1\n", 2, 1),
    ],
)
def test_syntax_error_location(text: str, line: int, col: int) -> None:
    (found,) = errors(text)
    assert (found.file, found.line, found.col, found.code) == ("t.yaml", line, col, "yaml-syntax")
    assert found.message


def test_multiple_documents_rejected() -> None:
    (found,) = errors("a: 1\n---\nb: 2\n")
    assert (found.line, found.code) == (2, "yaml-syntax")


def test_unsupported_tags() -> None:
    found = errors("a: !!binary aGk=\nb: !custom x\nc: !!int nope\nd: !!set {x}\n")
    assert [(d.line, d.code) for d in found] == [(1, "yaml-tag"), (2, "yaml-tag"), (3, "yaml-tag"), (4, "yaml-tag")]
    assert found[0].message == "unsupported tag !!binary"
    assert found[2].message == "'nope' is not a valid !!int"


def test_recursive_alias_rejected() -> None:
    (found,) = errors("a: &x [1, *x]\n")
    assert found.code == "yaml-alias"


def test_alias_bomb_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yaml_nodes, "MAX_VALUES", 1000)
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    for level in "bcd":
        prev = chr(ord(level) - 1)
        bomb += (f"{level}: &{level} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, "
                 f"*{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n")
    (found,) = errors(bomb)
    assert found.code == "yaml-too-large"


def test_bad_merge_value() -> None:
    (found,) = errors("a:\n  <<: 3\n")
    assert found.code == "yaml-merge"


# ------------------------------------------------------------------ files


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.yaml"
    with pytest.raises(UserError) as info:
        load_yaml(path)
    (found,) = info.value.diagnostics
    assert (found.file, found.code, found.line) == (str(path), "io", None)
    assert found.message.startswith(f"cannot read {path}: ")


def test_directory_is_unreadable(tmp_path: Path) -> None:
    with pytest.raises(UserError) as info:
        load_yaml(tmp_path)
    assert info.value.diagnostics[0].code == "io"


def test_reads_file_and_keeps_path_as_given(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_bytes("\ufeffname: caf\u00e9\n".encode("utf-8"))
    doc = load_yaml(str(path))
    assert doc.data == {"name": "caf\u00e9"} and doc.file == str(path)
    assert doc.mark(("name",)) == (1, 7)


def test_invalid_utf8_located(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_bytes(b"a: 1\nb: \xff\n")
    with pytest.raises(UserError) as info:
        load_yaml(path)
    (found,) = info.value.diagnostics
    assert (found.line, found.col, found.code) == (2, 4, "encoding")


def test_pure_python_parser_gives_the_same_document(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without libyaml the loader falls back to PyYAML's own parser; marks must not change.
    text = BASIC.read_text(encoding="utf-8") + "\nextra: [on, 017, &x {a: 1}, *x]\n"
    fast = load_yaml("b.yaml", text=text)
    monkeypatch.setattr(yaml_nodes, "_Loader", yaml_nodes._make_loader(yaml.SafeLoader))
    slow = load_yaml("b.yaml", text=text)
    assert (slow.data, slow.marks, slow.key_marks) == (fast.data, fast.marks, fast.key_marks)
    (duplicate,) = errors("a: 1\nb:\n  c: 2\n  c: 3\n")
    assert (duplicate.line, duplicate.col, duplicate.message) == (4, 3, "duplicate key 'c' (first at line 3)")


# ------------------------------------------------------------------ round trip


# YAML (unlike JSON) forbids raw control characters and surrogates; records are
# written with ensure_ascii=False, so only characters YAML can carry occur.
_text = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Cn")), max_size=8)
_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | _text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_text, inner, max_size=4),
    max_leaves=20,
)


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _paths(item, path + (index,))
    return out


@settings(max_examples=150, deadline=None)
@given(_json_values, st.sampled_from([None, 1]))
def test_json_round_trips_with_a_mark_for_every_value(value: Any, indent: int | None) -> None:
    # JSON is YAML 1.2, and records are JSON read through this loader.
    doc = load_yaml("r.json", text=json.dumps(value, indent=indent, ensure_ascii=False))
    assert doc.data == value
    for path in _paths(value):
        assert path in doc.marks


# ------------------------------------------------------------------ schemas


@pytest.mark.parametrize("name", SCHEMAS)
def test_schemas_are_valid_2020_12(name: str) -> None:
    document = schema(name)
    Draft202012Validator.check_schema(document)
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert document["$id"].endswith(f"/{name}.schema.json")
    assert (SCHEMA_DIR / f"{name}.schema.json").is_file()


def _subschemas(node: Any, at: str = "#") -> list[tuple[str, dict]]:
    out = []
    if isinstance(node, dict):
        out.append((at, node))
        for key, item in node.items():
            out += _subschemas(item, f"{at}/{key}")
    elif isinstance(node, list):
        for index, item in enumerate(node):
            out += _subschemas(item, f"{at}/{index}")
    return out


@pytest.mark.parametrize("name", SCHEMAS)
def test_schemas_are_closed_and_documented(name: str) -> None:
    for at, node in _subschemas(schema(name)):
        if at.split("/")[-1] in ("if", "then", "else", "properties"):
            continue  # conditions and property tables, not object schemas
        if "properties" in node:
            # Every object schema says what else it allows (false, or a value schema).
            assert "additionalProperties" in node, at
            for prop, sub in node["properties"].items():
                assert "description" in sub or "$ref" in sub and "description" in _deref(name, sub), f"{at}/{prop}"


def _deref(name: str, sub: dict) -> dict:
    node: Any = schema(name)
    for part in sub["$ref"][2:].split("/"):
        node = node[part]
    return node


def test_record_turn_is_scenario_turn() -> None:
    """A record becomes a scenario by adding ``expect``: their turns have one shape."""
    scenario_turn = json.loads(json.dumps(schema("scenario")["$defs"]["turn"]))
    record_turn = json.loads(json.dumps(schema("record")["$defs"]["turn"]))
    for turn in (scenario_turn, record_turn):
        del turn["description"]
    assert record_turn == scenario_turn


def test_basic_ruleset_validates() -> None:
    doc = load_yaml(BASIC)
    check(doc, "ruleset")  # raises on any problem; its speed is measured in benchmarks/bench.py


BAD_RULESET = """\
    name: bad
    players: {min: 0, max: 5}
    features:
      city:
        edge: C
        ports: side
        completion: clsoed
        deployable: yes
        scoring: {complete: 2 * tiles, incomplet: tiles}
      road:
        ports: centre
      1x: {ports: none}
    rules: {deploy: empty}
    tiles:
      D:
        cuont: 4
        edges: CRF
        segments:
          - {kind: city, prots: [N]}
          - {kind: road, ports: [E, W, E, Q], pennants: -1}
      E: {count: -1, edges: FFFF, segments: []}
    """


def test_schema_errors_are_all_reported_in_order_and_located() -> None:
    found = errors(BAD_RULESET, "ruleset")
    got = [(d.line, d.col, d.message) for d in found]
    assert got == [
        (2, 16, "0 is less than the minimum of 1"),
        (8, 17, "expected true or false, got 'yes'"),
        (9, 36, "unknown key 'incomplet' (did you mean 'incomplete'?)"),
        (10, 3, "missing required key 'edge'"),
        (12, 3, "'1x' is not a valid id (a letter, then letters, digits, '_' or '-')"),
        (15, 3, "missing required key 'count'"),
        (16, 5, "unknown key 'cuont' (did you mean 'count'?)"),
        (17, 12, "'CRF' is not four uppercase edge letters (N, E, S, W) or * (wild), e.g. CRFR"),
        (19, 22, "unknown key 'prots' (did you mean 'ports'?)"),
        (20, 29, "'E' is listed more than once"),
        (20, 39, "'Q' is not one of 'NL', 'N', 'NR', 'EL', 'E', 'ER', 'SL', 'S', 'SR', 'WL', 'W', 'WR'"),
        (20, 53, "-1 is less than the minimum of 0"),
        (21, 14, "-1 is less than the minimum of 0"),
        (21, 41, "expected at least 1 item, got 0"),
    ]
    assert {d.code for d in found} == {"schema"}
    assert {d.file for d in found} == {"t.yaml"}
    assert found[2].path == "$.features.city.scoring.incomplet"
    assert found[6].path == "$.tiles.D.cuont"


def test_schema_error_without_close_match_lists_allowed_keys() -> None:
    found = errors("name: x\nfeatures: {}\ntiles: {}\nrules: {zzz: 1}\n", "ruleset")
    assert [(d.path, d.line, d.col, d.message) for d in found] == [
        ("$.features", 2, 11, "expected at least 1 entry"),
        ("$.tiles", 3, 8, "expected at least 1 entry"),
        ("$.rules.zzz", 4, 9, "unknown key 'zzz' (expected one of 'deploy', 'tie_break', 'unplaceable')"),
    ]


def test_schema_error_on_empty_document() -> None:
    (found,) = errors("", "ruleset")
    assert found.message == "expected a mapping, got null"
    assert found.line is None and found.path == "$"


def test_schema_formula_must_be_text() -> None:
    found = errors("name: x\nfeatures: {c: {scoring: {final: 0}}}\n"
                   "tiles: {A: {count: 1, edges: FFFF, segments: [{kind: c}]}}\n", "ruleset")
    assert [d.message for d in found] == ["expected a formula as text, got 0 (quote a bare number)"]


SCENARIO = """\
    rulesets: [basic]
    players: [alice, bob]
    start: {tile: D, rotation: 0}
    turns:
      - {tile: U, at: [0, 1], rotation: 0, follower: road}
      - {tile: V, at: [0, -1], rotation: 1, illegal: placement}
      - {tile: X, discarded: true}
    expect:
      basic: {in_game: {alice: 0, bob: 0}, final: {alice: 2, bob: 0}}
    """


def test_scenario_schema_accepts_placements_and_discards() -> None:
    check(load(SCENARIO), "scenario")


def test_scenario_turn_shapes() -> None:
    found = errors("""\
        rulesets: [basic]
        players: [alice, alice]
        turns:
          - {tile: U, at: [0], rotation: 4}
          - {tile: X, discarded: true, at: [1, 1]}
          - {tile: W, rotation: 1}
          - {tile: W, at: [0, 1], rotation: 0, illegal: maybe}
        expect:
          basic: {final: {alice: x}, in_gam: {}}
        """, "scenario")
    assert [(d.line, d.message) for d in found] == [
        (2, "'alice' is listed more than once"),
        (4, "expected a position [x, y]"),
        (4, "4 is greater than the maximum of 3"),
        (5, "'at' is not allowed in a discard turn (only tile, discarded, map and player)"),
        (6, "missing required key 'at' (a placement needs tile, at and rotation; a discard needs tile and "
            "discarded: true)"),
        (7, "'maybe' is not one of 'placement', 'follower'"),
        (9, "expected an integer, got 'x'"),
        (9, "unknown key 'in_gam' (did you mean 'in_game'?)"),
    ]


RECORD = {
    "format": "carcassonne-record",
    "version": 1,
    "ruleset": "basic",
    "ruleset_sha256": "0" * 64,
    "seed": 7,
    "players": [{"name": "alice", "kind": "human"}, {"name": "bob", "kind": "random"}],
    "start": {"tile": "D", "rotation": 0},
    "turns": [
        {"player": 0, "tile": "U", "at": [0, 1], "rotation": 0, "follower": "road"},
        {"tile": "X", "discarded": True},
    ],
    "events": [{"type": "score", "points": 2}],
    "scores": {"in_game": [2, 0], "final": [2, 0]},
}


def test_record_schema_accepts_a_record() -> None:
    check(load_yaml("r.json", text=json.dumps(RECORD, indent=1)), "record")
    check(load_yaml("r.json", text=json.dumps({**RECORD, "start": None})), "record")


def test_record_schema_errors_located_in_json() -> None:
    bad = {**RECORD, "version": 6, "ruleset_sha256": "abc", "turns": [{"player": -1, "tile": "X", "discarded": True}]}
    text = json.dumps(bad, indent=1)
    found = errors(text, "record")
    lines = text.splitlines()
    assert [d.message for d in found] == [
        "6 is not one of 1, 2, 3, 4, 5",
        "'abc' is not a SHA-256 (64 lowercase hex digits)",
        "-1 is less than the minimum of 0",
    ]
    for d in found:
        assert lines[d.line - 1][d.col - 1:].startswith(("6", 'abc"', "-1"))


# ------------------------------------------------------------------ shapes: files named as a kind of file

SHAPE = Shape("ruleset", frozenset({"features", "tiles", "extends"}), "of a ruleset (features, tiles, extends)")


@pytest.mark.parametrize("text", ["tiles: {}\n", "# c\nextends: basic\n", '{"features": {}, "tiles": {}}',
                                  "{name: x, tiles: {}}", "'extends' : basic\n", "- extends: basic\n"])
def test_text_that_names_a_key_looks_like_the_kind(text: str) -> None:
    assert SHAPE.looks_like(text)


@pytest.mark.parametrize("text", ["root:x:0:0:root:/root:/bin/bash\n", "password: tiles\n", "# tiles: none\n",
                                  "mytiles: 3\n", ""])
def test_text_without_a_key_does_not(text: str) -> None:
    assert not SHAPE.looks_like(text)


def refusal(text: str | bytes, tmp_path: Path) -> Any:
    path = tmp_path / "named.yaml"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    with pytest.raises(UserError) as info:
        load_yaml(path, shape=SHAPE)
    assert "SECRET" not in info.value.render()
    (found,) = info.value.diagnostics
    return found


@pytest.mark.parametrize("text, why, code", [
    ("password: SECRET\nkey: [SECRET]\n", "it has none of the keys of a ruleset (features, tiles, extends)",
     "not-ruleset"),
    ("SECRET text\non two lines\n", "it is a single value, not a mapping of keys", "not-ruleset"),
    ("a: SECRET\na: SECRET2\n!!python/object x: [\n", "it is not well-formed YAML, and has none of the keys of a "
     "ruleset (features, tiles, extends)", "not-ruleset"),
    (b"SECRET \xff\xfe\x00", "it is not UTF-8 text", "not-ruleset"),
])
def test_a_file_of_another_kind_is_refused_without_quoting_it(text: str | bytes, why: str, code: str,
                                                              tmp_path: Path) -> None:
    found = refusal(text, tmp_path)
    assert (found.message, found.code, found.file) == (
        f"{tmp_path / 'named.yaml'} is not a ruleset file: {why}", code, str(tmp_path / "named.yaml"))


def test_an_empty_file_or_a_list_is_a_located_schema_error(tmp_path: Path) -> None:
    found = refusal("# only a comment\n", tmp_path)
    assert (found.message, found.line, found.col, found.code) == (
        "a ruleset is a mapping of keys, not an empty file", 1, 1, "schema")
    found = refusal("# a list\n- extends: basic\n", tmp_path)
    assert (found.message, found.line, found.col, found.code) == ("a ruleset is a mapping of keys, not a list",
                                                                  2, 1, "schema")


def test_a_file_of_the_kind_keeps_its_own_located_errors(tmp_path: Path) -> None:
    found = refusal("extends: basic\ntiles: {A: 1]\n", tmp_path)
    assert (found.line, found.code) == (2, "yaml-syntax")
    found = refusal("extends: basic\nname: caf\xe9\n".encode("latin-1"), tmp_path)
    assert (found.line, found.col, found.code) == (2, 10, "encoding")
    path = tmp_path / "named.yaml"
    path.write_text("extends: basic\n")
    assert load_yaml(path, shape=SHAPE).data == {"extends": "basic"}


def test_the_cache_keeps_one_parse_per_unchanged_file_and_shape(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text("extends: basic\n")
    first = load_yaml_cached(path, shape=SHAPE)
    assert load_yaml_cached(path, shape=SHAPE) is first
    os.mkfifo(tmp_path / "fifo.yaml")
    with pytest.raises(UserError, match="not a regular file"):  # never opened, so never blocks
        load_yaml_cached(tmp_path / "fifo.yaml", shape=SHAPE)


def test_a_leading_bom_is_dropped_from_yaml_and_json_alike(tmp_path: Path) -> None:
    for name, text in (("r.yaml", "tiles: {}\n"), ("r.json", '{"tiles": {}}')):
        path = tmp_path / name
        path.write_bytes(b"\xef\xbb\xbf" + text.encode())
        doc = load_yaml(path, shape=SHAPE)
        assert doc.data == {"tiles": {}} and doc.mark(("tiles",))[0] == 1


@pytest.mark.parametrize("marks", [2, 3])
def test_a_second_leading_bom_is_a_syntax_error_at_1_1(tmp_path: Path, marks: int) -> None:
    # The reader drops one; PyYAML would silently skip another at the start (issue 51).
    path = tmp_path / "r.yaml"
    path.write_bytes(b"\xef\xbb\xbf" * marks + b"extends: basic\nname: x\n")
    for shape in (SHAPE, None):
        with pytest.raises(UserError) as info:
            load_yaml(path, shape=shape)
        (found,) = info.value.diagnostics
        assert (found.file, found.line, found.col, found.code) == (str(path), 1, 1, "yaml-syntax")
        assert "byte-order mark" in found.message
