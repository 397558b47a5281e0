"""Check loaded documents against the JSON Schemas in ``rulesets/schema/``.

The schemas (draft 2020-12) are the single description of the file formats:
editors use them for completion and help, and :func:`check` uses them to
report *every* structural problem at once, each at the line and column of the
offending value::

    doc = load_yaml("rulesets/basic.yaml")
    check(doc, "ruleset")          # raises UserError listing all problems, or returns None

Messages are rewritten to be short and human ("unknown key 'cuont' (did you
mean 'count'?)") rather than jsonschema's defaults.  A schema may tailor a
message with the ``errorMessage`` keyword (as ajv-errors spells it; draft
2020-12 treats unknown keywords as annotations): either one string, or a
mapping from a validation keyword (``pattern``, ``type``, ``required``, ...)
to a string.  ``{value}`` in it becomes the offending value, ``{key}`` the
offending key.

Every diagnostic has code ``schema``, but for a ruleset: its errors come in one
pass, so :func:`check` adds the errors of the parts of it the schema accepts
(formulas, tiles, triggers, …; :mod:`engine.rules.unbroken`) to the schema's own.

Schema authors: avoid ``false`` subschemas (``properties: {at: false}``):
jsonschema reports them without the key's path, so they can't be located;
forbid keys with ``propertyNames: {enum: [...]}`` instead.
"""

from __future__ import annotations

import difflib
import functools
import json
import re
from typing import TYPE_CHECKING, Any, Iterator

from ..errors import Diagnostic, UserError
from ..resources import rulesets_dir
from .build_cache import cache_key, cached_code
from .source import Document

if TYPE_CHECKING:  # jsonschema is imported lazily: importing it costs ~70 ms of start-up
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

__all__ = ["schema", "check", "SCHEMA_DIR"]


SCHEMA_DIR = rulesets_dir() / "schema"


@functools.cache
def schema(name: str) -> dict[str, Any]:
    """The parsed schema ``{name}.schema.json`` (``ruleset``, ``scenario``, ``record``).

    Loaded once and cached: treat the result as read-only.  An unknown name
    or a broken schema file is a bug in the engine, not bad user input, so it
    raises ``ValueError`` / ``OSError`` rather than :class:`UserError`.
    """
    file = SCHEMA_DIR / f"{name}.schema.json"
    if not file.is_file():
        raise ValueError(f"no schema named {name!r} in {SCHEMA_DIR}")
    return json.loads(file.read_text(encoding="utf-8"))


@functools.cache
def _validator(name: str) -> "Draft202012Validator":
    from jsonschema import Draft202012Validator, validators

    # JSON Schema counts 2.0 as an integer; the engine indexes with these
    # values, so only true ints pass.
    strict = Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _, value: isinstance(value, int) and not isinstance(value, bool))
    validator = validators.extend(Draft202012Validator, type_checker=strict)
    # No check_schema() here: checking against the metaschema costs ~40 ms per
    # process; tests/test_source.py checks every shipped schema instead.
    return validator(schema(name))


@functools.cache
def _fast(name: str) -> Any:
    import copy

    import fastjsonschema

    # Generating the checker is most of a short command's start-up: its bytecode is kept on disk.
    text = json.dumps(schema(name), sort_keys=True)
    def source() -> str:
        code = fastjsonschema.compile_to_code(copy.deepcopy(schema(name)))  # it edits the schema it is given
        root = re.search(r"^def (\w+)", code, re.M)  # the generator writes the root schema's function first
        assert root is not None, "fastjsonschema generated no function"
        return f"{code}\nvalidate = {root[1]}\n"

    namespace: dict[str, Any] = {}
    exec(cached_code(f"{name}-schema", cache_key(text, fastjsonschema.VERSION), source), namespace)
    return namespace["validate"]


def _quickly_valid(data: Any, schema_name: str) -> bool:
    """A fast yes: fastjsonschema compiles the schema to Python (~40x faster than
    jsonschema, which matters when thousands of option combinations load).  It
    only ever says "valid": any doubt — a rejection, a float it would count as an
    integer, an error of its own — sends the document to the full jsonschema
    check, which alone reports problems."""
    if _has_float(data):
        return False
    try:
        _fast(schema_name)(data)
    except Exception:  # invalid, or a case fastjsonschema cannot judge: let jsonschema decide
        return False
    return True


def _has_float(data: Any) -> bool:
    if isinstance(data, float):
        return True
    if isinstance(data, dict):
        return any(_has_float(v) for v in data.values())
    if isinstance(data, list):
        return any(_has_float(v) for v in data)
    return False


def check(doc: Document, schema_name: str) -> None:
    """Validate ``doc.data`` against the named schema.

    Returns None when valid.  Otherwise raises :class:`UserError` with one
    :class:`Diagnostic` (code ``schema``) per problem, sorted by position,
    each located with ``doc.where`` at the offending value, or at the key for
    unknown keys, bad ids and missing keys (the entry that lacks them).  For a
    ruleset, the errors of the parts the schema accepts come with them
    (:func:`~engine.rules.unbroken.beyond_schema`), all sorted by file and position.
    """
    if _quickly_valid(doc.data, schema_name):
        return
    validator = _validator(schema_name)
    root = schema(schema_name)
    found: dict[tuple[Any, ...], Diagnostic] = {}
    broken: list[tuple[Any, ...]] = []
    for error in validator.iter_errors(doc.data):
        broken += _rejected(error)
        for diagnostic in _diagnostics(error, doc, root):
            # if/then and $ref can report one problem twice; show it once.
            found.setdefault((diagnostic.line, diagnostic.col, diagnostic.path, diagnostic.message), diagnostic)
    if not found:
        return
    ordered = sorted(found.values(), key=lambda d: (d.line or 0, d.col or 0, d.path or "", d.message))
    if schema_name == "ruleset":  # and the errors of the parts the schema accepts: all in one pass
        from .unbroken import beyond_schema

        more = beyond_schema(doc, broken, lambda data: _rejected_in(data, schema_name))
        if more:
            for diagnostic in more:
                found.setdefault((diagnostic.line, diagnostic.col, diagnostic.path, diagnostic.message), diagnostic)
            ordered = sorted(found.values(), key=lambda d: (d.file or "", d.line or 0, d.col or 0, d.path or "",
                                                            d.message))
    raise UserError.from_diagnostics(ordered)


def _rejected_in(data: Any, schema_name: str) -> list[tuple[Any, ...]]:
    """The paths of the values in ``data`` the named schema rejects (:func:`_rejected`); none if it passes."""
    if _quickly_valid(data, schema_name):
        return []
    return [path for error in _validator(schema_name).iter_errors(data) for path in _rejected(error)]


def _rejected(error: "ValidationError") -> list[tuple[Any, ...]]:
    """The paths of the values one error rejects: the value's, or each unknown, misnamed or
    missing key's (an unknown top-level key leaves the rest of the document sound)."""
    path = tuple(error.absolute_path)
    instance = error.instance
    if error.validator == "additionalProperties" and error.validator_value is False and isinstance(instance, dict):
        allowed = error.schema.get("properties", {})
        patterns = list(error.schema.get("patternProperties", {}))
        return [path + (key,) for key in instance
                if key not in allowed and not any(re.search(p, key) for p in patterns)]
    if "propertyNames" in tuple(error.absolute_schema_path):
        return [path + (instance,)]
    if error.validator == "required" and isinstance(instance, dict):
        return [path + (key,) for key in error.validator_value if key not in instance]
    return [path]


# ---------------------------------------------------------------- messages


def _diagnostics(error: "ValidationError", doc: Document, root: dict[str, Any]) -> Iterator[Diagnostic]:
    """One or more located diagnostics for one jsonschema error."""
    path = tuple(error.absolute_path)
    keyword = error.validator
    instance = error.instance
    schema_path = tuple(error.absolute_schema_path)

    def at(message: str, where_path: tuple[Any, ...], *, key: bool = False) -> Diagnostic:
        return Diagnostic(message, code="schema", **doc.where(where_path, key=key))

    if keyword in ("anyOf", "oneOf") and error.context:
        # Report the alternative that got furthest rather than "not valid under any of ...".
        from jsonschema.exceptions import best_match

        # An alternative of another type than the value ("expected a list" for a mapping) says
        # nothing about the value's own mistake: the alternatives of its type speak first.
        same_type = [e for e in error.context if e.validator != "type" or e.path]
        best = best_match(same_type or error.context)
        if best is not None:
            yield from _diagnostics(best, doc, root)
            return

    if keyword == "additionalProperties" and error.validator_value is False and isinstance(instance, dict):
        allowed = list(error.schema.get("properties", {}))
        patterns = list(error.schema.get("patternProperties", {}))
        for key in instance:
            if key in allowed or any(re.search(p, key) for p in patterns):
                continue
            yield at(f"unknown key {key!r}{_suggest(key, allowed)}", path + (key,), key=True)
        return

    if keyword == "required" and isinstance(instance, dict):
        for key in error.validator_value:
            if key not in instance:
                custom = _custom(error, key)
                if (*path, key) in doc.deleted:  # an overlay removed it with `key: null`: point there
                    yield at(f"missing required key {key!r} (deleted here)", (*path, key))
                    continue
                # Point at the key naming the entry that lacks it ("D:" in tiles), the clearest line.
                yield at(custom or f"missing required key {key!r}", path, key=True)
        return

    if "propertyNames" in schema_path:
        # jsonschema reports a bad key at its mapping's path, with the key as instance.
        key = instance
        custom = _custom(error, key)
        message = custom or f"invalid key {_show(key)}: {_message(error)}"
        yield at(message, path + (key,), key=True)
        return

    message = _custom(error) or _message(error)
    if len(schema_path) >= 2 and schema_path[-2] == "additionalProperties" and path and isinstance(path[-1], str):
        # The value of an open-ended key (a segment attribute) failed; if the key
        # looks like a misspelt known key, that is the likelier mistake.
        parent = _walk(root, schema_path[:-2])
        known = list(parent.get("properties", {})) if isinstance(parent, dict) else []
        hint = _suggest(path[-1], known, list_allowed=False)
        if hint:
            yield at(f"unknown key {path[-1]!r}{hint}", path, key=True)
            return
    yield at(message, path)


def _custom(error: "ValidationError", key: Any = None) -> str | None:
    """The schema's ``errorMessage`` for this error, filled in, if it has one."""
    return _fill(error.schema.get("errorMessage") if isinstance(error.schema, dict) else None, error, key)


def _fill(spec: Any, error: "ValidationError", key: Any) -> str | None:
    if isinstance(spec, dict):
        spec = spec.get(error.validator)
    if not isinstance(spec, str):
        return None
    return spec.replace("{value}", _show(error.instance)).replace("{key}", _show(key))


def _walk(root: dict[str, Any], schema_path: tuple[Any, ...]) -> Any:
    """Follow an absolute schema path from the root, through local ``$ref``s.

    jsonschema leaves ``$ref`` out of the paths it reports (and older versions
    put it in), so a step missing from a node that has a ``$ref`` is looked
    up in the referenced schema.
    """
    node: Any = root
    for step in schema_path:
        if step == "$ref" and isinstance(node, dict) and isinstance(node.get("$ref"), str):
            node = _resolve_local(root, node["$ref"])
            continue
        while isinstance(node, dict) and step not in node and isinstance(node.get("$ref"), str):
            node = _resolve_local(root, node["$ref"])
        if isinstance(node, dict):
            node = node.get(step)
        elif isinstance(node, list) and isinstance(step, int) and step < len(node):
            node = node[step]
        else:
            return None
    # The caller wants the object schema itself, which may sit behind a bare {"$ref": ...}.
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) and "properties" not in node:
        node = _resolve_local(root, node["$ref"])
    return node


def _resolve_local(root: dict[str, Any], ref: str) -> Any:
    if not ref.startswith("#"):
        return None  # our schemas only use local references
    node: Any = root
    for part in ref[1:].split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        node = node.get(part) if isinstance(node, dict) else None
    return node


def _suggest(key: str, allowed: list[str], *, list_allowed: bool = True) -> str:
    close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
    if close:
        return f" (did you mean {close[0]!r}?)"
    if list_allowed and allowed and len(allowed) <= 30:
        return " (expected one of " + ", ".join(repr(a) for a in allowed) + ")"
    return ""


_TYPE_WORDS = {
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "boolean": "true or false",
    "object": "a mapping",
    "array": "a list",
    "null": "null",
}


def _message(error: "ValidationError") -> str:
    """A short human message for one failed keyword."""
    keyword, expected, value = error.validator, error.validator_value, error.instance
    if keyword == "type":
        types = expected if isinstance(expected, list) else [expected]
        return f"expected {' or '.join(_TYPE_WORDS.get(t, t) for t in types)}, got {_show(value)}"
    if keyword == "enum":
        return f"{_show(value)} is not one of {', '.join(_show(v) for v in expected)}"
    if keyword == "const":
        return f"expected {_show(expected)}, got {_show(value)}"
    if keyword == "minimum":
        return f"{_show(value)} is less than the minimum of {expected}"
    if keyword == "maximum":
        return f"{_show(value)} is greater than the maximum of {expected}"
    if keyword == "exclusiveMinimum":
        return f"{_show(value)} must be greater than {expected}"
    if keyword == "exclusiveMaximum":
        return f"{_show(value)} must be less than {expected}"
    if keyword == "minItems":
        return f"expected at least {_count(expected, 'item')}, got {len(value)}"
    if keyword == "maxItems":
        return f"expected at most {_count(expected, 'item')}, got {len(value)}"
    if keyword == "minProperties":
        return f"expected at least {_count(expected, 'entry', 'entries')}"
    if keyword == "uniqueItems":
        seen: list[Any] = []
        for item in value:
            if any(item == s and type(item) is type(s) for s in seen):
                return f"{_show(item)} is listed more than once"
            seen.append(item)
        return "items are not unique"
    if keyword == "pattern":
        return f"{_show(value)} does not match {expected}"
    if keyword == "minLength":
        return "must not be empty" if expected == 1 else f"expected at least {expected} characters"
    if keyword == "maxLength":
        return f"expected at most {expected} characters"
    return error.message


def _count(n: int, singular: str, plural: str | None = None) -> str:
    return f"{n} {singular if n == 1 else plural or singular + 's'}"


def _show(value: Any) -> str:
    """A value as a user wrote it: 'text', 7, true, null, a mapping, a list."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "...")
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, int) and abs(value) >= 10**20:  # a YAML integer may have 4,300 digits
        return f"a number of {len(str(abs(value)))} digits"
    return str(value)
