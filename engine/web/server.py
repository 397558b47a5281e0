"""Serving the web table with uvicorn: deadlines on slow connections, a thread switch quick
enough that a thinking bot holds up no request, and the port check.

Bots think in threads of their tables' own (:mod:`engine.web.table`), which hold Python's
global lock while they compute; the server's thread gives it up at every read and write of
a socket and by default waits up to 5 ms to have it back, so a read took a median 785 ms
while an mcts bot thought; at :data:`SWITCH_INTERVAL`, 0.5 ms, 6.5 ms
(benchmarks/web_thinking.py, benchmarks/results/web-thinking.json; tests/web/test_server.py
holds reads under 100 ms at p99).  It costs a thinking bot nothing when no request comes.

uvicorn closes a connection idle *between* requests (its keep-alive timeout), but any byte
received disarms that, and a connection that never finishes its request head (a request line
and headers sent a byte at a time) is never closed.  :class:`TimedH11Protocol` closes a
connection that has not sent a whole request head within :data:`HEAD_TIMEOUT` seconds of
connecting or of its last answer, and one whose request body stops arriving for
:data:`IDLE_TIMEOUT` seconds or is not all in :data:`BODY_TIMEOUT` seconds after its head
(a byte every few seconds must not hold a connection for ever).  The body's size is the app's limit
(:data:`engine.web.app.MAX_BODY`, enforced as it streams in), the head's is h11's (16 KiB).
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

try:
    import uvicorn
    from uvicorn.protocols.http.h11_impl import H11Protocol
except ImportError as error:  # pragma: no cover - depends on the extra
    raise ImportError(f"the web table needs the 'web' extra: pip install 'carcassonne-rules[web]' ({error})") from None

#: Seconds a connection has to send a whole request head (request line and headers).
HEAD_TIMEOUT = 10.0
#: Seconds a request body may go without a byte arriving.
IDLE_TIMEOUT = 10.0
#: Seconds a whole request body may take (16 MiB at loopback speed takes well under one).
BODY_TIMEOUT = 30.0
#: Seconds a connection may sit idle between requests (uvicorn's keep-alive timeout).
KEEP_ALIVE = 5
#: Seconds the server waits, once told to stop, for the requests under way (then it stops anyway:
#: :class:`StoppingServer`).
STOP_WAIT = 0.5
#: Seconds a thread holds Python's global lock while another waits for it (the default is 0.005).
SWITCH_INTERVAL = 0.0005


class TimedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for each request head and for a stalled or
    dripping body (:data:`HEAD_TIMEOUT`, :data:`IDLE_TIMEOUT`, :data:`BODY_TIMEOUT`; class
    attributes ``head_timeout``, ``idle_timeout`` and ``body_timeout`` so a test can shorten
    them): the connection is closed when one passes."""

    head_timeout = HEAD_TIMEOUT
    idle_timeout = IDLE_TIMEOUT
    body_timeout = BODY_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._body_until = 0.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        answered = self.cycle is None or self.cycle.response_complete  # not a pipelined request begun
        if answered and not self.transport.is_closing():
            self._await_head()

    def data_received(self, data: bytes) -> None:
        waiting_for, was_reading = self.cycle, self._reading_body()
        super().data_received(data)
        if self.cycle is not waiting_for:  # a head came: its body, if any, has body_timeout in all
            self._body_until = self.loop.time() + self.body_timeout
        # A head came, or more of a body, or its last part (then no deadline is left: the app works
        # on a whole request for as long as it takes; issue 50 found one cut 10 s after it came).
        if self.cycle is not waiting_for or was_reading or self._reading_body():
            self._disarm()
            if self._reading_body():
                left = min(self.idle_timeout, self._body_until - self.loop.time())
                self._deadline = self.loop.call_later(max(0.0, left), self._close)

    def _reading_body(self) -> bool:
        return self.cycle is not None and not self.cycle.response_complete and self.cycle.more_body

    def _await_head(self) -> None:
        self._disarm()
        started = self.cycle
        self._deadline = self.loop.call_later(self.head_timeout, self._close_unless_started, started)

    def _close_unless_started(self, started: Any) -> None:
        if self.cycle is started:  # no request head has come since the deadline was set
            self._close()

    def _close(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None


class StoppingServer(uvicorn.Server):
    """uvicorn's server that, once told to stop (Ctrl-C, SIGTERM), ends the process after
    :data:`STOP_WAIT` seconds whatever it is doing: uvicorn alone waits for every request under
    way (a long replay held it for minutes), and Python then for every worker thread.  Nothing
    is lost: every table's record is saved, atomically, after every move.  The exit status is
    the signal's (130 for Ctrl-C, 143 for SIGTERM), as when uvicorn stops in time."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self._deadline: threading.Timer | None = None

    def handle_exit(self, sig: int, frame: Any) -> None:
        super().handle_exit(sig, frame)
        if self._deadline is None:
            self._deadline = threading.Timer(STOP_WAIT, self._stop_now, args=(128 + sig,))
            self._deadline.daemon = True
            self._deadline.start()

    def _stop_now(self, status: int) -> None:
        unanswered = len(self.server_state.tasks)
        if unanswered:
            print(f"stopped with {unanswered} request{'s' * (unanswered != 1)} unanswered", file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)


def server(app: Any, port: int, *, protocol: type[H11Protocol] = TimedH11Protocol) -> uvicorn.Server:
    """A :class:`StoppingServer` of ``app`` on 127.0.0.1:``port`` with the deadlines of ``protocol``
    and the keep-alive of :data:`KEEP_ALIVE`; sets this process's thread switch interval to
    :data:`SWITCH_INTERVAL`.  Run it with its ``run()`` (until Ctrl-C or ``should_exit``)."""
    sys.setswitchinterval(SWITCH_INTERVAL)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", http=protocol,
                            timeout_keep_alive=KEEP_ALIVE)
    return StoppingServer(config)


@contextmanager
def in_thread(running: uvicorn.Server, *, wait: float = 20.0) -> Iterator[uvicorn.Server]:
    """Run ``running`` (:func:`server`) in a daemon thread until the block ends (tests and
    benchmarks); ``RuntimeError`` if it has not started listening within ``wait`` seconds."""
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + wait
    try:
        while not running.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        yield running
    finally:
        running.should_exit = True
        thread.join(10)


def port_taken(port: int) -> str | None:
    """Why ``port`` on 127.0.0.1 cannot be served on, or None if it can: bound as the server
    binds it (``SO_REUSEADDR``), so the connections of a server just stopped, which linger a
    while, do not count as the port being taken."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
            probe.listen()
        except OSError as error:
            return error.strerror or str(error)
    return None


__all__ = ["BODY_TIMEOUT", "HEAD_TIMEOUT", "IDLE_TIMEOUT", "KEEP_ALIVE", "STOP_WAIT", "SWITCH_INTERVAL",
           "StoppingServer", "TimedH11Protocol", "in_thread", "port_taken", "server"]
