"""The names a feature kind's formulas read, and the checks that each means one thing.

Inputs are listed in docs/rulesets.md, "Scoring formulas": the built-in ones
(``tiles``, ``segments``, ``complete``, ``neighbors``), a kind's attributes,
adjacency and ``around`` inputs, the ruleset's constants, and the per-player
``own_T`` inputs.
"""

from __future__ import annotations

import re

from .around import around_names
from .completes import reads_neighbours
from .formula import PREVIOUS
from .problems import Problems
from .source import Document
from .tiles import NONE


def kind_inputs(spec: dict) -> dict[str, type]:
    """The formula inputs a feature kind declares (docs/rulesets.md, "Scoring formulas")."""
    inputs: dict[str, type] = {"tiles": int, "segments": int, "complete": bool}
    inputs.update({a: int for a in spec.get("attributes", ())})
    if reads_neighbours(spec.get("completion", "never"), spec.get("ports", NONE)):
        inputs["neighbors"] = int
    inputs.update({entry["input"]: int for entry in adjacency_entries(spec)})
    inputs.update({name: int for name in spec.get("around", {})})
    return inputs


def shared_inputs(specs: list[dict]) -> dict[str, type]:
    """The inputs every one of the kinds ``specs`` declares (:func:`kind_inputs`), for a formula
    worked out on a feature of any of them; empty for no kinds."""
    if not specs:
        return {}
    found = [kind_inputs(spec) for spec in specs]
    return {key: kind for key, kind in found[0].items() if all(key in other for other in found)}


def own_inputs(data: dict) -> dict[str, int]:
    """``own_T`` → index of follower type T, for each follower type beside normal whose name a
    formula can read: the per-player inputs of feature formulas (docs/rulesets.md, "Follower types")."""
    return {f"own_{name}": index for index, name in enumerate(data.get("follower_types", {}), start=1)
            if _READABLE.match(f"own_{name}")}


def adjacency_entries(spec: dict) -> list[dict]:
    """A kind's ``adjacency`` as a list of ``{kind, input}`` (one mapping, a list, or none)."""
    adjacency = spec.get("adjacency")
    if adjacency is None:
        return []
    return adjacency if isinstance(adjacency, list) else [adjacency]


#: Inputs the engine gives formulas (``neighbors`` only to surrounded kinds, but reserved for all,
#: so changing ``completion`` never turns an attribute into a clash).
BUILT_IN_INPUTS = ("tiles", "segments", "complete", "neighbors")
#: The formula language's reserved words (grammar/scoring.lark).
KEYWORDS = frozenset({"if", "then", "else", "and", "or", "not", "true", "false", "min", "max"})
_READABLE = re.compile(r"[a-z_][a-z0-9_]*\Z")  # a NAME of grammar/scoring.lark


def _unreadable(name: str, what: str) -> str | None:
    """Why a formula could not read ``what``, an input called ``name``, or None if it can."""
    if name in KEYWORDS:
        return f"{what} cannot be read by a formula: '{name}' is a reserved word of the formula language"
    if name == PREVIOUS:
        return f"{what} cannot be read by a formula: '{name}' names the formula an option's formula replaces"
    if not _READABLE.match(name):
        return f"{what} cannot be read by a formula: names are lower case letters, digits and '_'"
    return None


def check_input_names(doc: Document, problems: Problems) -> None:
    """Every name a formula reads means one thing: attributes, adjacency inputs and constants
    are readable names (lower case, no reserved word), none is a built-in input, no
    attribute is its kind's adjacency input, and no constant is any kind's input.  Errors
    ``input-name`` and ``constant-name``."""
    specs, constants = doc.data["features"], doc.data.get("constants", {})
    for name, spec in specs.items():
        at = ("features", name)
        attributes = list(spec.get("attributes", ()))
        named = isinstance(spec.get("attributes"), dict)  # a mapping: each attribute is located by its name
        declared: list[tuple[tuple, str, str]] = [
            (at + ("attributes", a if named else i), f"attribute '{a}' of kind '{name}'", a)
            for i, a in enumerate(attributes)]
        entries = adjacency_entries(spec)
        listed = isinstance(spec.get("adjacency"), list)
        seen: list[str] = []
        for i, entry in enumerate(entries):
            where = at + (("adjacency", i, "input") if listed else ("adjacency", "input"))
            declared.append((where, f"adjacency input '{entry['input']}' of kind '{name}'", entry["input"]))
        declared += around_names(name, spec)
        for path, what, input_name in declared:
            why = _unreadable(input_name, what)
            if input_name in BUILT_IN_INPUTS:
                why = f"{what} has the name of a built-in input ({', '.join(BUILT_IN_INPUTS)})"
            elif path[-1] == "input" and input_name in attributes:
                why = f"{what} has the name of one of its attributes"
            elif path[-1] == "input" and input_name in seen:
                why = f"{what} is the input of another adjacency of the kind"
            elif path[-2] == "around" and input_name in attributes + seen:
                why = f"{what} has the name of another input of the kind"
            elif path[-1] == "input" and spec.get("majority") == "adjacent" and any(
                    input_name in specs.get(e["kind"], {}).get("attributes", ()) for e in entries):
                # Scored per adjacent feature, the formula reads that feature's attributes too.
                why = f"{what} has the name of an attribute of an adjacent kind, which 'majority: adjacent' reads"
            if path[-1] == "input":
                seen.append(input_name)
            if why:
                problems.at(path, why, "input-name", key=(named and path[-2] == "attributes") or path[-2] == "around")
    for constant in constants:
        why = _unreadable(constant, f"constant '{constant}'")
        if constant in BUILT_IN_INPUTS:
            why = f"constant '{constant}' has the name of a built-in input ({', '.join(BUILT_IN_INPUTS)})"
        for name, spec in specs.items():
            if why is None and constant in kind_inputs(spec):
                why = f"constant '{constant}' has the name of an input of kind '{name}'"
        if why:
            problems.at(("constants", constant), why, "constant-name", key=True)
