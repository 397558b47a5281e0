"""Every library the package imports is a declared dependency (pyproject.toml): one
imported at module level (so whenever its module loads) is a core dependency, and one
imported only inside a function is at least in an extra.  Read from the source, like the
layer test; the distributions behind the module names come from the installed metadata."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "engine"


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared() -> tuple[set[str], set[str]]:
    """(core dependencies, every dependency of an extra), as normalised distribution names."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    name = lambda requirement: normal(re.match(r"[A-Za-z0-9._-]+", requirement).group(0))  # noqa: E731
    core = {name(r) for r in project["dependencies"]}
    extras = {name(r) for group in project["optional-dependencies"].values() for r in group}
    return core, extras - {normal(project["name"])}


def third_party_imports() -> dict[str, bool]:
    """Top-level module name -> whether some engine module imports it at module level."""
    found: dict[str, bool] = {}
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text())
        top_level = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module]
            else:
                continue
            for module in (n.split(".")[0] for n in names):
                if module in sys.stdlib_module_names or module in ("engine", "__future__"):
                    continue
                found[module] = found.get(module, False) or id(node) in top_level
    return found


def test_every_imported_library_is_declared() -> None:
    core, extras = declared()
    owners = packages_distributions()
    imports = third_party_imports()
    assert {"yaml", "rich", "typer", "numpy"} <= set(imports)  # the reader sees what it should
    for module, at_module_level in sorted(imports.items()):
        # A module that is not installed here is taken to be its own distribution's name.
        distributions = {normal(d) for d in owners.get(module, [module])}
        wanted = core if at_module_level else core | extras
        assert distributions & wanted, f"{module} ({', '.join(distributions)}) is imported but not declared" + (
            " as a core dependency (it is imported at module level)" if at_module_level else "")
