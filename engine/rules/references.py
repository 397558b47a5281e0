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
from .reading import NO_SUCH_FILE, input_problem


def is_name(ref: str) -> bool:
    """A bare name (``basic``) rather than a path (``my/rules.yaml``, ``rules.yaml``)."""
    return bool(ref) and "/" not in ref and "\\" not in ref and "." not in ref


def shortened(text: str, most: int = 60) -> str:
    """``text`` cut to ``most`` characters (an ellipsis at the end) for an error message.

    >>> shortened("a" * 100, 10)
    'aaaaaaaaa…'
    """
    return text if len(text) <= most else text[:most - 1] + "…"


def shipped_file(folder: Path, name: str) -> Path | None:
    """``folder/NAME.yaml`` if it is a regular file, else None; a name too long for a file
    name (or one the system cannot look up at all) is simply not a shipped one."""
    path = folder / f"{name}.yaml"
    try:
        return path if path.is_file() else None
    except OSError:  # is_file() lets "file name too long" through
        return None


def split_ref(ref: str, base: Path | None = None) -> tuple[str, list[str]]:
    """``"basic+river+tiny-city"`` → ``("basic", ["river", "tiny-city"])``; a path that names an
    existing file whole (``my+rules.yaml``, relative to ``base`` or the working directory) is that
    file, with no options (docs/rulesets.md, "ruleset reference")."""
    if "+" in ref and not is_name(ref):
        path = Path(ref) if base is None or Path(ref).is_absolute() else base / ref
        try:
            if path.is_file():
                return ref, []
        except OSError:  # a name too long for the system: no file, so a reference
            pass
    name, *options = ref.split("+")
    return name, options


def resolve(ref: str, base: Path | None = None) -> Path:
    """The file a ruleset reference names: a shipped name (``basic``) or a path.

    A bare name is looked up among the shipped rulesets first; a relative path
    is taken from ``base`` (the folder of the scenario or record naming it) if
    given, else from the working directory.  Raises :class:`UserError` (with
    no file, for the caller to locate) if neither exists, listing the shipped
    names, or if the path is not a regular file (see :func:`named_file`).
    """
    if not ref:
        raise UserError("empty ruleset reference", code="ruleset-unknown")
    shipped = shipped_file(rulesets_dir(), ref) if is_name(ref) else None
    if shipped is not None:
        return shipped
    path = Path(ref)
    if not path.is_absolute() and base is not None:
        path = base / path
    # A bare name too long for a file name is no file either: say it is no shipped ruleset.
    if is_name(ref) and (input_problem(path) == NO_SUCH_FILE or len(ref) > 200):
        names = ", ".join(sorted(p.stem for p in rulesets_dir().glob("*.yaml")))
        if shipped_file(rulesets_dir() / "options", ref) is not None:
            raise UserError(f"'{ref}' is an option, not a ruleset: add it to one, e.g. basic+{ref}",
                            code="ruleset-unknown")
        raise UserError(f"unknown ruleset '{shortened(ref)}' (shipped rulesets: {names}; or give a path)",
                        code="ruleset-unknown")
    return named_file(path, f"ruleset file not found: {path}")


def named_file(path: Path, missing: str) -> Path:
    """``path`` if it is a regular file; else :class:`UserError` ``io`` (with no file of its
    own, so the file or command line naming it can locate it): ``missing`` if nothing
    is there, ``cannot read PATH: why`` for a folder, a FIFO, a loop, ..."""
    problem = input_problem(path)
    if problem == NO_SUCH_FILE:
        raise UserError(missing, code="io")
    if problem is not None:
        raise UserError(f"cannot read {path}: {problem}", code="io")
    return path


def portable_ref(ref: str, folder: Path, base: Path | None = None) -> str:
    """``ref`` (its paths relative to ``base``, default the working directory) as a file written in
    ``folder`` should name it: shipped names as they are, paths relative to ``folder`` (so the file
    and its rulesets can move together)."""
    name, options = split_ref(ref, base)
    path = resolve(name, base)
    parts = [name if is_name(name) and path.parent == rulesets_dir() else _relative(path, folder)]
    for option in options:
        parts.append(option if is_name(option) else _relative(base / option if base is not None else Path(option),
                                                              folder))
    return "+".join(parts)


def _relative(path: Path, folder: Path) -> str:
    return os.path.relpath(path.resolve(), folder.resolve())
