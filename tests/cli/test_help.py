"""Help and shell completion: what a person reads, and what TAB offers.

The help of every command is kept as a snapshot in ``tests/snapshots/help/``
(set ``UPDATE_HELP_SNAPSHOTS=1`` to rewrite them after a deliberate change) and
held to the rules in docs: no type names, a metavar on every option that
takes a value, examples and an exit status on every command.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from engine.cli import app

SNAPSHOTS = Path(__file__).resolve().parents[1] / "snapshots" / "help"
COMMAND = typer.main.get_command(app)


def is_group(command: object) -> bool:
    return isinstance(getattr(command, "commands", None), dict)


def commands(group: object = COMMAND, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command's path below the root, sub-groups walked (``("rulesets", "show")``)."""
    found = [path]
    if is_group(group):
        for name, command in group.commands.items():  # type: ignore[attr-defined]
            found += commands(command, (*path, name))
    return found


def leaf(path: tuple[str, ...]) -> typer.core.TyperCommand:
    command = COMMAND
    for name in path:
        command = command.commands[name]  # type: ignore[attr-defined]
    return command


def help_text(path: tuple[str, ...]) -> str:
    outcome = CliRunner().invoke(app, [*path, "--help"], prog_name="carcassonne", terminal_width=100,
                                 env={"COLUMNS": "100"})
    assert outcome.exit_code == 0, outcome.output
    return outcome.stdout


ALL = commands()
LEAVES = [p for p in ALL if not is_group(leaf(p))]


@pytest.mark.parametrize("path", ALL, ids=lambda p: " ".join(p) or "carcassonne")
def test_help_matches_its_snapshot(path: tuple[str, ...]) -> None:
    text = help_text(path)
    snapshot = SNAPSHOTS / (("-".join(path) or "carcassonne") + ".txt")
    if os.environ.get("UPDATE_HELP_SNAPSHOTS"):
        snapshot.parent.mkdir(parents=True, exist_ok=True)
        snapshot.write_text(text)
    assert text == snapshot.read_text()


@pytest.mark.parametrize("path", ALL, ids=lambda p: " ".join(p) or "carcassonne")
def test_help_shows_no_type_names(path: tuple[str, ...]) -> None:
    assert not re.search(r"<(bool|str|int|float|path|list|Path)[^>]*>", help_text(path))


@pytest.mark.parametrize("path", LEAVES, ids=" ".join)
def test_every_option_says_what_it_takes_and_means(path: tuple[str, ...]) -> None:
    for param in leaf(path).params:
        assert param.help, f"{param.name} has no help"
        if param.param_type_name == "option" and not param.is_flag:
            assert param.metavar, f"--{param.name} takes a value but names none"


@pytest.mark.parametrize("path", LEAVES, ids=" ".join)
def test_every_command_has_examples_and_an_exit_status(path: tuple[str, ...]) -> None:
    text = help_text(path)
    # serve runs until it is stopped, and Ctrl-C ends it with 130 as it ends every command: never 0
    assert "Examples:" in text and ("Exit status: 130 " if path == ("serve",) else "Exit status: 0") in text
    examples = text.split("Examples:")[1].split("Exit status:")[0]
    assert all(line.strip().startswith("carcassonne ") for line in examples.strip().splitlines())


@pytest.mark.parametrize("path", [p for p in ALL if is_group(leaf(p))], ids=lambda p: " ".join(p) or "carcassonne")
def test_command_summaries_are_not_cut_short_on_an_80_column_terminal(path: tuple[str, ...]) -> None:
    outcome = CliRunner().invoke(app, [*path, "--help"], prog_name="carcassonne", terminal_width=80,
                                 env={"COLUMNS": "80"})
    listing = outcome.stdout.split("Commands:")[1]
    assert "..." not in listing and "…" not in listing, listing


def complete(words: str, extra_env: dict[str, str] | None = None) -> list[str]:
    """What bash completion offers for the last word of ``words``, through typer's protocol."""
    env = {**os.environ, "_CARCASSONNE_COMPLETE": "complete_bash", "COMP_WORDS": words,
           "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1)), **(extra_env or {})}
    # The installed script: completion is keyed to the program's name (_CARCASSONNE_COMPLETE).
    script = Path(sys.executable).parent / "carcassonne"
    run = subprocess.run([str(script)], env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return run.stdout.split()


def test_completion_offers_shipped_rulesets_and_options() -> None:
    assert complete("carcassonne simulate fir") == ["first-edition"]
    offered = complete("carcassonne play --ruleset basic+ri")
    assert "basic+river" in offered and "basic+river-split-springs" in offered
    assert all(o.startswith("basic+ri") for o in offered)
    assert complete("carcassonne rulesets show basic+tiny-city+tiny") == []  # an option is not offered twice


def test_completion_offers_players_name_by_name() -> None:
    assert complete("carcassonne simulate basic -p random,gr") == ["random,greedy"]
    assert "random,human" in complete("carcassonne play -p random,")
    assert "random,human" not in complete("carcassonne simulate basic -p random,")  # bots only


def test_completion_can_be_installed() -> None:
    assert "--install-completion" in help_text(())


def test_every_results_printing_command_takes_json() -> None:
    with_json = {path for path in LEAVES if any("--json" in p.opts for p in leaf(path).params)}
    # render writes pictures and prints no results; serve serves pages until stopped
    assert set(LEAVES) - with_json == {("render",), ("serve",)}
    schemas = {p.name.removesuffix(".schema.json") for p in (Path(__file__).resolve().parents[2] / "rulesets" /
                                                             "schema" / "output").glob("*.schema.json")}
    assert {"-".join(path) for path in with_json} == schemas - {"common"}
