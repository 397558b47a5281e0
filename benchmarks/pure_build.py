"""The pure Python build beside the compiled one, in the same session: a copy of the
engine's sources and data without the compiled extensions, which an interpreter started
with ``PYTHONPATH`` at the copy imports instead of the installed (compiled) engine."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from engine.build_info import PURE

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def pure_tree() -> Iterator[tuple[Path, dict[str, str]]]:
    """``(folder, environment)``: the copy, and the environment that makes a child process
    import it.  Run children with ``cwd=folder`` (``python -m`` puts its cwd first on
    ``sys.path``).  ``SystemExit`` if the copy does not import as the pure build."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        ignore = shutil.ignore_patterns("*.so", "*.pyd", "__pycache__")
        for part in ("engine", "grammar", "rulesets", "benchmarks"):
            shutil.copytree(ROOT / part, folder / part, ignore=ignore)
        env = {**os.environ, "PYTHONPATH": str(folder)}
        found = subprocess.run([sys.executable, "-c", "from engine.build_info import engine_build; "
                                "print(engine_build())"], env=env, cwd=folder, capture_output=True, text=True)
        if found.stdout.strip() != PURE:
            raise SystemExit(f"error: the copy at {folder} did not import as the pure build: "
                             f"{found.stdout}{found.stderr}")
        yield folder, env


def rerun_pure(script: str, argv: list[str], paths: tuple[str, ...] = ("--json",)) -> None:
    """Run ``benchmarks/SCRIPT ARGV`` on the pure build and exit with its status; the values
    of the options in ``paths`` (files to write) are made absolute first."""
    argv = list(argv)
    for i, arg in enumerate(argv[:-1]):
        if arg in paths:
            argv[i + 1] = str(Path(argv[i + 1]).resolve())
    from provenance import checkout_commit, command_line

    with pure_tree() as (folder, env):
        env = {**env, "BENCH_COMMAND": command_line(), "BENCH_COMMIT": checkout_commit()}
        sys.exit(subprocess.run([sys.executable, str(folder / "benchmarks" / script), *argv], env=env,
                                cwd=folder).returncode)
