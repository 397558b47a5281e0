"""Which build of the engine is running: the hot modules compiled by mypyc, or pure Python.

``pip install`` compiles them when it can (setup.py); the ``.py`` files are
the source either way, and both builds play the same games move for move
(tests/core/test_same_records.py).  A compiled module is imported in place of
its ``.py`` file, so after editing one in an editable install, install again
(``pip install -e .``): :func:`stale_modules` names those whose source is newer
(by file time, so a checkout that rewrites an unchanged file is named too).
"""

from __future__ import annotations

from importlib import util
from pathlib import Path

#: Reported by ``carcassonne --version`` and ``doctor`` (and in its JSON, ``core``).
COMPILED, PURE = "compiled (mypyc)", "pure Python"


def engine_build() -> str:
    """:data:`COMPILED` when the turn loop (``engine.core.game``) is an extension module, else :data:`PURE`."""
    spec = util.find_spec("engine.core.game")
    origin = spec.origin if spec is not None and spec.origin else ""
    return PURE if origin.endswith(".py") else COMPILED


def stale_modules() -> list[str]:
    """Engine modules whose compiled extension is older than their source (empty for a pure build)."""
    import importlib.machinery

    package = Path(__file__).resolve().parent
    stale = []
    for source in sorted(package.rglob("*.py")):
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            built = source.with_name(source.stem + suffix)
            if built.exists() and built.stat().st_mtime < source.stat().st_mtime:
                stale.append(".".join(source.relative_to(package.parent).with_suffix("").parts))
    return stale
