"""Load YAML into plain Python data while remembering where every value came from.

Rulesets, scenarios and records are YAML.  Every later check (JSON Schema,
meaning, formula compilation) must be able to say ``file:line:col`` for the
value it objects to, so the loader keeps a mark for every value it builds::

    doc = load_yaml("r.yaml", text="tiles:\n  D: {count: 4}\n")
    doc.data["tiles"]["D"]["count"]      # -> 4
    doc.where(("tiles", "D", "count"))   # -> {"file": "r.yaml", "line": 2, "col": 14,
                                         #     "path": "$.tiles.D.count"}
    raise UserError("count must be positive", code="tile", **doc.where(path))

This module holds the :class:`Document` and its path notation
(:func:`json_path`), and reads files (:func:`load_yaml`, with a cache for files
read again and again).  Values follow YAML 1.2 rather than PyYAML's YAML 1.1
(``on`` is a string, ``017`` is 17) and duplicate keys are errors: turning the
text into values is the job of :mod:`engine.rules.yaml_nodes`.

Error codes raised (always as :class:`~engine.errors.UserError`):

``io``                  the file cannot be read
``yaml-syntax``         not well-formed YAML (or not UTF-8)
``yaml-duplicate-key``  a mapping repeats a key
``yaml-key``            a mapping key is not a string (``1:``, ``true:``, ``[a]:``)
``yaml-tag``            an explicit tag other than !!str/!!int/!!float/!!bool/!!null/!!map/!!seq,
                        or a tagged value that does not fit its tag
``yaml-merge``          a ``<<`` merge key whose value is not a mapping or list of mappings
``yaml-alias``          an alias that refers to a node containing itself
``yaml-too-large``      too many values after expanding aliases, or nesting too deep
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import Diagnostic, UserError
from .yaml_nodes import Builder, Problem, compose

__all__ = ["Document", "load_yaml", "load_yaml_cached", "json_path"]

Mark = tuple[int, int]
JsonPath = tuple[Any, ...]  # JSON path: str mapping keys and int list indices


@dataclass(frozen=True)
class Document:
    """A loaded YAML file: plain data plus the position of every value.

    ``data`` is a tree of ``dict`` (str keys, document order), ``list``,
    ``str``, ``int``, ``float``, ``bool`` and ``None``; never shared between
    paths, even where the YAML used an alias.

    ``marks`` maps a JSON path tuple (mapping keys and list indices, ``()`` is
    the root) to the 1-based ``(line, col)`` where the *value* at that path
    starts.  ``key_marks`` maps the path of a mapping entry to where its *key*
    starts (what to point at for "unknown key" or for an entry as a whole).
    A value pulled in through an alias or ``<<`` merge is marked where the
    anchored original is written.
    """

    data: Any
    file: str
    marks: dict[JsonPath, Mark]
    key_marks: dict[JsonPath, Mark] = field(default_factory=dict)
    #: For a document merged from several files: the file that set each path
    #: whose mark came from another file than ``file`` (see engine/rules/compose.py).
    files: dict[JsonPath, str] = field(default_factory=dict)
    #: Paths a merge deleted (``key: null``), with ``(file, line, col)`` of the deletion,
    #: so "missing" errors can point at the line that removed the value.
    deleted: dict[JsonPath, tuple[str, int | None, int | None]] = field(default_factory=dict)

    def mark(self, path: JsonPath) -> tuple[int | None, int | None]:
        """``(line, col)`` of the value at ``path``, else of its nearest marked ancestor.

        Paths that do not exist (a missing key a check complains about) get
        their parent's position; ``(None, None)`` only for an empty document.
        """
        return self.origin(path)[1:]  # type: ignore[return-value]

    def origin(self, path: JsonPath) -> tuple[str, int | None, int | None]:
        """``(file, line, col)`` that set the value at ``path`` (nearest marked ancestor)."""
        path = tuple(path)
        while True:
            found = self.marks.get(path)
            if found is not None:
                return (self.files.get(path, self.file), *found)
            if not path:
                return self.file, None, None
            path = path[:-1]

    def key_mark(self, path: JsonPath) -> tuple[int | None, int | None]:
        """``(line, col)`` of the key of the entry at ``path`` (falls back to :meth:`mark`).

        List items and the root have no key, so they fall back to the value.
        """
        found = self.key_marks.get(tuple(path))
        return found if found is not None else self.mark(path)

    def where(self, path: JsonPath, *, key: bool = False) -> dict[str, Any]:
        """Location keywords for :class:`UserError`/:class:`Diagnostic`.

        Returns ``{"file", "line", "col", "path"}`` with ``path`` rendered by
        :func:`json_path`; ``key=True`` points at the entry's key instead of
        its value.
        """
        path = tuple(path)
        if path in self.deleted and path not in self.marks:
            file, line, col = self.deleted[path]
            return {"file": file, "line": line, "col": col, "path": json_path(path)}
        file, line, col = self.origin(path)
        if key and path in self.key_marks:
            line, col = self.key_marks[path]
        return {"file": file, "line": line, "col": col, "path": json_path(path)}


_SIMPLE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")


def json_path(path: JsonPath) -> str:
    """Render a path tuple as a JSONPath string.

    ``("tiles", "D", "segments", 0, "kind")`` -> ``"$.tiles.D.segments[0].kind"``;
    keys that are not plain names are bracketed: ``("a b",)`` -> ``"$['a b']"``.
    """
    parts = ["$"]
    for step in path:
        if isinstance(step, int) and not isinstance(step, bool):
            parts.append(f"[{step}]")
        elif isinstance(step, str) and _SIMPLE_KEY.match(step):
            parts.append(f".{step}")
        else:
            text = str(step).replace("\\", "\\\\").replace("'", "\\'")
            parts.append(f"['{text}']")
    return "".join(parts)


_CACHE: dict[tuple[str, str, int, int], Document] = {}


def load_yaml_cached(path: str | Path) -> Document:
    """:func:`load_yaml` of a file, reused while the file is unchanged (rulesets and
    options are read again for every combination that names them).  Treat the
    result as read-only."""
    try:
        stat = Path(path).stat()
    except OSError:
        return load_yaml(path)
    key = (str(path), str(Path(path).resolve()), stat.st_mtime_ns, stat.st_size)
    found = _CACHE.get(key)
    if found is None:
        found = _CACHE[key] = load_yaml(path)
    return found


def clear_yaml_cache() -> None:
    """Forget every parse :func:`load_yaml_cached` kept (benchmarks measure cold loads)."""
    _CACHE.clear()


def load_yaml(path: str | Path, *, text: str | None = None) -> Document:
    """Parse one YAML document into a :class:`Document`.

    ``path`` names the file (and is what messages show, as given); ``text``,
    when given, is parsed instead of reading the file.  An empty document
    gives ``data=None``.  Raises :class:`UserError` with one diagnostic for an
    unreadable file (``io``) or bad syntax (``yaml-syntax``), and with one
    diagnostic per problem for the structural errors listed in the module
    docstring (duplicate keys, non-string keys, bad tags, ...).
    """
    file = str(path)
    if text is None:
        try:
            raw = Path(path).read_bytes()
        except OSError as exc:
            raise UserError(f"cannot read {file}: {exc.strerror or exc}", file=file, code="io") from None
        try:
            # utf-8-sig: a leading BOM is legal YAML; don't let it reach the parser as text.
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = raw.count(b"\n", 0, exc.start) + 1
            col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
            raise UserError(
                f"not valid UTF-8 (byte 0x{raw[exc.start]:02x})", file=file, line=line, col=col, code="yaml-syntax"
            ) from None

    root = compose(text, file)
    builder = Builder(file, text)
    if root is None:
        return Document(None, file, {}, {})
    try:
        data = builder.build(root, ())
    except RecursionError:
        raise UserError("document is nested too deeply", file=file, code="yaml-too-large") from None
    if builder.problems:
        raise UserError.from_diagnostics(_diagnostic(problem, file)
                                         for problem in sorted(builder.problems.values(), key=_position))
    return Document(data, file, builder.marks, builder.key_marks)


def _position(problem: Problem) -> tuple[int, int, str]:
    return (problem.line, problem.col, problem.message)


def _diagnostic(problem: Problem, file: str) -> Diagnostic:
    return Diagnostic(problem.message, file, problem.line, problem.col, json_path(problem.path), problem.code)
