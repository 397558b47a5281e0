"""pytest collects doctests from engine/ too.  A module compiled by mypyc (a ``.so``
beside its ``.py``, see setup.py) cannot be collected from its source path, and
has no doctests (tests/test_build.py checks), so collection skips it; so does it
skip a module of an optional extra that is not installed (its import would fail)."""

from __future__ import annotations

import importlib.machinery
import importlib.util
from pathlib import Path

#: Modules that import an optional extra's library at the top, by (folder, file): that library.
NEEDS = {("api", "openspiel.py"): "pyspiel", ("api", "pettingzoo.py"): "pettingzoo", ("web", "app.py"): "starlette"}


def pytest_ignore_collect(collection_path: Path, config) -> bool | None:
    if collection_path.suffix != ".py":
        return None
    library = NEEDS.get((collection_path.parent.name, collection_path.name))
    if library is not None and importlib.util.find_spec(library) is None:
        return True
    stem = str(collection_path.with_suffix(""))
    compiled = any(Path(stem + suffix).exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)
    return True if compiled else None
