"""The package's shape (docs/architecture.md): imports point down the layers only,
no import cycle among modules, and every module stays readable in one sitting.

Imports are read from the source (module level and inside functions alike;
``if TYPE_CHECKING:`` blocks are type hints, not imports, and are skipped).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "engine"
BASE = {"build_info", "errors", "geometry", "resources"}
#: Which layers each layer may import (besides itself and the base modules).
ALLOWED = {
    "rules": set(),
    "core": {"rules"},
    "bots": {"core", "rules"},
    "files": {"core", "rules"},
    "sim": {"bots", "files", "core", "rules"},
    "view": {"files", "core", "rules"},
    "api": {"view", "bots", "files", "core", "rules"},
    "web": {"view", "bots", "files", "core", "rules"},
    "cli": {"sim", "web", "view", "bots", "files", "core", "rules"},
}
MAX_LINES = 400


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imported(name: str) -> set[str]:
    """Engine modules ``name`` imports at run time."""
    path = MODULES[name]
    tree = ast.parse(path.read_text())
    hints = {id(node) for block in ast.walk(tree)
             if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
             for stmt in block.body for node in ast.walk(stmt)}
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(tree):
        if id(node) in hints:
            continue
        if isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            target = ".".join(base + (node.module.split(".") if node.module else []))
            for alias in node.names:
                candidate = f"{target}.{alias.name}"
                found.add(candidate if candidate in MODULES else target)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m in MODULES and m != name}


def layer(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] not in BASE else None


def test_every_layer_is_a_subpackage_and_the_top_holds_only_the_base() -> None:
    top = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__"}
    assert top == BASE
    assert {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()} == set(ALLOWED)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_point_down(name: str) -> None:
    own = layer(name)
    for target in imported(name):
        theirs = layer(target)
        if name == "engine" or theirs is None or theirs == own:
            continue  # the package's lazy re-exports, the base modules, and the layer itself
        assert own is not None, f"base module {name} imports {target}"
        assert theirs in ALLOWED[own], f"{name} ({own}) imports {target} ({theirs}), which is not below it"


def test_no_import_cycle() -> None:
    # Imports of a package's __init__ are the package itself, not a module
    # that imports back: leave those edges out, as Python resolves them first.
    graph = {m: {t for t in imported(m) if MODULES[t].name != "__init__.py"} for m in MODULES}
    done: set[str] = set()

    def visit(m: str, path: list[str]) -> None:
        if m in path:
            raise AssertionError("import cycle: " + " -> ".join(path[path.index(m):] + [m]))
        if m in done:
            return
        for t in sorted(graph[m]):
            visit(t, path + [m])
        done.add(m)

    for m in sorted(graph):
        visit(m, [])


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_is_one_sitting_long(name: str) -> None:
    lines = len(MODULES[name].read_text().splitlines())
    assert lines <= MAX_LINES, f"{name} has {lines} lines; split it by concept"


def test_the_checker_sees_imports_inside_functions_and_skips_type_hints() -> None:
    """The checks above would pass vacuously if the import reader missed imports:
    the CLI imports the engine only inside its commands, and core/game imports rules."""
    assert "engine.rules.ruleset" in imported("engine.cli.play_command")
    assert "engine.rules.ruleset" in imported("engine.core.game")
    assert "engine.core.game" not in imported("engine.rules.constraints")  # only under TYPE_CHECKING
