"""How long the web table makes a player wait: each request of whole games, timed in-process.

    python benchmarks/web.py                       # human vs greedy, 3 games
    python benchmarks/web.py --opponent mcts --games 2

Plays whole games through the JSON API with Starlette's test client (the app as
``carcassonne serve`` runs it, without the socket): the human answers each turn
with the first legal cell and rotation.  Prints the median and maximum seconds of
``GET /api/tables/ID`` (what a reload or a page draw asks for) and of ``POST
/play`` (the human's move, the bot's answer and the new state), and the state's
size in kB at the end.  Whole-process start-up (``carcassonne serve`` until it
listens) is timed as a whole process from outside (``/usr/bin/time``), not here.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from starlette.testclient import TestClient  # noqa: E402

from engine.build_info import engine_build  # noqa: E402
from engine.web.app import Tables, create_app  # noqa: E402


def play(client: TestClient, ruleset: str, opponent: str, seed: int) -> tuple[list[float], list[float], int]:
    """One game: seconds of each state request, of each move request, and the last state's bytes."""
    table = client.post("/api/tables", json={"ruleset": ruleset, "players": f"human,{opponent}", "seed": seed}).json()
    reads, moves = [], []
    while True:
        start = time.perf_counter()
        answer = client.get(f"/api/tables/{table['id']}")
        reads.append(time.perf_counter() - start)
        state = answer.json()
        if state["finished"]:
            return reads, moves, len(answer.content)
        cell = state["options"][0]
        rotation = int(min(cell["rotations"], key=int))
        start = time.perf_counter()
        move = {"kind": "place", "map": cell["map"], "x": cell["x"], "y": cell["y"], "rotation": rotation}
        client.post(f"/api/tables/{table['id']}/play", json={"turn": state["turn"], "move": move})
        moves.append(time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="basic")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    client = TestClient(create_app(Tables(None)), base_url="http://127.0.0.1:8000")
    reads, moves, size = [], [], 0
    for i in range(args.games):
        r, m, size = play(client, args.ruleset, args.opponent, args.seed + i)
        reads += r
        moves += m
    print(f"{args.ruleset}, human vs {args.opponent}, {args.games} games, engine {engine_build()}")
    print(f"  GET state: median {statistics.median(reads) * 1000:.1f} ms, max {max(reads) * 1000:.1f} ms "
          f"({len(reads)} requests)")
    print(f"  POST move: median {statistics.median(moves) * 1000:.1f} ms, max {max(moves) * 1000:.1f} ms "
          f"({len(moves)} requests; the bot's move included)")
    print(f"  final state: {size / 1000:.0f} kB")


if __name__ == "__main__":
    main()
