"""`carcassonne rulesets …` and `carcassonne tiles`: exit codes and key output."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def test_list_names_rulesets_and_options_with_sources() -> None:
    result = run("rulesets", "list")
    assert result.returncode == 0
    for name in ("basic", "tiny-city", "seeds/000_b3a1eae011148ed0.txt"):
        assert name in result.stdout


def test_show_with_origins_names_the_file_and_line() -> None:
    result = run("rulesets", "show", "basic+tiny-city", "--origins")
    assert result.returncode == 0
    line = next(s for s in result.stdout.splitlines() if s.strip().startswith("complete: if tiles == 2"))
    assert "options/tiny-city.yaml:" in line
    assert "followers: 7  # rulesets/basic.yaml:" in result.stdout


def test_diff_lists_exactly_the_differences() -> None:
    result = run("rulesets", "diff", "basic", "basic+tiny-city")
    assert result.returncode == 0
    paths = [s for s in result.stdout.splitlines() if s.startswith("$")]
    assert paths == ["$.features.city.scoring.complete"]
    same = run("rulesets", "diff", "basic", "basic")
    assert same.returncode == 0 and "same rules" in same.stdout


def test_validate_exit_codes(tmp_path: Path) -> None:
    assert run("rulesets", "validate", "rulesets/basic.yaml", "rulesets/options/tiny-city.yaml",
               "examples/garden-variant.yaml", "examples/options/long-roads.yaml").returncode == 0
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: basic\nname: bad\nfollowers: -2\n")
    result = run("rulesets", "validate", "rulesets/basic.yaml", str(bad))
    assert result.returncode == 2
    assert f"{bad}:3:12: error:" in result.stderr and "[schema]" in result.stderr


def test_validate_says_how_many_tiles_a_short_deck_deals(tmp_path: Path) -> None:
    # deck.size deals fewer tiles than the tile types hold: the count says both (issue 51).
    result = run("rulesets", "validate", "rulesets/options/short-game.yaml", "rulesets/basic.yaml")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == ("ok   rulesets/options/short-game.yaml (24 tile types, 72 tiles, 40 dealt, "
                        "checked as basic+rulesets/options/short-game.yaml)")
    assert lines[1] == "ok   rulesets/basic.yaml (24 tile types, 72 tiles)"  # every tile is dealt
    river = run("rulesets", "validate", "rulesets/options/short-game.yaml", "--base", "basic+river")
    assert river.returncode == 0, river.stderr
    assert "(36 tile types, 84 tiles, 40 dealt, checked as basic+river+" in river.stdout
    big = tmp_path / "big.yaml"  # a size above the deck deals every tile: nothing to add
    big.write_text("extends: basic\nname: big\ndeck: {size: 500}\n")
    result = run("rulesets", "validate", str(big))
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"ok   {big} (24 tile types, 72 tiles)\n"


def test_tiles_draws_every_tile_type() -> None:
    result = run("tiles", "basic")
    assert result.returncode == 0
    headers = [s for s in result.stdout.splitlines() if "edges" in s and "×" in s]
    assert len(headers) == 24
    assert "D  ×4  edges CRFR (start tile)" in result.stdout


def test_tiles_says_how_many_tiles_a_short_deck_deals() -> None:
    first = run("tiles", "basic+river+short-game").stdout.splitlines()[0]
    assert first.startswith("basic+river+short-game: 36 tile types, 84 tiles, 40 dealt (D set aside). ")
    whole = run("tiles", "basic+river").stdout  # every tile dealt: the start tiles too are in play
    assert whole.startswith("basic+river: 36 tile types, 84 tiles (83 in play: D set aside). ")


def test_example_variant_plays() -> None:
    result = run("play", "--ruleset", "examples/garden-variant.yaml", "--seed", "3", "--quiet")
    assert result.returncode == 0, result.stderr
    assert "garden" in result.stdout
    assert "76 tiles placed" in result.stdout


def test_unknown_option_is_one_error_line() -> None:
    result = run("play", "--ruleset", "basic+no-such-option", "--seed", "1")
    assert result.returncode == 2
    assert "unknown option 'no-such-option'" in result.stderr and "Traceback" not in result.stderr


def test_an_option_is_validated_on_a_base_that_already_has_what_it_requires() -> None:
    # river-split-springs requires river; a base that names river must not get it twice.
    for base in ("basic", "first-edition+river"):
        result = run("rulesets", "validate", "rulesets/options/river-split-springs.yaml", "--base", base)
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith("ok   rulesets/options/river-split-springs.yaml")
        assert f"checked as {base.replace('+river', '')}+river+" in result.stdout


def test_show_names_the_options_applied(tmp_path: Path) -> None:
    """Issue 50: ``rulesets show basic+farm-points-4`` printed basic's name and description, as if
    no option applied; the text shown still loads, and ``basic`` alone is as it was."""
    result = run("rulesets", "show", "basic+farm-points-4")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "name: basic+farm-points-4"
    assert lines[1].startswith("description: 'Carcassonne base game") and "With farm-points-4: Farms pay 4" in lines[1]
    shown = tmp_path / "shown.yaml"
    shown.write_text(result.stdout)
    assert run("rulesets", "validate", str(shown)).returncode == 0
    assert run("rulesets", "show", "basic").stdout.splitlines()[0] == "name: basic"
