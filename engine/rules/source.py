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

Files are read by :mod:`engine.rules.reading` (regular files only, at most
16 MiB, UTF-8 with one leading byte-order mark dropped).  A :class:`Shape`
says what a kind of file looks like; a file that does not look like one
(``/etc/passwd`` named as a ruleset) is refused without quoting any of its
lines.

Error codes raised (always as :class:`~engine.errors.UserError`):

``io``                  the file cannot be read (missing, a folder, not a regular file, ...)
``file-too-large``      more than 16 MiB
``encoding``            not UTF-8
``not-KIND``            not a file of the kind asked for (``not-ruleset``, ``not-scenario``, ...)
``yaml-syntax``         not well-formed YAML (a second byte-order mark at the start included)
``yaml-duplicate-key``  a mapping repeats a key
``yaml-key``            a mapping key is not a string (``1:``, ``true:``, ``[a]:``)
``yaml-tag``            an explicit tag other than !!str/!!int/!!float/!!bool/!!null/!!map/!!seq,
                        or a tagged value that does not fit its tag
``yaml-merge``          a ``<<`` merge key whose value is not a mapping or list of mappings
``yaml-alias``          an alias that refers to a node containing itself
``yaml-too-large``      too many values after expanding aliases, or nesting too deep
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import Diagnostic, UserError
from .reading import decode_text, read_bytes, wide_encoding
from .yaml_nodes import Builder, Problem, compose

__all__ = ["Document", "Shape", "load_yaml", "load_yaml_cached", "json_path", "value_at"]

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
    #: For a document merged from several files: each path a merge set or deleted, with the file
    #: that did and the path there (under ``patch:`` in an option): what errors name.
    paths: dict[JsonPath, tuple[str, JsonPath]] = field(default_factory=dict)
    #: Paths a merge deleted (``key: null``), with ``(file, line, col)`` of the deletion,
    #: so "missing" errors can point at the line that removed the value.
    deleted: dict[JsonPath, tuple[str, int | None, int | None]] = field(default_factory=dict)
    #: For a merged document: each path whose value replaced (or deleted) an earlier one, with the
    #: document before that merge and the path there: the chain a formula's ``previous`` reads and
    #: ``rulesets show --origins`` prints (see engine/rules/compose.py).
    earlier: dict[JsonPath, tuple["Document", JsonPath]] = field(default_factory=dict)
    #: Warnings found while composing it (two options building on one key in an order only
    #: their names decide), which the loaded ruleset reports with its own.
    warnings: tuple[Diagnostic, ...] = ()

    def replaced(self, path: JsonPath) -> tuple[Document, JsonPath] | None:
        """The document and path of the value that the value at ``path`` replaced, or None.

        A part of a formula that replaced a whole formula (a mapping of named
        parts over one formula) replaced that formula: its ``previous`` is the
        whole earlier formula.
        """
        path = tuple(path)
        found = self.earlier.get(path)
        if found is None and path and path[:-1] in self.earlier:
            before, at = self.earlier[path[:-1]]
            if isinstance(value_at(before.data, at), (str, int)):  # a formula (or a strength) made parts
                found = before, at
        return found

    def previous(self, path: JsonPath) -> tuple[Document, JsonPath, Any] | None:
        """What a formula at ``path`` naming ``previous`` stands for: the document, path
        and value it replaced (see :meth:`replaced`), or None if it replaced nothing."""
        found = self.replaced(path)
        if found is None:
            return None
        value = value_at(found[0].data, found[1])
        return None if value is None else (*found, value)

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
        else:
            file, line, col = self.origin(path)
            if key and path in self.key_marks:
                line, col = self.key_marks[path]
        return {"file": file, "line": line, "col": col, "path": json_path(self.path_in_file(path, file))}

    def path_in_file(self, path: JsonPath, file: str | None = None) -> JsonPath:
        """Where ``path`` sits in ``file`` (default: the file that set it, :meth:`origin`): under its
        nearest ancestor that ``file`` set (:attr:`paths`), the rest appended; ``("patch",
        "frobnicate")`` for ``("frobnicate",)`` set by an option's patch.  A value an earlier file
        set inside a mapping an option patched keeps its own path."""
        path = tuple(path)
        if file is None:
            file = self.origin(path)[0]
        for n in range(len(path), -1, -1):
            found = self.paths.get(path[:n])
            if found is not None and found[0] == file:
                return (*found[1], *path[n:])
        return path


def value_at(data: Any, path: JsonPath, default: Any = None) -> Any:
    """The value at ``path`` in ``data`` (mappings and lists), ``default`` where there is none."""
    for step in path:
        if isinstance(data, dict) and step in data:
            data = data[step]
        elif isinstance(data, list) and isinstance(step, int) and 0 <= step < len(data):
            data = data[step]
        else:
            return default
    return data


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


def own_refusal(error: UserError) -> Diagnostic | None:
    """The diagnostic of ``error`` if it is a :class:`Shape` refusal located in the refused
    file itself, which the file naming that one reports at the name instead; else ``None``."""
    first = error.diagnostics[0] if error.diagnostics else None
    if first is None or not (first.code or "").startswith("not-") or first.file is None:
        return None
    return first if first.message.startswith(f"{first.file} is not ") else None


@dataclass(frozen=True)
class Shape:
    """What a kind of file looks like: a mapping with at least one of ``keys`` at the top.

    A file named by another file (the ruleset of a record, a scenario's
    option, an ``extends`` parent) can be anything on disk.  Loaded with a
    shape, a file whose text mentions none of the keys is not parsed at all,
    and one that parses to a plain value or to a mapping without any of the
    keys is refused: ``FILE is not a ruleset file: …`` (code ``not-ruleset``),
    which quotes nothing of the file (a YAML error would show bits of its
    text; schema errors would list its keys, e.g. every line of /etc/shadow).
    It is located in the file itself (the first byte that is not UTF-8, the
    place YAML gave up, else 1:1); a record, scenario or ``extends`` naming the
    file reports it where it names it instead (:func:`own_refusal`).  An
    empty file or a list is a ``schema`` error at its first line, as any
    misshapen file of the kind.  ``kind`` names the kind (``ruleset``),
    ``article`` its indefinite article, ``hint`` what such a file has;
    ``foreign`` pairs a top-level key that only another kind of file has with
    what that file is (a record's ``format`` given to ``scenario check``): such
    a file is refused at that key, not checked key by key against the schema.
    """

    kind: str
    keys: frozenset[str]
    hint: str
    article: str = "a"
    foreign: tuple[tuple[str, str], ...] = ()

    def looks_like(self, text: str) -> bool:
        """Whether ``text`` has one of the keys where a mapping key goes (a cheap test before parsing)."""
        names = "|".join(re.escape(key) for key in sorted(self.keys))
        return re.search(rf"(?:^|[{{,])[ \t-]*[\"']?(?:{names})[\"']?[ \t]*:", text, re.M) is not None

    def refuse(self, file: str, why: str, line: int = 1, col: int = 1) -> UserError:
        """The error for ``file``, which is not of this kind, for the reason ``why``, at
        ``line``:``col`` of it."""
        return UserError(f"{file} is not {self.article} {self.kind} file: {why}", code=f"not-{self.kind}",
                         file=file, line=line, col=col)

    def check(self, doc: Document) -> None:
        """:class:`UserError` unless ``doc`` is a mapping with one of the keys."""
        data = doc.data
        if isinstance(data, dict) and self.keys & set(data):
            for key, other in self.foreign:
                if key in data:
                    raise self.refuse(doc.file, f"it is {other}: it has '{key}', which {self.article} {self.kind} "
                                      "does not have", *(n or 1 for n in doc.mark((key,))))
            return
        if data is None or isinstance(data, list):
            line, col = doc.mark(())
            got = "an empty file" if data is None else "a list"
            raise UserError(f"{self.article} {self.kind} is a mapping of keys, not {got}", code="schema",
                            file=doc.file, line=line or 1, col=col or 1)
        if not isinstance(data, dict):
            raise self.refuse(doc.file, "it is a single value, not a mapping of keys")
        raise self.refuse(doc.file, f"it has none of the keys {self.hint}")


_CACHE: dict[tuple[Any, ...], Document] = {}


def load_yaml_cached(path: str | Path, *, shape: Shape | None = None) -> Document:
    """:func:`load_yaml` of a file, reused while the file is unchanged (rulesets and
    options are read again for every combination that names them).  Treat the
    result as read-only."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return load_yaml(path, shape=shape)  # which says what is wrong
    if not stat.S_ISREG(info.st_mode):
        return load_yaml(path, shape=shape)
    key = (str(path), os.path.realpath(path), info.st_ino, info.st_mtime_ns, info.st_size, shape)
    found = _CACHE.get(key)
    if found is None:
        found = _CACHE[key] = load_yaml(path, shape=shape)
    return found


def clear_yaml_cache() -> None:
    """Forget every parse :func:`load_yaml_cached` kept (benchmarks measure cold loads)."""
    _CACHE.clear()


def load_yaml(path: str | Path, *, text: str | None = None, shape: Shape | None = None) -> Document:
    """Parse one YAML document into a :class:`Document`.

    ``path`` names the file (and is what messages show, as given); ``text``,
    when given, is parsed instead of reading the file (with
    :func:`read_bytes` and :func:`decode_text`).  An empty document gives
    ``data=None``.  Raises :class:`UserError` with one diagnostic for an
    unreadable file (``io``, ``file-too-large``, ``encoding``) or bad syntax
    (``yaml-syntax``), and with one diagnostic per problem for the structural
    errors listed in the module docstring (duplicate keys, non-string keys,
    bad tags, ...).  With a ``shape``, a file that does not look like that
    kind of file is refused (see :class:`Shape`) instead of parsed or
    reported line by line.
    """
    file = str(path)
    if text is None:
        raw = read_bytes(path)
        try:
            text = decode_text(raw, file)
        except UserError as error:
            if shape is not None and not shape.looks_like(raw.decode("utf-8", "replace")):
                wide = wide_encoding(raw)
                at = error.diagnostics[0]
                why = f"it is {wide} text, not UTF-8" if wide else "it is not UTF-8 text"
                raise shape.refuse(file, why, at.line or 1, at.col or 1) from None
            raise
        if text.startswith("\ufeff"):  # decode_text dropped one; PyYAML would skip this one unseen
            raise UserError("a second byte-order mark at the start of the file (one is allowed: delete the "
                            "other)", file=file, line=1, col=1, code="yaml-syntax")
    try:
        doc = _parse(text, file)
    except UserError as error:
        if shape is not None and not shape.looks_like(text):
            at = error.diagnostics[0]
            raise shape.refuse(file, f"it is not well-formed YAML, and has none of the keys {shape.hint}",
                               at.line or 1, at.col or 1) from None
        raise
    if shape is not None:
        shape.check(doc)
    return doc


def _parse(text: str, file: str) -> Document:
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
