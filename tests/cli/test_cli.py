"""The command line: exit codes, key output, records, and bad input without tracebacks."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.rules.ruleset import load_ruleset

SCENARIOS = Path(__file__).parents[1] / "scenarios"


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


def test_play_writes_a_record_that_replays(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    result = run("play", "--ruleset", "basic", "--players", "random,greedy", "--seed", "7", "--record", str(record))
    assert result.returncode == 0, result.stderr
    assert "seed 7" in result.stdout
    assert "final" in result.stdout
    data = json.loads(record.read_text())
    placed = sum(1 for t in data["turns"] if not t.get("discarded"))
    discarded = sum(1 for t in data["turns"] if t.get("discarded"))
    assert placed + 1 + discarded == 72  # + the start tile
    assert data["scores"]["final"] == [sum(e["points"] for e in data["events"] if p in e["players"]) for p in (0, 1)]
    replayed = run("replay", str(record))
    assert replayed.returncode == 0, replayed.stderr
    assert "agree" in replayed.stdout
    again = tmp_path / "again.json"
    assert run("play", "--players", "random,greedy", "--seed", "7", "--record", str(again), "--quiet").returncode == 0
    assert again.read_bytes() == record.read_bytes()


def test_play_with_no_options_prints_its_seed() -> None:
    result = run("play", "--quiet", "--players", "random,random")
    assert result.returncode == 0, result.stderr
    assert "seed " in result.stdout


def test_replay_detects_a_tampered_score(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    assert run("play", "--players", "random,random", "--seed", "3", "--record", str(record), "--quiet").returncode == 0
    data = json.loads(record.read_text())
    data["scores"]["final"][0] += 1
    record.write_text(json.dumps(data))
    result = run("replay", str(record))
    assert result.returncode == 1
    assert "final scores" in result.stderr


def test_scenario_check_reports_a_failed_expectation(tmp_path: Path) -> None:
    text = (SCENARIOS / "01_s1_tiny_city.yaml").read_text().replace("A: 4", "A: 5")
    bad = tmp_path / "wrong.yaml"
    bad.write_text(text)
    result = run("scenario", "check", str(bad))
    assert result.returncode == 1
    assert "expected 5, got 4" in result.stdout
    # The events behind the engine's total follow (issue 50), for the in-game score and the final one.
    lines = result.stdout.splitlines()
    city = "    turn 1: city@S at (0,-1) (complete; tiles 2, pennants 0): 2 * tiles = 4, 2 * pennants = 0 → 4 for A"
    for when in ("in_game", "final"):
        at = lines.index(f"  {when} score of A: expected 5, got 4, from:")
        assert lines[at + 1] == city


@pytest.mark.parametrize("args, message", [
    (("play", "--ruleset", "no-such-ruleset"), "unknown ruleset 'no-such-ruleset'"),
    (("play", "--ruleset", "missing/file.yaml"), "not found"),
    (("play", "--players", "random,wizard", "--seed", "1"), "unknown player 'wizard'"),
    (("play", "--players", "random", "--seed", "1"), "2–5 players"),
    (("replay", "nowhere.json"), "cannot read"),
    (("scenario", "check", "nowhere.yaml"), "cannot read"),
])
def test_bad_input_is_one_error_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_malformed_files_point_at_line_and_column(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("rulesets: [basic]\nplayers: [A, B\n")
    result = run("scenario", "check", str(broken))
    assert result.returncode == 2
    assert result.stderr.startswith(f"{broken}:")
    assert "error:" in result.stderr and "Traceback" not in result.stderr
    record = tmp_path / "record.json"
    record.write_text('{"format": "carcassonne-record", "version": 1, ')
    result = run("replay", str(record))
    assert result.returncode == 2
    assert result.stderr.startswith(f"{record}:") and "Traceback" not in result.stderr


def test_record_not_written_when_the_folder_is_missing(tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "dir" / "g.json"
    result = run("play", "--players", "random,random", "--seed", "1", "--quiet", "--record", str(target))
    assert result.returncode == 2
    assert "cannot write" in result.stderr
    assert not target.exists()


def test_record_refuses_special_files_and_writes_through_symlinks(tmp_path: Path) -> None:
    result = run("play", "--players", "random,random", "--seed", "1", "--quiet", "--record", "/dev/null")
    assert result.returncode == 2 and "not a regular file" in result.stderr
    assert Path("/dev/null").is_char_device()
    real = tmp_path / "real.json"
    real.write_text("{}")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    assert run("play", "--players", "random,random", "--seed", "1", "--quiet", "--record", str(link)).returncode == 0
    assert link.is_symlink() and json.loads(real.read_text())["seed"] == 1


def test_bad_options_fail_before_the_game_is_played(tmp_path: Path) -> None:
    for args in (("--players", "random,wizard"), ("--record", str(tmp_path / "missing" / "g.json"))):
        result = run("play", "--seed", "1", *args)
        assert result.returncode == 2
        assert "Playing" not in result.stdout
    assert run("play", "--seed", "-5").returncode == 2


def test_record_replays_from_another_folder_with_a_relative_ruleset(tmp_path: Path) -> None:
    rules = tmp_path / "my_rules.yaml"
    rules.write_text((Path(__file__).parents[2] / "rulesets" / "basic.yaml").read_text())
    (tmp_path / "games").mkdir()
    assert run("play", "-r", "my_rules.yaml", "-s", "2", "-q", "--record", "games/g.json", cwd=tmp_path).returncode == 0
    assert json.loads((tmp_path / "games" / "g.json").read_text())["ruleset"] == "../my_rules.yaml"
    result = run("replay", str(tmp_path / "games" / "g.json"), cwd=Path("/"))
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["turns"][0].update(rotation=2.0), "expected an integer"),
    (lambda d: d.update(players=d["players"][:1]), "2–5 players"),
    (lambda d: d["turns"][0].update(follower="city@"), "names no port"),
    (lambda d: d.update(ruleset="no-such-ruleset"), "unknown ruleset"),
])
def test_corrupt_records_are_located_errors(tmp_path: Path, edit, message: str) -> None:
    record = tmp_path / "g.json"
    assert run("play", "--players", "random,random", "--seed", "5", "--record", str(record), "-q").returncode == 0
    data = json.loads(record.read_text())
    edit(data)
    record.write_text(json.dumps(data, indent=1))
    result = run("replay", str(record))
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert result.stderr.startswith(f"{record}:") and message in result.stderr
    assert "Traceback" not in result.stderr


def test_replay_checks_who_played_each_turn(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    assert run("play", "--players", "random,random", "--seed", "5", "--record", str(record), "-q").returncode == 0
    data = json.loads(record.read_text())
    data["turns"][0]["player"] = 1
    record.write_text(json.dumps(data))
    result = run("replay", str(record))
    assert result.returncode == 1 and "seat 1" in result.stderr


def test_a_human_plays_from_the_terminal_and_can_quit(tmp_path: Path) -> None:
    record = tmp_path / "h.json"
    full = subprocess.run([sys.executable, "-m", "engine.cli", "play", "-p", "human,greedy", "-s", "3",
                           "--record", str(record)], input="banana\n" + "1\n" * 60, capture_output=True,
                          text=True, timeout=300)
    assert full.returncode == 0, full.stderr
    assert "could not read 'banana'" in full.stdout and "Traceback" not in full.stdout + full.stderr
    assert json.loads(record.read_text()).get("finished", True) is True
    assert run("replay", str(record)).returncode == 0
    quit_early = subprocess.run([sys.executable, "-m", "engine.cli", "play", "-p", "human,greedy", "-s", "3",
                                 "--record", str(record)], input="1\n1\nq\n", capture_output=True, text=True,
                                timeout=300)
    assert quit_early.returncode == 0 and "Game stopped after" in quit_early.stdout
    assert json.loads(record.read_text())["finished"] is False
    assert run("replay", str(record)).returncode == 0


def test_quitting_a_human_game_writes_only_the_file_the_player_names(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "mine.yaml").write_text("extends: basic\nname: mine\n")
    (tmp_path / "games").mkdir()

    def play(answers: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "engine.cli", "play", "-r", "rules/mine.yaml", "-p",
                               "human,greedy", "-s", "3"], input=answers, capture_output=True, text=True,
                              timeout=300, cwd=tmp_path)

    def written() -> list[str]:
        return sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.json"))

    declined = play("1\nq\n\n")  # q, then Enter: do not save
    assert declined.returncode == 0 and "Save the game so far?" in declined.stdout
    assert "Game stopped after 2 turns; nothing was saved" in declined.stdout and written() == []
    ended = play("1\n")  # the input ends in the middle of the game
    assert ended.returncode == 0 and "the input ended, so nothing was saved" in ended.stdout and written() == []
    named = play("1\nq\ngames/mine.json\n")
    assert "the record so far is in games/mine.json" in named.stdout and written() == ["games/mine.json"]
    record = json.loads((tmp_path / "games" / "mine.json").read_text())
    assert record["ruleset"] == "../rules/mine.yaml" and record["finished"] is False  # relative to the record
    assert run("replay", str(tmp_path / "games" / "mine.json")).returncode == 0
    suggested = play("1\nq\ny\n")
    assert "carcassonne-3.json" in suggested.stdout and written() == ["carcassonne-3.json", "games/mine.json"]
    assert "Traceback" not in declined.stderr + ended.stderr + named.stderr + suggested.stderr


def test_replay_refuses_to_write_its_viewer_over_the_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    assert run("play", "-s", "3", "-q", "--record", str(record)).returncode == 0
    before = record.read_bytes()
    result = run("replay", str(record), "--html", str(record))
    assert result.returncode == 2 and "is the same file as the record" in result.stderr
    assert record.read_bytes() == before


def test_ctrl_c_in_a_human_game_exits_130_and_says_what_was_saved(tmp_path: Path) -> None:
    """Ctrl-C at the prompt ends the game as every command ends on it (exit 130); the record
    asked for with --record holds the game so far, and the message says so."""
    import signal
    import time

    record = tmp_path / "h.json"
    game = subprocess.Popen([sys.executable, "-m", "engine.cli", "play", "-p", "human,greedy", "-s", "3",
                             "--record", str(record)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert game.stdout is not None
    deadline = time.monotonic() + 120
    seen = ""
    while "Your move" not in seen and time.monotonic() < deadline:
        seen += game.stdout.read(1)  # until the first prompt
    game.send_signal(signal.SIGINT)
    out, err = game.communicate(timeout=120)
    assert game.returncode == 130, err
    assert "Traceback" not in out + err
    assert f"Game stopped after 0 turns; the record so far is in {record}" in " ".join((seen + out).split())
    assert json.loads(record.read_text())["finished"] is False


@pytest.mark.parametrize("args", [["rulesets", "list"], ["play", "--seed", "3"], ["tiles", "basic"],
                                  ["scenario", "check", "tests/scenarios/01_s1_tiny_city.yaml",
                                   "tests/scenarios/35_option_tiny_city.yaml"]])
def test_a_reader_that_goes_away_ends_the_command_quietly(args: list[str]) -> None:
    """`carcassonne … | head -1`: once the reader has closed the pipe, the command ends with
    exit 0 and no traceback, as `git log | head` does."""
    command = subprocess.Popen([sys.executable, "-m", "engine.cli", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=Path(__file__).parents[2])
    assert command.stdout is not None and command.stderr is not None
    command.stdout.readline()
    command.stdout.close()
    assert command.wait(timeout=120) == 0
    assert b"Traceback" not in command.stderr.read()


def test_the_docs_give_a_reader_that_goes_away_the_status_it_gets() -> None:
    """README and docs/json.md say what the test above holds, exit 0 (docs/json.md said 1: issue 51)."""
    root = Path(__file__).parents[2]
    for doc in (root / "README.md", root / "docs" / "json.md"):
        text = " ".join(doc.read_text().split())
        said = re.findall(r"A reader that [^.]*?\b(?:exit|status) (\d+)", text)
        assert said and set(said) == {"0"}, (doc.name, said)


@pytest.mark.parametrize("args, code", [(["rulesets", "list"], 0), (["rulesets", "show", "nope"], 2)])
def test_a_closed_standard_output_is_no_crash(args: list[str], code: int) -> None:
    """`carcassonne rulesets list >&-`: with no standard output at all, the command runs (what it
    would print goes nowhere) and keeps its exit status; errors still reach standard error."""
    import os

    run_closed = subprocess.run([sys.executable, "-m", "engine.cli", *args], stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: os.close(1), timeout=120)
    assert run_closed.returncode == code and "Traceback" not in run_closed.stderr
    assert ("unknown ruleset 'nope'" in run_closed.stderr) == (code == 2)


def test_a_bug_shows_its_traceback_and_asks_to_be_reported() -> None:
    """What escapes every command is an engine bug: its traceback, a line saying so, exit 70
    (never dressed up as bad input)."""
    code = ("import sys, engine.rules.inspect as inspect, engine.cli as cli\n"
            "def broken(): raise RuntimeError('engine bug')\n"
            "inspect.shipped = broken\n"
            "sys.argv = ['carcassonne', 'rulesets', 'list']\n"
            "cli.main()\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 70
    assert "Traceback" in result.stderr and "RuntimeError: engine bug" in result.stderr
    assert "this is a bug in the engine, not a problem with your input: please report it" in result.stderr


def test_an_engine_error_on_dask_is_told_from_a_scheduler_problem() -> None:
    from engine.rules.formula import compile_formula
    from engine.sim.simulate import raised_in_engine

    with pytest.raises(TypeError) as inside:
        compile_formula("tiles", {"tiles": float})  # raised by engine code
    assert raised_in_engine(inside.value)
    assert not raised_in_engine(OSError("connection closed"))  # raised nowhere in the engine


def test_the_log_names_follower_types_as_what_they_are() -> None:
    """A large follower is a "large knight", a builder a "builder", a pig a "pig" (they were
    "knight on large:city@N", "thief on builder:road@N", "farmer on pig:field@NL")."""
    from engine.files.notation import follower_name

    ruleset = load_ruleset("basic+inns-and-cathedrals+traders-and-builders")
    types = {t.name: t.index for t in ruleset.follower_types}
    assert follower_name(ruleset, 0, "thief") == "thief"
    assert follower_name(ruleset, types["large"], "knight") == "large knight"
    assert follower_name(ruleset, types["builder"], "thief") == "builder"
    assert follower_name(ruleset, types["pig"], "farmer") == "pig"
    log = run("play", "--ruleset", "basic+inns-and-cathedrals+traders-and-builders", "--players", "greedy,greedy",
              "--seed", "2").stdout
    assert "large thief on road@E" in log and "pig on field@NR" in log
    assert not re.search(r" on [a-z]+:", log)  # no TYPE: prefix left in the log
    # Issue 50: a type drawn as a figure of its own is that figure ("wagon knight", "barn farmer" were said).
    mayor = load_ruleset("basic+abbey-and-mayor")
    types = {t.name: t.index for t in mayor.follower_types}
    assert follower_name(mayor, types["wagon"], "knight") == "wagon"
    assert follower_name(mayor, types["barn"], "farmer") == "barn"
    assert follower_name(mayor, types["mayor"], "knight") == "mayor"


def test_rescore_marks_a_column_whose_game_stopped_early(tmp_path: Path) -> None:
    """Issue 50: ``basic+no-farmers`` showed its totals at turn 7 beside whole games, unmarked."""
    record = tmp_path / "g.json"
    assert run("play", "--players", "random,greedy", "--seed", "3", "--record", str(record), "-q").returncode == 0
    result = run("rescore", str(record), "-r", "basic+no-farmers", "-r", "first-edition")
    assert result.returncode == 0, result.stderr
    header = next(line for line in result.stdout.splitlines() if line.startswith("player"))
    assert header.split() == ["player", "basic", "basic+no-farmers*", "first-edition"]
    assert "* basic+no-farmers stops at turn 7 (its totals are the turns before, unscored at the end)" in \
        " ".join(result.stdout.split())
