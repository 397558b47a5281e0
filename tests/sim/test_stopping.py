"""Stopping a run of many games part-way: Ctrl-C (SIGINT to the process group, as a
terminal sends it), SIGTERM to the command alone or to its group, and a disk that fills
up under ``--out``.  Each ends the run at once with its exit status, removes the
temporary file, and leaves no worker process behind; and the local pool holds a bounded
number of chunks whatever the number of games."""

from __future__ import annotations

import gc
import os
import resource
import signal
import subprocess
import sys
import time
from concurrent.futures import Future
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
#: More games than any of these runs may play: a run that went on to the end would
#: take hours, so the subprocess timeout is what a missed stop runs into.
ENDLESS = "1000000"


def start(tmp_path: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "engine.cli", *args], cwd=tmp_path, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def workers_of(process: subprocess.Popen) -> list[int]:
    """The pool workers of ``process`` once both have started (so the games are under way)."""
    for _ in range(600):
        children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
        if len(children) >= 2:
            return [int(pid) for pid in children]
        assert process.poll() is None, process.communicate()
        time.sleep(0.1)
    raise AssertionError("the workers never started")


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.parametrize("command", [
    ("simulate", "basic", "-n", ENDLESS, "-w", "2", "--out", "games.jsonl", "--json", "summary.json"),
    ("compare", "basic", "first-edition", "-n", ENDLESS, "-w", "2", "--json", "summary.json"),
])
@pytest.mark.parametrize("how, status", [("SIGINT to the group", 130), ("SIGTERM to the command", 143),
                                         ("SIGTERM to the group", 143)])
def test_a_signal_stops_the_run_cleanly(tmp_path: Path, command: tuple[str, ...], how: str, status: int) -> None:
    process = start(tmp_path, *command)
    workers = workers_of(process)
    sig = signal.SIGINT if how.startswith("SIGINT") else signal.SIGTERM
    if how.endswith("group"):
        os.killpg(process.pid, sig)
    else:
        process.send_signal(sig)
    out, err = process.communicate(timeout=60)
    left = os.listdir(tmp_path)
    assert (process.returncode, out, err, left) == (status, "", "", [])  # no games.jsonl, summary or temporary file
    assert not [pid for pid in workers if alive(pid)]


def _file_size_limit() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead of killing the process
    resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_full_disk_stops_simulate_out_at_the_first_failed_write(tmp_path: Path, workers: str) -> None:
    result = subprocess.run([sys.executable, "-m", "engine.cli", "simulate", "basic", "-n", ENDLESS, "-w", workers,
                             "--out", "games.jsonl"], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                            preexec_fn=_file_size_limit, stdin=subprocess.DEVNULL)
    assert result.returncode == 2
    assert result.stderr == "games.jsonl: error: cannot write games.jsonl: file too large [io]\n"
    assert os.listdir(tmp_path) == []


def test_the_local_pool_keeps_a_bounded_number_of_chunks(monkeypatch) -> None:
    from engine.cli.sim_commands import _job
    from engine.sim import simulate

    monkeypatch.setattr(simulate, "CHUNK", 1)  # one game a chunk: 60 chunks through a window of 4
    job, _ = _job(["basic"], "random,random", 3, 60)
    gc.collect()
    before = sum(isinstance(o, Future) for o in gc.get_objects())
    live, rows = [], []
    for row in simulate.run(job, workers=2):
        rows.append(row)
        live.append(sum(isinstance(o, Future) for o in gc.get_objects()) - before)
    assert max(live) <= 2 * simulate.AHEAD
    assert len(rows) == 60 and rows == list(simulate.run(job, workers=1))  # the same games, in seed order


def test_the_local_pool_runs_where_there_are_no_signal_masks(monkeypatch) -> None:
    """Windows has no signal.pthread_sigmask: the pool then starts its workers without
    holding Ctrl-C back, and plays the same games."""
    from engine.sim import simulate

    job = simulate.Job(("basic",), ("random", "random"), 7, 60)
    masked = [row for rows in simulate.run(job, workers=2) for row in rows]
    monkeypatch.setattr(simulate, "MASKS_SIGNALS", False)
    monkeypatch.delattr(simulate.signal, "pthread_sigmask")  # as on Windows
    unmasked = [row for rows in simulate.run(job, workers=2) for row in rows]
    assert unmasked == masked and len(unmasked) == 60
