"""Text from files stays text on the terminal: player names from a record, and names,
descriptions, tile ids and follower names from a ruleset, go through every command that
shows them without styling, moving or clearing the terminal, and without rich reading
markup or emoji codes in them.

The rule (README, "Bad input"): no markup is interpreted, and every control
character (C0, DEL, C1), lone surrogate, U+2028/U+2029 and bidirectional control is shown
as a visible escape such as ``\\x1b``; newline and tab stay.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli.human import HumanPlayer
from engine.cli.output import json_text, terminal_console
from engine.core.game import Game
from engine.errors import UNSAFE, Diagnostic, printable
from engine.rules.ruleset import load_ruleset
from engine.sim.play import QuitGame

ROOT = Path(__file__).parents[2]
#: One of each kind of hostile text; the two seats share them out.
NAMES = ["\x1b[2J\x1b[H[bold red]red[/] :smile: \x1b]0;owned\x07 [/]",
         "</script><!--<script> \u202eevil\u202c \x9b31m a\rb \x00\x7f \u2028 & \"q\" 's'"]
#: A ruleset whose own text is hostile: its name, description, a follower name, a tile id.
EVIL_RULESET = r"""extends: basic
name: "\e[2Jevil [bold]x[/] :smile:"
description: "\e]0;pwned\a \u202Ereversed\u202C \x9b31m"
features:
  city:
    follower: "\e[5mknight[/]"
tiles:
  "Y\n":
    count: 2
    edges: CFFF
    segments:
      - {kind: cloister}
      - {kind: city, ports: [N]}
      - {kind: field, ports: [WL, WR, SL, SR, EL, ER]}
"""


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> Path:
    """A finished basic game whose players have :data:`NAMES`."""
    folder = tmp_path_factory.mktemp("hostile")
    path = folder / "g.json"
    assert run("play", "-p", "random,greedy", "-s", "7", "-q", "--record", str(path)).returncode == 0
    data = json.loads(path.read_text())
    for player, name in zip(data["players"], NAMES):
        player["name"] = name
    path.write_text(json.dumps(data))
    return path


def assert_plain(text: str) -> None:
    """No character a terminal acts on (the output is a pipe: rich adds no styles)."""
    found = UNSAFE.search(text)
    assert found is None, f"{found.group(0)!r} in {text[max(0, found.start() - 40):found.end() + 40]!r}"


def test_printable_escapes_every_control_and_keeps_the_rest() -> None:
    assert printable("\x1b[2J") == "\\x1b[2J"
    assert printable("a\rb\x00\x7f\x9b") == "a\\x0db\\x00\\x7f\\x9b"
    assert printable("\u202eevil\u2066\u2028\u2029\ud800\ufffe") == "\\u202eevil\\u2066\\u2028\\u2029\\ud800\\ufffe"
    assert printable("tab\tnewline\n été 🙂 [b] :smile: \\x1b") == "tab\tnewline\n été 🙂 [b] :smile: \\x1b"


def test_error_lines_show_quoted_text_escaped() -> None:
    line = Diagnostic("unknown tile '\x1b[2J'", file="g\x1b.json", line=3, col=4, code="tile").render()
    assert line == "g\\x1b.json:3:4: error: unknown tile '\\x1b[2J' [tile]"


def test_json_keeps_the_data_but_no_terminal_control() -> None:
    text = json_text({"name": NAMES[1]})
    assert_plain(text)
    assert json.loads(text) == {"name": NAMES[1]}  # the same string, written \uXXXX


@pytest.mark.parametrize("name", NAMES)
def test_a_terminal_console_shows_markup_and_controls_as_text(name: str) -> None:
    from rich.table import Table
    from rich.text import Text

    out = io.StringIO()
    console = terminal_console(file=out, width=200, force_terminal=True, color_system="truecolor")
    table = Table(title=name)
    table.add_column(name)
    table.add_row(name)
    table.add_row(Text(name, style="bold"))
    console.print(table)
    console.print(name, Text(name))
    console.rule(Text(name))
    shown = out.getvalue()
    # The only escape sequences left are rich's own colours (SGR: ESC [ … m).
    assert_plain(re.sub(r"\x1b\[[0-9;]*m", "", shown))
    assert printable(name).split("\n")[0][:20] in shown
    assert "🙂" not in shown and "😄" not in shown  # :smile: stays text


def test_replay_and_rescore_show_names_as_text(record: Path) -> None:
    replayed = run("replay", str(record))
    assert replayed.returncode == 0, replayed.stderr
    rescored = run("rescore", str(record), "-r", "first-edition")
    assert rescored.returncode == 0, rescored.stderr
    for result in (replayed, rescored):
        assert_plain(result.stdout + result.stderr)
    assert "\\x1b[2J\\x1b[H[bold red]red[/] :smile: \\x1b]0;owned\\x07 [/]" in rescored.stdout
    assert "\\u202eevil\\u202c \\x9b31m a\\x0db" in rescored.stdout
    as_json = run("rescore", str(record), "-r", "first-edition", "--json", "-")
    assert_plain(as_json.stdout)
    assert json.loads(as_json.stdout)["players"] == NAMES


def test_play_and_tiles_show_a_hostile_ruleset_as_text(tmp_path: Path) -> None:
    ruleset = tmp_path / "evil.yaml"
    ruleset.write_text(EVIL_RULESET)
    for args in (("play", "-r", str(ruleset), "-s", "3"), ("tiles", str(ruleset)),
                 ("rulesets", "validate", str(ruleset)), ("simulate", str(ruleset), "-n", "2", "-w", "1")):
        result = run(*args, cwd=tmp_path)
        assert result.returncode == 0, (args, result.stderr)
        assert_plain(result.stdout + result.stderr)
    assert "\\x1b[5mknight[/] on city@" in run("play", "-r", str(ruleset), "-s", "3", cwd=tmp_path).stdout


def test_rulesets_show_writes_separators_and_bidi_controls_as_escapes(tmp_path: Path) -> None:
    """`rulesets show` prints YAML: a U+2028/U+2029 (which PyYAML wrote raw in a single-quoted
    scalar, a line break to a terminal) or a bidirectional control in a name is a YAML escape in a
    double-quoted scalar, so the text still loads as the same ruleset (issue 51)."""
    import yaml

    name, description, source = "a\u2028b", "one\u2029two \u202eevil\u202c", "x\u200fy"
    ruleset = tmp_path / "seps.yaml"
    ruleset.write_text(f"extends: basic\nname: {json.dumps(name)}\ndescription: {json.dumps(description)}\n"
                       f"source: {json.dumps(source)}\n")
    (tmp_path / "evil.yaml").write_text(EVIL_RULESET)
    # --origins names each ruleset a value replaced, in a comment, which a line break would end
    (tmp_path / "child.yaml").write_text("extends: ./seps.yaml\nname: child\nfollowers: 5\n")
    for args in (("seps.yaml",), ("seps.yaml", "--origins"), ("evil.yaml",), ("evil.yaml", "--origins"),
                 ("child.yaml", "--origins")):
        result = run("rulesets", "show", *args, cwd=tmp_path)
        assert result.returncode == 0, (args, result.stderr)
        assert_plain(result.stdout + result.stderr)
    shown = run("rulesets", "show", "seps.yaml", cwd=tmp_path).stdout
    assert 'name: "a\\Lb"' in shown
    loaded = yaml.safe_load(shown)
    assert (loaded["name"], loaded["description"], loaded["source"]) == (name, description, source)
    assert "(a\\u2028b)" in run("rulesets", "show", "child.yaml", "--origins", cwd=tmp_path).stdout


def test_errors_quoting_a_hostile_record_value_are_escaped(record: Path, tmp_path: Path) -> None:
    data = json.loads(record.read_text())
    data["turns"][0]["tile"] = "\x1b[2J"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data))
    result = run("replay", str(broken))
    assert result.returncode == 2
    assert_plain(result.stderr)
    assert "\\x1b[2J" in result.stderr and "error:" in result.stderr


def test_the_terminal_player_sees_hostile_names_and_ids_as_text(tmp_path: Path) -> None:
    ruleset_file = tmp_path / "evil.yaml"
    ruleset_file.write_text(EVIL_RULESET)
    ruleset = load_ruleset(str(ruleset_file))
    out = io.StringIO()
    screen = terminal_console(file=out, width=120, force_terminal=True, color_system="truecolor")
    answers = iter(["1", "?", "1", "q"])
    human = HumanPlayer(NAMES[0], input=lambda prompt: next(answers), console=screen, seat_names=NAMES)
    game = Game(ruleset, 2, 5)
    with pytest.raises(QuitGame):
        while game.tile is not None:
            game.play(human.choose(game), checked=True)
    shown = out.getvalue()
    assert_plain(re.sub(r"\x1b\[[0-9;]*m", "", shown))
    assert "\\x1b[2J\\x1b[H[bold red]red[/]" in shown
