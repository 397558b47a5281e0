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

import re
from typing import Any

from .formula import PREVIOUS_PATTERN, names_previous
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
    text = _operand(_formula_text(_resolve(before, earlier, at)))
    return PREVIOUS_PATTERN.sub(lambda _: text, value)


def _formula_text(value: Any) -> str:
    """A resolved formula as one expression: named line items add up."""
    if isinstance(value, dict):
        return " + ".join(_operand(_formula_text(item)) for item in value.values())
    return " ".join(str(value).split())


_ATOM = re.compile(r"[a-z_][a-z0-9_]*|[0-9]+")


def _operand(text: str) -> str:
    """``text`` as one operand: in parentheses unless it is a name, a number, or already
    one parenthesised whole."""
    if _ATOM.fullmatch(text):
        return text
    if text.startswith("("):
        depth = 0
        for i, char in enumerate(text):
            depth += {"(": 1, ")": -1}.get(char, 0)
            if depth == 0:
                if i == len(text) - 1:
                    return text
                break
    return f"({text})"
