"""Errors in one pass (engine.rules.unbroken): a ruleset with schema errors also gets the errors of
the parts the schema accepts, no error that only the broken part causes, and never a traceback.

The corpus (tests/rulesets/invalid, cases 215-219) holds the user's view; these tests hold the
parts that are left out, and break structures in many ways with :func:`errors_beside`, which lets
any exception through (``beyond_schema`` swallows one, so that a bug costs only the extra errors).
"""

from __future__ import annotations

import copy
import textwrap
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.errors import Diagnostic, UserError
from engine.rules import unbroken
from engine.rules.compose import compose
from engine.rules.inspect import validate_file
from engine.rules.ruleset import compile_ruleset
from engine.rules.source import Document
from engine.rules.validate import check


@pytest.fixture(autouse=True)
def _bugs_show(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(unbroken, "beyond_schema", unbroken.errors_beside)


def problems(tmp_path: Path, text: str) -> list[Diagnostic]:
    """What ``rulesets validate`` reports for a ruleset file holding ``text``."""
    path = tmp_path / "r.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    with pytest.raises(UserError) as caught:
        validate_file(path)
    return caught.value.diagnostics


def codes(found: list[Diagnostic]) -> list[tuple[int | None, str | None]]:
    return [(d.line, d.code) for d in found]


def test_a_schema_error_and_a_formula_error_come_together_sorted(tmp_path: Path) -> None:
    found = problems(tmp_path, """\
        extends: basic
        features:
          road:
            scoring:
              complete: 2 * tils
        followers: -1
        """)
    assert codes(found) == [(5, "formula-name"), (6, "schema")]


@pytest.mark.parametrize("text", [
    # Through previous: the field's final score stands for basic's, which reads farm_points.
    """\
    extends: basic
    constants: {farm_points: 2.5}
    features:
      field:
        scoring:
          final: previous + 1
    """,
    # A bonus reads a token of a kind left out.
    """\
    extends: basic
    features:
      city:
        edge: 5
        attributes: [pennants, wine]
        rewards: {tokens: [wine]}
    bonuses:
      wine: {value: wine, points: '3'}
    """,
    # ... and of one whose attributes cannot be read at all.
    """\
    extends: basic
    features:
      cloister:
        attributes: 5
    bonuses:
      wine: {value: wine, points: '3'}
    """,
    # own_T of a follower type left out.
    """\
    extends: basic
    follower_types:
      big: {count: -1}
    features:
      road:
        scoring:
          complete: tiles + own_big
    """,
    # A seat past a players.max the schema rejects.
    """\
    extends: basic
    players: {min: 2, max: six}
    seats:
      sixth: {points: 3}
    """,
    # A constraint on a tile type left out.
    """\
    extends: basic
    tiles:
      D: {count: two}
    constraints:
      hole: {rule: hole, tiles: [D]}
    """,
    # Constants that are no mapping: no formula can be judged for its names.
    """\
    extends: basic
    constants: [farm_points]
    features:
      road:
        scoring:
          complete: tiles + farm_points
    """,
])
def test_what_reads_a_broken_part_is_left_out(tmp_path: Path, text: str) -> None:
    found = problems(tmp_path, text)
    assert {d.code for d in found} == {"schema"}, "\n".join(d.render() for d in found)


def test_a_formula_of_a_part_left_out_is_parsed_but_not_named(tmp_path: Path) -> None:
    found = problems(tmp_path, """\
        extends: basic
        follower_types:
          big: {count: -1, strength: '1 +'}
        triggers:
          big-scores: {when: placed, follower: big, effect: score, score: tils + + 1}
        """)
    # 'tils' is no input, but which inputs the trigger's formula has depends on the broken type.
    assert codes(found) == [(3, "schema"), (3, "formula-syntax"), (5, "formula-syntax")]


def test_with_every_tile_left_out_the_kinds_are_still_checked(tmp_path: Path) -> None:
    found = problems(tmp_path, """\
        extends: basic
        tiles: [A, B]
        features:
          road:
            scoring:
              complete: 2 * tils
        """)
    assert codes(found) == [(2, "schema"), (6, "formula-name")]


BROKEN: list[Any] = [[[]], -7, None, "x", {"zzz_unknown": 1}]


def _breakings(data: dict) -> list[tuple[tuple, Any]]:
    """``(path, value)``: every unit, every key in a unit and every key under those (but a tile's),
    given a value the schema may reject."""
    found: list[tuple[tuple, Any]] = []
    for key, value in data.items():
        entries = list(value.items()) if isinstance(value, dict) else []
        found += [((key,), bad) for bad in BROKEN[:2]]
        for name, spec in entries:
            found += [((key, name), bad) for bad in (BROKEN[0], BROKEN[4])]
            for n, (inner, value) in enumerate(spec.items() if isinstance(spec, dict) else ()):
                found.append(((key, name, inner), BROKEN[n % len(BROKEN)]))
                deeper = list(value) if isinstance(value, dict) and key != "tiles" else []
                found += [((key, name, inner, last), bad) for last in deeper for bad in BROKEN[1:3]]
    return found


def _small(ref: str) -> Document:
    """The merged ruleset ``ref`` with the tile types others name and one of each kind (a schema
    check of the whole takes a tenth of a second), checked to load."""
    doc, _ = compose(ref, None)
    named = repr({key: value for key, value in doc.data.items() if key != "tiles"})
    keep = {tile for tile in doc.data["tiles"] if repr(tile) in named}
    keep |= {next(tile for tile, spec in doc.data["tiles"].items() if any(s["kind"] == kind for s in spec["segments"]))
             for kind in doc.data["features"]}
    small = replace(doc, data={**doc.data, "tiles": {k: v for k, v in doc.data["tiles"].items() if k in keep}})
    compile_ruleset(small, ref)
    return small


def test_any_break_gives_schema_errors_only_and_no_traceback() -> None:
    """Each value of a valid ruleset broken in turn: the rest has no error of its own, so every
    error reported beside the schema's would be one the broken part caused."""
    doc = _small("basic+abbey-and-mayor+king-and-robber-baron+traders-and-builders")
    for path, bad in _breakings(doc.data):
        data = copy.deepcopy(doc.data)
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = {**parent[path[-1]], **bad} if isinstance(bad, dict) and isinstance(
            parent[path[-1]], dict) else bad
        try:
            check(replace(doc, data=data), "ruleset")
            continue  # a value the schema takes after all ('x' for a description)
        except UserError as error:
            extra = [d.render() for d in error.diagnostics if d.code != "schema"]
        assert not extra, f"{path} = {bad!r}:\n" + "\n".join(extra)
