"""What can still be checked in a ruleset the schema rejects: errors in one pass.

:func:`~engine.rules.validate.check` reports every schema error of a ruleset at
once; this module adds, to the same report, the meaning errors of the parts the
schema did not reject, so a user sees every error a file has in one run instead
of the formula errors only once the schema errors are fixed::

    more = beyond_schema(doc, broken, rejected)   # broken: the paths the schema rejected

The parts are the **units** of a ruleset: each entry of a mapping of named
entries (a feature kind, a tile type, a follower type, a bonus, a trigger, a
constraint, a constant, a seat) and each other top-level key (``players``,
``deck``, ``rules``, …).  A unit holding a schema error is left out, and so is
every unit that reads it (:func:`_closure`): one that names it (a tile naming a
broken kind, a formula reading a broken constant or ``own_T`` of a broken
follower type, a bonus reading a broken kind's token), a tile whose edges show a
letter that only a left-out kind could explain, a follower type without
``kinds`` (it goes on every kind) when a kind is left out, the seats when
``players`` is; the search takes time about linear in the ruleset
(:class:`_Closure`).  What is left (which the schema must accept, but for having
no tile type left) goes through the
checks loading does on kinds, formulas, tiles, constraints, bonuses, follower
types, triggers, seats and the tie-break kind (:func:`_meaning`); the checks of
the deck and of ``players`` wait for the schema errors to be fixed (they are
made inline in the compiled ``compile_ruleset``).  The formulas of the units
left out are still parsed (:func:`_syntax`): a formula's syntax is its own, so
only a formula that is not text at all goes unchecked.

Nothing here may fail on what the schema rejected: the units it reads are the
ones left in, and those it only parses are reached through ``isinstance`` tests.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from ..errors import Diagnostic, UserError
from .bonuses import compile_bonuses
from .completes import is_formula
from .constraints import compile_constraints
from .follower_types import compile_follower_types
from .formula import names_previous
from .formula_syntax import Source, parse
from .kinds import compile_kinds
from .problems import Problems
from .seats import compile_seats
from .source import Document, JsonPath, value_at
from .ties import compile_tie_break
from .tiles import WILD, EdgeCodes, compile_tile
from .triggers import compile_triggers

__all__ = ["beyond_schema", "errors_beside"]

#: The top-level mappings whose entries are units of their own.
NAMED = ("features", "tiles", "follower_types", "bonuses", "triggers", "constraints", "constants", "seats")
#: The keys of a unit that hold formulas (a formula, or a mapping of named parts).
_FORMULA_KEYS = {"features": ("completion",), "bonuses": ("value", "points"), "follower_types": ("strength", "score"),
                 "triggers": ("score",)}
_SCORING = ("complete", "incomplete", "final")
#: Where :func:`_closure` keeps the attributes of the kinds left out: bonus formulas read tokens.
TOKENS = "tokens"
#: The sections whose names each section's units read (a top-level unit may read any): a tile its
#: segments' kinds, a formula constants, ``own_T`` inputs and a kind's aggregates and tokens, ...
_READS = {"tiles": ("features",), "features": ("features", "constants", "follower_types"),
          "follower_types": ("features", "follower_types", "constants"), "bonuses": ("features", "constants", TOKENS),
          "triggers": ("features", "follower_types", "constants"), "constraints": ("features", "tiles"),
          "seats": ("follower_types",), "constants": ()}
#: Top-level keys for people, which no check reads: never left out for what they mention.
_UNREAD = ("name", "description", "source")

Unit = tuple[str, ...]


def beyond_schema(doc: Document, broken: list[JsonPath],
                  rejected: Callable[[Any], list[JsonPath]]) -> list[Diagnostic]:
    """The errors of the ruleset ``doc`` beside its schema errors, which sit at the paths ``broken``
    (``rejected`` gives those of any data under the ruleset schema): the meaning errors of the units
    the errors leave sound, the syntax errors of the formulas of the others (see the module docstring).

    A bug found on the way costs only these errors, never the schema's: they are reported, and
    loading finds the rest (and the bug) once they are fixed."""
    try:
        return errors_beside(doc, broken, rejected)
    except Exception:  # noqa: BLE001 — see above; tests call errors_beside, which lets it through
        return []


def errors_beside(doc: Document, broken: list[JsonPath],
                  rejected: Callable[[Any], list[JsonPath]]) -> list[Diagnostic]:
    """:func:`beyond_schema`, letting any exception through."""
    data = doc.data
    if not isinstance(data, dict):
        return []
    units = _units(data)
    left_out = {_unit(path) for path in broken}
    left_out |= {unit for unit in units if unit[:1] in left_out}  # a section rejected whole: all of it
    checked: set[Unit] = set()
    if () not in left_out:
        left_out = _closure(doc, units, left_out)
        clean = _without(data, left_out)
        still = set(map(tuple, rejected(clean)))
        # With every tile type left out, the kinds and what reads them can still be checked.
        if not still or (still == {("tiles",)} and not clean.get("tiles")):
            clean["tiles"] = clean.get("tiles") or {}
            checked = set(units) - left_out
    found: list[Diagnostic] = []
    if checked:
        found += _meaning(replace(doc, data=clean))
    for unit in units:
        if unit not in checked:
            found += _syntax(doc, unit, broken)
    return found


def _units(data: dict) -> list[Unit]:
    """Every unit of the ruleset ``data``, in document order."""
    found: list[Unit] = []
    for key, value in data.items():
        if key in NAMED and isinstance(value, dict):
            found += [(key, name) for name in value]
        else:
            found.append((key,))
    return found


def _unit(path: JsonPath) -> Unit:
    """The unit that ``path`` lies in; ``()`` for the whole document."""
    return tuple(path[:2] if len(path) >= 2 and path[0] in NAMED else path[:1])


def _value(data: dict, unit: Unit) -> Any:
    """The value of ``unit`` (one that :func:`_units` lists) in ``data``."""
    return data[unit[0]] if len(unit) == 1 else data[unit[0]][unit[1]]


def _closure(doc: Document, units: list[Unit], left_out: set[Unit]) -> set[Unit]:
    """``left_out`` with every unit that reads one of them, and those that read these, and so on."""
    closure = _Closure(doc, units)
    # A kind an overlay deleted: tiles with its segments are reported by loading, not checked here.
    closure.queue += [("features", path[1]) for path in doc.deleted if len(path) == 2 and path[0] == "features"]
    for unit in left_out:
        closure.leave(unit)
    closure.run()
    return closure.left_out


class _Closure:
    """Leaves out the units that read a unit left out (see the module docstring), in time about
    linear in the ruleset: each unit's words are indexed once, and each name left out is looked
    for in the units that have its longest word."""

    def __init__(self, doc: Document, units: list[Unit]) -> None:
        self.data = doc.data
        self.left_out: set[Unit] = set()
        self.queue: list[tuple[str, str]] = []  # (section, name) of the names left out, to look for
        self.unknown: set[str] = set()  # sections whose names cannot be known (what reads them goes)
        self.texts: dict[Unit, list[str]] = {}
        self.index: dict[str, list[Unit]] = {}
        self.by_letter: dict[str, list[Unit]] = {}
        self.letters: dict[str, int] = {}  # edge letter -> how many kinds left in have it
        self.kinds_out = False
        for unit in units:
            value = _value(self.data, unit)
            if unit[0] in _UNREAD:
                continue
            texts = list(_texts(value))
            if names_previous(value):
                texts += _earlier_texts(doc, unit)  # what previous stands for reads what it reads
            self.texts[unit] = texts
            for word in {word for text in texts for word in _WORD.findall(text)}:
                self.index.setdefault(word, []).append(unit)
            if unit[0] == "features" and isinstance(value, dict) and isinstance(value.get("edge"), str):
                self.letters[value["edge"]] = self.letters.get(value["edge"], 0) + 1
            if unit[0] == "tiles" and isinstance(value, dict) and isinstance(value.get("edges"), str):
                for letter in set(value["edges"]):
                    self.by_letter.setdefault(letter, []).append(unit)

    def run(self) -> None:
        """Look for every name left out, leaving out the units that read it, until none is left."""
        while self.queue:
            section, name = self.queue.pop()
            words = _WORD.findall(name)
            found = re.compile(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])")
            for unit in self.index.get(max(words, key=len), []) if words else list(self.texts):
                if (unit not in self.left_out and section in _readers(unit)
                        and any(found.search(text) for text in self.texts[unit])):
                    self.leave(unit)

    def leave(self, unit: Unit) -> None:
        """Leave ``unit`` out, with what reads it beyond its names: the tiles whose edge letter no kind
        left in has, the follower types without ``kinds``, the seats after ``players``."""
        if unit in self.left_out or unit == ():
            return
        self.left_out.add(unit)
        names, known = _declared(self.data, unit)
        self.queue += names
        if unit[0] in NAMED and len(unit) == 1 and not isinstance(self.data.get(unit[0]), dict):
            self._unknown(unit[0])  # a section rejected whole that is no mapping
        if not known:
            self._unknown(TOKENS)
        if unit == ("players",):
            self._each(lambda other: other[0] == "seats")  # a seat past players.max
        if unit[0] != "features" or len(unit) != 2 or unit not in self.texts:
            return
        spec = self.data["features"][unit[1]]
        letter = spec.get("edge") if isinstance(spec, dict) else None
        if isinstance(letter, str):
            self.letters[letter] -= 1
        if not self.kinds_out:  # the first kind left out: every type that goes on every kind goes
            self.kinds_out = True
            self._each(lambda other: other[0] == "follower_types" and _without_kinds(self.data, other))
            self._each(lambda other: other[0] == "tiles" and not self._explained(other))
        elif isinstance(letter, str) and not self.letters[letter]:
            for tile in self.by_letter.get(letter, ()):
                self.leave(tile)

    def _unknown(self, section: str) -> None:
        """``section``'s names cannot be known: leave out every unit that reads it."""
        if section not in self.unknown:
            self.unknown.add(section)
            self._each(lambda other: section in _readers(other))

    def _each(self, test: Callable[[Unit], bool]) -> None:
        """Leave out every unit that passes ``test``."""
        for unit in list(self.texts):
            if test(unit):
                self.leave(unit)

    def _explained(self, tile: Unit) -> bool:
        """Whether each edge letter of ``tile`` is that of a kind left in (or wild)."""
        edges = _value(self.data, tile).get("edges") if isinstance(_value(self.data, tile), dict) else None
        return isinstance(edges, str) and all(letter == WILD or self.letters.get(letter) for letter in edges)


_WORD = re.compile(r"[A-Za-z0-9]+")


def _readers(unit: Unit) -> tuple[str, ...]:
    """The sections whose names ``unit`` reads (:data:`_READS`; a top-level unit: any)."""
    return _READS.get(unit[0], (*NAMED, TOKENS)) if len(unit) == 2 else (*NAMED, TOKENS)


def _without_kinds(data: dict, unit: Unit) -> bool:
    """Whether the follower type ``unit`` goes on every kind (it has no ``kinds``)."""
    spec = _value(data, unit)
    return isinstance(spec, dict) and "kinds" not in spec


def _declared(data: dict, unit: Unit) -> tuple[list[tuple[str, str]], bool]:
    """``(section, name)`` of the names other units read ``unit`` by: a named entry's name, and a
    feature kind's attributes and tokens (under :data:`TOKENS`: bonus formulas read tokens); and
    whether those could all be read (a kind's attributes may be broken)."""
    section = data.get(unit[0])
    if len(unit) == 1 or not isinstance(section, dict) or unit[1] not in section:
        return [], True
    spec = section[unit[1]]
    if unit[0] != "features":
        return [(unit[0], unit[1])], True
    if not isinstance(spec, dict):
        return [(unit[0], unit[1])], False
    attributes, rewards = spec.get("attributes", []), spec.get("rewards", {})
    listed = rewards.get("tokens", []) if isinstance(rewards, dict) else None
    if not isinstance(attributes, (list, dict)) or not isinstance(listed, list):
        return [(unit[0], unit[1])], False
    return [(unit[0], unit[1]), *((TOKENS, name) for name in [*attributes, *listed] if isinstance(name, str))], True


def _texts(value: Any) -> Iterator[str]:
    """Every text in ``value``, keys included, but for descriptions (for people, not read)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            if key != "description":
                yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


def _earlier_texts(doc: Document, under: JsonPath) -> Iterator[str]:
    """The texts of the values that those at or under ``under`` replaced, and of those these replaced."""
    for path, (before, at) in doc.earlier.items():
        if tuple(path[:len(under)]) == tuple(under):
            yield from _texts(value_at(before.data, at))
            yield from _earlier_texts(before, at)


def _without(data: dict, left_out: set[Unit]) -> dict:
    """``data`` without the units ``left_out`` (a new mapping; ``data`` is not changed); a
    ruleset without its name gets one, which no check reads."""
    clean = {key: value for key, value in data.items() if (key,) not in left_out}
    for section in NAMED:
        if isinstance(clean.get(section), dict):
            clean[section] = {name: spec for name, spec in clean[section].items() if (section, name) not in left_out}
    if ("name",) in left_out:
        clean["name"] = "ruleset"
    return clean


def _meaning(doc: Document) -> list[Diagnostic]:
    """The errors of the schema-valid ruleset ``doc`` that the checks of kinds, formulas, tiles,
    constraints, bonuses, follower types, triggers, seats and the tie-break find, in the order
    loading makes them (engine/rules/ruleset.py, ``compile_ruleset``)."""
    data = doc.data
    problems = Problems(doc)
    kinds = compile_kinds(doc, problems)
    if any(d.code == "edge-letter" for d in problems.found):
        return problems.found  # tiles cannot be read while letters clash
    kind_index = {k.name: k.index for k in kinds}
    codes = EdgeCodes()
    tiles = [tile for index, (tile_id, spec) in enumerate(data["tiles"].items())
             if (tile := compile_tile(tile_id, spec, index, kinds, kind_index, codes, problems)) is not None]
    compile_constraints(data.get("constraints", {}), kinds, {t.id: t.index for t in tiles}, problems)
    bonuses = compile_bonuses(doc, kinds, problems)
    follower_types = compile_follower_types(doc, kinds, problems)
    compile_triggers(doc, follower_types, kinds, problems)
    players = data.get("players", {"min": 2, "max": 5})
    compile_seats(doc, follower_types, kinds, bonuses, players["max"], problems)
    compile_tie_break(doc, kinds, problems)
    return problems.found


def _syntax(doc: Document, unit: Unit, broken: list[JsonPath]) -> list[Diagnostic]:
    """The syntax errors of the formulas of a unit left out, each one that is text and that
    the schema did not reject itself (its type, its length)."""
    found = []
    for path, text in _formulas(doc.data, unit):
        if any(tuple(bad[:len(path)]) == path for bad in broken):
            continue
        try:
            parse(Source(text, **doc.where(path)))
        except UserError as error:
            found += error.diagnostics
    return found


def _formulas(data: dict, unit: Unit) -> Iterator[tuple[JsonPath, str]]:
    """``(path, text)`` of every formula of ``unit`` that is text (a formula, or a part of one)."""
    if len(unit) != 2 or unit[0] not in _FORMULA_KEYS:
        return
    spec = _value(data, unit)
    if not isinstance(spec, dict):
        return
    places: list[tuple[JsonPath, Any]] = [(unit + (key,), spec.get(key)) for key in _FORMULA_KEYS[unit[0]]]
    scoring = spec.get("scoring") if unit[0] == "features" else None
    if isinstance(scoring, dict):
        places += [(unit + ("scoring", when), scoring.get(when)) for when in _SCORING]
    for path, value in places:
        if isinstance(value, str) and (path[-1] != "completion" or is_formula(value)):
            yield path, value
        elif isinstance(value, dict) and path[-1] != "completion":
            yield from ((path + (name,), part) for name, part in value.items() if isinstance(part, str))
