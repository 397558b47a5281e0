"""``carcassonne play --resume FILE`` (issue 50): a game quit with ``q`` at the terminal and saved
goes on where it stopped, and its record is saved back to the file; what cannot be resumed is one
located error line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]


def run(*args: str, given: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          input=given, timeout=300)


def _quit_after_one_move(path: Path) -> dict:
    """A human's game (seed 7) quit after the human's first move, saved to ``path``."""
    result = run("play", "-p", "human,greedy", "-s", "7", given=f"1\nq\n{path}\n")
    assert result.returncode == 0, result.stderr
    assert f"go on with: carcassonne play --resume {path}" in result.stdout
    return json.loads(path.read_text())


def test_a_quit_game_goes_on_to_its_end_and_is_saved_back(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    before = _quit_after_one_move(saved)
    assert before["finished"] is False and len(before["turns"]) == 2
    result = run("play", "--resume", str(saved), given="1\n" * 60)
    assert result.returncode == 0, result.stderr
    assert "Going on with basic at turn 3 with human-1, greedy-2 — seed 7" in result.stdout
    assert f"Record written to {saved}" in result.stdout and " wins with " in result.stdout
    after = json.loads(saved.read_text())
    assert after.get("finished", True) and after["turns"][:2] == before["turns"] and len(after["turns"]) >= 71
    replayed = run("replay", str(saved))
    assert replayed.returncode == 0 and "agree with the record" in replayed.stdout


def test_a_resumed_game_quit_again_keeps_what_was_played(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    _quit_after_one_move(saved)
    result = run("play", "--resume", str(saved), given="1\nq\n")
    assert result.returncode == 0 and "Game stopped after 4 turns" in result.stdout
    assert len(json.loads(saved.read_text())["turns"]) == 4


def test_what_cannot_be_resumed_is_one_error_line(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    _quit_after_one_move(saved)
    given = run("play", "--resume", str(saved), "--seed", "8")
    assert given.returncode == 2 and "--seed comes from the record with --resume" in given.stderr
    done = tmp_path / "done.json"
    assert run("play", "-s", "3", "--record", str(done), "-q").returncode == 0
    over = run("play", "--resume", str(done))
    assert over.returncode == 2 and f"the game is over: carcassonne replay {done}" in over.stderr
    data = json.loads(saved.read_text())
    data["turns"][0]["tile"] = "X" if data["turns"][0]["tile"] != "X" else "W"
    saved.write_text(json.dumps(data))
    edited = run("play", "--resume", str(saved))
    assert edited.returncode == 2 and f"{saved}:" in edited.stderr and "Traceback" not in edited.stderr
