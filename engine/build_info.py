"""Which build of the engine is running: the hot modules compiled by mypyc, or pure Python.

``pip install`` compiles them when it can (setup.py); the ``.py`` files are
the source either way, and both builds play the same games move for move
(tests/core/test_same_records.py).  A compiled module is imported in place of
its ``.py`` file, so after editing one in an editable install, install again
(``pip install -e .``; tests/test_build.py fails on an extension older than its source).
"""

from __future__ import annotations

from importlib import util

#: Reported by ``carcassonne --version`` and ``doctor`` (and in its JSON, ``core``).
COMPILED, PURE = "compiled (mypyc)", "pure Python"


def engine_build() -> str:
    """:data:`COMPILED` when the turn loop (``engine.core.game``) is an extension module, else :data:`PURE`."""
    spec = util.find_spec("engine.core.game")
    origin = spec.origin if spec is not None and spec.origin else ""
    return PURE if origin.endswith(".py") else COMPILED

