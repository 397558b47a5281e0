"""Feature kinds (road, city, cloister, field, river, …) compiled from ``features:``.

A kind says how its segments sit on a tile (ports), when a feature of it is
complete, whether followers may go on it, what it counts as adjacent (fields
count cities) and how it scores, as compiled formulas (docs/rulesets.md,
"Feature kinds" and "Scoring formulas").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import Diagnostic, UserError
from .around import compile_around
from .completes import FORMULA, compile_completion, is_formula, reads_neighbours
from .formula import Formula, compile_formula, names_previous
from .formula_nodes import function
from .formula_syntax import MAX_POINTS, Source, parse
from .kind_inputs import adjacency_entries, check_input_names, kind_inputs, own_inputs, shared_inputs
from .problems import Problems
from .source import Document, json_path
from .tiles import NONE


class ScoreRangeError(UserError):
    """A score beyond ±MAX_POINTS, located at the formula that gave it; the caller,
    who knows the turn, re-raises it with :meth:`at`."""

    def at(self, when: str) -> UserError:
        """The same error with ``when`` (``turn 12``) before its message."""
        first = self.diagnostics[0]
        return UserError.from_diagnostics([replace(first, message=f"{when}: {first.message}")])


@dataclass(frozen=True)
class Score:
    """How a kind scores in one case: a formula, or named line items that add up.

    Call it with the inputs for the points; :meth:`terms` explains them, one
    ``(label, value)`` per line item (``("pennants: 2 * pennants", 2)``) or,
    for a single formula, per top-level term (``("2 * pennants", 2)``).
    ``kind`` and ``rule`` (``complete``, ``incomplete``, ``final``) name it in
    messages.  Points and every part must lie within ±MAX_POINTS (docs/rulesets.md,
    "Scoring formulas"), else :class:`ScoreRangeError` at the formula.
    """

    text: str
    items: tuple[tuple[str | None, Formula], ...]
    kind: str = ""
    rule: str = ""
    #: The points for an env, as one generated function (the parts' Python added up, then the
    #: range check; engine/rules/formula_nodes.py): the look-ahead's hot path calls it directly.
    #: Generated on first use, so loading a ruleset compiles no Python for scores never counted.
    points: Callable[[Any], int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "points", self._first_points)

    def _first_points(self, env) -> int:
        refs = tuple(ref for _, formula in self.items for ref in formula.refs)
        total = " + ".join(f"({formula.src})" for _, formula in self.items)
        body = (f"points = {total}\nif {-MAX_POINTS} <= points <= {MAX_POINTS}:\n    return points\n"
                "return _over(env, points)")
        generated = function(body, self.text, refs + (("_over", self._over),))
        object.__setattr__(self, "points", generated)
        return generated(env)

    def __call__(self, env) -> int:
        return self.points(env)

    def __reduce__(self) -> tuple[Any, ...]:
        # The generated function does not pickle: a worker process gets the parts and generates it again.
        return (Score, (self.text, self.items, self.kind, self.rule))

    def _over(self, env, points: int) -> int:
        raise self.out_of_range(env, points, max(self.items, key=lambda item: abs(item[1].fn(env)))[1])

    def terms(self, env) -> list[tuple[str, int]]:
        """The score's parts and their values, for a score event's explanation."""
        (name, formula), *rest = self.items
        if name is None and not rest:
            found = formula.terms(env)
            owner = {text: formula for text, _ in found}
        else:
            found = [(f"{label}: {f.written}", int(f.fn(env))) for label, f in self.items]
            owner = {text: f for (text, _), (_, f) in zip(found, self.items)}
        for text, value in found:
            if not -MAX_POINTS <= value <= MAX_POINTS:
                raise self.out_of_range(env, value, owner[text], text)
        return found

    def out_of_range(self, env, value: int, formula: Formula, part: str | None = None) -> ScoreRangeError:
        """The error for ``value``, the points of this score (or of its ``part``) for ``env``, given by ``formula``."""
        bits = abs(value).bit_length()  # str() of a huge number is slow, and refused past 4300 digits
        shown = str(value) if bits <= 64 else f"a number of about {int(bits * 0.30103) + 1} digits"
        facts = ", ".join(f"{name} {env[name]}" for name in sorted(formula.names)) or "no inputs"
        subject = f"the {self.rule} score of {self.kind}" if part is None else \
            f"part {part!r} of the {self.rule} score of {self.kind}"
        return ScoreRangeError(f"{subject} is {shown} ({facts}), beyond ±{MAX_POINTS:,}, the most one score may be",
                               code="score-range", **formula.where)


@dataclass(frozen=True, slots=True)
class FeatureKind:
    """A feature kind (road, city, cloister, field, river, …) as the ruleset defines it.

    ``ports``: ``side``/``centre``/``half``/``none`` (how its segments sit on
    a tile); ``completion``: ``closed``/``surrounded``/``never``, or ``formula``
    when ``completes`` (a boolean formula, :mod:`engine.rules.completes`) says when;
    ``adjacency``: indices of the kinds whose completed features this kind
    counts (fields count cities; a house rule adds cloisters), empty for none,
    with ``adjacency_inputs`` the formula input naming each count.  ``complete`` is scored
    when the feature completes in play,
    ``incomplete`` at game end if it is not complete, ``final`` at game end
    after those (farms).  Missing formulas score nothing.  ``majority`` is
    ``feature`` (each feature scores for its own majority) or ``adjacent``
    (``final`` is scored once per completed adjacent feature, for the majority
    of followers on all features of this kind touching it: 1st-edition farms;
    the formula reads that feature's inputs, and each adjacency input is 1 for
    its kind and 0 for the others);
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
    adjacency: tuple[int, ...]
    adjacency_inputs: tuple[str, ...]
    complete: Score | None
    incomplete: Score | None
    final: Score | None
    majority: str = "feature"
    adjacent_pays_once: bool = False
    constants: dict[str, int] = field(default_factory=dict)
    #: ``rewards``: indices into ``attributes`` that are tokens, handed out when a feature
    #: completes to the placer of the completing tile (``reward_to`` ``placer``) or to its majority.
    tokens: tuple[int, ...] = ()
    reward_to: str = "placer"
    #: ``(own_T input, follower type index)`` its formulas read: per-player inputs, the scored
    #: player's followers of type T on the feature, so each majority player is scored on their own.
    own: tuple[tuple[str, int], ...] = ()
    #: ``around``: ``(input, kind index)``, segments of that kind on the 8 tiles around (engine/rules/around.py).
    around: tuple[tuple[str, int], ...] = ()
    icon: str = "building"  # how pictures draw a segment of a kind without ports (``grapes``, ``hill``)
    completes: Formula | None = None
    #: Whether its formulas read ``neighbors`` (surrounded, or completing by formula without ports).
    neighbourly: bool = False
    #: Every formula input of the kind, in the order a score event lists them, with the constants'
    #: values and 0 for the rest: what :func:`~engine.core.scoring.make_inputs` copies and fills in.
    inputs: dict[str, int | bool] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        inputs: dict[str, int | bool] = {"tiles": 0, "segments": 0, "complete": False}
        inputs.update((name, 0) for name, _ in self.around)
        inputs.update(self.constants)
        inputs.update((name, 0) for name in self.attributes)
        if self.neighbourly:
            inputs["neighbors"] = 0
        inputs.update((name, 0) for name in self.adjacency_inputs)
        inputs.update((name, 0) for name, _ in self.own)
        object.__setattr__(self, "inputs", inputs)  # frozen: set once, here

    @property
    def pools(self) -> bool:
        """Whether its ``final`` score pools several features (1st- and 2nd-edition farms:
        ``majority: adjacent`` or ``adjacent_pays_once``), so no feature's is its own."""
        return self.final is not None and (self.majority == "adjacent" or self.adjacent_pays_once)




def compile_kinds(doc: Document, problems: Problems) -> list[FeatureKind]:
    """The feature kinds of a schema-valid ruleset, in document order; problems (and
    warnings) are collected in ``problems``, a kind with problems still compiled as far as it goes."""
    problem = problems.at
    specs = doc.data["features"]
    names = list(specs)
    constants = doc.data.get("constants", {})
    check_input_names(doc, problems)
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
        adjacency_kinds: list[int] = []
        adjacency_inputs: list[str] = []
        listed = isinstance(spec.get("adjacency"), list)
        for i, entry in enumerate(adjacency_entries(spec)):
            where = at + (("adjacency", i, "kind") if listed else ("adjacency", "kind"))
            if entry["kind"] not in specs:
                problem(where, f"unknown feature kind '{entry['kind']}'", "kind-unknown")
            elif names.index(entry["kind"]) in adjacency_kinds:
                problem(where, f"kind '{name}' already counts '{entry['kind']}' features", "kind-adjacency")
            else:
                adjacency_kinds.append(names.index(entry["kind"]))
                adjacency_inputs.append(entry["input"])
                if specs[entry["kind"]].get("completion", "never") == "never":
                    problems.warn(where, f"kind '{name}' counts completed '{entry['kind']}' "
                                  f"features, but '{entry['kind']}' never completes (completion: never), so "
                                  f"'{entry['input']}' is always 0", "adjacency-never")
        if ports == NONE and completion == "closed":
            problem(at + ("completion",), f"kind '{name}' has no ports, so it would be closed (complete) the "
                    "moment it is placed: use surrounded or never", "kind-completion")
        if spec.get("majority") == "adjacent" and spec.get("adjacent_pays_once"):
            problem(at + ("adjacent_pays_once",), "adjacent_pays_once applies to majority: feature only; with "
                    "majority: adjacent each adjacent feature already pays once", "kind-majority")
        majority = spec.get("majority", "feature")
        if (majority == "adjacent" or spec.get("adjacent_pays_once")) and not adjacency_kinds:
            key = "majority" if majority == "adjacent" else "adjacent_pays_once"
            problem(at + (key,), f"'{key}' needs an 'adjacency' kind to count", "kind-majority")
        own = own_inputs(doc.data)
        inputs = {**kind_inputs(spec), **{c: int for c in constants}, **{n: int for n in own}}
        formulas: dict[str, Score | None] = {}
        for when in ("complete", "incomplete", "final"):
            value = spec.get("scoring", {}).get(when)
            when_inputs = inputs
            if when == "final" and majority == "adjacent" and adjacency_kinds:
                # Scored once per adjacent feature: its formula reads the inputs every adjacent kind
                # has, and each adjacency input (1 for the scored feature's kind, else 0).
                when_inputs = shared_inputs([specs[names[k]] for k in adjacency_kinds])
                when_inputs.update({**{i: int for i in adjacency_inputs}, **{c: int for c in constants},
                                    **{n: int for n in own}})
            formulas[when] = None if value is None else compile_score(doc, at + ("scoring", when), value,
                                                                      when_inputs, problems)
        tokens = []
        rewards = spec.get("rewards")
        for i, token in enumerate(rewards["tokens"] if rewards else ()):
            if token not in attributes:
                problem(at + ("rewards", "tokens", i), f"token '{token}' is not an attribute of kind '{name}' "
                        f"(its attributes: {', '.join(attributes) or 'none'})", "reward-token")
            else:
                tokens.append(attributes.index(token))
        completes = None
        if is_formula(completion):
            completes = compile_completion(doc, at, completion, ports, {**kind_inputs(spec), **{
                c: int for c in constants}}, tuple(adjacency_inputs), problems)
            if formulas["complete"] is None and spec.get("deployable", True):
                problems.warn(at + ("completion",), f"kind '{name}' completes by a formula but has no 'complete' "
                              "score: a follower on a completed one goes home with nothing", "kind-scoring")
        if rewards and completion == "never":
            problem(at + ("rewards",), f"kind '{name}' never completes, so it hands out no rewards", "reward-token",
                    key=True)
        if completion == "never" and formulas["complete"] is not None:
            problem(at + ("scoring", "complete"), f"kind '{name}' never completes, so it has no 'complete' score",
                    "kind-scoring")
        kinds.append(FeatureKind(
            name=name, index=index, edge=spec.get("edge"), ports=ports,
            completion=FORMULA if is_formula(completion) else completion,
            deployable=spec.get("deployable", True), follower=spec.get("follower", "follower"),
            attributes=attributes, adjacency=tuple(adjacency_kinds), adjacency_inputs=tuple(adjacency_inputs),
            complete=formulas["complete"], incomplete=formulas["incomplete"], final=formulas["final"],
            majority=majority, adjacent_pays_once=bool(spec.get("adjacent_pays_once", False)),
            constants=dict(constants), tokens=tuple(tokens),
            own=tuple((n, t) for n, t in own.items()
                      if any(n in f.names for score in formulas.values() if score for _, f in score.items)),
            reward_to=rewards.get("to", "placer") if rewards else "placer",
            around=compile_around(name, spec, names, problems), icon=spec.get("icon", "building"),
            completes=completes, neighbourly=reads_neighbours(completion, ports),
        ))
    return kinds


def compile_score(doc: Document, path: tuple, value: str | dict, inputs: dict[str, type],
                  problems: Problems) -> Score | None:
    """Compile a formula or a mapping of named line items at ``path`` (``path[1]`` names it in
    messages, ``path[-1]`` is its rule); problems are collected, and None returned for any.

    A formula that names ``previous`` gets the one it replaced (``doc.replaced``), compiled
    here with the same inputs at its own file and line (docs/rulesets.md, "How options combine").
    """
    named = value.items() if isinstance(value, dict) else [(None, value)]
    items = []
    for name, text in named:
        at = path if name is None else path + (name,)
        earlier = _earlier(doc, at, str(text), inputs, problems)
        if earlier is False:
            continue
        try:
            formula = compile_formula(str(text), inputs, previous=earlier, **doc.where(at))
            if formula.earlier:
                _check_written(formula, doc.where(at))
            items.append((name, formula))
        except UserError as error:
            problems.found.extend(_blame_deletion(doc, path, d) for d in error.diagnostics)
    if len(items) < len(named):
        return None
    text = items[0][1].written if isinstance(value, str) else " + ".join(f"({f.written})" for _, f in items)
    return Score(text, tuple(items), kind=path[1], rule=path[-1])


def _check_written(formula: Formula, where: dict) -> None:
    """A formula with ``previous`` written out keeps the limits of one formula (length, nesting;
    engine/rules/formula_syntax.py), so a chain of options cannot grow it without bound and the
    merged ruleset ``rulesets show`` prints loads again.  :class:`UserError` at the formula."""
    try:
        parse(Source(formula.written, None, None, None, None))
    except UserError as error:
        first = error.diagnostics[0]
        raise UserError(f"with 'previous' written out as the formulas it stands for, {first.message}",
                        code=first.code, **where) from None


def _earlier(doc: Document, path: tuple, text: str, inputs: dict[str, type], problems: Problems):
    """What ``previous`` stands for in ``text`` at ``path``: the replaced formula's parts, None if
    nothing was replaced (or ``text`` does not name it), False if the replaced formula has problems."""
    found = doc.previous(path) if names_previous(text) else None
    if found is None:
        return None
    before, at, value = found
    parts = value.values() if isinstance(value, dict) else [value]
    if not all(isinstance(part, str) or (path[-1] == "strength" and type(part) is int) for part in parts):
        bad = next(part for part in parts if not isinstance(part, str))
        problems.found.append(Diagnostic(
            f"expected a formula as text, got {bad!r} (quote a bare number); 'previous' at "
            f"{json_path(path)} stands for it", code="schema", **before.where(at)))
        return False
    score = compile_score(before, at, value if isinstance(value, dict) else str(value), inputs, problems)
    return False if score is None else score.items


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
                              path=doc.where(deleted)["path"], code="formula-name")
    return diagnostic
