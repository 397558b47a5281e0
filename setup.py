"""Build: the engine's hot modules compiled with mypyc when a C compiler is there, else pure Python.

``pip install .`` and ``pip install -e .`` both come through here (pyproject.toml
holds the metadata).  The compiled modules are the same source files: mypyc
turns them into C extensions that Python imports in place of the ``.py`` files,
which stay beside them.  Set ``CARCASSONNE_PURE_PYTHON=1`` to build without
compiling.  If compiling fails (no compiler, no Python headers, a type error
mypyc refuses), the build says so and installs the pure Python modules:
``carcassonne --version`` tells which build is running.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent

#: The modules a game spends its time in (issue 14's profile): the board and feature graph,
#: legal moves, the turn loop and scoring, the compiled tile types, placement constraints and ruleset they read,
#: the look-ahead and the bots; since issue 48's, the game end, tallies and titles that bonuses read.
#: They must type-check under mypy: mypyc compiles what mypy proves.
COMPILED = [
    "engine/geometry.py",
    "engine/core/after_move.py",
    "engine/core/chance.py",
    "engine/core/board.py",
    "engine/core/bonus_part.py",
    "engine/core/choices.py",
    "engine/core/completion.py",
    "engine/core/constrained.py",
    "engine/core/deck.py",
    "engine/core/deployment.py",
    "engine/core/extra_turns.py",
    "engine/core/followers.py",
    "engine/core/game.py",
    "engine/core/game_end.py",
    "engine/core/known_ends.py",
    "engine/core/lookahead.py",
    "engine/core/majorities.py",
    "engine/core/mechanism.py",
    "engine/core/mechanisms.py",
    "engine/core/moves.py",
    "engine/core/moving.py",
    "engine/core/personal.py",
    "engine/core/pooled.py",
    "engine/core/score_event.py",
    "engine/core/scoring.py",
    "engine/core/snapshot.py",
    "engine/core/strength.py",
    "engine/core/supply_value.py",
    "engine/core/tallies.py",
    "engine/core/titles.py",
    "engine/core/totals.py",
    "engine/core/trial.py",
    "engine/core/triggered.py",
    "engine/rules/constraints.py",
    "engine/rules/phases.py",
    "engine/rules/ruleset.py",
    "engine/rules/tiles.py",
    "engine/bots/greedy.py",
    "engine/bots/valuing.py",
    "engine/bots/mcts.py",
    "engine/bots/random_player.py",
]


def _compiled_extensions() -> list:
    if os.environ.get("CARCASSONNE_PURE_PYTHON"):
        print("carcassonne-rules: CARCASSONNE_PURE_PYTHON is set: pure Python build", file=sys.stderr)
        return []
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        print("carcassonne-rules: no C compiler found: pure Python build", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify

        # Modules outside the list are read for their types only: their own errors are not ours to fail on here.
        # group_name puts their shared library inside the package (engine/compiled__mypyc…so), where an
        # editable install finds it too; by default it would be a top-level module of its own.
        return mypycify(["--follow-imports=silent", "--ignore-missing-imports", *COMPILED], opt_level="3",
                        group_name="engine.compiled")
    except (Exception, SystemExit) as error:  # mypy's type errors end in SystemExit
        print(f"carcassonne-rules: mypyc could not compile the engine ({error}): pure Python build",
              file=sys.stderr)
        return []


class OptionalBuildExt(build_ext):
    """Compile the extensions; on any failure, remove what was built and fall back to pure Python
    (a half-built set would import a module whose shared library is missing)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # a compiler error, missing headers, a linker failure…
            print(f"carcassonne-rules: compiling failed ({error}): pure Python build", file=sys.stderr)
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            if self.inplace:
                for ext in self.extensions:
                    Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            self.extensions = []


class BuildWithData(build_py):
    """A wheel carries the shipped rulesets, schemas and grammar inside the package
    (``engine/_data``; engine/resources.py finds them there or at the repository root)."""

    def run(self) -> None:
        super().run()
        for name in ("rulesets", "grammar"):
            target = Path(self.build_lib) / "engine" / "_data" / name
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(ROOT / name, target)


setup(ext_modules=_compiled_extensions(), cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildWithData})
