"""Where a benchmark figure came from: the header every result file in benchmarks/results/ carries."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

from engine.build_info import engine_build


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def provenance(command: str) -> dict:
    """``{"command", "machine", "date", "commit", "engine"}`` for a result file: the command
    line that produced it, the CPU, core count and Python, the UTC time, the short commit
    (``+dirty`` when the work tree differs from it) and which build ran (pure or compiled).
    In a run that benchmarks/pure_build.py started on its copy of the tree, the command and
    commit are the ones it passed down (``BENCH_COMMAND``, ``BENCH_COMMIT``)."""
    if "BENCH_COMMIT" in os.environ:
        command, commit = os.environ["BENCH_COMMAND"], os.environ["BENCH_COMMIT"]
    else:
        commit = checkout_commit()
    return {
        "command": command,
        "machine": f"{_cpu()}, {os.cpu_count()} cores, {platform.system()} {platform.machine()}, "
                   f"Python {platform.python_version()}",
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "commit": commit,
        "engine": engine_build(),
    }


def checkout_commit() -> str:
    """The checkout's short commit, ``+dirty`` when tracked files other than result files differ from it."""
    here = Path(__file__).parent
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=here).stdout.strip()
    # Result files are not code: writing one does not make the next run's tree dirty.
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ":/",
                            ":!/benchmarks/results"], capture_output=True, text=True, cwd=here).stdout.strip()
    return commit + ("+dirty" if dirty else "")


def command_line() -> str:
    """The benchmark's own command line, as a user would type it."""
    return " ".join(["python", *sys.argv])
