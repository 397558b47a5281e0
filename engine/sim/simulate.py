"""Many seeded games at once: on local processes or a Dask cluster, in chunks.

Game ``i`` of a run with master seed ``S`` gets the ``i``-th number drawn from
``random.Random(S)``; every ruleset compared in one run plays the same game
seeds (common random numbers: the same tile order wherever the decks are the
same), and every bot is seeded from its game's seed and seat, so a result
never depends on which worker played it or in what order chunks came back.
Results are yielded in seed order whatever the backend.
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Collection, Iterable, Iterator

from ..errors import UserError

#: Games sent to a worker at once: big enough that scheduling costs nothing,
#: small enough that the progress bar moves and workers stay balanced.
CHUNK = 50


@dataclass(frozen=True)
class Job:
    """What to play: ruleset references, bot kinds in seat order, the master seed and
    the number of games (their seeds are drawn chunk by chunk, as :meth:`chunks` runs).

    ``task`` plays a chunk in a worker, ``task(refs, players, seeds, base)`` → one list of
    rows per seed (default :func:`play_chunk`; ``analyse`` plays traced games,
    :func:`engine.sim.traced.analyse_chunk`); it must be a top-level function, so that it
    pickles.  ``chunk``: seeds sent to a worker at once (slow games want small chunks, so
    that every worker has some from the start)."""

    refs: tuple[str, ...]
    players: tuple[str, ...]
    seed: int
    games: int
    task: Callable[..., list[list[dict]]] | None = None
    chunk: int = CHUNK

    def chunks(self) -> Iterator[tuple[int, ...]]:
        """The game seeds in chunks of :attr:`chunk`, drawn lazily, so nothing up front
        grows with ``games``: game ``i``'s seed is the ``i``-th ``getrandbits(32)`` of
        ``random.Random(seed)``, whatever the chunk size."""
        rng = random.Random(self.seed)
        for start in range(0, self.games, self.chunk):
            yield tuple(rng.getrandbits(32) for _ in range(min(self.chunk, self.games - start)))

    def play(self, seeds: tuple[int, ...], base: str) -> list[list[dict]]:
        """Play one chunk of seeds here (what a worker does)."""
        return (self.task or play_chunk)(self.refs, self.players, seeds, base)


def play_chunk(refs: tuple[str, ...], players: tuple[str, ...], seeds: tuple[int, ...],
               base: str | None = None) -> list[list[dict]]:
    """Play every seed under every ruleset; one list of result rows per seed (a row
    per ruleset, in ``refs`` order).  Runs in worker processes: top-level and picklable."""
    from ..rules.ruleset import load_ruleset
    from .play import play_points

    rulesets = [load_ruleset(ref, Path(base) if base else None) for ref in refs]
    rows = []
    for seed in seeds:
        rows.append([result_row(ref, play_points(ruleset, list(players), seed), seed)
                     for ref, ruleset in zip(refs, rulesets)])
    return rows


def result_row(ref: str, game, seed: int) -> dict:
    """One game's result: scores by player and by feature kind, winners, margin, discards, turns."""
    from ..core.scoring import points_by_kind
    from ..core.standings import winners

    by_kind = points_by_kind(game)
    scores = list(game.scores)
    ranked = sorted(scores, reverse=True)
    return {
        "seed": seed,
        "ruleset": ref,
        "scores": scores,
        "by_kind": by_kind,
        "winners": winners(scores),
        "margin": ranked[0] - ranked[1] if len(ranked) > 1 else ranked[0],
        "discarded": sum(1 for _, move in game.history if move is None) - game.returned,
        "turns": game.turn,
    }


def run(job: Job, *, workers: int | None = None, scheduler: str | None = None,
        on_chunk: Callable[[int], None] | None = None) -> Iterator[list[dict]]:
    """Play ``job`` and yield each seed's rows (one per ruleset) in seed order.

    Local by default (a process pool of ``workers``, default the core count;
    ``workers=1`` plays in this process); with ``scheduler`` (``tcp://host:port``)
    the chunks go to that Dask cluster (the ``distributed`` extra).
    ``on_chunk(games)`` is called as chunks finish, for a progress bar.

    At most :data:`AHEAD` chunks per worker are out at once (playing, or done
    and waiting for an earlier one), so memory stays flat however many games.
    Closing the iterator early (``contextlib.closing``; Ctrl-C, a failed write)
    cancels what is out and stops the local workers at once.  Raises
    :class:`UserError` if the scheduler cannot be reached, answers nonsense, or
    a worker dies.
    """
    chunks = job.chunks()
    base = os.getcwd()
    if scheduler:
        yield from _dask(job, chunks, scheduler, base, on_chunk)
    elif (workers or os.cpu_count() or 1) == 1 or job.games <= job.chunk:
        for chunk in chunks:
            rows = job.play(chunk, base)
            if on_chunk is not None:
                on_chunk(len(rows))
            yield from rows
    else:
        yield from _pool(job, chunks, workers or os.cpu_count() or 1, base, on_chunk)


#: Chunks out at once per worker (playing, or done and waiting for an earlier chunk
#: to be handed on in seed order): two keep every worker busy while the results of
#: one are read, and bound what a run holds and what Ctrl-C has to cancel.
AHEAD = 2


def in_order(chunks: Iterable[tuple[int, ...]], submit: Callable[[tuple[int, ...]], Any],
             first_done: Callable[[Collection[Any]], Iterable[Any]], ahead: int,
             on_chunk: Callable[[int], None] | None,
             result: Callable[[Any], list[list[dict]]] = lambda future: future.result()) -> Iterator[list[dict]]:
    """The rows of ``chunks`` in seed order, played through ``submit(chunk) -> future``
    with at most ``ahead`` chunks submitted and not yet handed on.

    ``first_done(futures)`` blocks until one or more of ``futures`` is done and
    returns those; ``result(future)`` (default: its ``result()``) is the chunk's rows.  Futures are
    dropped as soon as their rows are taken, so nothing grows with the games.
    """
    todo = iter(chunks)
    out: dict[Any, int] = {}  # future -> chunk index
    done: dict[int, list[list[dict]]] = {}  # finished early: waiting for the chunks before them
    submitted = next_index = 0
    while True:
        while submitted < next_index + ahead and (chunk := next(todo, None)) is not None:
            out[submit(chunk)] = submitted
            submitted += 1
        if not out:
            return
        for future in first_done(list(out)):
            index = out.pop(future)
            done[index] = result(future)
            if on_chunk is not None:
                on_chunk(len(done[index]))
        while next_index in done:
            yield from done.pop(next_index)
            next_index += 1


def _pool(job: Job, chunks: Iterable[tuple[int, ...]], workers: int, base: str,
          on_chunk: Callable[[int], None] | None) -> Iterator[list[dict]]:
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_starts, initargs=(os.getpid(),))

    def submit(chunk: tuple[int, ...]) -> Any:
        # The workers are forked inside submit: with Ctrl-C and SIGTERM held back until
        # then, none is interrupted before _worker_starts has set its own handlers.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPING) if MASKS_SIGNALS else None
        try:
            return pool.submit(job.play, chunk, base)
        finally:
            if held is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)

    finished = False
    try:
        yield from in_order(chunks, submit, lambda futures: wait(futures, return_when=FIRST_COMPLETED).done,
                            workers * AHEAD, on_chunk)
        finished = True
    except BrokenProcessPool:
        raise UserError("a worker process died before finishing its games (out of memory, or killed?)",
                        code="worker") from None
    finally:
        if finished:
            pool.shutdown()
        else:
            _stop(pool)


#: The signals that stop a run (Ctrl-C, and SIGTERM, which the CLI turns into the same exit).
_STOPPING = {signal.SIGINT, signal.SIGTERM}
#: Signal masks are POSIX; where there are none (Windows, whose workers are spawned, not
#: forked), a worker is only exposed to Ctrl-C between its start and its own handlers.
MASKS_SIGNALS = hasattr(signal, "pthread_sigmask")


def _stop(pool) -> None:
    """End ``pool`` now: drop the chunks not started and kill the workers mid-game (their
    games are not wanted any more), then wait for them, so none outlives this process."""
    processes = list((pool._processes or {}).values())  # no public handle on the workers before 3.14
    manager = pool._executor_manager_thread
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.kill()
    for process in processes:
        process.join()
    # Let the pool's manager thread finish closing its wake-up pipe: at interpreter exit
    # concurrent.futures wakes every manager still listed, and one caught mid-close prints
    # "Exception ignored ... Bad file descriptor" on a clean SIGTERM (seen in CI, 1 run in ~6).
    if manager is not None:
        manager.join(timeout=10)


def _worker_starts(parent: int) -> None:
    """Run first in each pool worker.  Ctrl-C and a SIGTERM to the process group reach
    the workers too, but stopping is the parent's business (it kills them, see
    :func:`_stop`): a worker that died on its own first would race the parent's clean
    exit with a "worker died" error, or print a traceback.  So a worker ignores both;
    and one whose parent is gone (killed outright, so it could not stop them) ends
    itself."""
    for stopping in _STOPPING:
        signal.signal(stopping, signal.SIG_IGN)
    if MASKS_SIGNALS:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPPING)  # held back since the fork (see _pool)
    threading.Thread(target=_end_with, args=(parent,), daemon=True).start()


def _end_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


#: Seconds a Dask scheduler has to accept the connection and send its greeting, and
#: then again to register this client; an address that accepts but never answers, or
#: answers garbage, is an error within about twice this.
CONNECT_TIMEOUT = 5
#: Seconds to wait for a scheduler with no workers to get one: before the run, and whenever every
#: worker has gone during it.
WORKER_TIMEOUT = 10
#: Seconds between looks at whether a running Dask job still has workers.
WATCH_STEP = 1.0
#: A scheduler's greeting is well under a kilobyte; a peer announcing more is not one
#: (and distributed would allocate whatever length it announces).
GREETING_LIMIT = 1 << 16


def _dask(job: Job, chunks: Iterable[tuple[int, ...]], address: str, base: str,
          on_chunk: Callable[[int], None] | None) -> Iterator[list[dict]]:
    try:
        from distributed import Client, wait
    except ImportError:
        raise UserError("--scheduler needs the Dask extra: pip install 'carcassonne-rules[dask]'",
                        code="dependency") from None
    if address.startswith("tcp://"):
        _check_greeting(address)
    try:
        client = Client(address, timeout=f"{CONNECT_TIMEOUT}s")
    except Exception as error:  # the peer's bytes can fail to decode in any number of ways
        raise UserError(f"cannot use the Dask scheduler at {address}: {_first_line(error)}", code="scheduler") from None
    try:
        try:
            client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
        except TimeoutError:
            raise UserError(f"the Dask scheduler at {address} has no workers (waited {WORKER_TIMEOUT} s)",
                            code="scheduler") from None
        threads = sum(client.nthreads().values()) or 1
        # A finished chunk's rows stay on its worker until fetched: if every worker goes first, the
        # scheduler holds the fetch for one to come back, so the fetch is watched as the wait is.
        yield from in_order(chunks, lambda chunk: client.submit(job.play, chunk, base, pure=False),
                            lambda futures: _watched(client, address, lambda: wait(
                                futures, timeout=WATCH_STEP, return_when="FIRST_COMPLETED").done),
                            threads * AHEAD, on_chunk,
                            lambda future: _watched(client, address, lambda: future.result(timeout=WATCH_STEP)))
    except UserError:
        raise
    except Exception as error:  # a worker without the engine, a scheduler gone mid-run, …
        if raised_in_engine(error):
            raise  # the engine's own error, sent back by a worker: a bug, with its traceback
        raise UserError(f"the Dask cluster at {address} failed: {_first_line(error)}", code="scheduler") from None
    finally:
        client.close()  # also releases whatever is still queued for this client


def _watched(client: Any, address: str, attempt: Callable[[], Any]) -> Any:
    """What ``attempt()`` gives (it waits :data:`WATCH_STEP` seconds at most, then raises
    ``TimeoutError``), tried until it gives something: a scheduler whose workers are all gone holds
    its tasks and the rows they left on a worker for one to come, so when none has been there for
    :data:`WORKER_TIMEOUT` seconds the run ends (:class:`UserError` ``scheduler``; ``simulate --out``
    writes its file only when a run is whole)."""
    alone_since: float | None = None
    while True:
        try:
            return attempt()
        except TimeoutError:
            pass
        if client.nthreads():
            alone_since = None
        elif alone_since is None:
            alone_since = time.monotonic()
        elif time.monotonic() - alone_since >= WORKER_TIMEOUT:
            raise UserError(f"every worker of the Dask scheduler at {address} has gone, and none came back within "
                            f"{WORKER_TIMEOUT} s: the run stops unfinished", code="scheduler")


def raised_in_engine(error: BaseException) -> bool:
    """Whether ``error`` was raised by the engine's own code (a frame in the package other than
    this module; Dask re-raises a worker's error with the worker's traceback)."""
    package = Path(__file__).resolve().parents[1]
    here = Path(__file__).resolve()
    frame = error.__traceback__
    while frame is not None:
        file = Path(frame.tb_frame.f_code.co_filename).resolve()
        if file != here and file.is_relative_to(package):
            return True
        frame = frame.tb_next
    return False


def _check_greeting(address: str) -> None:
    """A Dask scheduler sends a short greeting (its handshake frame) as soon as it accepts
    a connection; distributed waits for it without a time limit, so look first.
    :class:`UserError` unless ``address`` sends a frame of at most :data:`GREETING_LIMIT`
    bytes within :data:`CONNECT_TIMEOUT` seconds in all."""
    import socket
    import struct

    host, port = address[len("tcp://"):].rsplit(":", 1)
    deadline = time.monotonic() + CONNECT_TIMEOUT
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT) as peer:
            (length,) = struct.unpack("Q", _receive(peer, 8, deadline, address))  # distributed's frame prelude
            if not 0 < length <= GREETING_LIMIT:
                raise UserError(f"{address} does not answer like a Dask scheduler (it announced a "
                                f"{length}-byte message)", code="scheduler")
            _receive(peer, length, deadline, address)
    except TimeoutError:
        raise UserError(f"the Dask scheduler at {address} did not answer within {CONNECT_TIMEOUT} s",
                        code="scheduler") from None
    except (OSError, UnicodeError) as error:  # UnicodeError: a host name IDNA cannot encode
        raise UserError(f"cannot reach the Dask scheduler at {address}: {getattr(error, 'strerror', None) or error}",
                        code="scheduler") from None


def _receive(peer: Any, size: int, deadline: float, address: str) -> bytes:
    """``size`` bytes from socket ``peer`` before ``deadline`` (``time.monotonic()``)."""
    data = b""
    while len(data) < size:
        peer.settimeout(max(deadline - time.monotonic(), 1e-3))
        more = peer.recv(size - len(data))
        if not more:
            raise UserError(f"{address} closed the connection without answering like a Dask scheduler",
                            code="scheduler")
        data += more
    return data


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__
