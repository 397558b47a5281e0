"""Warnings: what a ruleset may say but probably does not mean.  They are diagnostics of
severity ``warning``, shown as ``file:line:col: warning: …`` on standard error by
``rulesets validate`` and ``play``, and change no exit status."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from engine.errors import Diagnostic
from engine.rules.ruleset import load_ruleset

NEVER = """extends: basic
name: never
features:
  road:
    adjacency: {kind: field, input: farms_done}
    scoring:
      complete: tiles + farms_done
"""
MESSAGE = ("kind 'road' counts completed 'field' features, but 'field' never completes (completion: never), "
           "so 'farms_done' is always 0")


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300)


def test_a_warning_renders_as_a_warning() -> None:
    found = Diagnostic("odd", file="r.yaml", line=3, col=4, code="x", severity="warning")
    assert found.render() == "r.yaml:3:4: warning: odd [x]"
    assert Diagnostic("bad", file="r.yaml").render() == "r.yaml: error: bad"


def test_adjacency_to_a_kind_that_never_completes_warns_at_the_kind(tmp_path: Path) -> None:
    path = tmp_path / "never.yaml"
    path.write_text(NEVER)
    (warning,) = load_ruleset(str(path), cache=False).warnings
    assert (warning.file, warning.line, warning.col, warning.code, warning.severity) == (
        str(path), 5, 23, "adjacency-never", "warning")
    assert warning.message == MESSAGE


def test_shipped_rulesets_have_no_warnings() -> None:
    for ref in ("basic", "first-edition", "second-edition", "basic+river+tiny-city", "basic+two-maps"):
        assert load_ruleset(ref).warnings == ()


def test_validate_and_play_show_the_warning_and_succeed(tmp_path: Path) -> None:
    (tmp_path / "never.yaml").write_text(NEVER)
    line = f"never.yaml:5:23: warning: {MESSAGE} (at $.features.road.adjacency.kind) [adjacency-never]\n"
    checked = run("rulesets", "validate", "never.yaml", cwd=tmp_path)
    assert checked.returncode == 0 and checked.stderr == line and checked.stdout.startswith("ok   never.yaml")
    played = run("play", "-r", "never.yaml", "-s", "3", "-q", cwd=tmp_path)
    assert played.returncode == 0 and played.stderr == line
