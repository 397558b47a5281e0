"""``carcassonne serve`` as a real process: it prints the first table's address and serves
it; a port already taken is refused before anything is written."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="serve needs the web extra")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_serve_prints_the_table_and_serves_it(tmp_path: Path) -> None:
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "engine.cli", "serve", "--players", "human,greedy", "--seed", "5",
                               "--port", str(port)], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    try:
        line = server.stdout.readline()
        assert line.startswith(f"Open http://127.0.0.1:{port}/table/"), (line, server.stderr.read())
        url = line.split()[1]
        table = url.rsplit("/", 1)[1]
        deadline = time.monotonic() + 30
        while True:
            try:
                page = urllib.request.urlopen(url, timeout=5).read().decode()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server never answered"
                time.sleep(0.2)
        assert f'data-table="{table}"' in page
        state = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables/{table}", timeout=5))
        assert state["seed"] == 5 and state["to_play"] == 0 and state["options"]
        saved = tmp_path / "carcassonne-games" / f"table-{table}.json"
        assert not saved.exists()  # a table nobody played in leaves no record
        cell = state["options"][0]
        move = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables/{table}/play", json.dumps(
            {"turn": 0, "move": {"kind": "place", "map": cell["map"], "x": cell["x"], "y": cell["y"],
                                 "rotation": int(min(cell["rotations"], key=int))}}).encode(),
            {"Content-Type": "application/json"})
        urllib.request.urlopen(move, timeout=30)
        assert json.loads(saved.read_text())["finished"] is False
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(30)
    assert "Traceback" not in server.stderr.read()
    # Started again on the same folder, it names the game in progress and opens no new empty table
    # (issue 50); given --players, it opens one as asked, and names the game in progress after it.
    for typed, first in (([], f"Open http://127.0.0.1:{port}/ in a browser to go on with a game saved in "
                              "carcassonne-games/ or start another."),
                         (["--players", "human,greedy"], f"Open http://127.0.0.1:{port}/table/")):
        again = subprocess.Popen([sys.executable, "-m", "engine.cli", "serve", *typed, "--port", str(port)],
                                 cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            lines = [again.stdout.readline() for _ in range(3)]
            assert lines[0].startswith(first), (lines, again.stderr.read())
            assert lines[1].startswith("Saved in carcassonne-games/, unfinished")
            assert lines[2].startswith(f"  http://127.0.0.1:{port}/table/{table}  basic, turn ")
        finally:
            again.send_signal(signal.SIGINT)
            again.wait(30)


def test_a_taken_port_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "engine.cli", "serve", "--port", str(port)], cwd=tmp_path,
                                capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and f"port {port} on 127.0.0.1 cannot be used" in result.stderr
    assert "Traceback" not in result.stderr and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("thinking", [False, True], ids=["idle", "a bot thinking"])
def test_ctrl_c_stops_the_server_with_the_status_its_help_gives(tmp_path: Path, thinking: bool) -> None:
    """uvicorn stops the server on Ctrl-C and raises the signal again, which ends the command as
    Ctrl-C ends every command: 130, idle or while a bot thinks (the help said 0: issue 51)."""
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "engine.cli", "serve", "--players", "human,mcts:30s", "--seed",
                               "5", "--port", str(port)], cwd=tmp_path, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        assert line.startswith(f"Open http://127.0.0.1:{port}/table/"), (line, server.stderr.read())
        api = f"http://127.0.0.1:{port}/api/tables/{line.split()[1].rsplit('/', 1)[1]}"
        deadline = time.monotonic() + 30
        while True:
            try:
                state = json.load(urllib.request.urlopen(api, timeout=5))
                break
            except OSError:
                assert time.monotonic() < deadline, "the server never answered"
                time.sleep(0.2)
        if thinking:  # the human's move: the search bot then thinks for 30 s
            cell = state["options"][0]
            urllib.request.urlopen(urllib.request.Request(f"{api}/play", json.dumps(
                {"turn": 0, "move": {"kind": "place", "map": cell["map"], "x": cell["x"], "y": cell["y"],
                                     "rotation": int(min(cell["rotations"], key=int))}}).encode(),
                {"Content-Type": "application/json"}), timeout=30)
            while json.load(urllib.request.urlopen(api, timeout=5)).get("thinking") is None:
                assert time.monotonic() < deadline, "the bot never started thinking"
                time.sleep(0.1)
    finally:
        server.send_signal(signal.SIGINT)
        code = server.wait(30)
    assert code == 130 and "Traceback" not in server.stderr.read()
    shown = subprocess.run([sys.executable, "-m", "engine.cli", "serve", "--help"], capture_output=True, text=True,
                           env={**os.environ, "COLUMNS": "200"}, timeout=120).stdout
    assert "Exit status: 130 the server was stopped with Ctrl-C" in " ".join(shown.split())


def test_ctrl_c_stops_the_server_within_a_second_whatever_a_request_is_doing(tmp_path: Path) -> None:
    """Issue 50: a long request (here a 100,000-turn record uploaded under a ruleset whose deck could
    hold that many turns: about a minute to read) held the server past Ctrl-C; it now stops after
    STOP_WAIT (0.5 s), saying what it left unanswered, with Ctrl-C's status."""
    records = tmp_path / "carcassonne-games"
    records.mkdir()
    counts = [f"  {tile}: {{count: 200}}" for tile in "ABCDEFGHIJKLMNOPQRSTUVWX"]  # basic's 24 tile types
    (records / "big.yaml").write_text("\n".join(["extends: basic", "rules: {unplaceable: reshuffle}", "tiles:",
                                                 *counts]) + "\n")
    subprocess.run([sys.executable, "-m", "engine.cli", "play", "--players", "random,random", "--seed", "3",
                    "--record", str(tmp_path / "game.json")], capture_output=True, check=True, timeout=120)
    record = json.loads((tmp_path / "game.json").read_text())
    body = json.dumps(record | {"ruleset": "big.yaml", "turns": (record["turns"] * 2000)[:100_000]}, indent=1).encode()
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "engine.cli", "serve", "--players", "human,random", "--port",
                               str(port)], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout.readline().startswith(f"Open http://127.0.0.1:{port}/"), server.stderr.read()
        deadline = time.monotonic() + 30
        while True:  # the address is printed before the server listens
            try:
                upload = socket.create_connection(("127.0.0.1", port))
                break
            except OSError:
                assert time.monotonic() < deadline, "the server never listened"
                time.sleep(0.1)
        upload.sendall(b"POST /api/replay?name=x.json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
                       b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        time.sleep(2)  # the record is being read
    finally:
        began = time.monotonic()
        server.send_signal(signal.SIGINT)
        code = server.wait(60)
        stopped_after = time.monotonic() - began
    upload.close()
    assert code == 130 and stopped_after < 5, stopped_after
    assert server.stderr.read() == "stopped with 1 request unanswered\n"
