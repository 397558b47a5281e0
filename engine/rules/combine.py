"""How the options of one reference combine: the order they apply in, and their clashes.

The rules (docs/rulesets.md, "How options combine"):

* **One order, whatever the reference writes.**  Each option applies after the
  options it ``requires``, ``overrides`` or names in ``after`` (those present),
  and after any option that replaces outright a key it builds on (a formula it
  extends with ``previous``); the rest by name (:func:`application_order`).
* **No silent drop.**  An option that replaces a key an earlier option set, without
  building on it, setting the same value, or requiring or overriding it, is an
  ``option-clash`` error, one per key (:func:`clashes`).
* **Order by name is said.**  Two options that both build on one key, neither
  declaring the order, get an ``option-order`` warning: which wraps which is
  decided by their names only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import Diagnostic, UserError
from ..resources import rulesets_dir
from .formula import names_previous
from .source import Document, JsonPath, json_path, value_at

#: The keys by which an option declares its relation to others (each a list of option names).
ORDERING = ("requires", "overrides", "after")


def declared(doc: Document, key: str) -> set[str]:
    """The option names an option lists under ``key`` (``requires``, ``overrides``, ``after``, ``conflicts``)."""
    return set(doc.data.get(key, ()))


def check_relations(given: list[tuple[str, Document]], ref: str) -> None:
    """:class:`UserError` for an option naming itself in a relation (``option-relation``), a
    ``conflicts`` between two given options (``option-conflict``) or a ``requires`` not given
    (``option-requires``)."""
    names = [n for n, _ in given]
    for name, doc in given:
        for key in (*ORDERING, "conflicts"):
            if name in doc.data.get(key, ()):
                index = doc.data[key].index(name)
                raise UserError(f"option '{name}' names itself in '{key}'", code="option-relation",
                                **doc.where((key, index)))
        for i, other in enumerate(doc.data.get("conflicts", ())):
            if other in names:
                raise UserError(f"option '{name}' conflicts with option '{other}' ('{ref}')",
                                code="option-conflict", **doc.where(("conflicts", i)))
        for i, needed in enumerate(doc.data.get("requires", ())):
            if needed not in names:
                raise UserError(f"option '{name}' requires option '{needed}': add it to the reference "
                                f"(e.g. '...+{needed}+{name}')", code="option-requires",
                                **doc.where(("requires", i)))


def patch_leaves(doc: Document) -> list[tuple[JsonPath, Any]]:
    """Every value an option's patch sets, by path in the ruleset (mappings are merged, so
    their entries are the values), deletions (``null``) included."""
    found: list[tuple[JsonPath, Any]] = []

    def walk(value: Any, path: JsonPath) -> None:
        if isinstance(value, dict) and value:
            for key, item in value.items():
                walk(item, (*path, key))
        else:
            found.append((path, value))

    walk(doc.data.get("patch", {}), ())
    return found


def _overlap(a: JsonPath, b: JsonPath) -> bool:
    return a[:len(b)] == b or b[:len(a)] == a


def application_order(given: list[tuple[str, Document]]) -> list[tuple[str, Document]]:
    """The options of a reference in the order they are merged (see the module's rules).

    An option that replaces a key outright goes before an option that builds on that key
    (unless the two declare an order, or the keys would order them both ways), so a
    replacement never drops a change made with ``previous``.  :class:`UserError`
    ``option-cycle`` if declared relations go round in a cycle."""
    names = {n for n, _ in given}
    docs = dict(given)
    before = {n: {o for key in ORDERING for o in declared(d, key) if o in names} for n, d in given}
    related = {(a, b) for a in names for b in before[a]} | {(b, a) for a in names for b in before[a]}
    leaves = {n: patch_leaves(d) for n, d in given}
    implied: set[tuple[str, str]] = set()  # (replacer, builder)
    for a in sorted(names):
        for b in sorted(names):
            if a == b or (a, b) in related:
                continue
            if any(not names_previous(va) and names_previous(vb) and _overlap(pa, pb)
                   for pa, va in leaves[a] for pb, vb in leaves[b]):
                implied.add((a, b))
    for replacer, builder in implied:
        if (builder, replacer) not in implied:
            before[builder].add(replacer)
    order: list[tuple[str, Document]] = []
    while before:
        ready = sorted(n for n, waits in before.items() if not waits)
        if not ready:
            stuck = sorted(before)[0]
            key, index = next((k, i) for k in ORDERING for i, o in enumerate(docs[stuck].data.get(k, ()))
                              if o in before)
            raise UserError(f"options {', '.join(repr(n) for n in sorted(before))} require, override or come "
                            "after each other in a cycle, so none can apply after the others", code="option-cycle",
                            **docs[stuck].where((key, index)))
        first = ready[0]
        order.append((first, docs[first]))
        del before[first]
        for waits in before.values():
            waits.discard(first)
    return order


_GONE = object()  # no value at a path (deleted or never set)


def _shipped(doc: Document) -> bool:
    try:
        return Path(doc.file).resolve().is_relative_to(rulesets_dir().resolve())
    except OSError:
        return False


def clashes(before: Document, after: Document, name: str, option: Document, changed: list[JsonPath],
            setters: dict[JsonPath, tuple[str, Document]]) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """The errors and warnings of merging option ``name`` (its document ``option``):
    ``before``/``after`` the ruleset without and with it, ``changed`` the paths it set,
    ``setters`` the option that last set each path so far.

    Errors (``option-clash``, one per key): it replaces what another option set without
    building on it, setting the same value, or requiring or overriding that option; or it
    builds on a key another option deleted.  Warnings (``option-order``): it builds on a key
    another option also built on, and neither declares which comes first."""
    allowed = declared(option, "requires") | declared(option, "overrides")
    errors: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    for path in changed:
        new_top = value_at(after.data, path, _GONE)
        for other_path, (other, other_doc) in setters.items():
            if other == name or not _overlap(path, other_path):
                continue
            deeper = max(path, other_path, key=len)
            old, new = value_at(before.data, deeper, _GONE), value_at(after.data, deeper, _GONE)
            if old is _GONE and deeper != other_path:
                continue  # a key added to a mapping the other option set: nothing of its is lost
            builds = names_previous(new_top)
            if builds and old is _GONE:
                errors.append(_clash(other, other_doc, other_path, name, option, path, deleted=True))
            elif builds:
                order_declared = other in allowed | declared(option, "after") or name in (
                    declared(other_doc, "requires") | declared(other_doc, "overrides") | declared(other_doc, "after"))
                if names_previous(value_at(before.data, deeper)) and not order_declared:
                    there = other_doc.where(("patch", *other_path))
                    warnings.append(Diagnostic(
                        f"options '{other}' and '{name}' both build on {json_path(path)} with 'previous': '{name}'"
                        f"'s formula wraps '{other}''s ({there['file']}:{there['line']}) only because options apply "
                        f"by name; declare 'after: [{other}]' in '{name}' (or the reverse) to choose",
                        code="option-order", severity="warning", **option.where(("patch", *path))))
            elif other not in allowed and new != old:
                errors.append(_clash(other, other_doc, other_path, name, option, path, deleted=False))
            else:
                continue
            break
    return errors, warnings


def _clash(earlier: str, earlier_doc: Document, earlier_path: JsonPath, later: str, later_doc: Document,
           later_path: JsonPath, *, deleted: bool) -> Diagnostic:
    """The ``option-clash`` for two options that set one key, located in the file its author can
    change: the later option's, unless that one is shipped and the earlier is not."""
    if deleted:  # the deletion is what to change
        there = later_doc.where(("patch", *later_path))
        return Diagnostic(f"options '{earlier}' and '{later}' both set {json_path(later_path)}: '{earlier}' deletes "
                          f"it and '{later}' builds on it with 'previous' ({there['file']}:{there['line']})",
                          code="option-clash", **earlier_doc.where(("patch", *earlier_path)))
    here_first = _shipped(later_doc) and not _shipped(earlier_doc)
    at, other = (earlier, later) if here_first else (later, earlier)
    at_doc, other_doc = (earlier_doc, later_doc) if here_first else (later_doc, earlier_doc)
    at_path, other_path = (earlier_path, later_path) if here_first else (later_path, earlier_path)
    there = other_doc.where(("patch", *other_path))
    formulas = all(isinstance(value_at(d.data, ("patch", *p)), str)
                   for d, p in ((earlier_doc, earlier_path), (later_doc, later_path)))
    fix = "build on it (a formula names it 'previous'), or " if formulas and at == later else ""
    return Diagnostic(f"options '{earlier}' and '{later}' both set {json_path(max(earlier_path, later_path, key=len))}"
                      f" (the other at {there['file']}:{there['line']}): {fix}declare 'overrides: [{other}]' in "
                      f"'{at}' if it replaces '{other}''s value on purpose",
                      code="option-clash", **at_doc.where(("patch", *at_path)))
