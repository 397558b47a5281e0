"""How long a read of the web table takes while a bot thinks, by thread switch interval.

    python benchmarks/web_thinking.py --result benchmarks/results/web-thinking.json

Serves the web table on loopback as ``carcassonne serve`` does (engine/web/server.py), then for
each switch interval (Python's default 5 ms, and the 0.5 ms ``serve`` sets) opens a table where
an mcts bot thinks ``--think`` seconds and another where a human is to play, and reads both
tables' state over HTTP, one request after another, until the bot has moved.  Prints, and keeps
in the result file, the median, 99th percentile and maximum seconds of those reads.
"""

from __future__ import annotations

import argparse
import http.client
import json
import socket
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from provenance import provenance  # noqa: E402

from engine.web.app import Tables, create_app  # noqa: E402
from engine.web.server import SWITCH_INTERVAL, in_thread, server  # noqa: E402


def _request(port: int, method: str, path: str, body: dict | None = None) -> tuple[dict, float]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    start = time.perf_counter()
    connection.request(method, path, body=json.dumps(body) if body else None,
                       headers={"Content-Type": "application/json"})
    answer = json.loads(connection.getresponse().read())
    seconds = time.perf_counter() - start
    connection.close()
    return answer, seconds


def measure(port: int, interval: float, think: float, seed: int) -> dict:
    """Reads of two tables while an mcts bot thinks ``think`` seconds, at switch ``interval``."""
    sys.setswitchinterval(interval)
    waiting, _ = _request(port, "POST", "/api/tables", {"ruleset": "basic", "players": "human,greedy", "seed": seed})
    thinking, _ = _request(port, "POST", "/api/tables",
                           {"ruleset": "basic", "players": f"mcts:{think}s,human", "seed": seed})
    reads: list[float] = []
    while True:
        for table in (waiting["id"], thinking["id"]):
            state, seconds = _request(port, "GET", f"/api/tables/{table}")
            reads.append(seconds)
        if state["turn"] > 0:  # the bot has moved
            break
    reads.sort()
    return {"switch_interval": interval, "reads": len(reads), "median": statistics.median(reads),
            "p99": reads[min(len(reads) - 1, int(len(reads) * 0.99))], "max": reads[-1]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--think", type=float, default=3.0, help="seconds the mcts bot thinks")
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--result", type=Path, help="write the figures here (JSON), with their provenance")
    args = parser.parse_args()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with in_thread(server(create_app(Tables(None)), port)):
        rows = [measure(port, interval, args.think, args.seed) for interval in (0.005, SWITCH_INTERVAL)]
    for row in rows:
        print(f"switch interval {row['switch_interval'] * 1000:g} ms: {row['reads']} reads while mcts thought "
              f"{args.think:g} s; median {row['median'] * 1000:.1f} ms, p99 {row['p99'] * 1000:.1f} ms, "
              f"max {row['max'] * 1000:.1f} ms")
    if args.result:
        command = "python benchmarks/web_thinking.py " + " ".join(sys.argv[1:])
        args.result.write_text(json.dumps({"provenance": provenance(command), "think": args.think, "rows": rows},
                                          indent=1) + "\n")


if __name__ == "__main__":
    main()
