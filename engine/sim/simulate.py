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
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ..errors import UserError

#: Games sent to a worker at once: big enough that scheduling costs nothing,
#: small enough that the progress bar moves and workers stay balanced.
CHUNK = 50


@dataclass(frozen=True)
class Job:
    """What to play: ruleset references, bot kinds in seat order, and the game seeds."""

    refs: tuple[str, ...]
    players: tuple[str, ...]
    seeds: tuple[int, ...]


def game_seeds(master: int, games: int) -> list[int]:
    """The seeds of games 0…games-1 of a run with master seed ``master``."""
    rng = random.Random(master)
    return [rng.getrandbits(32) for _ in range(games)]


def play_chunk(refs: tuple[str, ...], players: tuple[str, ...], seeds: tuple[int, ...],
               base: str | None = None) -> list[list[dict]]:
    """Play every seed under every ruleset; one list of result rows per seed (a row
    per ruleset, in ``refs`` order).  Runs in worker processes: top-level and picklable."""
    from ..rules.ruleset import load_ruleset
    from .play import play_game

    rulesets = [load_ruleset(ref, Path(base) if base else None) for ref in refs]
    rows = []
    for seed in seeds:
        rows.append([result_row(ref, play_game(ruleset, list(players), seed).game, seed)
                     for ref, ruleset in zip(refs, rulesets)])
    return rows


def result_row(ref: str, game, seed: int) -> dict:
    """One game's result: scores by player and by feature kind, winners, margin, discards, turns."""
    kinds = [k.name for k in game.ruleset.kinds]
    by_kind = [{kind: 0 for kind in kinds} for _ in range(game.players)]
    for event in game.events:
        for p in event.players:
            by_kind[p][event.kind] += event.points
    scores = list(game.scores)
    top = max(scores)
    ranked = sorted(scores, reverse=True)
    return {
        "seed": seed,
        "ruleset": ref,
        "scores": scores,
        "by_kind": by_kind,
        "winners": [p for p, s in enumerate(scores) if s == top],
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
    Raises :class:`UserError` if the scheduler cannot be reached.
    """
    chunks = [job.seeds[i:i + CHUNK] for i in range(0, len(job.seeds), CHUNK)]
    base = os.getcwd()
    if scheduler:
        results = _dask(job, chunks, scheduler, base)
    elif (workers or os.cpu_count() or 1) == 1 or len(chunks) == 1:
        results = ((i, play_chunk(job.refs, job.players, chunk, base)) for i, chunk in enumerate(chunks))
    else:
        results = _pool(job, chunks, workers or os.cpu_count() or 1, base)
    yield from _in_order(results, on_chunk)


def _in_order(results: Iterable[tuple[int, list[list[dict]]]],
              on_chunk: Callable[[int], None] | None) -> Iterator[list[dict]]:
    """Chunks may finish in any order; hand them on in seed order, holding only the early ones."""
    waiting: dict[int, list[list[dict]]] = {}
    next_index = 0
    for index, rows in results:
        if on_chunk is not None:
            on_chunk(len(rows))
        waiting[index] = rows
        while next_index in waiting:
            yield from waiting.pop(next_index)
            next_index += 1


def _pool(job: Job, chunks: list[tuple[int, ...]], workers: int, base: str):
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(play_chunk, job.refs, job.players, chunk, base): i for i, chunk in enumerate(chunks)}
        for future in as_completed(futures):
            yield futures[future], future.result()


def _dask(job: Job, chunks: list[tuple[int, ...]], address: str, base: str):
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise UserError("--scheduler needs the Dask extra: pip install 'carcassonne-rules[dask]'",
                        code="dependency") from None
    try:
        client = Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as error:
        raise UserError(f"cannot reach the Dask scheduler at {address}: {error}", code="scheduler") from None
    try:
        futures = [client.submit(play_chunk, job.refs, job.players, chunk, base, pure=False) for chunk in chunks]
        index = {future.key: i for i, future in enumerate(futures)}
        for future in as_completed(futures):
            yield index[future.key], future.result()
    finally:
        client.close()
