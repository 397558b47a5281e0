"""The merged ruleset with every ``previous`` written out: what is in force, as one file.

A formula that builds on the one it replaces names it ``previous``
(docs/rulesets.md, "How options combine"); the merged document keeps each
option's own text and remembers what it replaced (``Document.earlier``).  For
what must see the whole rule — the ruleset's sha256, ``rulesets show`` and
``rulesets diff``, a saved merged ruleset that loads again — :func:`resolved`
writes each ``previous`` out as the formula it stands for, in parentheses::

    tiny-city over inns-and-cathedrals over basic:
    if tiles == 2 then tiles + pennants else (if cathedrals > 0 then 3 * tiles
    + 3 * pennants else (2 * tiles + 2 * pennants))

The resolved text means what the compiled chain computes: ``previous`` is
evaluated with the same inputs, and the parentheses keep it one operand.
"""

from __future__ import annotations

import copy
from typing import Any

from .formula import names_previous, written_out
from .source import Document, JsonPath, value_at


def resolved(doc: Document) -> Any:
    """``doc.data`` with every ``previous`` replaced by the formula it stands for (a copy).

    A ``previous`` with nothing before it is left as written (loading reports it,
    ``formula-previous``)."""
    return _resolve(doc, doc.data, ())


def _resolve(doc: Document, value: Any, path: JsonPath) -> Any:
    if isinstance(value, dict):
        return {key: _resolve(doc, item, (*path, key)) for key, item in value.items()}
    if isinstance(value, list):
        return [_resolve(doc, item, (*path, i)) for i, item in enumerate(value)]
    if not isinstance(value, str) or not names_previous(value):
        return value
    found = doc.previous(path)
    if found is None:
        return value
    before, at, earlier = found
    return written_out(value, _parts(_resolve(before, earlier, at)))


def _parts(value: Any) -> list[str]:
    """A resolved formula's texts, one per named line item (one for a plain formula)."""
    return [str(item) for item in value.values()] if isinstance(value, dict) else [str(value)]


#: Per path whose formula names ``previous`` (or whose named parts do): the value as its option wrote it,
#: the value it replaced (kept the same way, with its own chain) and the path there.
Chains = dict[JsonPath, tuple[Any, "Chained", JsonPath]]
#: A replaced value and its own chains: ``(path, value, chains)``.
Chained = tuple[JsonPath, Any, Chains]


def previous_chains(doc: Document) -> Chains:
    """What a formula's ``previous`` reads in ``doc``, and nothing else (no marks, no other value):
    with :func:`chained_document`, the same formulas compile from the resolved data again, each
    explained by its own terms (a pickled ruleset carries these: ``unpickled_ruleset``)."""
    return _chains(doc, None)


def _chains(doc: Document, under: JsonPath | None) -> Chains:
    found: Chains = {}
    for path, (before, at) in doc.earlier.items():
        if under is not None and path[:len(under)] != under and under[:len(path)] != path:
            continue
        value = value_at(doc.data, path)
        parts = value.values() if isinstance(value, dict) else [value]
        if any(isinstance(part, str) and names_previous(part) for part in parts):
            found[path] = (value, (at, value_at(before.data, at), _chains(before, at)), at)
    return found


def chained_document(data: Any, chains: Chains, file: str) -> Document:
    """A document of the resolved ``data`` with each formula of ``chains`` as its option wrote it and
    what it replaced behind it (:func:`previous_chains`): what compiling reads for ``previous``."""
    data = copy.deepcopy(data)
    earlier: dict[JsonPath, tuple[Document, JsonPath]] = {}
    for path, (written, (at, value, deeper), _) in chains.items():
        _put(data, path, copy.deepcopy(written))
        before: dict[Any, Any] = {}
        _put(before, at, value)
        earlier[path] = (chained_document(before, deeper, file), at)
    return Document(data, file, {}, earlier=earlier)


def _put(data: Any, path: JsonPath, value: Any) -> None:
    """Set the value at ``path``, making mappings on the way where there are none (keyed by list
    index too: :func:`~engine.rules.source.value_at` reads both)."""
    for step in path[:-1]:
        if isinstance(data, list):
            data = data[step]
        else:
            data = data.setdefault(step, {})
    data[path[-1]] = value
