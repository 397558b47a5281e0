"""The version is one number everywhere: pyproject.toml, the installed package, the changelog."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import engine

ROOT = Path(__file__).parents[1]


def test_the_installed_version_is_pyprojects_and_the_changelog_has_it() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert engine.__version__ == declared, "pip install -e . again after changing the version"
    released = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert released and released[0] == declared  # the newest release section is the version declared


def test_the_package_says_it_is_typed() -> None:
    assert (Path(engine.__file__).parent / "py.typed").is_file()
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "py.typed" in package_data["package-data"]["engine"]
