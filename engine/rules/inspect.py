"""Looking at rulesets: the shipped list, the merged document with origins, diffs, tile drawings.

These are the plain functions behind ``carcassonne rulesets …`` and
``carcassonne tiles``; they return text or data and never print.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..errors import UNSAFE, UserError, printable
from ..geometry import PORTS, SIDES
from ..resources import rulesets_dir
from .compose import RULESET_SHAPE, compose, load_option, options_dir
from .formula import names_previous
from .references import split_ref
from .resolve import resolved
from .ruleset import Ruleset, load_ruleset
from .source import Document, JsonPath, json_path, load_yaml, load_yaml_cached, value_at
from .validate import check

#: Keys that name a ruleset rather than set a rule; ``diff`` leaves them out.
IDENTITY_KEYS = ("name", "description", "source")


@dataclass(frozen=True)
class Shipped:
    """A shipped ruleset or option: what ``rulesets list`` shows."""

    kind: str  # "ruleset" or "option"
    name: str
    description: str
    source: str


def shipped() -> list[Shipped]:
    """Every shipped ruleset, then every shipped option, by name."""
    found = []
    for kind, folder in (("ruleset", rulesets_dir()), ("option", options_dir())):
        for path in sorted(folder.glob("*.yaml")):
            data = load_yaml(path).data or {}
            found.append(Shipped(kind, path.stem, " ".join(str(data.get("description", "")).split()),
                                 " ".join(str(data.get("source", "")).split())))
    return found


def shipped_games() -> list[str]:
    """Ruleset references of every shipped ruleset, then of the basic game with each shipped
    option (after the options it requires): ``["basic", …, "basic+river+river-split-springs", …]``."""
    found = [s.name for s in shipped() if s.kind == "ruleset"]
    for s in shipped():
        if s.kind == "option":
            data = load_yaml(options_dir() / f"{s.name}.yaml").data or {}
            found.append("+".join(["basic", *data.get("requires", ()), s.name]))
    return found


@dataclass(frozen=True)
class Layer:
    """One value in the chain that composed a key: where it is written (``origin``,
    ``file:line``), the ruleset or option that wrote it (``name``), the value, and whether
    it builds on the layer below it (names ``previous``) or replaces it."""

    origin: str
    name: str
    value: Any
    builds_on: bool

    def as_json(self) -> dict[str, Any]:
        """The layer as ``rulesets show --json`` gives it."""
        return {"origin": self.origin, "name": self.name, "value": self.value, "builds_on": self.builds_on}


def origin_chain(doc: Document, path: JsonPath) -> list[Layer]:
    """The values that composed the value at ``path``, newest first: each one the
    ruleset or an option set, down to the first file that set the key (docs/rulesets.md,
    "How options combine").  One layer for a value nothing else set.  A named line item
    that replaced a whole formula continues into that formula only if it builds on it."""
    chain = []
    at: tuple[Document, JsonPath] | None = (doc, tuple(path))
    while at is not None:
        layer_doc, layer_path = at
        value = value_at(layer_doc.data, layer_path)
        file = layer_doc.where(layer_path)["file"]
        chain.append(Layer(origin_text(layer_doc, layer_path), _name_of(file), value, names_previous(value)))
        at = layer_doc.earlier.get(layer_path)
        if at is None and names_previous(value):
            at = layer_doc.replaced(layer_path)
    return chain


def _name_of(file: str) -> str:
    """The ``name`` a ruleset or option file gives itself (its file name if it has none)."""
    try:
        data = load_yaml_cached(file).data
    except UserError:
        data = None
    name = data.get("name") if isinstance(data, dict) else None
    return name if isinstance(name, str) else Path(file).stem


def chain_text(chain: list[Layer]) -> str:
    """The layers below the newest as one line: ``builds on tiny-city (file:line), replacing …``."""
    return ", ".join(f"{_relation(newer, older)} {older.name} ({older.origin})"
                     for newer, older in zip(chain, chain[1:]))


def _relation(newer: Layer, older: Layer) -> str:
    """How a layer stands to the one below it."""
    if newer.builds_on:
        return "building on"
    return "the same as" if newer.value == older.value else "replacing"


def merged(ref: str) -> Document:
    """The merged document of ruleset reference ``ref`` (after ``extends`` and options),
    checked as play checks it; :class:`UserError` if it would not load."""
    doc, _ = compose(ref)
    load_ruleset(ref)  # the same checks as play: show only what would load
    return doc


def show(ref: str, *, origins: bool = False) -> str:
    """The merged ruleset ``ref`` as YAML, each ``previous`` written out (so the text is
    the whole rule, and loads again as a ruleset); with ``origins``, each value is
    followed by a comment naming the file and line that set it and, for a value that
    replaced or built on others, how (``building on:``, ``replacing:``), then one
    comment line per earlier value as its file wrote it, newest first."""
    doc = merged(ref)
    lines: list[str] = []
    _emit(doc, _named_with_options(ref, resolved(doc)), (), 0, lines, origins)
    return "\n".join(lines) + "\n"


def _named_with_options(ref: str, data: dict) -> dict:
    """``data`` (a merged ruleset) named as its reference (``basic+farm-points-4``), its description
    followed by each option's, so that what is shown says the options applied (issue 50: it read
    as the plain ruleset); the merged document itself, which ``sha256`` hashes, keeps its own."""
    _, options = split_ref(ref)
    if not options:
        return data
    said = " ".join(f"With {load_option(option).data['name']}: {load_option(option).data['description']}"
                    for option in options)
    return {**data, "name": f"{data['name']}+{'+'.join(load_option(o).data['name'] for o in options)}",
            "description": f"{data['description']} {said}"}


def diff(ref_a: str, ref_b: str) -> list[tuple[str, Any, Any, str, str]]:
    """What two rulesets set differently: ``(json path, value in a, value in b,
    origin in a, origin in b)`` for each differing leaf, in document order.
    Values are compared with each ``previous`` written out, so a change anywhere in a
    formula's chain is a difference.  A value missing on one side is ``None`` there; an
    origin is ``file:line``, followed by
    what the value built on or replaced (:func:`chain_text`).  Identity keys are left out."""
    doc_a, _ = compose(ref_a)
    doc_b, _ = compose(ref_b)
    load_ruleset(ref_a), load_ruleset(ref_b)
    out: list[tuple[str, Any, Any, str, str]] = []
    _diff(doc_a, doc_b, resolved(doc_a), resolved(doc_b), (), out)
    return out


def origin_text(doc: Document, path: JsonPath, *, key: bool = False) -> str:
    """``file:line`` that set the value at ``path`` (``key``: where its key is written),
    the file relative to the working directory when that is shorter."""
    where = doc.where(path, key=key)
    file, line = where["file"], where["line"]
    try:
        relative = os.path.relpath(file)
        file = relative if len(relative) < len(file) else file
    except ValueError:
        pass
    return f"{file}:{line}" if line else file


def leaf_origins(doc: Document) -> dict[str, str]:
    """``file:line`` that set each scalar (and each empty mapping or list), by JSON path."""
    return {json_path(path): origin_text(doc, path) for path in _leaves(doc.data, ())}


def leaf_chains(doc: Document) -> dict[str, list[dict[str, Any]]]:
    """For each value that replaced or built on others, by JSON path: its :func:`origin_chain`
    as JSON (newest first).  A composed formula shows every option that built it."""
    found = {}
    for path in _chain_paths(doc):
        chain = origin_chain(doc, path)
        if len(chain) > 1:
            found[json_path(path)] = [layer.as_json() for layer in chain]
    return found


def _chain_paths(doc: Document) -> list[JsonPath]:
    """Every path whose value replaced another, the leaves first in document order."""
    leaves = list(_leaves(doc.data, ()))
    return leaves + [p for p in doc.earlier if p not in leaves and value_at(doc.data, p) is not None]


def _leaves(value: Any, path: JsonPath):
    if isinstance(value, (dict, list)) and value:
        for key, item in (value.items() if isinstance(value, dict) else enumerate(value)):
            yield from _leaves(item, (*path, key))
    else:
        yield path


def tile_data(ruleset: Ruleset) -> dict[str, Any]:
    """Every tile type as JSON-ready data: id, count, edges, group, segments with their
    kind, ports (names in canonical orientation), the sides it shares with another segment, attributes
    and adjacent segments."""
    tiles = []
    for tile in ruleset.tiles:
        segments = []
        for segment in tile.segments:
            kind = ruleset.kinds[segment.kind]
            ports = [PORTS[p] for p in segment.ports]
            if kind.ports == "side":
                ports = [n for n in ports if len(n) == 1]
            segments.append({"kind": kind.name, "ports": ports, "shares": [SIDES[s] for s in segment.shares],
                             "attributes": dict(zip(kind.attributes, segment.attrs)),
                             "adjacent": list(segment.adjacent)})
        tiles.append({"id": tile.id, "count": tile.count, "edges": tile.edges, "group": tile.group,
                      "start": tile.index == ruleset.start, "segments": segments})
    return {"tiles": tiles, "tile_count": sum(t.count for t in ruleset.tiles),
            "set_aside": [ruleset.tiles[t].id for t in ruleset.set_aside],
            "personal": {ruleset.tiles[ruleset.personal_tile].id: ruleset.personal_count}
            if ruleset.personal_tile >= 0 else {}}


def tile_drawings(ruleset: Ruleset) -> list[str]:
    """A small text drawing of every tile type: its port grid and a legend.

    Each port shows the index of the segment covering it (``.`` none); the
    centre shows a port-less segment (a cloister).  The grid reads like the
    tile: N on top, ``NL N NR`` left to right, ``WR W WL`` down the left side.
    """
    blocks = []
    for tile in ruleset.tiles:
        grid = [["."] * 5 for _ in range(5)]
        cells = {"NL": (0, 1), "N": (0, 2), "NR": (0, 3), "EL": (1, 4), "E": (2, 4), "ER": (3, 4),
                 "SL": (4, 3), "S": (4, 2), "SR": (4, 1), "WL": (3, 0), "W": (2, 0), "WR": (1, 0)}
        legend = []
        for j, segment in enumerate(tile.segments):
            kind = ruleset.kinds[segment.kind]
            names = [PORTS[p] for p in segment.ports]
            for name in names:
                row, col = cells[name]
                grid[row][col] = str(j)
            if not names:
                grid[2][2] = str(j)
            if kind.ports == "side":
                names = [n for n in names if len(n) == 1]
            extras = [f"{a} {v}" for a, v in zip(kind.attributes, segment.attrs) if v]
            extras += [f"shares {SIDES[s]}" for s in segment.shares]
            legend.append(f"{j} {kind.name} {' '.join(names)}".rstrip() + (f" ({', '.join(extras)})" if extras else ""))
        for corner in ((0, 0), (0, 4), (4, 0), (4, 4)):
            grid[corner[0]][corner[1]] = "+"
        start = " (start tile)" if tile.index == ruleset.start else ""
        head = f"{tile.id}  ×{tile.count}  edges {tile.edges}{start}"
        rows = [" ".join(r) for r in grid]
        width = max(len(r) for r in rows)
        body = [f"  {rows[i]:<{width}}   {legend[i] if i < len(legend) else ''}".rstrip() for i in range(5)]
        body += [f"  {'':<{width}}   {line}" for line in legend[5:]]
        blocks.append("\n".join([head, *body]))
    return blocks


def validate_file(path: Path, base: str = "basic") -> Ruleset:
    """Check one ruleset or option file; an option is checked applied to ``base``
    after the options it ``requires``.

    Raises :class:`UserError` with every problem found.
    """
    doc = load_yaml(path, shape=RULESET_SHAPE)  # says what is wrong with a FIFO, a folder, /etc/passwd, ...
    data = doc.data
    if isinstance(data, dict) and _looks_like_option(data):
        check(doc, "option")  # the header's shape before reading it: ``requires: 5`` is a schema error
        option = str(path) if "/" in str(path) or "." in path.name else f"./{path}"
        required = data.get("requires", [])
        shipped_options = sorted(p.stem for p in options_dir().glob("*.yaml"))
        in_base = {load_option(o).data["name"] for o in base.split("+")[1:] if o}  # the names --base gives
        for i, name in enumerate(required):
            if name == data["name"]:
                raise UserError(f"option '{name}' names itself in 'requires'", code="option-relation",
                                **doc.where(("requires", i)))
            if name not in shipped_options and name not in in_base:
                close = difflib.get_close_matches(name, shipped_options, n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                raise UserError(f"requires option '{name}', which is not a shipped option{hint}",
                                code="option-unknown", **doc.where(("requires", i)))
        given = set(base.split("+")[1:]) | in_base  # a required option the base already has is not added twice
        return load_ruleset("+".join([base, *(r for r in required if r not in given), option]), cache=False)
    return load_ruleset(str(path), cache=False)


def _looks_like_option(data: dict) -> bool:
    """An option file: it has a patch, or none of a ruleset's keys and a name or option-only keys
    (a ruleset that also has ``requires`` is a ruleset with an unknown key)."""
    if "patch" in data:
        return True
    return not {"extends", "features", "tiles"} & set(data) and bool({"name", "requires", "conflicts"} & set(data))


def yaml_text(value: Any) -> str:
    """A value as one line of YAML (``true``, ``{a: 1}``, ``[N, E]``)."""
    return _scalar(value)


class _Dumper(yaml.SafeDumper):
    """PyYAML's safe dumper, but a string holding a character a terminal acts on
    (:data:`~engine.errors.UNSAFE`: U+2028/U+2029, an escape, a bidirectional control) is
    written double-quoted, the one YAML style with escapes: PyYAML would write U+2028 in a
    single-quoted scalar as it is, a line break to a terminal."""


def _quoted_if_unsafe(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    if UNSAFE.search(data):
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style='"')
    return dumper.represent_str(data)


_Dumper.add_representer(str, _quoted_if_unsafe)


def _scalar(value: Any) -> str:
    text = (yaml.dump(value, Dumper=_Dumper, default_flow_style=True, width=10_000, allow_unicode=True).strip()
            .removesuffix("...").strip())
    # Double-quoted, PyYAML escapes the controls and the separators (\e, \r, \L, \P) but writes
    # the bidirectional controls as they are (printable to YAML): \uXXXX is their YAML escape too.
    return UNSAFE.sub(lambda found: f"\\u{ord(found.group(0)):04x}", text)


def _emit(doc: Document, value: Any, path: JsonPath, indent: int, lines: list[str], origins: bool) -> None:
    pad = "  " * indent
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        here = (*path, key)
        label = f"{pad}{_scalar(key)}:" if isinstance(value, dict) else f"{pad}-"
        container = isinstance(item, (dict, list)) and item and (
            not _flat(item) or (origins and isinstance(item, dict)))  # origins: one per leaf
        chain = origin_chain(doc, here) if origins else []
        note = f"  # {origin_text(doc, here, key=bool(container))}" if origins else ""
        if len(chain) > 1:
            note += f", {_relation(chain[0], chain[1])}:"
        note = printable(note)  # a comment: file and ruleset names as visible escapes
        lines.append(label + note if container else f"{label} {_scalar(item)}{note}")
        for i, layer in enumerate(chain[1:], start=1):
            shown = "(nothing: deleted)" if layer.value is None else _scalar(layer.value)
            how = f", {_relation(layer, chain[i + 1])}:" if i + 1 < len(chain) else ""
            lines.append(f"{pad}  #   {shown}  # {printable(f'{layer.origin} ({layer.name}){how}')}")
        if container:
            _emit(doc, item, here, indent + 1, lines, origins)


def _flat(value: Any) -> bool:
    """Small mappings and lists of scalars print on one line (like a segment)."""
    children = value.values() if isinstance(value, dict) else value
    return all(not isinstance(c, (dict, list)) or (isinstance(c, list) and all(
        not isinstance(x, (dict, list)) for x in c)) for c in children) and len(value) <= 6


def _diff(doc_a: Document, doc_b: Document, a: Any, b: Any, path: JsonPath, out: list) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in [*a, *(k for k in b if k not in a)]:
            if not path and key in IDENTITY_KEYS:
                continue
            _diff(doc_a, doc_b, a.get(key), b.get(key), (*path, key), out)
    elif a != b:
        out.append((json_path(path), a, b, _composed_origin(doc_a, path) if a is not None else "",
                    _composed_origin(doc_b, path) if b is not None else ""))


def _composed_origin(doc: Document, path: JsonPath) -> str:
    chain = origin_chain(doc, path)
    return chain[0].origin + (f"; {chain_text(chain)}" if len(chain) > 1 else "")
