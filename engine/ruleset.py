"""Load a ruleset reference into a frozen, compiled :class:`Ruleset`.

Pipeline: YAML (positions kept) → JSON Schema → meaning checks (tiles
consistent, kinds known, formulas compile) → compiled tile orientations and
formula closures.  Every problem is a :class:`~engine.errors.Diagnostic` at
the file, line and column that set the value; all of a file's problems are
reported together.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import Diagnostic, UserError
from .formula import Formula, compile_formula
from .geometry import PORT_INDEX, SIDES
from .resources import rulesets_dir
from .compose import compose
from .constraints import Constraint
from .source import Document, json_path
from .tiles import CENTRE_KIND, HALF, NONE, SIDE, EdgeCodes, SegmentType, TileType, orient, ring_adjacent
from .validate import check

COMPLETIONS = ("closed", "surrounded", "never")


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


@dataclass(frozen=True)
class Phase:
    """One phase of the deck: the tile ``group`` drawn in it, with tile type indices
    pinned to be drawn ``first`` or ``last`` (or None)."""

    group: str
    first: int | None = None
    last: int | None = None


@dataclass(frozen=True)
class Ruleset:
    """A loaded, validated and compiled ruleset.

    ``data`` is the merged document (what ``sha256`` hashes); ``kinds`` and
    ``tiles`` are indexed by their ``index``; ``start`` is the start tile's
    index (``-1`` for none); ``edge_mirror``/``edge_base`` drive edge
    matching (see :class:`~engine.tiles.EdgeCodes`).
    """

    name: str
    ref: str
    data: dict[str, Any]
    sha256: str
    min_players: int
    max_players: int
    followers: int
    kinds: tuple[FeatureKind, ...]
    tiles: tuple[TileType, ...]
    start: int
    deploy_own: bool
    unplaceable: str
    start_drawn: bool
    maps: int
    edge_mirror: tuple[int, ...]
    edge_base: int
    phases: tuple[Phase, ...] = ()
    set_aside: tuple[int, ...] = ()
    #: Per tile type, the placement constraints that apply to it (see engine/constraints.py).
    constraints: tuple[tuple[Constraint, ...], ...] = ()
    _fits: list[dict[int, tuple[int, ...]]] = field(default_factory=list, repr=False, compare=False)

    @property
    def tile_ids(self) -> dict[str, int]:
        """Map tile type id → index."""
        return {t.id: t.index for t in self.tiles}

    def kind(self, name: str) -> FeatureKind | None:
        """The feature kind called ``name``, or None."""
        return next((k for k in self.kinds if k.name == name), None)

    def fit_table(self, tile: int) -> dict[int, tuple[int, ...]]:
        """The memo behind :meth:`fits` for one tile type (constraint key → rotations);
        a key not in it yet is computed by :meth:`fits`.  For the turn loop's hot path."""
        return self._fits[tile]

    def fits(self, tile: int, key: int) -> tuple[int, ...]:
        """Rotations of tile type ``tile`` that satisfy a cell's edge-constraint ``key``.

        ``key`` packs four side codes (0 = no neighbour) in base ``edge_base``,
        N first.  Results are memoised per ruleset: a game looks up, never
        recomputes.
        """
        table = self._fits[tile]
        found = table.get(key)
        if found is None:
            base = self.edge_base
            need = (key % base, key // base % base, key // base ** 2 % base, key // base ** 3)
            found = tuple(o.rotation for o in self.tiles[tile].orientations
                          if all(n == 0 or n == c for n, c in zip(need, o.side_codes)))
            table[key] = found
        return found


def _is_name(ref: str) -> bool:
    """A bare name (``basic``) rather than a path (``my/rules.yaml``, ``rules.yaml``)."""
    return bool(ref) and "/" not in ref and "\\" not in ref and "." not in ref


def resolve(ref: str, base: Path | None = None) -> Path:
    """The file a ruleset reference names: a shipped name (``basic``) or a path.

    A bare name is looked up among the shipped rulesets first; a relative path
    is taken from ``base`` (the folder of the scenario or record naming it) if
    given, else from the working directory.  Raises :class:`UserError` if
    neither exists, listing the shipped names.
    """
    if not ref:
        raise UserError("empty ruleset reference", code="ruleset-unknown")
    if _is_name(ref) and (rulesets_dir() / f"{ref}.yaml").is_file():
        return rulesets_dir() / f"{ref}.yaml"
    path = Path(ref)
    if not path.is_absolute() and base is not None:
        path = base / path
    if path.is_file():
        return path
    if path.is_dir():
        raise UserError(f"{path} is a folder, not a ruleset file", code="io")
    if _is_name(ref):
        names = ", ".join(sorted(p.stem for p in rulesets_dir().glob("*.yaml")))
        if (rulesets_dir() / "options" / f"{ref}.yaml").is_file():
            raise UserError(f"'{ref}' is an option, not a ruleset: add it to one, e.g. basic+{ref}",
                            code="ruleset-unknown")
        raise UserError(f"unknown ruleset '{ref}' (shipped rulesets: {names}; or give a path)",
                        code="ruleset-unknown")
    raise UserError(f"ruleset file not found: {path}", code="io")


def portable_ref(ref: str, folder: Path) -> str:
    """``ref`` as a file written in ``folder`` should name it: shipped names as they
    are, paths relative to ``folder`` (so the file and its rulesets can move together)."""
    name, *options = ref.split("+")
    parts = [name if _is_name(name) and resolve(name).parent == rulesets_dir() else _relative(resolve(name), folder)]
    for option in options:
        parts.append(option if _is_name(option) else _relative(Path(option), folder))
    return "+".join(parts)


def _relative(path: Path, folder: Path) -> str:
    return os.path.relpath(path.resolve(), folder.resolve())


def load_ruleset_for(doc: Document, path: tuple) -> "Ruleset":
    """Load the ruleset that ``doc`` names at ``path``, relative to the document's folder;
    an error that has no file of its own is reported at that place in ``doc``."""
    ref = doc.data
    for key in path:
        ref = ref[key]
    try:
        return load_ruleset(ref, Path(doc.file).parent)
    except UserError as error:
        if any(d.file for d in error.diagnostics):
            raise
        first = error.diagnostics[0]
        raise UserError(first.message, code=first.code, **doc.where(path)) from None


def load_ruleset(ref: str, base: Path | None = None, *, cache: bool = True) -> Ruleset:
    """Load, compose, validate and compile the ruleset reference ``ref``.

    ``ref`` is ``NAME_OR_PATH[+OPTION]…`` (see :mod:`engine.compose`);
    relative paths are taken from ``base`` if given.  Raises
    :class:`UserError` with every problem found, each at the file and line
    that set the value.  Results are cached until one of the files changes,
    so loading the same ruleset for many games costs one ``stat`` per file
    (``cache=False`` loads afresh, as the benchmark does).
    """
    key = (ref, str(base) if base is not None else None)
    cached = _CACHE.get(key) if cache else None
    if cached is not None:
        ruleset, stamps = cached
        if all(_stamp(path) == stamp for path, stamp in stamps):
            return ruleset
    doc, files = compose(ref, base)
    check(doc, "ruleset")
    ruleset = compile_ruleset(doc, ref)
    _CACHE[key] = (ruleset, [(path, _stamp(path)) for path in files])
    return ruleset


_CACHE: dict[tuple[str, str | None], tuple["Ruleset", list[tuple[Path, int]]]] = {}


def _stamp(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return -1


def compile_ruleset(doc: Document, ref: str) -> Ruleset:
    """Check a schema-valid ruleset document for meaning and compile it.

    Raises :class:`UserError` listing every problem (unknown kinds, ports
    that don't fit a kind, sides covered twice or not at all, edges that
    disagree with segments, a missing start tile, formula errors).
    """
    data = doc.data
    problems = _Problems(doc)
    problem = problems.at
    kinds = _compile_kinds(doc, problems)
    if any(d.code == "edge-letter" for d in problems.found):
        raise UserError.from_diagnostics(problems.found)  # tiles cannot be read while letters clash
    kind_index = {k.name: k.index for k in kinds}
    gone = {path[1]: [] for path in doc.deleted if len(path) == 2 and path[0] == "features"}
    for tile_id, spec in data["tiles"].items():
        for seg in spec["segments"]:
            if seg["kind"] in gone and tile_id not in gone[seg["kind"]]:
                gone[seg["kind"]].append(tile_id)
    for kind_name, users in gone.items():
        if users:
            problem(("features", kind_name), f"feature kind '{kind_name}' is deleted here, but tiles "
                    f"{', '.join(users)} still have {kind_name} segments", "kind-unknown")
    codes = EdgeCodes()
    tiles = []
    for index, (tile_id, spec) in enumerate(data["tiles"].items()):
        if any(seg["kind"] in gone for seg in spec["segments"]):
            continue
        tile = _compile_tile(tile_id, spec, index, kinds, kind_index, codes, problems)
        if tile is not None:
            tiles.append(tile)
    tile_ids = {t.id: t.index for t in tiles}

    start_id = data.get("deck", {}).get("start")
    start = -1
    if start_id is not None:
        if ("tiles", start_id) in doc.deleted:
            problem(("tiles", start_id), f"start tile '{start_id}' (deck.start) is deleted here", "start-tile")
        elif start_id not in data["tiles"]:
            problem(("deck", "start"), f"start tile '{start_id}' is not a tile type of this ruleset", "start-tile")
        elif data["tiles"][start_id]["count"] < 1:
            problem(("tiles", start_id, "count"), f"start tile '{start_id}' has count 0", "start-tile")
        else:
            start = tile_ids.get(start_id, -1)
            maps = data["deck"].get("maps", 1)
            fixed = data["deck"].get("start_rule", "fixed") == "fixed"
            if fixed and data["tiles"][start_id]["count"] < maps:
                problem(("deck", "maps"), f"{maps} maps need {maps} start tiles '{start_id}', "
                        f"but there are {data['tiles'][start_id]['count']}", "start-tile")
    players = data.get("players", {"min": 2, "max": 5})
    if players["min"] > players["max"]:
        problem(("players",), "players: min is greater than max", "players")
    deck = data.get("deck", {})
    phases = tuple(_compile_phases(deck, tiles, tile_ids, problems))
    set_aside = []
    for i, tile_id in enumerate(deck.get("set_aside", ())):
        if tile_id not in tile_ids:
            problem(("deck", "set_aside", i), f"'{tile_id}' is not a tile type of this ruleset", "tile-unknown")
        else:
            set_aside.append(tile_ids[tile_id])
    constraints = _compile_constraints(data.get("constraints", {}), kinds, problems)
    if problems.found:
        raise UserError.from_diagnostics(sorted(problems.found, key=_order))
    rules = data.get("rules", {})
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return Ruleset(
        name=data["name"], ref=ref, data=data,
        sha256=hashlib.sha256(canonical.encode()).hexdigest(),
        min_players=players["min"], max_players=players["max"],
        followers=data.get("followers", 7),
        kinds=tuple(kinds), tiles=tuple(tiles), start=start,
        deploy_own=rules.get("deploy", "empty") == "own-or-empty",
        unplaceable=rules.get("unplaceable", "discard"),
        start_drawn=data.get("deck", {}).get("start_rule", "fixed") == "drawn",
        maps=data.get("deck", {}).get("maps", 1),
        phases=phases, set_aside=tuple(set_aside),
        constraints=tuple(tuple(c for c in constraints if any(seg.kind == c.kind for seg in t.segments))
                          for t in tiles),
        edge_mirror=tuple(codes.mirror), edge_base=codes.base,
        _fits=[{} for _ in tiles],
    )


def _order(d: Diagnostic) -> tuple:
    return (d.file or "", d.line or 0, d.col or 0)


class _Problems:
    """Collects the diagnostics of one document, located by JSON path."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.found: list[Diagnostic] = []

    def at(self, path: tuple, message: str, code: str) -> None:
        self.found.append(Diagnostic(message, code=code, **self.doc.where(path)))


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


def _compile_kinds(doc: Document, problems: _Problems) -> list[FeatureKind]:
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


def _compile_phases(deck: dict, tiles: list[TileType], tile_ids: dict[str, int], problems: _Problems):
    """The deck's phases; every tile group must be drawn in exactly one phase."""
    specs = deck.get("phases", ())
    groups = {t.group for t in tiles}
    named = [spec["group"] for spec in specs]
    for i, spec in enumerate(specs):
        at = ("deck", "phases", i)
        if spec["group"] not in groups:
            problems.at(at + ("group",), f"no tile type is in group '{spec['group']}'", "deck-phase")
        if named.count(spec["group"]) > 1 and named.index(spec["group"]) < i:
            problems.at(at + ("group",), f"group '{spec['group']}' is drawn in two phases", "deck-phase")
        pins = {}
        for end in ("first", "last"):
            tile_id = spec.get(end)
            if tile_id is None:
                continue
            if tile_id not in tile_ids or tiles[tile_ids[tile_id]].group != spec["group"]:
                problems.at(at + (end,), f"'{tile_id}' is not a tile type of group '{spec['group']}'", "deck-phase")
            else:
                pins[end] = tile_ids[tile_id]
        yield Phase(spec["group"], pins.get("first"), pins.get("last"))
    if specs:
        for group in sorted(groups - set(named)):
            users = ", ".join(t.id for t in tiles if t.group == group)
            problems.at(("deck", "phases"), f"tiles of group '{group}' ({users}) are in no phase", "deck-phase")


def _compile_constraints(specs: dict, kinds: list[FeatureKind], problems: _Problems) -> list[Constraint]:
    by_name = {k.name: k.index for k in kinds}
    found = []
    for name, spec in specs.items():
        if spec["kind"] not in by_name:
            problems.at(("constraints", name, "kind"), f"unknown feature kind '{spec['kind']}'", "kind-unknown")
            continue
        found.append(Constraint(spec["rule"], by_name[spec["kind"]], spec.get("look", "ahead")))
    return found


def _compile_score(doc: Document, path: tuple, value: str | dict, inputs: dict[str, type],
                   problems: _Problems) -> Score | None:
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


def _compile_tile(tile_id: str, spec: dict, index: int, kinds: list[FeatureKind],
                  kind_index: dict[str, int], codes: EdgeCodes, problems: _Problems) -> TileType | None:
    """Check one tile type's segments against its kinds and edges; compile its orientations."""
    at = ("tiles", tile_id)
    problem = problems.at
    errors_before = len(problems.found)
    segments: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
    covered: dict[int, int] = {}
    for s_index, seg in enumerate(spec["segments"]):
        s_at = at + ("segments", s_index)
        kind_name = seg["kind"]
        if kind_name not in kind_index:
            close = difflib.get_close_matches(kind_name, list(kind_index), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else f" (kinds: {', '.join(kind_index)})"
            problem(s_at + ("kind",), f"unknown feature kind '{kind_name}'{hint}", "kind-unknown")
            continue
        kind = kinds[kind_index[kind_name]]
        ports: list[int] = []
        for p_index, name in enumerate(seg.get("ports", ())):
            p_at = s_at + ("ports", p_index)
            if kind.ports == NONE:
                problem(p_at, f"a {kind.name} segment has no ports", "segment-ports")
            elif kind.ports in (SIDE, CENTRE_KIND) and name not in SIDES:
                problem(p_at, f"a {kind.name} segment lists sides (N, E, S, W), not '{name}'", "segment-ports")
            elif kind.ports == HALF and (name in SIDES or name not in PORT_INDEX):
                problem(p_at, f"a {kind.name} segment lists half-sides (NL … WR), not '{name}'", "segment-ports")
            else:
                side_port = PORT_INDEX[name]
                new = [side_port - 1, side_port, side_port + 1] if kind.ports == SIDE else [side_port]
                for p in new:
                    if p in covered:
                        problem(p_at, f"port {name} is already covered by segment {covered[p]}", "port-twice")
                    covered[p] = s_index
                ports.extend(new)
        for attr in seg:
            if attr not in ("kind", "ports", "adjacent") and attr not in kind.attributes:
                close = difflib.get_close_matches(attr, kind.attributes, n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                problems.found.append(Diagnostic(f"'{attr}' is not an attribute of kind '{kind.name}'{hint}",
                                                 code="segment-attribute",
                                                 **problems.doc.where(s_at + (attr,), key=True)))
        attrs = tuple(int(seg.get(a, 0)) for a in kind.attributes)
        segments.append((kind.index, tuple(ports), attrs))
    if len(problems.found) > errors_before:
        return None  # edges can only be checked against well-formed segments
    edges = spec["edges"]
    letters = {k.edge: k for k in kinds if k.edge}
    for side, letter in enumerate(edges):
        if letter not in letters:
            problem(at + ("edges",), f"edge letter '{letter}' is not the edge of any feature kind", "edge-letter")
            continue
        centre = covered.get(3 * side + 1)
        halves = (covered.get(3 * side), covered.get(3 * side + 2))
        centre_kind = kinds[segments[centre][0]] if centre is not None else None
        expect = letters[letter]
        if expect.ports in (SIDE, CENTRE_KIND):
            ok = centre_kind is expect
        else:
            ok = centre_kind is None and None not in halves and all(kinds[segments[h][0]] is expect for h in halves)
        if not ok:
            problem(at + ("edges",), f"side {SIDES[side]} is '{letter}' but its segments do not make a "
                    f"{expect.name} side", "edge-mismatch")
        if None in halves:
            problem(at + ("segments",), f"half-sides of side {SIDES[side]} are not covered by any segment",
                    "port-uncovered")
    if len(problems.found) > errors_before:
        return None
    compiled = []
    for s_index, (kind, ports, attrs) in enumerate(segments):
        k = kinds[kind]
        seg = spec["segments"][s_index]
        if "adjacent" in seg:
            adjacent = tuple(seg["adjacent"])
            for a_index, j in enumerate(adjacent):
                if j >= len(segments) or segments[j][0] != k.adjacency:
                    problem(at + ("segments", s_index, "adjacent", a_index),
                            f"segment {j} is not a segment of the adjacency kind on this tile", "adjacent")
        elif k.adjacency >= 0:
            adjacent = tuple(j for j, (other, other_ports, _) in enumerate(segments)
                             if other == k.adjacency and ring_adjacent(ports, other_ports))
        else:
            adjacent = ()
        if k.completion != "closed":
            open_sides = 0
        elif k.ports == SIDE:
            open_sides = len(ports) // 3
        else:
            open_sides = len(ports)
        compiled.append(SegmentType(kind, ports, attrs, adjacent, open_sides))
    segs = tuple(compiled)
    kind_ports = [k.ports for k in kinds]
    counts_open = [k.completion == "closed" for k in kinds]
    return TileType(
        id=tile_id, index=index, count=spec["count"], edges=edges, segments=segs,
        orientations=tuple(orient(segs, kind_ports, counts_open, codes, r) for r in range(4)),
        surrounded=tuple(i for i, s in enumerate(segs) if kinds[s.kind].completion == "surrounded"),
        closing=tuple(i for i, s in enumerate(segs) if kinds[s.kind].completion == "closed"),
        group=spec.get("group", "base"),
        kinds=tuple(seg.kind for seg in segs),
    )
