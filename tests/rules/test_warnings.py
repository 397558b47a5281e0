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


def test_a_diagnostic_is_one_line_whatever_a_file_name_holds(tmp_path: Path) -> None:
    """Issue 51: a newline in a file name split the error line; the snippet under it keeps its lines."""
    found = Diagnostic("ruleset file not found: a\nb.yaml", file="x\ny.yaml", line=1, col=2, code="io",
                       snippet="  f\n  ^")
    assert found.render() == "x\\ny.yaml:1:2: error: ruleset file not found: a\\nb.yaml [io]\n  f\n  ^"
    done = run("play", "--ruleset", str(tmp_path / "a\nb.yaml"), "--players", "random,random", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "a\\nb.yaml" in done.stderr


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


QUARRY = """extends: basic
name: quarry
features:
  quarry: {edge: Q, ports: side, completion: closed, follower: quarryman}
tiles:
  QQ:
    count: 2
    edges: QQQQ
    segments:
      - {kind: quarry, ports: [N, E, S, W]}
"""


def test_a_tile_no_placeable_tile_can_meet_warns_at_its_edges(tmp_path: Path) -> None:
    # Two copies do not help: the first has nothing to meet.  The quarry kind, which followers
    # may go on but which has no formula, warns too.
    path = tmp_path / "quarry.yaml"
    path.write_text(QUARRY)
    found = {w.code: w for w in load_ruleset(str(path), cache=False).warnings}
    tile = found["tile-unplaceable"]
    assert (tile.line, tile.col, tile.path) == (8, 12, "$.tiles.QQ.edges")
    assert tile.message == ("tile 'QQ' can never be placed: none of its sides (QQQQ) meets a side of a tile "
                            "that can be placed, so every copy drawn is discarded")
    kind = found["kind-never-scores"]
    assert (kind.line, kind.path) == (4, "$.features.quarry")
    assert kind.message.startswith("followers may go on a quarry, but kind 'quarry' has no scoring formula")
    assert kind.message.endswith("so a quarryman there never scores")


def test_a_tile_that_meets_only_a_tile_others_can_reach_is_placeable(tmp_path: Path) -> None:
    # QF meets the fields of the basic tiles; QQ meets QF's quarry side: both can be placed.
    path = tmp_path / "quarry.yaml"
    path.write_text(QUARRY + """  QF:
    count: 1
    edges: QFFF
    segments:
      - {kind: quarry, ports: [N]}
      - {kind: field, ports: [EL, ER, SL, SR, WL, WR]}
""")
    assert "tile-unplaceable" not in {w.code for w in load_ruleset(str(path), cache=False).warnings}


def test_a_first_tile_drawn_could_be_any_so_no_tile_is_unreachable(tmp_path: Path) -> None:
    path = tmp_path / "quarry.yaml"
    path.write_text(QUARRY + "deck: {start_rule: drawn}\n")
    assert "tile-unplaceable" not in {w.code for w in load_ruleset(str(path), cache=False).warnings}


def test_a_kind_a_bonus_reads_is_not_warned_of(tmp_path: Path) -> None:
    path = tmp_path / "quarry.yaml"
    path.write_text(QUARRY.replace("QQQQ", "QFFF").replace("ports: [N, E, S, W]}", "ports: [N]}\n"
                    "      - {kind: field, ports: [EL, ER, SL, SR, WL, WR]}")
                    + "bonuses:\n  quarries: {value: completed_quarry, points: '5'}\n")
    assert load_ruleset(str(path), cache=False).warnings == ()


def test_a_follower_type_that_never_counts_warns_at_its_strength(tmp_path: Path) -> None:
    path = tmp_path / "idle.yaml"
    path.write_text("extends: basic\nname: idle\nfollower_types:\n  idle: {count: 1, strength: 0}\n")
    (warning,) = load_ruleset(str(path), cache=False).warnings
    assert (warning.line, warning.col, warning.code) == (4, 30, "follower-never-scores")
    assert warning.message == ("follower type 'idle' counts 0 in every majority, no formula reads own_idle and it "
                               "earns no extra turn, so it never changes a score")
    # Read by a formula (Traders & Builders' pig), or earning an extra turn (its builder): no warning.
    assert load_ruleset("basic+traders-and-builders").warnings == ()


def test_a_kind_completing_by_formula_without_a_complete_score_warns(tmp_path: Path) -> None:
    path = tmp_path / "fields.yaml"
    path.write_text("extends: basic\nname: closing-fields\nfeatures:\n  field:\n    completion: \"tiles >= 5\"\n")
    (warning,) = load_ruleset(str(path), cache=False).warnings
    assert (warning.line, warning.col, warning.code) == (5, 18, "kind-scoring")
    assert warning.message == ("kind 'field' completes by a formula but has no 'complete' score: a follower on a "
                               "completed one goes home with nothing")


def test_burying_under_a_kind_no_tile_has_warns(tmp_path: Path) -> None:
    path = tmp_path / "bury.yaml"
    path.write_text("extends: basic\nname: empty-hills\nfeatures:\n  hill: {ports: none, completion: never, "
                    "deployable: false, follower: nobody}\ndeck: {bury: hill}\n")
    (warning,) = load_ruleset(str(path), cache=False).warnings
    assert (warning.line, warning.col, warning.code) == (5, 14, "bury-never")
    assert warning.message == "no tile type has a hill, so deck.bury never buries a tile"
