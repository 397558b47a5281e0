"""``--scheduler`` pointed at things that are not a working Dask scheduler: each is a
one-line error (exit 2) within the documented bound (simulate.CONNECT_TIMEOUT, twice),
never a hang, a traceback or a huge allocation.  The peers are tiny servers on the
loopback address inside this test process."""

from __future__ import annotations

import socket
import struct
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

import pytest

from engine.errors import UserError

ROOT = Path(__file__).parents[2]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, stdin=subprocess.DEVNULL)


@contextmanager
def serve(answer: Callable[[socket.socket], None]) -> Iterator[str]:
    """A server on 127.0.0.1 that calls ``answer(connection)`` for each connection; yields its address."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def loop() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                connection, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            held.append(connection)
            try:
                answer(connection)
            except OSError:
                pass

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        server.close()
        for connection in held:
            connection.close()


PEERS = {
    # accepts, then says nothing (distributed alone would wait for ever)
    "silent": lambda c: None,
    "closes at once": lambda c: c.close(),
    # an HTTP server, say: its first 8 bytes read as a frame length of exabytes
    "answers garbage": lambda c: c.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n" + bytes(range(256))),
    "announces a huge frame": lambda c: c.sendall(struct.pack("Q", 1 << 40)),
    "announces a frame and stops": lambda c: c.sendall(struct.pack("Q", 42) + b"\x01\x00"),
    # a plausible greeting whose content is not msgpack
    "sends a greeting of noise": lambda c: c.sendall(struct.pack("Q", 24) + b"\xc1" * 24),
}


@pytest.mark.parametrize("peer", PEERS)
def test_a_peer_that_is_not_a_scheduler_is_one_error_line(peer: str) -> None:
    pytest.importorskip("distributed")
    with serve(PEERS[peer]) as address:
        result = run("compare", "basic", "first-edition", "-n", "5", "--scheduler", address)
        assert result.returncode == 2, (result.stdout, result.stderr)
        assert "Traceback" not in result.stderr
        (line,) = [line for line in result.stderr.splitlines() if "error:" in line]
        assert address in line and "[scheduler]" in line


def test_a_closed_port_is_one_error_line() -> None:
    pytest.importorskip("distributed")
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
    result = run("simulate", "basic", "-n", "5", "--scheduler", f"tcp://127.0.0.1:{port}")
    assert result.returncode == 2 and "cannot reach the Dask scheduler" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_scheduler_without_workers_is_an_error_not_a_wait(monkeypatch) -> None:
    distributed = pytest.importorskip("distributed")
    from engine.cli.sim_commands import _job
    from engine.sim import simulate

    monkeypatch.setattr(simulate, "WORKER_TIMEOUT", 1)
    job, _ = _job(["basic"], "random,random", 0, 5)
    with distributed.LocalCluster(n_workers=0, processes=True, dashboard_address=":0") as cluster:
        with pytest.raises(UserError, match="has no workers"):
            list(simulate.run(job, scheduler=cluster.scheduler_address))


def test_a_run_whose_workers_all_go_ends_with_an_error_not_a_wait(monkeypatch) -> None:
    """Issue 50: when every worker died mid-run, simulate waited silently (over 120 s); the run now
    ends once none has been there for WORKER_TIMEOUT seconds (1 here)."""
    distributed = pytest.importorskip("distributed")
    from engine.cli.sim_commands import _job
    from engine.sim import simulate

    monkeypatch.setattr(simulate, "WORKER_TIMEOUT", 1)
    monkeypatch.setattr(simulate, "WATCH_STEP", 0.2)
    job, _ = _job(["basic"], "random,random", 0, 4000)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        rows = simulate.run(job, scheduler=cluster.scheduler_address)
        next(rows)  # the run is under way
        cluster.scale(0)
        with pytest.raises(UserError, match="every worker of the Dask scheduler at .* has gone"):
            for _ in rows:
                pass


def test_rows_left_on_a_worker_that_went_are_an_error_not_a_wait(monkeypatch) -> None:
    """A chunk finished, then every worker went before its rows were fetched: the scheduler held
    the fetch for a worker to come back, and a run hung there (seen once in CI on this test file's
    run above); the fetch is now watched as the wait for a finished chunk is."""
    distributed = pytest.importorskip("distributed")
    from engine.sim import simulate

    monkeypatch.setattr(simulate, "WORKER_TIMEOUT", 1)
    monkeypatch.setattr(simulate, "WATCH_STEP", 0.2)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with distributed.Client(cluster.scheduler_address) as client:
            future = client.submit(sum, [1, 2], pure=False)
            distributed.wait([future])  # done, its value on the worker
            cluster.scale(0)
            while client.nthreads():
                time.sleep(0.05)
            with pytest.raises(UserError, match="every worker of the Dask scheduler at .* has gone"):
                simulate._watched(client, cluster.scheduler_address, lambda: future.result(timeout=0.2))
