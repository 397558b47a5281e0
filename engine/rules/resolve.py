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

from typing import Any

from .formula import names_previous, written_out
from .source import Document, JsonPath


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
