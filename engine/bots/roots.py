"""Root-parallel search: independent searches from the same position on several cores, their
root statistics added up (root parallelisation: Chaslot, Winands & van den Herik, "Parallel
Monte-Carlo Tree Search", Computers and Games 2008).

``mcts:800:roots=2`` runs two searches of 800 iterations each (:meth:`MctsPlayer.search
<engine.bots.mcts.MctsPlayer.search>`), one in this process and one in a forked copy of it, each
seeded from the bot's own generator, and plays the move with the most visits summed over both
(:func:`~engine.bots.mcts.best_move`).  A fork per move shares the game as it stands with nothing
to send (a compiled game does not pickle) and only the root statistics come back.  Where a search
runs changes nothing: the same seed gives the same move on one core as on several, and where a
process cannot fork (Windows) or a child dies, its search runs here, after the first.
"""

from __future__ import annotations

import os
import pickle
import random
import signal
import threading
import time
from typing import Any, Optional

from ..core.game import Game
from ..core.moves import Move
from .mcts import Key, MctsPlayer, best_move

#: A search's result: its root statistics (visits, summed reward) and its iterations.
Searched = tuple[dict[Key, tuple[int, float]], int]


class RootParallelPlayer:
    """``roots`` searches of :class:`~engine.bots.mcts.MctsPlayer` (each with ``settings``:
    ``iterations`` or ``seconds`` is each search's budget), ``roots - 1`` of them in processes
    forked for the move.  ``ValueError`` for settings :class:`MctsPlayer` refuses."""

    name = "mcts"

    def __init__(self, seed: int | str | None = None, *, roots: int, **settings: Any) -> None:
        MctsPlayer(None, **settings)  # refuses bad settings now rather than on the first move
        self.rng = random.Random(seed)
        self.roots = roots
        self.settings = settings
        #: Iterations run by the last :meth:`choose`, over every search (benchmarks read it).
        self.last_iterations = 0

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
        """Each seed's search, in seed order: the first here, the others in forked processes
        (any that could not be forked or died, here too)."""
        forks = [_Fork.start(self.settings, seed, game) for seed in seeds[1:]]
        try:
            results = [_search(self.settings, seeds[0], game)]
        except BaseException:  # leave no child searching, nor unreaped
            for fork in forks:
                if fork is not None:
                    fork.cancel()
            raise
        for seed, fork in zip(seeds[1:], forks):
            result = fork.result() if fork is not None else None
            results.append(result if result is not None else _search(self.settings, seed, game))
        return results


class _Fork:
    """One search in a forked copy of this process, its result pickled back down a pipe.

    ``os.fork`` rather than :mod:`multiprocessing`: the child runs the search and leaves with
    ``os._exit``, touching no standard stream (the bot may run in a thread of a server whose other
    threads hold their locks at the fork) and starting no process machinery (a daemonic pool
    worker may fork this way, where multiprocessing refuses it children)."""

    def __init__(self, pipe: int, pid: int) -> None:
        self.pipe, self.pid = pipe, pid
        #: The child's exit status once :meth:`result` has waited for it (0: it sent its search).
        self.status: Optional[int] = None

    @classmethod
    def start(cls, settings: dict[str, Any], seed: int, game: Game) -> Optional[_Fork]:
        """The search under way, or None where this process cannot fork."""
        if not hasattr(os, "fork"):
            return None
        pipe, child_end = os.pipe()
        parent = os.getpid()
        try:
            pid = os.fork()
        except OSError:
            os.close(pipe)
            os.close(child_end)
            return None
        if pid == 0:  # the child: never returns
            code = 1
            try:
                os.close(pipe)
                _outlive_nobody(parent)
                code = _child(child_end, settings, seed, game)
            finally:
                os._exit(code)
        os.close(child_end)
        return cls(pipe, pid)

    def cancel(self) -> None:
        """Stop the child and reap it."""
        os.kill(self.pid, signal.SIGKILL)
        os.close(self.pipe)
        os.waitpid(self.pid, 0)

    def result(self) -> Optional[Searched]:
        """The search's result; None if the child died before sending all of it."""
        with open(self.pipe, "rb") as pipe:
            data = pipe.read()
        self.status = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
        if self.status != 0:
            return None
        searched: Searched = pickle.loads(data)
        return searched


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


def _outlive_nobody(parent: int) -> None:
    """In a forked child: Ctrl-C and SIGTERM end it (a pool worker, which ignores them, would
    pass that on), and so does its parent's death (a worker killed outright cannot stop it)."""
    for stopping in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stopping, signal.SIG_DFL)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _child(pipe: int, settings: dict[str, Any], seed: int, game: Game) -> int:
    """A forked child's work: one search, pickled into ``pipe``; the exit status (a search that
    raises exits 1 unsent, and the parent runs it itself and raises there)."""
    data = pickle.dumps(_search(settings, seed, game), protocol=pickle.HIGHEST_PROTOCOL)
    with open(pipe, "wb") as out:
        out.write(data)
    return 0
