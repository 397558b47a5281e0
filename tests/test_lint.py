"""The code meets its own lint configuration (``[tool.ruff]`` in pyproject.toml: pycodestyle,
pyflakes, import order, bugbear, 120 columns).  CI also runs ``ruff check .`` on its own."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]


def test_ruff_is_clean() -> None:
    beside = Path(sys.executable).parent / "ruff"  # the venv's, active or not
    ruff = str(beside) if beside.is_file() else shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed: pip install -e '.[dev]'")
    done = subprocess.run([ruff, "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
