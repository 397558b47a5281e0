"""The hostile-input corpus (tests/hostile/README.md): every case gets its exit
status and a one-line error, within its time, with no traceback and nothing
half-written."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

CORPUS = Path(__file__).resolve().parent / "hostile"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def cases() -> list:
    found = []
    for manifest in sorted(CORPUS.glob("*/cases.yaml")):
        for case in yaml.safe_load(manifest.read_text()) or ():
            found.append(pytest.param(manifest.parent, case, id=f"{manifest.parent.name}: {case['name']}"))
    return found


class Places:
    """Makes the special files a case names, on first use, under ``tmp``."""

    def __init__(self, folder: Path, tmp: Path) -> None:
        self.folder, self.tmp = folder, tmp
        self.made: dict[str, str] = {}
        self.sockets: list[socket.socket] = []

    def __getitem__(self, name: str) -> str:
        if name not in self.made:
            self.made[name] = str(self._make(name))
        return self.made[name]

    def _make(self, name: str) -> Path | str:
        tmp = self.tmp
        if name == "dir":
            return self.folder
        if name == "tmp":
            return tmp
        if name == "fifo":
            os.mkfifo(tmp / "fifo.yaml")
            return tmp / "fifo.yaml"
        if name == "socket":
            path = tmp / "sock.yaml"
            server = socket.socket(socket.AF_UNIX)
            server.bind(str(path))
            server.listen()
            self.sockets.append(server)
            return path
        if name == "zero":
            return "/dev/zero"
        if name == "loop":
            (tmp / "loop.yaml").symlink_to(tmp / "loop.yaml")
            return tmp / "loop.yaml"
        if name == "dangling":
            (tmp / "dangling.yaml").symlink_to(tmp / "nowhere.yaml")
            return tmp / "dangling.yaml"
        if name == "long":
            return tmp / ("x" * 295 + ".yaml")
        if name == "missing":
            return tmp / "no-such-folder" / "file.json"
        if name == "readonly":
            folder = tmp / "readonly"
            folder.mkdir()
            folder.chmod(0o555)
            return folder / "file.json"
        if name == "big":
            path = tmp / "big.yaml"
            with path.open("w") as out:
                line = "# " + "x" * 1021 + "\n"
                for _ in range(17 * 1024):
                    out.write(line)
            return path
        raise KeyError(f"unknown placeholder {{{name}}}")

    def fill(self, text: str) -> str:
        return PLACEHOLDER.sub(lambda m: self[m.group(1)], text)

    def close(self) -> None:
        for server in self.sockets:
            server.close()


CASES = cases()


@pytest.fixture(scope="session")
def start_up() -> float:
    """Seconds this machine takes to start the CLI and exit at once (the slowest of three):
    a case's ``within`` bound is what the command may take beyond that, so a loaded
    machine does not fail a case that is quick."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "engine.cli", "--version"], capture_output=True, timeout=60)
        times.append(time.perf_counter() - start)
    return max(times)


def test_the_corpus_is_large_and_names_are_unique() -> None:
    names = [param.id for param in CASES]
    assert len(names) == len(set(names))
    assert len(names) >= 200, f"{len(names)} cases"


# The cases are timed, so they never run beside the browser test (which keeps a core busy with
# Chromium): tests of one xdist group share a worker (``--dist loadgroup``, pyproject.toml).
@pytest.mark.xdist_group("timed-or-heavy")
@pytest.mark.parametrize("folder, case", CASES)
def test_hostile_input(folder: Path, case: dict, tmp_path: Path, start_up: float) -> None:
    if "{readonly}" in str(case) and os.geteuid() == 0:
        pytest.skip("root may write into a read-only folder")
    places = Places(folder, tmp_path)
    try:
        args = [places.fill(str(a)) for a in case["args"]]
        start = time.perf_counter()
        run = subprocess.run([sys.executable, "-m", "engine.cli", *args], capture_output=True, text=True,
                             cwd=tmp_path, timeout=case.get("within", 10) + 30, stdin=subprocess.DEVNULL,
                             env={**os.environ, "COLUMNS": "100"})
        took = time.perf_counter() - start
    finally:
        places.close()
    assert "Traceback" not in run.stderr + run.stdout, run.stderr
    assert run.returncode == case["exit"], f"exit {run.returncode}\n{run.stdout}\n{run.stderr}"
    assert took <= case.get("within", 10) + 2 * start_up, f"took {took:.1f} s (start-up {start_up:.1f} s)"
    if case["exit"] == 2:
        assert "error:" in run.stderr or "Usage:" in run.stderr, run.stderr
    if "stderr" in case:
        assert re.search(case["stderr"], run.stderr), run.stderr
    for path in case.get("absent", ()):
        assert not os.path.lexists(places.fill(path)), f"{path} was written"  # lexists: a dangling link counts
