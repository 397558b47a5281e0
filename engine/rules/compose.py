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
   ``requires``, ``overrides`` or ``conflicts`` with.  Options apply after the
   whole chain, so combining two variants never re-applies a common ancestor.
3. Options compose (docs/rulesets.md, "How options combine"): the order they
   are written in does not matter.  They apply in one order, each after the
   options it requires or overrides and otherwise by name
   (:func:`application_order`).  A formula may build on the one it replaces by
   naming it ``previous``.  Two options that set one key must build on each
   other, set the same value, or one must require or override the other;
   anything else is an ``option-clash`` error at load time, one per key, naming
   both options and both places (:func:`clashes`).

The result is one :class:`~engine.rules.source.Document` whose marks and ``files``
remember, for every value, the file and line that set it (and ``earlier``, what
it replaced): schema and meaning errors point there.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from ..errors import UserError
from ..resources import rulesets_dir
from .references import is_name, named_file, resolve, shipped_file, shortened
from .formula import names_previous as builds_on
from .source import Document, JsonPath, Shape, json_path, load_yaml_cached, value_at
from .validate import check

#: The top-level keys that make a file a ruleset (features, tiles, extends) or an option
#: (patch, requires, conflicts): a file named as either must have one (see Shape).
RULES_KEYS = frozenset({"features", "tiles", "extends", "patch", "requires", "conflicts", "overrides"})
_HINT = "of a ruleset (features and tiles, or extends) or of an option (patch)"
RULESET_SHAPE = Shape("ruleset", RULES_KEYS, _HINT)
OPTION_SHAPE = Shape("option", RULES_KEYS, _HINT, "an")


#: Files in one ``extends`` chain, the ruleset itself included: real variants stack a few;
#: composing recurses once a file, so a longer chain is refused rather than overflowing.
MAX_EXTENDS = 32


def options_dir() -> Path:
    """Folder of the shipped option files."""
    return rulesets_dir() / "options"


def split_ref(ref: str) -> tuple[str, list[str]]:
    """``"basic+river+tiny-city"`` → ``("basic", ["river", "tiny-city"])``."""
    base, *options = ref.split("+")
    return base, options


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

    name, options = split_ref(ref)
    files: list[Path] = []
    doc = _chain(resolve(name, base), [], files)
    given: list[tuple[str, Document]] = []
    for option in options:
        option_doc = load_option(option, base)
        files.append(Path(option_doc.file))
        option_name = option_doc.data["name"]
        if option_name in [n for n, _ in given]:
            raise UserError(f"option '{option_name}' is given twice in '{ref}'", code="option-twice")
        _check_relations(option_doc, option_name, given, ref)
        given.append((option_name, option_doc))
    for option_name, option_doc in given:
        _check_requires(option_doc, option_name, [n for n, _ in given])
    setters: dict[JsonPath, tuple[str, Document]] = {}
    problems = []
    for option_name, option_doc in application_order(given):
        changed: list[JsonPath] = []
        merged = merge(doc, option_doc, ("patch",), changed)
        problems.extend(clashes(doc, merged, option_name, option_doc, changed, setters))
        for path in changed:
            for other in [p for p in setters if p[:len(path)] == path]:
                del setters[other]
            setters[path] = (option_name, option_doc)
        doc = merged
    if problems:
        raise UserError.from_diagnostics(problems)
    return doc, files


def application_order(given: list[tuple[str, Document]]) -> list[tuple[str, Document]]:
    """The options of a reference in the order they are merged: each after the options it
    ``requires`` or ``overrides`` (of those given), and otherwise by name, so the order a
    reference writes them in never changes the ruleset.  :class:`UserError`
    ``option-cycle`` if options override (or require) each other in a cycle."""
    names = {n for n, _ in given}
    after = {n: {o for key in ("requires", "overrides") for o in d.data.get(key, ()) if o in names and o != n}
             for n, d in given}
    docs = dict(given)
    order: list[tuple[str, Document]] = []
    while after:
        ready = sorted(n for n, before in after.items() if not before)
        if not ready:
            stuck = sorted(after)[0]
            key = "overrides" if set(docs[stuck].data.get("overrides", ())) & set(after) else "requires"
            index = next(i for i, o in enumerate(docs[stuck].data[key]) if o in after)
            raise UserError(f"options {', '.join(repr(n) for n in sorted(after))} require or override each other "
                            "in a cycle, so none can apply after the others", code="option-cycle",
                            **docs[stuck].where((key, index)))
        first = ready[0]
        order.append((first, docs[first]))
        del after[first]
        for before in after.values():
            before.discard(first)
    return order


def clashes(before: Document, after: Document, name: str, option: Document, changed: list[JsonPath],
            setters: dict[JsonPath, tuple[str, Document]]) -> list:
    """One ``option-clash`` diagnostic for each key option ``name`` set (``changed``, paths in the
    ruleset) that an earlier option (``setters``: path → the option that last set it) had set, unless
    the new value builds on the old one (names ``previous``), is the same value, or ``name``
    requires or overrides that option.  ``before``/``after``: the document without and with ``name``."""
    allowed = set(option.data.get("requires", ())) | set(option.data.get("overrides", ()))
    found = []
    for path in changed:
        for other_path, (other, other_doc) in setters.items():
            if other == name or other in allowed:
                continue
            if other_path[:len(path)] != path and path[:len(other_path)] != other_path:
                continue
            deeper = max(path, other_path, key=len)
            old, new = value_at(before.data, deeper, _GONE), value_at(after.data, deeper, _GONE)
            if old is _GONE and deeper != other_path:
                continue  # a key added to a mapping the other option set: nothing of its is lost
            if builds_on(value_at(after.data, path)) or new == old:
                continue
            there = other_doc.where(("patch", *other_path))
            found.append(UserError(
                f"options '{other}' and '{name}' both set {json_path(path)}: '{name}' replaces what '{other}' "
                f"set at {there['file']}:{there['line']} without building on it; keep both rules with 'previous' "
                f"in '{name}''s formula, or declare 'overrides: [{other}]' in '{name}' if it replaces it on purpose",
                code="option-clash", **option.where(("patch", *path))).diagnostics[0])
            break
    return found


_GONE = object()  # no value at a path (deleted or never set)


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


def _check_relations(doc: Document, name: str, given: list[tuple[str, Document]], ref: str) -> None:
    names = [n for n, _ in given]
    for i, other in enumerate(doc.data.get("conflicts", ())):
        if other in names:
            raise UserError(f"option '{name}' conflicts with option '{other}' ('{ref}')", code="option-conflict",
                            **doc.where(("conflicts", i)))
    for other_name, other_doc in given:
        if name in other_doc.data.get("conflicts", ()):
            index = other_doc.data["conflicts"].index(name)
            raise UserError(f"option '{other_name}' conflicts with option '{name}' ('{ref}')",
                            code="option-conflict", **other_doc.where(("conflicts", index)))


def _check_requires(doc: Document, name: str, names: list[str]) -> None:
    for i, needed in enumerate(doc.data.get("requires", ())):
        if needed not in names:
            raise UserError(f"option '{name}' requires option '{needed}': add it to the reference "
                            f"(e.g. '...+{needed}+{name}')", code="option-requires", **doc.where(("requires", i)))


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
        if first is not None and first.code in ("extends-cycle", "extends-option", "not-ruleset") and not first.file:
            raise UserError(first.message, code=first.code, **doc.where(("extends",))) from None
        raise
    child = {k: v for k, v in doc.data.items() if k != "extends"}
    return merge(parent, Document(child, doc.file, doc.marks, doc.key_marks, doc.files, doc.deleted, doc.earlier), ())


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
                      dict(target.deleted), dict(target.earlier))
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


def _drop(doc: Document, path: JsonPath) -> None:
    n = len(path)
    for table in (doc.marks, doc.key_marks, doc.files, doc.earlier):
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
