"""Where the shipped rulesets, schemas and grammar live.

An installed wheel carries them inside the package (``engine/_data/…``); an
editable install or a source checkout finds them at the repository root.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """Folder of shipped data ``name`` (``rulesets`` or ``grammar``)."""
    bundled = _PACKAGE / "_data" / name
    return bundled if bundled.is_dir() else _PACKAGE.parent / name


def rulesets_dir() -> Path:
    """Folder holding the shipped ``*.yaml`` rulesets."""
    return data_dir("rulesets")
