"""Nesting has a limit everywhere the engine recurses: lists, mappings and merges in a
YAML (or JSON) file, and the files of an ``extends`` chain.  Past it, a located error,
never a RecursionError."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import UserError
from engine.rules.compose import MAX_EXTENDS
from engine.rules.inspect import validate_file
from engine.rules.ruleset import load_ruleset
from engine.rules.source import load_yaml
from engine.rules.yaml_nodes import MAX_DEPTH


def error_of(text: str) -> UserError:
    with pytest.raises(UserError) as info:
        load_yaml("t.yaml", text=text)
    return info.value


def test_the_limits() -> None:
    assert (MAX_DEPTH, MAX_EXTENDS) == (32, 32)


def test_thirty_two_collections_deep_load() -> None:
    text = "[" * MAX_DEPTH + "1" + "]" * MAX_DEPTH
    data = load_yaml("t.yaml", text=text).data
    for _ in range(MAX_DEPTH - 1):
        data = data[0]
    assert data == [1]


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 999, 100_000])
def test_deeper_flow_lists_are_a_located_error(depth: int) -> None:
    (found,) = error_of("a: " + "[" * depth + "]" * depth + "\n").diagnostics
    assert found.code in ("yaml-too-large", "yaml-syntax")  # libyaml stops at 1000 levels itself
    assert (found.file, found.line) == ("t.yaml", 1) and found.col is not None
    if depth < 1000:
        assert found.col == 3 + MAX_DEPTH  # `a: ` then the mapping and 31 lists: the 32nd list
        assert found.message == "more than 32 lists, mappings and '<<' merges nested in one another"


def test_deep_block_mappings_are_a_located_error() -> None:
    text = "".join("  " * i + f"k{i}:\n" for i in range(40)) + "  " * 40 + "v\n"
    (found,) = error_of(text).diagnostics
    assert (found.line, found.col, found.code) == (33, 65, "yaml-too-large")  # the 33rd mapping: k31's value


def test_aliases_that_nest_are_counted_where_they_expand() -> None:
    lines = ["a0: &a0 [1]"] + [f"a{i}: &a{i} [*a{i - 1}]" for i in range(1, 40)]
    (found,) = error_of("\n".join(lines) + "\n").diagnostics
    assert found.code == "yaml-too-large" and found.line is not None


def test_a_chain_of_merges_is_nesting_too() -> None:
    lines = ["a0: &a0 {x: 1}"] + [f"a{i}: &a{i} {{<<: *a{i - 1}, y{i}: 1}}" for i in range(1, 3000)]
    (found,) = error_of("\n".join(lines) + "\n").diagnostics
    assert found.code == "yaml-too-large" and (found.line, found.col) == (1, 5)


def chain(folder: Path, files: int) -> Path:
    """``r0.yaml`` extends ``r1.yaml`` … extends basic: ``files`` files with basic."""
    for i in range(files - 1):
        parent = f"r{i + 1}.yaml" if i < files - 2 else "basic"
        (folder / f"r{i}.yaml").write_text(f"extends: {parent}\nname: r{i}\n")
    return folder / "r0.yaml"


def test_an_extends_chain_of_32_files_loads(tmp_path: Path) -> None:
    assert load_ruleset(str(chain(tmp_path, MAX_EXTENDS)), cache=False).name == "r0"


@pytest.mark.parametrize("files", [MAX_EXTENDS + 1, 1000])
def test_a_longer_chain_is_an_error_at_the_extends_that_goes_too_far(tmp_path: Path, files: int) -> None:
    with pytest.raises(UserError) as info:
        validate_file(chain(tmp_path, files))
    (found,) = info.value.diagnostics
    assert (Path(found.file).name, found.line, found.col, found.code) == ("r31.yaml", 1, 10, "extends-depth")
    assert found.message == f"the 'extends' chain from {(tmp_path / 'r0.yaml').resolve()} is more than 32 files long"


def test_a_cycle_is_still_a_cycle(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("extends: b.yaml\nname: a\n")
    (tmp_path / "b.yaml").write_text("extends: a.yaml\nname: b\n")
    with pytest.raises(UserError) as info:
        validate_file(tmp_path / "a.yaml")
    assert info.value.diagnostics[0].code == "extends-cycle"
