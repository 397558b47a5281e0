"""PyYAML node graphs read the YAML 1.2 way: composing text into nodes, building plain data from them.

Why not ``yaml.safe_load``: PyYAML implements YAML 1.1, where ``on``/``no``
are booleans and ``017`` is octal, and it silently keeps the last of two
duplicate keys.  Here PyYAML (libyaml when available) only parses and composes
the node tree (:func:`compose`); :class:`Builder` builds the values itself with
YAML 1.2 core-schema scalars, expands aliases and ``<<`` merges, records where
each value and key starts, and collects structural problems (duplicate keys,
non-string keys, bad tags, ...) as :class:`Problem` records.
:func:`engine.rules.source.load_yaml` puts the two together.

    >>> builder = Builder("t.yaml")
    >>> builder.build(compose("a: [on, 017, 0x1F, .inf, ~]\\n", "t.yaml"), ())
    {'a': ['on', 17, 31, inf, None]}
    >>> builder.marks[("a", 1)]
    (1, 9)
"""

from __future__ import annotations

import math
import re
from typing import Any, NamedTuple

import yaml

from ..errors import UserError

__all__ = ["MAX_DEPTH", "MAX_VALUES", "Builder", "Problem", "compose"]

# libyaml's C parser composes ~15x faster than the pure-Python one; loading a whole
# ruleset (and validating it) has to stay well under 100 ms.
_BaseLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# A pseudo-tag for plain (unquoted, untagged) scalars: PyYAML's resolver would
# apply YAML 1.1 rules to them, so we ask it to leave them alone and resolve
# them with YAML 1.2 core rules in Builder.scalar instead.
_PLAIN = "!<plain>"
_TAG = "tag:yaml.org,2002:"
_STR_TAG, _INT_TAG, _FLOAT_TAG, _BOOL_TAG, _NULL_TAG = (_TAG + t for t in ("str", "int", "float", "bool", "null"))
_MAP_TAG, _SEQ_TAG = _TAG + "map", _TAG + "seq"

# Generous for hand-written files, small enough that an alias bomb
# ("billion laughs") fails fast instead of eating the machine.
MAX_VALUES = 1_000_000
# Lists, mappings and '<<' merges nested in one another: rulesets, scenarios and records
# need under ten, and every later step (schema, merging, hashing) recurses once a level.
MAX_DEPTH = 32

# The same as engine.rules.source.Mark and .JsonPath (spelled out: that module imports this one).
_Mark = tuple[int, int]
_Path = tuple[Any, ...]  # str mapping keys and int list indices


def _make_loader(base: type) -> type:
    """A composer on ``base`` (CSafeLoader or SafeLoader) that tags plain scalars :data:`_PLAIN`."""

    class Loader(base):  # type: ignore[misc, valid-type]
        def resolve(self, kind: type, value: Any, implicit: tuple[bool, bool]) -> str:
            if kind is yaml.ScalarNode and implicit[0]:
                return _PLAIN
            return super().resolve(kind, value, implicit)

    return Loader


_Loader = _make_loader(_BaseLoader)


def compose(text: str, file: str) -> yaml.Node | None:
    """The node graph of the one YAML document in ``text`` (None for an empty one).

    Plain scalars come tagged :data:`_PLAIN`, for :class:`Builder` to resolve.
    Raises :class:`UserError` ``yaml-syntax`` (located at ``file``) for text
    that is not well-formed YAML.
    """
    try:
        return yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(exc, file) from None
    except yaml.YAMLError as exc:  # ReaderError (control characters) carries no line
        raise UserError(str(exc).replace("\n", " "), file=file, code="yaml-syntax") from None


def _syntax_error(exc: yaml.MarkedYAMLError, file: str) -> UserError:
    """Turn PyYAML's problem/context pair into one short located message."""
    mark = exc.problem_mark or exc.context_mark
    message = exc.problem or exc.context or "invalid YAML"
    if exc.context and exc.problem:
        context = exc.context
        if exc.context_mark is not None and (mark is None or exc.context_mark.line != mark.line):
            context += f" at line {exc.context_mark.line + 1}"
        message += f" ({context})"
    if exc.context == "while scanning an alias" or exc.problem == "found undefined alias":
        # `edges: ****` or `edges: *FFF`: a bare * starts an alias in YAML
        message += "; a value that starts with '*' (a wild edge, '*FFF') must be quoted"
    location: dict[str, Any] = {"file": file, "code": "yaml-syntax"}
    if mark is not None:
        location.update(line=mark.line + 1, col=mark.column + 1)
    return UserError(message, **location)


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_TAG):] if tag.startswith(_TAG) else tag


def _mark_of(node: yaml.Node) -> _Mark:
    # A quoted scalar's text starts after its quote: formula columns count from there.
    quoted = isinstance(node, yaml.ScalarNode) and node.style in ("'", '"')
    return (node.start_mark.line + 1, node.start_mark.column + 1 + quoted)


# YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1023-core-schema).
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT10 = re.compile(r"[-+]?[0-9]+\Z")
_INT8 = re.compile(r"0o[0-7]+\Z")
_INT16 = re.compile(r"0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_INF = re.compile(r"[-+]?\.(?:inf|Inf|INF)\Z")
_NAN = re.compile(r"\.(?:nan|NaN|NAN)\Z")
# Plain scalars whose first character can't start a number, bool or null are
# strings without running any regex (most scalars in a ruleset).
_MAYBE_SPECIAL = frozenset("0123456789+-.~nNtTfF")

_NO = object()  # "does not resolve as this type"


def _as_null(text: str) -> Any:
    return None if text in _NULLS else _NO


def _as_bool(text: str) -> Any:
    return _BOOLS.get(text, _NO)


def _as_int(text: str) -> Any:
    try:
        if _INT10.match(text):
            return int(text, 10)  # "017" is 17 in YAML 1.2, not octal 15
        if _INT8.match(text):
            return int(text[2:], 8)
        if _INT16.match(text):
            return int(text[2:], 16)
    except ValueError:  # more digits than Python converts; keep the text
        pass
    return _NO


def _as_float(text: str) -> Any:
    if _FLOAT.match(text):
        return float(text)
    if _INF.match(text):
        return -math.inf if text[0] == "-" else math.inf
    if _NAN.match(text):
        return math.nan
    return _NO


def _resolve_plain(text: str) -> Any:
    if text and text[0] not in _MAYBE_SPECIAL:
        return text
    for resolve in (_as_null, _as_bool, _as_int, _as_float):
        value = resolve(text)
        if value is not _NO:
            return value
    return text


def _as_int_or_float(text: str) -> Any:
    value = _as_int(text)
    return float(value) if value is not _NO else _as_float(text)


# Explicitly tagged scalars (`!!int "7"`) must resolve as their tag says.
_EXPLICIT = {_NULL_TAG: _as_null, _BOOL_TAG: _as_bool, _INT_TAG: _as_int, _FLOAT_TAG: _as_int_or_float}


class Problem(NamedTuple):
    """A structural problem in the document: where its node starts, what is wrong, and the error code."""

    line: int
    col: int
    message: str
    path: _Path
    code: str


class Builder:
    """Walks a composed node graph once, building values and recording marks.

    Problems are collected in ``problems`` (keyed by position and message, so
    a node reached through several aliases reports once) for the caller to raise.
    """

    def __init__(self, file: str, text: str = "") -> None:
        self.file = file
        self.lines = text.splitlines()
        self.marks: dict[_Path, _Mark] = {}
        self.key_marks: dict[_Path, _Mark] = {}
        self.problems: dict[tuple[int, int, str], Problem] = {}
        self.count = 0
        self.active: set[int] = set()  # ids of collections being built: an alias cycle shows up here

    def _value_mark(self, node: yaml.Node) -> _Mark:
        """Where a value's text starts: for a block scalar (``|``, ``>``) the first
        content line after its indicator, so formula columns land on the text."""
        if isinstance(node, yaml.ScalarNode) and node.style in ("|", ">"):
            for index in range(node.start_mark.line + 1, min(node.end_mark.line + 1, len(self.lines))):
                line = self.lines[index]
                if line.strip():
                    return index + 1, len(line) - len(line.lstrip()) + 1
        return _mark_of(node)

    def error(self, node: yaml.Node, path: _Path, message: str, code: str) -> None:
        line, col = _mark_of(node)
        key = (line, col, message)
        if key not in self.problems:
            self.problems[key] = Problem(line, col, message, path, code)

    def build(self, node: yaml.Node, path: _Path) -> Any:
        self.count += 1
        if self.count > MAX_VALUES:
            raise UserError(
                f"more than {MAX_VALUES} values after expanding aliases",
                file=self.file, line=_mark_of(node)[0], col=_mark_of(node)[1], code="yaml-too-large",
            )
        self.marks[path] = self._value_mark(node)
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node, path)
        if id(node) in self.active:
            self.error(node, path, "alias refers to a node that contains it", "yaml-alias")
            return None
        self._deeper(node)
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                if node.tag != _SEQ_TAG:
                    self.error(node, path, f"unsupported tag {_short_tag(node.tag)}", "yaml-tag")
                return [self.build(item, path + (index,)) for index, item in enumerate(node.value)]
            if node.tag != _MAP_TAG:
                self.error(node, path, f"unsupported tag {_short_tag(node.tag)}", "yaml-tag")
            result: dict[str, Any] = {}
            for key, key_node, value_node in self.entries(node, path):
                entry = path + (key,)
                self.key_marks[entry] = _mark_of(key_node)
                result[key] = self.build(value_node, entry)
            return result
        finally:
            self.active.discard(id(node))

    def _deeper(self, node: yaml.Node) -> None:
        """Refuse to build ``node``, a collection or merge source, inside :data:`MAX_DEPTH` others."""
        if len(self.active) >= MAX_DEPTH:  # `active` holds exactly the collections and merges being built
            line, col = _mark_of(node)
            raise UserError(f"more than {MAX_DEPTH} lists, mappings and '<<' merges nested in one another",
                            file=self.file, line=line, col=col, code="yaml-too-large")

    def scalar(self, node: yaml.ScalarNode, path: _Path) -> Any:
        text = node.value
        if node.tag == _PLAIN:
            return _resolve_plain(text)
        if node.tag == _STR_TAG:
            return text
        resolve = _EXPLICIT.get(node.tag)
        if resolve is None:
            self.error(node, path, f"unsupported tag {_short_tag(node.tag)}", "yaml-tag")
            return text
        value = resolve(text)
        if value is _NO:
            self.error(node, path, f"{text!r} is not a valid {_short_tag(node.tag)}", "yaml-tag")
            return text
        return value

    def key(self, node: yaml.Node, path: _Path) -> str | None:
        """The string a key node stands for, or None after recording why it isn't one."""
        if isinstance(node, yaml.ScalarNode):
            value = self.scalar(node, path)
            if isinstance(value, str):
                return value
            shown = "null" if value is None else str(value).lower() if isinstance(value, bool) else node.value
            self.error(node, path, f"mapping key {shown} is not a string (quote it: '{node.value}')", "yaml-key")
        else:
            kind = "list" if isinstance(node, yaml.SequenceNode) else "mapping"
            self.error(node, path, f"mapping key is a {kind}, not a string", "yaml-key")
        return None

    def entries(self, node: yaml.MappingNode, path: _Path) -> list[tuple[str, yaml.Node, yaml.Node]]:
        """``(key, key_node, value_node)`` in document order, ``<<`` merges expanded.

        Explicit keys win over merged ones, and earlier merge sources over
        later ones (YAML 1.1 merge-key semantics, which people use with
        anchors even in otherwise-1.2 files).
        """
        # Resolve each key once (None marks a `<<` merge entry); bad keys are reported and dropped.
        keyed: list[tuple[Any, yaml.Node, yaml.Node]] = []
        explicit: dict[str, yaml.Node] = {}
        for key_node, value_node in node.value:
            if _is_merge_key(key_node):
                keyed.append((None, key_node, value_node))
                continue
            key = self.key(key_node, path)
            if key is None:
                continue
            first = explicit.get(key)
            if first is not None:
                self.error(
                    key_node, path + (key,),
                    f"duplicate key {key!r} (first at line {first.start_mark.line + 1})", "yaml-duplicate-key",
                )
                continue
            explicit[key] = key_node
            keyed.append((key, key_node, value_node))

        out: list[tuple[str, yaml.Node, yaml.Node]] = []
        seen: set[str] = set()
        for key, key_node, value_node in keyed:
            if key is not None:
                seen.add(key)
                out.append((key, key_node, value_node))
                continue
            for merged_key, merged_key_node, merged_value in self.merged(value_node, path):
                if merged_key not in explicit and merged_key not in seen:
                    seen.add(merged_key)
                    out.append((merged_key, merged_key_node, merged_value))
        return out

    def merged(self, node: yaml.Node, path: _Path) -> list[tuple[str, yaml.Node, yaml.Node]]:
        sources = node.value if isinstance(node, yaml.SequenceNode) else [node]
        out: list[tuple[str, yaml.Node, yaml.Node]] = []
        for source in sources:
            if not isinstance(source, yaml.MappingNode):
                self.error(source, path, "a '<<' merge needs a mapping or a list of mappings", "yaml-merge")
                continue
            if id(source) in self.active:
                self.error(source, path, "alias refers to a node that contains it", "yaml-alias")
                continue
            self._deeper(source)
            self.active.add(id(source))
            try:
                out.extend(self.entries(source, path))
            finally:
                self.active.discard(id(source))
        return out


def _is_merge_key(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.tag == _PLAIN and node.value == "<<"
