"""The web table behind a real uvicorn on loopback: slow connections are cut, a thinking bot holds
up no read, and the port check agrees with the server's own bind."""

from __future__ import annotations

import http.client
import json
import socket
import time
from pathlib import Path

import pytest

uvicorn = pytest.importorskip("uvicorn", reason="the web table needs the web extra")

from engine.web.app import Tables, create_app  # noqa: E402
from engine.web.server import TimedH11Protocol, in_thread, port_taken  # noqa: E402
from engine.web.server import server as server_of  # noqa: E402

pytestmark = pytest.mark.xdist_group("timed-or-heavy")  # timings: never beside Chromium or the hostile cases


class _Quick(TimedH11Protocol):
    head_timeout = 0.6
    idle_timeout = 0.6
    body_timeout = 1.2


@pytest.fixture()
def server(tmp_path: Path):
    """The web table on a free port of 127.0.0.1, in a thread, with deadlines of 0.6 s; yields (port, tables)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    tables = Tables(tmp_path)
    with in_thread(server_of(create_app(tables), port, protocol=_Quick)):  # as carcassonne serve runs it
        yield port, tables


def _closed_within(connection: socket.socket, seconds: float, trickle: bytes = b"") -> bool:
    """Whether the server closes ``connection`` within ``seconds`` while ``trickle`` is sent a byte
    at a time, one every 0.1 s (a slow client keeping the connection busy)."""
    connection.settimeout(0.1)
    deadline = time.monotonic() + seconds
    sent = 0
    while time.monotonic() < deadline:
        try:
            if connection.recv(1024) == b"":
                return True
        except socket.timeout:
            pass
        except ConnectionError:
            return True
        if sent < len(trickle):
            try:
                connection.sendall(trickle[sent:sent + 1])
            except OSError:
                return True
            sent += 1
    return False


def test_a_request_head_sent_a_byte_at_a_time_is_cut_off(server) -> None:
    port, _ = server
    with socket.create_connection(("127.0.0.1", port)) as slow:
        assert _closed_within(slow, 3.0, trickle=b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200)


def test_a_connection_that_sends_nothing_is_cut_off(server) -> None:
    port, _ = server
    with socket.create_connection(("127.0.0.1", port)) as silent:
        assert _closed_within(silent, 3.0)


def test_a_body_sent_a_byte_at_a_time_is_cut_off(server) -> None:
    """Found by the newcomer try: a byte every few seconds (inside the idle deadline) held a
    connection for ever; the whole body has a deadline too."""
    port, _ = server
    with socket.create_connection(("127.0.0.1", port)) as dripping:
        dripping.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 1000\r\n\r\n")
        assert _closed_within(dripping, 3.0, trickle=b" " * 1000)


def test_a_stalled_body_is_cut_off_but_a_whole_request_is_answered(server, capfd) -> None:
    """The cut request is logged in one line (issue 50: it was a 60-line ClientDisconnect traceback)."""
    port, _ = server
    with socket.create_connection(("127.0.0.1", port)) as stalled:
        stalled.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        b"Content-Length: 100\r\n\r\n{\"ruleset\":")
        assert _closed_within(stalled, 3.0)
    answer = _get(port, "/")
    assert answer[0] == 200  # the deadlines cut only the slow
    logged = capfd.readouterr().err.splitlines()
    assert logged == ["POST /api/tables: the client went away before its request was whole"]


def _get(port: int, path: str) -> tuple[int, bytes, float]:
    """Status, body and seconds taken of ``GET path`` on a new connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    began = time.perf_counter()
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body, time.perf_counter() - began


def _post(port: int, path: str, data: dict) -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("POST", path, body=json.dumps(data), headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    answer = json.loads(response.read())
    connection.close()
    return response.status, answer


def test_reads_answer_at_once_while_an_mcts_bot_thinks(server) -> None:
    """The reviewer's case: a long mcts move stalled every read (5.2 s for another table's state).
    Loopback only, bounded: one mcts move of 3 s, reads of both tables meanwhile."""
    port, _ = server
    status, other = _post(port, "/api/tables", {"ruleset": "basic", "players": "human,greedy", "seed": 1})
    assert status == 201
    status, opened = _post(port, "/api/tables", {"ruleset": "basic", "players": "mcts:3s,human", "seed": 2})
    assert status == 201  # at once: the bot thinks in the background
    status, body, _ = _get(port, f"/api/tables/{opened['id']}")
    assert json.loads(body)["turn"] == 0  # the bots' game did not play inside the request that opened it
    times, thinking = [], []
    deadline = time.monotonic() + 2.5
    while time.monotonic() < deadline:
        for table in (other["id"], opened["id"]):
            status, body, seconds = _get(port, f"/api/tables/{table}")
            assert status == 200
            times.append(seconds)
            if table == opened["id"]:
                thinking.append(json.loads(body)["thinking"])
    said = [t for t in thinking if t is not None]  # the page can say who thinks, and for how long
    assert said and said[-1]["name"] == "mcts:3s-1" and said[-1]["seconds"] > said[0]["seconds"]
    assert len(times) >= 20
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    # A bound on stalls, not a speed figure: the bug held reads for seconds (5.2 s); on a loaded 2-core CI
    # runner (two test workers beside the server's threads) a healthy server's p99 read has reached 125 ms.
    assert p99 < 0.5, f"reads while a bot thinks: p99 {p99 * 1000:.0f} ms over {len(times)} reads"


def test_the_port_check_binds_as_the_server_does(tmp_path: Path) -> None:
    """The reviewer's case: restarting right after a stop failed with "port in use" while the old
    server's connections lingered (TIME_WAIT); a port someone listens on is still refused."""
    with socket.socket() as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        assert port_taken(port) is not None  # someone listens there
        client = socket.create_connection(("127.0.0.1", port))
        accepted, _ = listener.accept()
        accepted.close()  # the server's side closes first: its end lingers in TIME_WAIT
        time.sleep(0.05)
        client.close()
    time.sleep(0.05)
    assert port_taken(port) is None


class _Hasty(TimedH11Protocol):
    head_timeout = 5.0
    idle_timeout = 0.05
    body_timeout = 5.0


def test_a_whole_request_is_answered_however_long_the_answer_takes(tmp_path: Path) -> None:
    """The newcomer's review: the deadline a body's second-to-last chunk set stayed armed once the
    last came, so a request the app worked on longer than it was cut with no answer.  A record sent
    in two chunks, replayed for longer than the (here 0.05 s) idle deadline, is answered."""
    from engine.rules.ruleset import load_ruleset
    from engine.sim.play import play_game

    body = json.dumps(play_game(load_ruleset("basic+abbey-and-mayor"), ["greedy", "greedy"], 3).record).encode()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with in_thread(server_of(create_app(Tables(tmp_path)), port, protocol=_Hasty)):
        with socket.create_connection(("127.0.0.1", port)) as upload:
            upload.sendall(b"POST /api/replay?name=g.json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                           b"application/json\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body[:100])
            time.sleep(0.02)
            upload.sendall(body[100:])
            upload.settimeout(60)
            answer = upload.recv(64)
    assert answer.startswith(b"HTTP/1.1 200"), answer
