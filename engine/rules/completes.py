"""Completion rules written as formulas: a feature kind completes when a boolean formula holds.

A kind's ``completion`` is one of the built-in rules (``closed``: no open side
left, roads and cities; ``surrounded``: all 8 neighbours present, cloisters;
``never``: fields) or a boolean formula over the kind's inputs, e.g.
``open == 0 or tiles >= 5`` (a road that also completes at five tiles) or
``neighbors >= 4`` for a kind without ports.  Besides the kind's inputs
(``tiles``, ``segments``, attributes, adjacency and ``around`` inputs,
constants; not ``complete``, which it defines), the formula reads ``open``
(the feature's open side ends, for kinds with ports) or ``neighbors`` (tiles
among the 8 around, for kinds without).  docs/rulesets.md, "Completion rules";
:mod:`engine.core.completion` applies it after each placement.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import replace

from ..errors import UserError
from .formula import Formula, compile_formula, names_previous
from .problems import Problems
from .source import Document

#: The completion rules built into the engine; any other ``completion`` text is a formula.
BUILT_IN = ("closed", "surrounded", "never")
#: The input a completion formula of a kind with ports reads: its open side ends.
OPEN = "open"
#: What :class:`~engine.rules.kinds.FeatureKind` ``completion`` says of a kind completing by formula.
FORMULA = "formula"


def is_formula(completion: str) -> bool:
    """Whether ``completion`` (as written in a ruleset) is a formula rather than a built-in rule."""
    return completion not in BUILT_IN


def reads_neighbours(completion: str, ports: str) -> bool:
    """Whether a kind's formulas read ``neighbors``: it completes when surrounded, or by a
    formula and has no ports (``ports: none``)."""
    return completion == "surrounded" or (is_formula(completion) and ports == "none")


def compile_completion(doc: Document, at: tuple, text: str, ports: str, inputs: dict[str, type],
                       adjacency_inputs: tuple[str, ...], problems: Problems) -> Formula | None:
    """The completion formula ``text`` of the kind at ``at`` (its ``features.NAME`` path), reading
    the kind's scoring ``inputs`` without ``complete``, plus ``open`` if it has ports (errors
    ``input-name`` when one of its own inputs is called ``open``); None (and the problem
    collected) for a bad formula or a word that is neither a built-in rule nor an input
    (``kind-completion``, with the built-in rules listed).  ``adjacency_inputs`` are not readable:
    the formula is tested when a placement touches the feature, and a feature it touches may
    complete elsewhere (``formula-name``, saying so)."""
    where = at + ("completion",)
    readable = {name: kind for name, kind in inputs.items() if name != "complete" and name not in adjacency_inputs}
    if names_previous(text):
        problems.at(where, "a completion formula cannot read 'previous': an option's completion replaces the one "
                    "before it whole (write it out)", "formula-previous")
        return None
    if ports != "none":
        if OPEN in inputs:
            problems.at(where, f"kind '{at[-1]}' completes by a formula, which reads '{OPEN}' (its open side "
                        f"ends), so none of its inputs may be called '{OPEN}'", "input-name")
            return None
        readable[OPEN] = int
    word = text.strip()
    if word.isidentifier() and word not in readable and word not in ("true", "false"):  # constants are formulas
        close = difflib.get_close_matches(word, BUILT_IN, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        problems.at(where, f"completion '{word}' is neither a built-in rule ({', '.join(BUILT_IN)}) nor a "
                    f"boolean formula over the kind's inputs ({', '.join(sorted(readable))}){hint}",
                    "kind-completion")
        return None
    try:
        return compile_formula(text, readable, want=bool, **doc.where(where))
    except UserError as error:
        for diagnostic in error.diagnostics:
            found = re.match(r"unknown input '([a-z_][a-z0-9_]*)'", diagnostic.message)
            if diagnostic.code == "formula-name" and found and found.group(1) in adjacency_inputs:
                diagnostic = replace(diagnostic, message=f"a completion formula cannot read '{found.group(1)}': "
                                     "it is tested when a placement touches the feature, and the features it "
                                     "counts may complete elsewhere")
            problems.found.append(diagnostic)
        return None
