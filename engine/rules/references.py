"""Ruleset references: which file a name or path in ``NAME_OR_PATH[+OPTION]…`` means.

A bare name (``basic``) is a shipped ruleset; anything with a ``/``, ``\\`` or
``.`` is a path, relative to the file that names it (a scenario, a record, an
``extends``) or to the working directory.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import UserError
from ..resources import rulesets_dir


def is_name(ref: str) -> bool:
    """A bare name (``basic``) rather than a path (``my/rules.yaml``, ``rules.yaml``)."""
    return bool(ref) and "/" not in ref and "\\" not in ref and "." not in ref


def resolve(ref: str, base: Path | None = None) -> Path:
    """The file a ruleset reference names: a shipped name (``basic``) or a path.

    A bare name is looked up among the shipped rulesets first; a relative path
    is taken from ``base`` (the folder of the scenario or record naming it) if
    given, else from the working directory.  Raises :class:`UserError` if
    neither exists, listing the shipped names.
    """
    if not ref:
        raise UserError("empty ruleset reference", code="ruleset-unknown")
    if is_name(ref) and (rulesets_dir() / f"{ref}.yaml").is_file():
        return rulesets_dir() / f"{ref}.yaml"
    path = Path(ref)
    if not path.is_absolute() and base is not None:
        path = base / path
    if path.is_file():
        return path
    if path.is_dir():
        raise UserError(f"{path} is a folder, not a ruleset file", code="io")
    if is_name(ref):
        names = ", ".join(sorted(p.stem for p in rulesets_dir().glob("*.yaml")))
        if (rulesets_dir() / "options" / f"{ref}.yaml").is_file():
            raise UserError(f"'{ref}' is an option, not a ruleset: add it to one, e.g. basic+{ref}",
                            code="ruleset-unknown")
        raise UserError(f"unknown ruleset '{ref}' (shipped rulesets: {names}; or give a path)",
                        code="ruleset-unknown")
    raise UserError(f"ruleset file not found: {path}", code="io")


def portable_ref(ref: str, folder: Path) -> str:
    """``ref`` as a file written in ``folder`` should name it: shipped names as they
    are, paths relative to ``folder`` (so the file and its rulesets can move together)."""
    name, *options = ref.split("+")
    parts = [name if is_name(name) and resolve(name).parent == rulesets_dir() else _relative(resolve(name), folder)]
    for option in options:
        parts.append(option if is_name(option) else _relative(Path(option), folder))
    return "+".join(parts)


def _relative(path: Path, folder: Path) -> str:
    return os.path.relpath(path.resolve(), folder.resolve())
