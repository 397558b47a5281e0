"""Composing rulesets: ``extends`` chains, options, and where each value came from.

A *ruleset reference* is ``NAME_OR_PATH[+OPTION]…``, e.g.
``first-edition+river+own-follower-may-join``:

1. The ruleset file is read; if it ``extends`` a parent (a shipped name or a
   path relative to the file), the parent is composed first and the file's
   own keys are merged over it with JSON Merge Patch semantics (RFC 7396:
   mappings merge, ``null`` deletes, anything else replaces).  A cycle is an
   error, and so is a chain of more than :data:`MAX_EXTENDS` files.
2. Each option (a shipped name from ``rulesets/options/`` or a path to an
   option file) is then merged with the same semantics.  An option is a named
   partial patch with a description, its source, and the options it
   ``requires``, ``overrides``, comes ``after`` or ``conflicts`` with.  Options apply after the
   whole chain, so combining two variants never re-applies a common ancestor.
3. Options compose (docs/rulesets.md, "How options combine"): the order they
   are written in does not matter, a formula may build on the one it replaces
   by naming it ``previous``, and two options that set one key two ways are an
   error at load time (:mod:`engine.rules.combine`).

The result is one :class:`~engine.rules.source.Document` whose marks and ``files``
remember, for every value, the file and line that set it (and ``earlier``, what
it replaced): schema and meaning errors point there.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import Diagnostic, UserError
from ..resources import rulesets_dir
from .combine import application_order, check_relations, clashes, shipped
from .formula import names_previous
from .references import is_name, named_file, resolve, shipped_file, shortened, split_ref
from .source import Document, JsonPath, Shape, load_yaml_cached, own_refusal, value_at
from .validate import check

#: The top-level keys that make a file a ruleset (features, tiles, extends) or an option
#: (patch, requires, conflicts): a file named as either must have one (see Shape).
RULES_KEYS = frozenset({"features", "tiles", "extends", "patch", "requires", "conflicts", "overrides", "after"})
_HINT = "of a ruleset (features and tiles, or extends) or of an option (patch)"
RULESET_SHAPE = Shape("ruleset", RULES_KEYS, _HINT)
OPTION_SHAPE = Shape("option", RULES_KEYS, _HINT, "an")


#: Files in one ``extends`` chain, the ruleset itself included: real variants stack a few;
#: composing recurses once a file, so a longer chain is refused rather than overflowing.
MAX_EXTENDS = 32


def options_dir() -> Path:
    """Folder of the shipped option files."""
    return rulesets_dir() / "options"


def compose(ref: str, base: Path | None = None) -> tuple[Document, list[Path]]:
    """The merged document of ruleset reference ``ref`` and every file it was read from.

    Options apply in :func:`application_order`, whatever order ``ref`` gives
    them in.  Raises :class:`UserError` for an unknown ruleset or option, a
    missing file, an ``extends`` cycle or a chain of more than
    :data:`MAX_EXTENDS` files, an option given twice, an option's unmet
    ``requires`` or a ``conflicts``, options that override each other in a
    cycle, two options that set one key without building on each other
    (``option-clash``, one diagnostic per key), and any YAML problem in any of
    the files.
    """

    name, options = split_ref(ref, base)
    files: list[Path] = []
    doc = _chain(resolve(name, base), [], files)
    given: list[tuple[str, Document]] = []
    for option in options:
        option_doc = load_option(option, base)
        files.append(Path(option_doc.file))
        option_name = option_doc.data["name"]
        for other_name, other_doc in given:
            if other_name == option_name:
                same = Path(other_doc.file).resolve() == Path(option_doc.file).resolve()
                mine = other_doc if shipped(option_doc) and not shipped(other_doc) else option_doc
                if same:  # the reference is at fault, not the file: whoever wrote it locates it
                    raise UserError(f"option '{option_name}' is given twice in '{ref}'", code="option-twice")
                raise UserError(f"options {other_doc.file} and {option_doc.file} are both named '{option_name}' "
                                f"in '{ref}'", code="option-twice", **mine.where(("name",)))
        given.append((option_name, option_doc))
    warnings = check_relations(given, ref)
    setters: dict[JsonPath, list[tuple[str, Document]]] = {}
    problems: list[Diagnostic] = []
    for option_name, option_doc in application_order(given):
        changed: list[JsonPath] = []
        merged = merge(doc, option_doc, ("patch",), changed)
        errors, notes = clashes(doc, merged, option_name, option_doc, changed, setters)
        problems.extend(errors)
        warnings.extend(notes)
        for path in changed:
            # A replacement starts the path's chain afresh; a change that builds on it joins the chain.
            chain = setters.get(path, []) if names_previous(value_at(merged.data, path)) else []
            for other in [p for p in setters if p[:len(path)] == path]:
                del setters[other]
            setters[path] = [*chain, (option_name, option_doc)]
        doc = merged
    if problems:
        raise UserError.from_diagnostics(problems)
    return replace(doc, warnings=tuple(warnings)), files


def load_option(option: str, base: Path | None = None) -> Document:
    """Read and envelope-check an option file (a shipped name or a path)."""

    if not option:
        raise UserError("empty option name in a ruleset reference (two '+' in a row?)", code="option-unknown")
    if is_name(option):
        found = shipped_file(options_dir(), option)
        if found is None:
            names = ", ".join(sorted(p.stem for p in options_dir().glob("*.yaml"))) or "none"
            raise UserError(f"unknown option '{shortened(option)}' (shipped options: {names}; or give a path)",
                            code="option-unknown")
        path = found
    else:
        path = Path(option)
        if not path.is_absolute() and base is not None:
            path = base / path
        named_file(path, f"option file not found: {path}")
    doc = load_yaml_cached(path, shape=OPTION_SHAPE)
    if isinstance(doc.data, dict) and "patch" not in doc.data and {"features", "tiles", "extends"} & set(doc.data):
        raise UserError(f"{path} is a ruleset, not an option: name it before the '+' (or make it an option "
                        "file with name, description, source and patch)", code="option-unknown", **doc.where(()))
    check(doc, "option")
    if isinstance(doc.data.get("patch"), dict) and "extends" in doc.data["patch"]:
        raise UserError("an option cannot 'extends': it is applied on top of whatever ruleset it follows",
                        code="schema", **doc.where(("patch", "extends"), key=True))
    return doc


def _chain(path: Path, seen: list[Path], files: list[Path]) -> Document:
    """The file at ``path`` merged over its ``extends`` ancestors."""

    real = path.resolve()
    if real in seen:
        cycle = " → ".join(str(p) for p in [*seen[seen.index(real):], real])
        raise UserError(f"'extends' goes round in a cycle: {cycle}", code="extends-cycle")
    doc = load_yaml_cached(path, shape=RULESET_SHAPE)
    files.append(path)
    if seen and "patch" in doc.data:
        raise UserError(f"'{path}' is an option file: apply it with REF+OPTION, not 'extends'",
                        code="extends-option")
    if "patch" in doc.data and not {"features", "tiles", "extends"} & set(doc.data):
        raise UserError(f"{path} is an option file: apply it on top of a ruleset, e.g. basic+{path}",
                        code="option-not-ruleset", **doc.where(("patch",), key=True))
    parent_ref = doc.data.get("extends")
    if parent_ref is None:
        return doc
    if not isinstance(parent_ref, str):
        raise UserError("'extends' names one ruleset (a name or a path)", code="schema", **doc.where(("extends",)))
    if len(seen) + 1 >= MAX_EXTENDS:
        start = seen[0] if seen else path
        raise UserError(f"the 'extends' chain from {start} is more than {MAX_EXTENDS} files long",
                        code="extends-depth", **doc.where(("extends",)))
    try:
        parent_path = resolve(parent_ref, path.parent)
    except UserError as error:
        raise UserError(error.diagnostics[0].message, code=error.diagnostics[0].code,
                        **doc.where(("extends",))) from None
    try:
        parent = _chain(parent_path, [*seen, real], files)
    except UserError as error:
        first = error.diagnostics[0] if error.diagnostics else None
        unplaced = first is not None and first.code in ("extends-cycle", "extends-option") and not first.file
        if unplaced or own_refusal(error) is not None:
            raise UserError(first.message, code=first.code, **doc.where(("extends",))) from None
        raise
    child = {k: v for k, v in doc.data.items() if k != "extends"}
    return merge(parent, Document(child, doc.file, doc.marks, doc.key_marks, doc.files, doc.paths, doc.deleted,
                                  doc.earlier), ())


def merge(target: Document, patch: Document, at: JsonPath, changed: list[JsonPath] | None = None) -> Document:
    """``target`` with the mapping at ``at`` in ``patch`` merged over it (RFC 7396).

    Neither input is changed.  Values the patch sets keep the patch's file and
    line; everything else keeps the target's.  A value that replaces (or a
    ``null`` that deletes) one of ``target``'s is remembered in the result's
    ``earlier`` (what ``previous`` reads).  ``changed``, if given, receives the
    path of every value the patch sets or deletes.
    """
    data = copy.deepcopy(target.data)
    result = Document(data, target.file, dict(target.marks), dict(target.key_marks), dict(target.files),
                      dict(target.paths), dict(target.deleted), dict(target.earlier))
    source: Any = patch.data
    for key in at:
        source = source[key]
    _merge_into(result, target, data, (), source, patch, tuple(at), [] if changed is None else changed)
    return result


def _merge_into(result: Document, before: Document, target: dict, path: JsonPath, patch: dict, source: Document,
                source_at: JsonPath, changed: list[JsonPath]) -> None:
    for key, value in patch.items():
        here, there = (*path, key), (*source_at, key)
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            # The mapping is now (also) set here: errors about it as a whole point at this file.
            _take_mark(result, source, there, here)
            _merge_into(result, before, target[key], here, value, source, there, changed)
            continue
        changed.append(here)
        had = key in target
        if value is None:
            target.pop(key, None)
            _drop(result, here)
            result.deleted[here] = source.where(there, key=True)["file"], *source.key_mark(there)
            _note_path(result, source, there, here)
        else:
            target[key] = _strip_nulls(copy.deepcopy(value))
            _drop(result, here)
            result.deleted.pop(here, None)
            _copy_marks(result, source, there, here)
        if had:
            result.earlier[here] = (before, here)


def _strip_nulls(value: Any) -> Any:
    """RFC 7396: a null inside a value that replaces is a deletion too, so it never lands."""
    if isinstance(value, dict):
        return {k: _strip_nulls(v) for k, v in value.items() if v is not None}
    return value


def _take_mark(doc: Document, source: Document, source_at: JsonPath, at: JsonPath) -> None:
    for table, source_table in ((doc.marks, source.marks), (doc.key_marks, source.key_marks)):
        if source_at in source_table:
            table[at] = source_table[source_at]
    doc.files[at] = source.files.get(source_at, source.file)
    _note_path(doc, source, source_at, at)


def _note_path(doc: Document, source: Document, source_at: JsonPath, at: JsonPath) -> None:
    """Note which file set ``at`` and where it sits there (under ``patch:`` for an option), even
    where that is ``at`` itself: a later file's value inside a mapping an option patched then
    names its own path, not the option's."""
    file = source.origin(source_at)[0]
    doc.paths[at] = (file, source.path_in_file(source_at, file))


def _drop(doc: Document, path: JsonPath) -> None:
    n = len(path)
    for table in (doc.marks, doc.key_marks, doc.files, doc.paths, doc.earlier):
        for key in [k for k in table if k[:n] == path]:
            del table[key]


def _copy_marks(doc: Document, source: Document, source_at: JsonPath, at: JsonPath) -> None:
    n = len(source_at)
    for table, source_table in ((doc.marks, source.marks), (doc.key_marks, source.key_marks)):
        for key, mark in source_table.items():
            if key[:n] == source_at:
                table[(*at, *key[n:])] = mark
    for key in source.marks:
        if key[:n] == source_at:
            doc.files[(*at, *key[n:])] = source.files.get(key, source.file)
    _note_path(doc, source, source_at, at)
