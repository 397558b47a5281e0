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

import difflib
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


def orders(doc: Document) -> set[str]:
    """The options an option declares its order against (``requires``, ``overrides``, ``after``)."""
    return {o for key in ORDERING for o in declared(doc, key)}


def check_relations(given: list[tuple[str, Document]], ref: str) -> list[Diagnostic]:
    """:class:`UserError` for an option naming itself in a relation (``option-relation``), a
    ``conflicts`` between two given options (``option-conflict``) or a ``requires`` not given
    (``option-requires``).  Returns warnings (``option-unknown``) for a name in ``overrides``,
    ``after`` or ``conflicts`` that is no shipped or given option but close to one: a typo would
    otherwise leave the relation silently unused."""
    names = [n for n, _ in given]
    known = sorted({*names, *(p.stem for p in (rulesets_dir() / "options").glob("*.yaml"))})
    warnings = []
    for name, doc in given:
        for key in ("overrides", "after", "conflicts"):
            for i, other in enumerate(doc.data.get(key, ())):
                close = difflib.get_close_matches(other, known, n=1, cutoff=0.8)
                if other not in known and close:
                    warnings.append(Diagnostic(f"'{other}' in '{key}' is no option here; did you mean '{close[0]}'?",
                                               code="option-unknown", severity="warning", **doc.where((key, i))))
        for key in (*ORDERING, "conflicts"):
            if name in doc.data.get(key, ()):
                index = doc.data[key].index(name)
                raise UserError(f"option '{name}' names itself in '{key}'", code="option-relation",
                                **doc.where((key, index)))
        for i, other in enumerate(doc.data.get("conflicts", ())):
            if other in names:
                raise UserError(f"option '{name}' conflicts with option '{other}' ('{ref}'): they cannot be played "
                                "together (each option's description says why: carcassonne rulesets list)",
                                code="option-conflict", **doc.where(("conflicts", i)))
        missing = [(i, needed) for i, needed in enumerate(doc.data.get("requires", ())) if needed not in names]
        if missing:  # every one at once, not one a run
            which = " and ".join(f"'{needed}'" for _, needed in missing)
            added = "+".join(needed for _, needed in missing)
            raise UserError(f"option '{name}' requires option{'s' if len(missing) > 1 else ''} {which}: add "
                            f"{'them' if len(missing) > 1 else 'it'} to the reference (e.g. '...+{added}+{name}')",
                            code="option-requires", **doc.where(("requires", missing[0][0])))
    return warnings


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


def application_order(given: list[tuple[str, Document]]) -> list[tuple[str, Document]]:
    """The options of a reference in the order they are merged (see the module's rules).

    An option that replaces a key outright goes before an option that builds on that key
    (unless the two declare an order, or the keys would order them both ways), so a
    replacement never drops a change made with ``previous``.  :class:`UserError`
    ``option-cycle`` if declared relations go round in a cycle."""
    names = {n for n, _ in given}
    docs = dict(given)
    before = {n: orders(d) & names for n, d in given}
    related = {(a, b) for a in names for b in before[a]} | {(b, a) for a in names for b in before[a]}
    builds: dict[str, list[JsonPath]] = {n: [] for n in names}
    replaces: dict[str, set[JsonPath]] = {n: set() for n in names}
    for n, d in given:
        for path, value in patch_leaves(d):
            (builds[n].append(path) if names_previous(value) else replaces[n].add(path))
    # Every path a replacement covers, and every prefix of one: a builder's path overlaps a
    # replacement when it is one of these or has one of the replaced paths as a prefix.
    covered = {n: {path[:i] for path in paths for i in range(len(path) + 1)} for n, paths in replaces.items()}
    implied: set[tuple[str, str]] = set()  # (replacer, builder)
    for a in sorted(names):
        for b in sorted(names):
            if a != b and (a, b) not in related and any(
                    path in covered[a] or any(path[:i] in replaces[a] for i in range(len(path)))
                    for path in builds[b]):
                implied.add((a, b))
    for replacer, builder in implied:
        if (builder, replacer) not in implied:
            before[builder].add(replacer)
    order: list[tuple[str, Document]] = []
    while before:
        ready = sorted(n for n, waits in before.items() if not waits)
        if not ready:
            stuck = sorted(before)[0]
            declared_at = next(((k, i) for k in ORDERING for i, o in enumerate(docs[stuck].data.get(k, ()))
                                if o in before), None)
            raise UserError(f"options {', '.join(repr(n) for n in sorted(before))} require, override or come "
                            "after each other in a cycle (a replacement comes before what builds on it), so none "
                            "can apply after the others", code="option-cycle",
                            **docs[stuck].where(declared_at or ("name",)))
        first = ready[0]
        order.append((first, docs[first]))
        del before[first]
        for waits in before.values():
            waits.discard(first)
    return order


_GONE = object()  # no value at a path (deleted or never set)


def shipped(doc: Document) -> bool:
    """Whether ``doc`` is one of the shipped rulesets or options (a file its user does not edit)."""
    try:
        return Path(doc.file).resolve().is_relative_to(rulesets_dir().resolve())
    except OSError:
        return False


def clashes(before: Document, after: Document, name: str, option: Document, changed: list[JsonPath],
            setters: dict[JsonPath, list[tuple[str, Document]]]) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """The errors and warnings of merging option ``name`` (its document ``option``):
    ``before``/``after`` the ruleset without and with it, ``changed`` the paths it set,
    ``setters`` the options that set each path so far (the last one last; those that built
    on it with ``previous`` since it was last replaced before it).

    Errors (``option-clash``, one per key): it replaces what another option set without
    building on it, setting the same value, or requiring or overriding that option; or it
    builds on a key another option deleted.  Warnings (``option-order``): it builds on a key
    other options also built on, and no order between them is declared."""
    allowed = declared(option, "requires") | declared(option, "overrides")
    errors: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    below: dict[JsonPath, list[JsonPath]] = {}  # a path -> the set paths under it
    for set_path in setters:
        for i in range(len(set_path)):
            below.setdefault(set_path[:i], []).append(set_path)
    for path in changed:
        builds = names_previous(value_at(after.data, path))
        overlapping = [path[:i] for i in range(len(path) + 1) if path[:i] in setters] + below.get(path, [])
        for other_path in overlapping:
            chain = setters[other_path]
            other, other_doc = chain[-1]
            if other == name:
                continue
            deeper = max(path, other_path, key=len)
            old, new = value_at(before.data, deeper, _GONE), value_at(after.data, deeper, _GONE)
            if old is _GONE and deeper != other_path:
                continue  # a key added to a mapping the other option set: nothing of its is lost
            if deeper != other_path and value_at(other_doc.data, ("patch", *deeper), _GONE) is _GONE:
                continue  # the other option brought the mapping, not this key: a third added it
            if builds and old is _GONE:
                errors.append(_clash(other, other_doc, other_path, name, option, path, deleted=True))
            elif builds:
                warnings.extend(_unordered(name, option, path,
                                           [(n, d) for n, d in chain if n != name
                                            and names_previous(value_at(d.data, ("patch", *other_path)))]))
            elif other not in allowed and _differ(new, old):
                errors.append(_clash(other, other_doc, other_path, name, option, path, deleted=False))
            else:
                continue
            break
    return errors, warnings


def _differ(new: Any, old: Any) -> bool:
    """Whether two values differ (formulas compared with their white space folded)."""
    if isinstance(new, str) and isinstance(old, str):
        return new.split() != old.split()
    return new != old


def _ordered(a: Document, a_name: str, b: Document, b_name: str) -> bool:
    """Whether either of two options declares its order relative to the other."""
    return b_name in orders(a) or a_name in orders(b)


def _unordered(name: str, option: Document, path: JsonPath, builders: list[tuple[str, Document]]) -> list[Diagnostic]:
    """An ``option-order`` warning for each earlier builder on ``path`` whose order relative to
    ``name`` nobody declares, located in the file the user can change."""
    found = []
    for other, other_doc in builders:
        if _ordered(option, name, other_doc, other):
            continue
        here, there = (other_doc, option) if shipped(option) and not shipped(other_doc) else (option, other_doc)
        here_name, there_name = (other, name) if here is other_doc else (name, other)
        place = there.where(("patch", *path))
        found.append(Diagnostic(
            f"options '{other}' and '{name}' both build on {json_path(path)} with 'previous' (the other at "
            f"{place['file']}:{place['line']}): '{name}''s formula wraps '{other}''s only because options apply by "
            f"name; declare 'after: [{there_name}]' in '{here_name}' (or the reverse) to choose",
            code="option-order", severity="warning", **here.where(("patch", *path))))
    return found


def _formula_path(path: JsonPath) -> bool:
    """Whether ``path`` is where a ruleset holds a formula (which may build on the one it replaces)."""
    return (len(path) >= 4 and path[0] == "features" and path[2] == "scoring") or \
        (len(path) == 3 and path[0] == "follower_types" and path[2] == "strength") or \
        (len(path) == 3 and path[0] == "bonuses" and path[2] in ("value", "points"))


def _clash(earlier: str, earlier_doc: Document, earlier_path: JsonPath, later: str, later_doc: Document,
           later_path: JsonPath, *, deleted: bool) -> Diagnostic:
    """The ``option-clash`` for two options that set one key, located in the file its author can
    change: the later option's, unless that one is shipped and the earlier is not."""
    key = max(earlier_path, later_path, key=len)
    if deleted:  # the deletion is what to change
        there = later_doc.where(("patch", *later_path))
        return Diagnostic(f"options '{earlier}' and '{later}' both set {json_path(later_path)}: '{earlier}' deletes "
                          f"it and '{later}' builds on it with 'previous' ({there['file']}:{there['line']})",
                          code="option-clash", **earlier_doc.where(("patch", *earlier_path)))
    here_first = shipped(later_doc) and not shipped(earlier_doc)
    at, other = (earlier, later) if here_first else (later, earlier)
    at_doc, other_doc = (earlier_doc, later_doc) if here_first else (later_doc, earlier_doc)
    at_path, other_path = (earlier_path, later_path) if here_first else (later_path, earlier_path)
    there = other_doc.where(("patch", *other_path))
    fix = "build on it (a formula names it 'previous'), or " if _formula_path(key) and at == later else ""
    located = key if value_at(at_doc.data, ("patch", *key), _GONE) is not _GONE else at_path
    return Diagnostic(f"options '{earlier}' and '{later}' both set {json_path(key)} (the other at {there['file']}:"
                      f"{there['line']}): {fix}declare 'overrides: [{other}]' in '{at}' if it replaces '{other}''s "
                      "value on purpose", code="option-clash", **at_doc.where(("patch", *located)))
