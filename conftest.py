"""pytest collects doctests from engine/ too.  A module compiled by mypyc (a ``.so``
beside its ``.py``, see setup.py) cannot be collected from its source path, and
has no doctests (tests/test_build.py checks), so collection skips it."""

from __future__ import annotations

import importlib.machinery
from pathlib import Path


def pytest_ignore_collect(collection_path: Path, config) -> bool | None:
    if collection_path.suffix != ".py":
        return None
    stem = str(collection_path.with_suffix(""))
    compiled = any(Path(stem + suffix).exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)
    return True if compiled else None
