"""The web table under what issue 50 says a client may do to it, measured on a real ``carcassonne serve``.

    python benchmarks/web_limits.py --result benchmarks/results/web-limits.json

Starts ``carcassonne serve`` on loopback with a fresh records folder, then:

1. uploads a record of 200,000 turns (a played basic game's turns repeated; 12 MiB) to
   ``/api/replay`` and takes the seconds to the answer and the server's peak resident memory
   (``VmHWM``) before and after;
2. opens two tables of two ``mcts`` bots each at the server's capped budget (``mcts:5000``),
   which think until their games end, and has 30 clients read table states as fast as they
   are answered for 30 s: the median, 99th percentile and maximum seconds of a read;
3. uploads a long record the server may read (100,000 turns under a deck of 4,800 tiles that
   reshuffles: ``big.yaml`` in the records folder), sends Ctrl-C two seconds in, and takes
   the seconds until the server has exited, and its status.
"""

from __future__ import annotations

import argparse
import http.client
import json
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from provenance import provenance  # noqa: E402

CLIENTS = 30
LOAD_SECONDS = 30.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _serve(records: Path, port: int) -> subprocess.Popen:
    server = subprocess.Popen([sys.executable, "-m", "engine.cli", "serve", "--players", "human,random", "--port",
                               str(port), "--records", str(records)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port)).close()
            return server
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start: " + server.stderr.read()) from None
            time.sleep(0.1)


def _peak_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc")


def _post(port: int, path: str, body: bytes) -> tuple[int, bytes, float]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    began = time.perf_counter()
    connection.request("POST", path, body=body, headers={"Content-Type": "application/json"})
    answer = connection.getresponse()
    text = answer.read()
    connection.close()
    return answer.status, text, time.perf_counter() - began


def _record(folder: Path) -> dict:
    """A whole record of a random basic game (seed 3)."""
    path = folder / "game.json"
    subprocess.run([sys.executable, "-m", "engine.cli", "play", "--players", "random,random", "--seed", "3",
                    "--record", str(path)], check=True, capture_output=True)
    return json.loads(path.read_text())


def huge_upload(port: int, pid: int, record: dict) -> dict:
    """Step 1."""
    body = json.dumps(record | {"turns": (record["turns"] * 3000)[:200_000]}).encode()
    before = _peak_mib(pid)
    status, text, seconds = _post(port, "/api/replay?name=huge.json", body)
    return {"turns": 200_000, "mib": round(len(body) / 2**20, 1), "status": status, "seconds": round(seconds, 3),
            "peak_mib_before": round(before, 1), "peak_mib_after": round(_peak_mib(pid), 1),
            "answer": json.loads(text)["error"][-160:]}


def load(port: int) -> dict:
    """Step 2."""
    tables = []
    for seed in (1, 2):
        status, text, _ = _post(port, "/api/tables", json.dumps(
            {"ruleset": "basic", "players": "mcts:5000,mcts:5000", "seed": seed}).encode())
        assert status == 201, text
        tables.append(json.loads(text)["id"])
    reads: list[float] = []
    stop = time.monotonic() + LOAD_SECONDS

    def client(k: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        while time.monotonic() < stop:
            began = time.perf_counter()
            connection.request("GET", f"/api/tables/{tables[k % 2]}")
            connection.getresponse().read()
            reads.append(time.perf_counter() - began)
        connection.close()

    threads = [threading.Thread(target=client, args=(k,)) for k in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    reads.sort()
    return {"clients": CLIENTS, "seconds": LOAD_SECONDS, "bots": "2 tables of mcts:5000,mcts:5000",
            "reads": len(reads), "median": round(statistics.median(reads), 4),
            "p99": round(reads[int(len(reads) * 0.99)], 4), "max": round(reads[-1], 4)}


def stop_mid_request(records: Path, record: dict) -> dict:
    """Step 3, on a server of its own."""
    counts = "".join(f"  {tile}: {{count: 200}}\n" for tile in "ABCDEFGHIJKLMNOPQRSTUVWX")
    (records / "big.yaml").write_text("extends: basic\nrules: {unplaceable: reshuffle}\ntiles:\n" + counts)
    body = json.dumps(record | {"ruleset": "big.yaml", "turns": (record["turns"] * 2000)[:100_000]}).encode()
    port = _free_port()
    server = _serve(records, port)
    upload = socket.create_connection(("127.0.0.1", port))
    upload.sendall(b"POST /api/replay?name=x.json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                   b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
    time.sleep(2)
    began = time.monotonic()
    server.send_signal(signal.SIGINT)
    status = server.wait(600)
    seconds = time.monotonic() - began
    upload.close()
    return {"turns": 100_000, "mib": round(len(body) / 2**20, 1), "signal_after": 2, "exit_status": status,
            "seconds_to_exit": round(seconds, 3), "stderr": server.stderr.read().strip()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--result", type=Path, help="write the figures here (JSON), with their provenance")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        records = Path(folder) / "records"
        records.mkdir()
        record = _record(Path(folder))
        port = _free_port()
        server = _serve(records, port)
        try:
            rows = {"huge_upload": huge_upload(port, server.pid, record), "load": load(port)}
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(60)
        rows["stop_mid_request"] = stop_mid_request(records, record)
    print(json.dumps(rows, indent=1))
    if args.result:
        command = "python benchmarks/web_limits.py " + " ".join(sys.argv[1:])
        args.result.write_text(json.dumps({"provenance": provenance(command), **rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
