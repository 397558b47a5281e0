"""Root-parallel search: independent searches from the same position on several cores, their
root statistics added up (root parallelisation: Chaslot, Winands & van den Herik, "Parallel
Monte-Carlo Tree Search", Computers and Games 2008).

``mcts:800:roots=2`` runs two searches of 800 iterations each (:meth:`MctsPlayer.search
<engine.bots.mcts.MctsPlayer.search>`), one in this process and one in a forked copy of it, each
seeded from the bot's own generator, and plays the move with the most visits summed over both
(:func:`~engine.bots.mcts.best_move`).  A fork per move shares the game as it stands with nothing
to send (a compiled game does not pickle) and only the root statistics come back; it costs about
3 ms a move on the 2-core Linux VM.  Where a search runs changes nothing: the same seed gives the
same move on one core as on several, and where a process cannot be forked (no ``fork`` start method,
as on Windows, or inside a daemonic process such as a multiprocessing pool's worker) the searches
run one after another here.
"""

from __future__ import annotations

import multiprocessing
import random
from multiprocessing.connection import Connection
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
        results = [_search(self.settings, seeds[0], game)]
        for seed, fork in zip(seeds[1:], forks):
            result = fork.result() if fork is not None else None
            results.append(result if result is not None else _search(self.settings, seed, game))
        return results


class _Fork:
    """One search in a forked copy of this process, its result sent back down a pipe."""

    def __init__(self, connection: Connection, process: multiprocessing.process.BaseProcess) -> None:
        self.connection, self.process = connection, process

    @classmethod
    def start(cls, settings: dict[str, Any], seed: int, game: Game) -> Optional[_Fork]:
        """The search under way, or None where this process cannot fork."""
        if "fork" not in multiprocessing.get_all_start_methods():
            return None
        context = multiprocessing.get_context("fork")
        ours, theirs = context.Pipe(duplex=False)
        process = context.Process(target=_search_into, args=(theirs, settings, seed, game), daemon=True)
        try:
            process.start()
        except (OSError, AssertionError):  # AssertionError: a daemonic process may not have children
            ours.close()
            return None
        finally:
            theirs.close()  # the child's copy stays open: the pipe ends when the child does
        return cls(ours, process)

    def result(self) -> Optional[Searched]:
        """The search's result; None if the process died before sending it."""
        try:
            searched: Searched = self.connection.recv()
            return searched
        except (EOFError, OSError):
            return None
        finally:
            self.connection.close()
            self.process.join()


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


def _search_into(connection: Connection, settings: dict[str, Any], seed: int, game: Game) -> None:
    """A forked process's work: one search, its result sent back.  A search that raises sends
    nothing; the parent then runs it itself, and raises there."""
    connection.send(_search(settings, seed, game))
