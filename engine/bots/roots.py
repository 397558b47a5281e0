"""Root-parallel search: independent searches from the same position on several cores, their
root statistics added up (root parallelisation: Chaslot, Winands & van den Herik, "Parallel
Monte-Carlo Tree Search", Computers and Games 2008).

``mcts:800:roots=2`` runs two searches of 800 iterations each (:meth:`MctsPlayer.search
<engine.bots.mcts.MctsPlayer.search>`), one in this process and one in a worker process, each
seeded from the bot's own generator, and plays the move with the most visits summed over both
(:func:`~engine.bots.mcts.best_move`).  Where a search runs changes nothing: the same seed gives
the same move on one core as on several, and when worker processes cannot be started (inside a
daemonic process, or with a ``leaf`` value that does not pickle) the searches run one after another
here.  A worker gets the ruleset once, when it starts, and each move the game pickled without it
(nor the tile types and other parts the game shares with it).
"""

from __future__ import annotations

import dataclasses
import io
import multiprocessing
import pickle
import random
import weakref
from multiprocessing.connection import Connection
from typing import Any, Optional

from ..core.game import Game
from ..core.moves import Move
from ..rules.ruleset import Ruleset
from .mcts import Key, MctsPlayer, best_move

#: A search's result: its root statistics (visits, summed reward) and its iterations.
Searched = tuple[dict[Key, tuple[int, float]], int]

#: The ruleset of this worker process's games (set when the worker starts).
_WORKER_RULESET: Optional[Ruleset] = None


class RootParallelPlayer:
    """``roots`` searches of :class:`~engine.bots.mcts.MctsPlayer` (each with ``settings``:
    ``iterations`` or ``seconds`` is each search's budget), ``roots - 1`` of them in worker
    processes started on the first move and kept for the next.  ``ValueError`` for settings
    :class:`MctsPlayer` refuses."""

    name = "mcts"

    def __init__(self, seed: int | str | None = None, *, roots: int, **settings: Any) -> None:
        MctsPlayer(None, **settings)  # refuses bad settings now rather than on the first move
        self.rng = random.Random(seed)
        self.roots = roots
        self.settings = settings
        #: Iterations run by the last :meth:`choose`, over every search (benchmarks read it).
        self.last_iterations = 0
        self._pool: list[_Worker] = []
        self._pool_ruleset: Optional[Ruleset] = None

    def choose_start(self, game: Game) -> int:
        # As MctsPlayer: on an empty board every rotation of the start tile scores alike.
        return self.rng.randrange(4)

    def choose(self, game: Game) -> Move:
        seeds = [self.rng.getrandbits(64) for _ in range(self.roots)]
        total: dict[Key, tuple[int, float]] = {}
        self.last_iterations = 0
        for stats, iterations in self._searches(game, seeds):
            self.last_iterations += iterations
            for key, (visits, reward) in stats.items():
                before = total.get(key, (0, 0.0))
                total[key] = (before[0] + visits, before[1] + reward)
        return best_move(total)

    def _searches(self, game: Game, seeds: list[int]) -> list[Searched]:
        """Each seed's search, in seed order: the first here, the others in the workers
        (any that a worker could not run, here too)."""
        workers = self._workers(game.ruleset)
        sent: list[Optional[_Worker]] = [None] * len(seeds)
        if workers:
            data = _dumps(game)
            for i, worker in enumerate(workers, start=1):
                sent[i] = worker if worker.send((self.settings, seeds[i], data)) else None
        results = [_search(self.settings, seeds[0], game)]
        for i in range(1, len(seeds)):
            worker = sent[i]
            result = worker.result() if worker is not None else None
            if result is None and worker is not None:  # the worker died: this search runs here
                self._close()
            results.append(result if result is not None else _search(self.settings, seeds[i], game))
        return results

    def _workers(self, ruleset: Ruleset) -> list[_Worker]:
        """The ``roots - 1`` worker processes for games of ``ruleset``, started with it; none
        where a search's settings do not pickle (a ``leaf`` defined in a function) or this
        process may not start one (a daemonic process)."""
        if self._pool and self._pool_ruleset is ruleset:
            return self._pool
        self._close()
        try:
            pickle.dumps(self.settings)
            loaded = pickle.dumps(ruleset, protocol=pickle.HIGHEST_PROTOCOL)
            for _ in range(self.roots - 1):
                self._pool.append(_Worker(loaded))
        except (pickle.PicklingError, AttributeError, TypeError, OSError, AssertionError):
            # AssertionError: multiprocessing refuses children to a daemonic process.
            self._close()
            return []
        self._pool_ruleset = ruleset
        weakref.finalize(self, _stop, list(self._pool))
        return self._pool

    def _close(self) -> None:
        _stop(self._pool)
        self._pool, self._pool_ruleset = [], None


class _Worker:
    """A worker process running searches sent down a pipe.  The parent writes each task
    itself, so a worker starts searching at once (an executor's helper threads wait on the
    GIL while the parent searches, and the worker would start only after it)."""

    def __init__(self, ruleset: bytes) -> None:
        context = multiprocessing.get_context()
        self.connection, child = context.Pipe()
        # Daemonic: a worker ends with the process that started it.
        self.process = context.Process(target=_serve, args=(child, self.connection, ruleset), daemon=True)
        self.process.start()
        child.close()

    def send(self, task: Optional[tuple[dict[str, Any], int, bytes]]) -> bool:
        """Hand the worker a search; False if it is gone."""
        try:
            self.connection.send(task)
            return True
        except (OSError, ValueError):
            return False

    def result(self) -> Optional[Searched]:
        """The search's result; None if the worker died."""
        try:
            searched: Searched = self.connection.recv()
            return searched
        except (EOFError, OSError):
            return None

    def stop(self) -> None:
        """Tell the worker to return (it may hold a sibling's pipe, so the end of its own is
        not enough), without waiting for it."""
        self.send(None)
        self.connection.close()


def _stop(workers: list[_Worker]) -> None:
    for worker in workers:
        worker.stop()
    for worker in workers:
        worker.process.join(timeout=5)


def mcts_player(seed: int | str | None = None, *, roots: int = 1,
                **settings: Any) -> MctsPlayer | RootParallelPlayer:
    """The search bot of a player spec (``mcts:…``): one search, or ``roots`` added up.
    ``ValueError`` for settings :class:`~engine.bots.mcts.MctsPlayer` refuses."""
    if roots == 1:
        return MctsPlayer(seed, **settings)
    return RootParallelPlayer(seed, roots=roots, **settings)


def _search(settings: dict[str, Any], seed: int, game: Game) -> Searched:
    player = MctsPlayer(seed, **settings)
    return player.search(game), player.last_iterations


class _GamePickler(pickle.Pickler):
    """Pickles a game with its ruleset left out, and what the game shares with it (its tile
    types): a worker has them."""

    def __init__(self, file: io.BytesIO, ruleset: Ruleset) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        #: By identity: the ruleset's fields (the ruleset holds them, so no id is reused while
        #: this pickles), and the objects in those that are sequences.
        self.shared: dict[int, tuple[str, int]] = {id(ruleset): ("", -1)}
        for field in dataclasses.fields(ruleset):
            value = getattr(ruleset, field.name)
            self.shared.setdefault(id(value), (field.name, -1))
            if isinstance(value, (list, tuple)):
                for i, item in enumerate(value):
                    if not isinstance(item, (int, float, str)):
                        self.shared.setdefault(id(item), (field.name, i))

    def persistent_id(self, obj: object) -> Optional[tuple[str, int]]:
        return None if isinstance(obj, (int, float, str, bool)) or obj is None else self.shared.get(id(obj))


class _GameUnpickler(pickle.Unpickler):
    def persistent_load(self, pid: object) -> object:
        assert isinstance(pid, tuple) and _WORKER_RULESET is not None, "a game pickled by _dumps, in a worker"
        name, i = pid
        if not name:
            return _WORKER_RULESET
        value = getattr(_WORKER_RULESET, name)
        return value if i < 0 else value[i]


def _dumps(game: Game) -> bytes:
    buffer = io.BytesIO()
    _GamePickler(buffer, game.ruleset).dump(game)
    return buffer.getvalue()


def _serve(connection: Connection, parents_end: Connection, ruleset: bytes) -> None:
    """A worker's loop: searches as they come, until told to stop or the pipe closes.  A
    search that raises ends the worker; the parent then runs it itself, and raises there."""
    global _WORKER_RULESET
    parents_end.close()  # a fork's copy: left open, the pipe would not close with the parent
    _WORKER_RULESET = pickle.loads(ruleset)
    while True:
        try:
            task = connection.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        settings, seed, data = task
        connection.send(_search(settings, seed, _GameUnpickler(io.BytesIO(data)).load()))
