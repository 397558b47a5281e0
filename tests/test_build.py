"""The two builds (setup.py): the hot modules compiled by mypyc, or pure Python.

CI installs each and sets ``CARCASSONNE_EXPECT_BUILD`` (``compiled`` or ``pure``)
so that a compile that silently fell back cannot pass as the compiled run.
Both builds play the same records (tests/core/test_same_records.py).
"""

from __future__ import annotations

import ast
import importlib.machinery
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.build_info import COMPILED, PURE, engine_build

ROOT = Path(__file__).resolve().parent.parent


def compiled_sources() -> list[str]:
    """The COMPILED list in setup.py, read without running it."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "COMPILED":
            return [ast.literal_eval(element) for element in node.value.elts]  # type: ignore[attr-defined]
    raise AssertionError("setup.py has no COMPILED list")


def test_the_running_build_is_the_one_ci_asked_for():
    expected = {"compiled": COMPILED, "pure": PURE}.get(os.environ.get("CARCASSONNE_EXPECT_BUILD", ""))
    if expected is None:
        pytest.skip("CARCASSONNE_EXPECT_BUILD is not set (CI sets it for each build)")
    assert engine_build() == expected


def test_version_names_the_build():
    out = subprocess.run([sys.executable, "-m", "engine.cli", "--version"], capture_output=True, text=True,
                         check=True).stdout
    assert re.fullmatch(r"carcassonne \S+, engine (compiled \(mypyc\)|pure Python)\n", out)
    assert out.endswith(f"engine {engine_build()}\n")


def test_no_compiled_module_is_older_than_its_source():
    """By file time, so a checkout that rewrites an unchanged file trips it too: reinstall either way."""
    stale = []
    for source in sorted((ROOT / "engine").rglob("*.py")):
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            built = source.with_name(source.stem + suffix)
            if built.exists() and built.stat().st_mtime < source.stat().st_mtime:
                stale.append(str(source.relative_to(ROOT)))
    assert stale == [], "reinstall (pip install -e .) after editing a compiled module"


def test_compiled_modules_have_no_doctests():
    """pytest cannot collect a compiled module's doctests (conftest.py skips those modules)."""
    for source in compiled_sources():
        assert ">>>" not in (ROOT / source).read_text(), source


def test_compiled_modules_type_check():
    """mypyc compiles what mypy proves: a type error here would make the build fall back."""
    pytest.importorskip("mypy")
    from mypy import api

    out, err, status = api.run(["--follow-imports=silent", "--ignore-missing-imports", "--no-incremental",
                                *(str(ROOT / s) for s in compiled_sources())])
    assert status == 0, out + err
