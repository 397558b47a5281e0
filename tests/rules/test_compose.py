"""Composition: extends chains (JSON Merge Patch), options, and errors at the file that set the value."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import UserError
from engine.rules.ruleset import load_ruleset

BASIC = Path(__file__).parents[2] / "rulesets" / "basic.yaml"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def test_extends_merges_mappings_and_replaces_the_rest(tmp_path: Path) -> None:
    write(tmp_path, "house.yaml", f"""\
extends: {BASIC}
name: house
features:
  road:
    scoring:
      complete: 2 * tiles
tiles:
  X: null
""")
    rs = load_ruleset(str(tmp_path / "house.yaml"))
    road = rs.kind("road")
    assert rs.name == "house"
    assert road.complete.text == "2 * tiles" and road.incomplete.text == "tiles"  # merged, not replaced
    assert road.follower == "thief"
    assert "X" not in rs.tile_ids and sum(t.count for t in rs.tiles) == 71  # null deletes


def test_a_chain_of_three_and_a_shipped_parent(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "extends: basic\nname: a\nfollowers: 6\n")
    write(tmp_path, "b.yaml", "extends: a.yaml\nname: b\nplayers: {min: 2, max: 3}\n")
    rs = load_ruleset(str(tmp_path / "b.yaml"))
    assert (rs.name, rs.followers, rs.max_players) == ("b", 6, 3)


def test_extends_cycle_is_an_error_at_the_extends_line(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "extends: b.yaml\nname: a\n")
    write(tmp_path, "b.yaml", "name: b\nextends: a.yaml\n")
    with pytest.raises(UserError) as caught:
        load_ruleset(str(tmp_path / "a.yaml"))
    (d,) = caught.value.diagnostics
    assert d.code == "extends-cycle" and d.line is not None and "cycle" in d.message


def test_errors_point_at_the_child_file_that_set_the_value(tmp_path: Path) -> None:
    child = write(tmp_path, "child.yaml", f"extends: {BASIC}\nname: child\ntiles:\n  D:\n    count: -1\n")
    with pytest.raises(UserError) as caught:
        load_ruleset(str(child))
    (d,) = caught.value.diagnostics
    assert (d.file, d.line, d.col, d.path) == (str(child), 5, 12, "$.tiles.D.count")


def test_formula_error_in_an_option_points_into_the_option(tmp_path: Path) -> None:
    option = write(tmp_path, "bad.yaml", """\
name: bad
description: broken on purpose
source: a test
patch:
  features:
    road:
      scoring:
        complete: 2 * tils
""")
    with pytest.raises(UserError) as caught:
        load_ruleset(f"basic+{option}")
    (d,) = caught.value.diagnostics
    assert (d.file, d.line, d.code) == (str(option), 8, "formula-name")
    assert d.col == 23 and "did you mean 'tiles'" in d.message


def test_an_error_in_an_option_names_the_path_in_the_option_file(tmp_path: Path) -> None:
    """Located in the option and named as it is written there: under ``patch:``."""
    option = write(tmp_path, "frob.yaml", """\
name: frob
description: unknown keys on purpose
source: a test
patch:
  frobnicate: 3
  features:
    road:
      colour: red
      scoring:
        complete: 2 * tils
""")
    with pytest.raises(UserError) as caught:
        load_ruleset(f"basic+{option}")
    found = {(d.line, d.col, d.path) for d in caught.value.diagnostics}
    assert (5, 3, "$.patch.frobnicate") in found
    assert (8, 7, "$.patch.features.road.colour") in found


def test_an_earlier_files_value_inside_a_mapping_an_option_patched_keeps_its_own_path(tmp_path: Path) -> None:
    """The option makes basic's road ports wrong: the error is at basic.yaml, under basic's path
    (found by a read-only review: it read ``$.patch.features.road.ports`` for a while)."""
    option = write(tmp_path, "roadsurr.yaml", """\
name: roadsurr
description: roads complete when surrounded
source: a test
patch:
  features:
    road:
      completion: surrounded
""")
    with pytest.raises(UserError) as caught:
        load_ruleset(f"basic+{option}")
    (d,) = caught.value.diagnostics
    assert (Path(d.file).name, d.path, d.code) == ("basic.yaml", "$.features.road.ports", "kind-ports")


@pytest.mark.parametrize("patch, path", [
    ("  features: null\n", "$.patch.features"),
    ("  constants:\n    farm_points: null\n", "$.patch.constants.farm_points"),
])
def test_a_deletion_in_an_option_is_named_by_its_path_there(tmp_path: Path, patch: str, path: str) -> None:
    option = write(tmp_path, "del.yaml", "name: del\ndescription: deletes\nsource: a test\npatch:\n" + patch)
    with pytest.raises(UserError) as caught:
        load_ruleset(f"basic+{option}")
    found = [(d.file, d.path) for d in caught.value.diagnostics]
    assert (str(option), path) in found, found


def test_a_later_file_names_its_own_path_inside_a_mapping_an_option_patched(tmp_path: Path) -> None:
    """Two options: the second replaces a value inside a mapping the first patched; an error at
    that value names the second file's path, not the first's."""
    first = write(tmp_path, "first.yaml", """\
name: first
description: patches the road
source: a test
patch:
  features:
    road:
      scoring:
        complete: 3 * tiles
""")
    second = write(tmp_path, "second.yaml", """\
name: second
description: breaks the road
source: a test
after: [first]
patch:
  features:
    road:
      scoring:
        complete: 2 * tils
""")
    with pytest.raises(UserError) as caught:
        load_ruleset(f"basic+{first}+{second}")
    (d,) = caught.value.diagnostics
    assert (d.file, d.line, d.path) == (str(second), 9, "$.patch.features.road.scoring.complete")


def test_options_apply_in_one_order_after_the_chain(tmp_path: Path) -> None:
    one = write(tmp_path, "one.yaml", "name: one\ndescription: d\nsource: s\npatch: {followers: 5}\n")
    two = write(tmp_path, "two.yaml", "name: two\ndescription: d\nsource: s\noverrides: [one]\n"
                "patch: {followers: 3}\n")
    assert load_ruleset(f"basic+{one}+{two}").followers == 3
    assert load_ruleset(f"basic+{two}+{one}").followers == 3  # the order written does not matter
    child = write(tmp_path, "child.yaml", "extends: basic\nname: child\nfollowers: 9\n")
    assert load_ruleset(f"{child}+{one}").followers == 5  # the option wins over every file of the chain


def test_shipped_option_tiny_city() -> None:
    tiny = load_ruleset("basic+tiny-city")
    assert tiny.kind("city").complete({"tiles": 2, "pennants": 1, "segments": 2, "complete": True}) == 3
    assert tiny.kind("city").complete({"tiles": 3, "pennants": 1, "segments": 3, "complete": True}) == 8
    assert tiny.sha256 != load_ruleset("basic").sha256


def test_requires_and_conflicts(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "name: a\ndescription: d\nsource: s\nconflicts: [b]\npatch: {}\n")
    write(tmp_path, "b.yaml", "name: b\ndescription: d\nsource: s\npatch: {}\n")
    write(tmp_path, "c.yaml", "name: c\ndescription: d\nsource: s\nrequires: [a]\npatch: {}\n")
    for ref, code in [("basic+a.yaml+b.yaml", "option-conflict"), ("basic+b.yaml+a.yaml", "option-conflict"),
                      ("basic+c.yaml", "option-requires"), ("basic+a.yaml+a.yaml", "option-twice"),
                      ("basic+nope", "option-unknown"), ("basic++a.yaml", "option-unknown")]:
        with pytest.raises(UserError) as caught:
            load_ruleset(ref, tmp_path)
        assert caught.value.diagnostics[0].code == code, ref
    assert load_ruleset("basic+a.yaml+c.yaml", tmp_path).name == "basic"


def test_named_line_items_explain_a_score(tmp_path: Path) -> None:
    write(tmp_path, "items.yaml", """\
extends: basic
name: items
features:
  city:
    scoring:
      complete: {tiles: 2 * tiles, pennants: 2 * pennants}
""")
    score = load_ruleset(str(tmp_path / "items.yaml")).kind("city").complete
    env = {"tiles": 3, "pennants": 1, "segments": 3, "complete": True}
    assert score(env) == 8
    assert score.terms(env) == [("tiles: 2 * tiles", 6), ("pennants: 2 * pennants", 2)]


def test_a_path_with_a_plus_that_names_a_file_is_that_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 51: ``my+rules.yaml`` was read as ruleset ``my`` with option ``rules.yaml``; a path that
    names an existing file whole is that file (docs/rulesets.md), relative to the working directory
    or to the file naming it, and a ``+`` after a path that names no file whole still adds options."""
    write(tmp_path, "my+rules.yaml", "extends: basic\nfollowers: 5\n")
    monkeypatch.chdir(tmp_path)
    assert load_ruleset("my+rules.yaml").followers == 5
    assert load_ruleset("my+rules.yaml", tmp_path).followers == 5
    write(tmp_path, "plain.yaml", "extends: basic\nfollowers: 6\n")
    with_river = load_ruleset("plain.yaml+river")
    assert with_river.followers == 6 and len(with_river.tiles) > len(load_ruleset("plain.yaml").tiles)
    with pytest.raises(UserError, match="unknown ruleset 'my'"):
        load_ruleset("my+rules.yaml+river")


def test_a_plus_path_keeps_its_name_in_records_and_output_checks(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by review: the record's portable reference and the output-overwrite check split
    ``my+rules.yaml`` at its '+' (``--record`` failed with "unknown ruleset 'my'"; ``--json
    my+rules.yaml`` could overwrite the ruleset)."""
    from engine.cli.output import ref_inputs
    from engine.rules.references import portable_ref

    write(tmp_path, "my+rules.yaml", "extends: basic\n")
    (tmp_path / "out").mkdir()
    monkeypatch.chdir(tmp_path)
    assert portable_ref("my+rules.yaml", tmp_path / "out") == "../my+rules.yaml"
    assert portable_ref("basic+river", tmp_path / "out") == "basic+river"
    assert ref_inputs("my+rules.yaml") == {"ruleset file my+rules.yaml": "my+rules.yaml"}
    assert ref_inputs("basic+my/house.yaml") == {"ruleset file my/house.yaml": "my/house.yaml"}
