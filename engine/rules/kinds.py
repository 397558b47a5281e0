"""Feature kinds (road, city, cloister, field, river, …) compiled from ``features:``.

A kind says how its segments sit on a tile (ports), when a feature of it is
complete, whether followers may go on it, what it counts as adjacent (fields
count cities) and how it scores, as compiled formulas (docs/rulesets.md,
"Feature kinds" and "Scoring formulas").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import Diagnostic, UserError
from .formula import Formula, compile_formula
from .problems import Problems
from .source import Document, json_path
from .tiles import NONE


@dataclass(frozen=True)
class Score:
    """How a kind scores in one case: a formula, or named line items that add up.

    Call it with the inputs for the points; :meth:`terms` explains them, one
    ``(label, value)`` per line item (``("pennants: 2 * pennants", 2)``) or,
    for a single formula, per top-level term (``("2 * pennants", 2)``).
    """

    text: str
    items: tuple[tuple[str | None, Formula], ...]

    def __call__(self, env) -> int:
        return sum(int(formula.fn(env)) for _, formula in self.items)

    def terms(self, env) -> list[tuple[str, int]]:
        """The score's parts and their values, for a score event's explanation."""
        (name, formula), *rest = self.items
        if name is None and not rest:
            return formula.terms(env)
        return [(f"{label}: {f.text}", int(f.fn(env))) for label, f in self.items]


@dataclass(frozen=True, slots=True)
class FeatureKind:
    """A feature kind (road, city, cloister, field, river, …) as the ruleset defines it.

    ``ports``: ``side``/``centre``/``half``/``none`` (how its segments sit on
    a tile); ``completion``: ``closed``/``surrounded``/``never``;
    ``adjacency``: index of the kind whose completed features this kind
    counts (fields count cities), or -1, with ``adjacency_input`` its formula
    input name.  ``complete`` is scored when the feature completes in play,
    ``incomplete`` at game end if it is not complete, ``final`` at game end
    after those (farms).  Missing formulas score nothing.  ``majority`` is
    ``feature`` (each feature scores for its own majority) or ``adjacent``
    (``final`` is scored once per completed adjacent feature, for the majority
    of followers on all features of this kind touching it: 1st-edition farms);
    ``adjacent_pays_once`` makes an adjacent feature pay each player at most
    once (2nd-edition farms).  ``constants`` are the ruleset's named numbers,
    readable in every formula.
    """

    name: str
    index: int
    edge: str | None
    ports: str
    completion: str
    deployable: bool
    follower: str
    attributes: tuple[str, ...]
    adjacency: int
    adjacency_input: str | None
    complete: Score | None
    incomplete: Score | None
    final: Score | None
    majority: str = "feature"
    adjacent_pays_once: bool = False
    constants: dict[str, int] = field(default_factory=dict)


def _kind_inputs(spec: dict) -> dict[str, type]:
    """The formula inputs a feature kind declares (docs/rulesets.md, "Scoring formulas")."""
    inputs: dict[str, type] = {"tiles": int, "segments": int, "complete": bool}
    inputs.update({a: int for a in spec.get("attributes", ())})
    if spec.get("completion", "never") == "surrounded":
        inputs["neighbors"] = int
    adjacency = spec.get("adjacency")
    if adjacency is not None:
        inputs[adjacency["input"]] = int
    return inputs


def compile_kinds(doc: Document, problems: Problems) -> list[FeatureKind]:
    problem = problems.at
    specs = doc.data["features"]
    names = list(specs)
    constants = doc.data.get("constants", {})
    for name, spec in specs.items():
        for clash in sorted(set(constants) & set(_kind_inputs(spec))):
            problem(("constants", clash), f"constant '{clash}' has the name of an input of kind '{name}'",
                    "constant-name")
    kinds = []
    for index, (name, spec) in enumerate(specs.items()):
        at = ("features", name)
        completion = spec.get("completion", "never")
        ports = spec.get("ports", NONE)
        if completion == "surrounded" and ports != NONE:
            problem(at + ("ports",), f"kind '{name}' completes when surrounded, so its segments take no ports",
                    "kind-ports")
        edge = spec.get("edge")
        if edge is not None and edge in [other.get("edge") for other in list(specs.values())[:index]]:
            problem(at + ("edge",), f"edge letter '{edge}' is already the edge of kind "
                    f"'{next(n for n, o in specs.items() if o.get('edge') == edge)}'", "edge-letter")
        attributes = tuple(spec.get("attributes", ()))
        adjacency = spec.get("adjacency")
        adjacency_index, adjacency_input = -1, None
        if adjacency is not None:
            if adjacency["kind"] not in specs:
                problem(at + ("adjacency", "kind"), f"unknown feature kind '{adjacency['kind']}'", "kind-unknown")
            else:
                adjacency_index = names.index(adjacency["kind"])
                adjacency_input = adjacency["input"]
        if ports == NONE and completion == "closed":
            problem(at + ("completion",), f"kind '{name}' has no ports, so it would be closed (complete) the "
                    "moment it is placed: use surrounded or never", "kind-completion")
        if spec.get("majority") == "adjacent" and spec.get("adjacent_pays_once"):
            problem(at + ("adjacent_pays_once",), "adjacent_pays_once applies to majority: feature only; with "
                    "majority: adjacent each adjacent feature already pays once", "kind-majority")
        majority = spec.get("majority", "feature")
        if (majority == "adjacent" or spec.get("adjacent_pays_once")) and adjacency_index < 0:
            key = "majority" if majority == "adjacent" else "adjacent_pays_once"
            problem(at + (key,), f"'{key}' needs an 'adjacency' kind to count", "kind-majority")
        inputs = {**_kind_inputs(spec), **{c: int for c in constants}}
        formulas: dict[str, Score | None] = {}
        for when in ("complete", "incomplete", "final"):
            value = spec.get("scoring", {}).get(when)
            when_inputs = inputs
            if when == "final" and majority == "adjacent" and adjacency_index >= 0:
                # Scored once per adjacent feature: its formula reads that feature's inputs.
                when_inputs = {**_kind_inputs(specs[names[adjacency_index]]), **{c: int for c in constants}}
            formulas[when] = None if value is None else _compile_score(doc, at + ("scoring", when), value,
                                                                      when_inputs, problems)
        if completion == "never" and formulas["complete"] is not None:
            problem(at + ("scoring", "complete"), f"kind '{name}' never completes, so it has no 'complete' score",
                    "kind-scoring")
        kinds.append(FeatureKind(
            name=name, index=index, edge=spec.get("edge"), ports=ports, completion=completion,
            deployable=spec.get("deployable", True), follower=spec.get("follower", "follower"),
            attributes=attributes, adjacency=adjacency_index, adjacency_input=adjacency_input,
            complete=formulas["complete"], incomplete=formulas["incomplete"], final=formulas["final"],
            majority=majority, adjacent_pays_once=bool(spec.get("adjacent_pays_once", False)),
            constants=dict(constants),
        ))
    return kinds


def _compile_score(doc: Document, path: tuple, value: str | dict, inputs: dict[str, type],
                   problems: Problems) -> Score | None:
    """Compile a formula or a mapping of named line items; problems are collected."""
    named = value.items() if isinstance(value, dict) else [(None, value)]
    items = []
    for name, text in named:
        where = doc.where(path if name is None else path + (name,))
        try:
            items.append((name, compile_formula(str(text), inputs, **where)))
        except UserError as error:
            problems.found.extend(_blame_deletion(doc, path, d) for d in error.diagnostics)
    if len(items) < len(named):
        return None
    text = value if isinstance(value, str) else " + ".join(f"({f.text})" for _, f in items)
    return Score(text, tuple(items))


def _blame_deletion(doc: Document, path: tuple, diagnostic: Diagnostic) -> Diagnostic:
    """An unknown input in a formula the user did not write, because their overlay
    deleted it (a constant, an attribute, an adjacency): point at the deletion."""
    found = re.match(r"unknown input '([a-z_][a-z0-9_]*)'", diagnostic.message)
    if diagnostic.code != "formula-name" or not found:
        return diagnostic
    name, kind = found.group(1), path[1]
    for deleted, (file, line, col) in doc.deleted.items():
        if deleted[-1] == name or deleted in (("constants",), ("features", kind, "attributes"),
                                               ("features", kind, "adjacency")):
            return Diagnostic(f"'{deleted[-1]}' is deleted here, but the formula at {diagnostic.file}:"
                              f"{diagnostic.line} still reads '{name}'", file=file, line=line, col=col,
                              path=json_path(deleted), code="formula-name")
    return diagnostic
