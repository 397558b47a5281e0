"""Who won, said at the end of the log, the replay and the JSON (issue 50): the most points wins,
equal points share a place, and tied winners all win (RULES.md §3.1)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core.standings import ranking, standing

ROOT = Path(__file__).parents[2]


@pytest.mark.parametrize("scores, places, said", [
    ([7, 68], [[1], [0]], "B wins with 68 points; then A 7."),
    ([40, 40, 30], [[0, 1], [2]], "A and B tie for the win with 40 points each; then C 30."),
    ([5, 9, 5, 9, 1], [[1, 3], [0, 2], [4]],
     "B and D tie for the win with 9 points each; then A and C 5 (tied), E 1."),
    ([1, 0], [[0], [1]], "A wins with 1 point; then B 0."),
    ([0, 0, 0], [[0, 1, 2]], "A, B and C tie for the win with 0 points each."),
])
def test_places_and_the_sentence(scores: list[int], places: list[list[int]], said: str) -> None:
    assert ranking(scores) == places
    assert standing(scores, ["A", "B", "C", "D", "E"][:len(scores)]) == said


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


def test_play_replay_and_the_viewer_name_the_winner(tmp_path: Path) -> None:
    played = _cli("play", "-p", "greedy,random", "-s", "4", "--record", str(tmp_path / "g.json"), "--json",
                  str(tmp_path / "out.json"))
    assert played.returncode == 0, played.stderr
    out = json.loads((tmp_path / "out.json").read_text())
    final = out["scores"]["final"]
    best = max(range(2), key=final.__getitem__)
    assert out["winners"] == [best] and out["ranking"] == [[best], [1 - best]] and final[best] > final[1 - best]
    names = [p["name"] for p in out["players"]]
    sentence = f"{names[best]} wins with {final[best]} points; then {names[1 - best]} {final[1 - best]}."
    assert sentence in played.stdout.splitlines()
    replayed = _cli("replay", str(tmp_path / "g.json"), "--html", str(tmp_path / "g.html"))
    assert replayed.returncode == 0 and sentence in replayed.stdout
    assert f"Final scoring: {sentence}" in (tmp_path / "g.html").read_text()


def test_a_game_stopped_early_has_a_leader_not_a_winner(tmp_path: Path) -> None:
    """The newcomer's review: a game quit at turn 10 was reported as won, in replay and the JSON."""
    from engine.core.standings import winners

    assert standing([7, 10], ["A", "B"], finished=False) == "Unfinished: B leads with 10 points; then A 7."
    assert standing([0, 0], ["A", "B"], finished=False) == "Unfinished: A and B are level at 0 points."
    assert winners([7, 10], finished=False) == [] and winners([7, 10]) == [1]
    saved = tmp_path / "q.json"
    played = subprocess.run([sys.executable, "-m", "engine.cli", "play", "-p", "human,greedy", "-s", "7", "--json",
                             str(tmp_path / "out.json")], input=f"1\nq\n{saved}\n", capture_output=True, text=True,
                            cwd=ROOT, timeout=300)
    assert played.returncode == 0, played.stderr
    out = json.loads((tmp_path / "out.json").read_text())
    assert out["finished"] is False and out["winners"] == [] and out["ranking"]
    replayed = _cli("replay", str(saved), "--json", str(tmp_path / "r.json"))
    assert "Unfinished: " in replayed.stdout and " wins " not in replayed.stdout
    assert json.loads((tmp_path / "r.json").read_text())["winners"] == []
