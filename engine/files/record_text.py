"""Reading a game record's text: JSON, checked on its plain values first, then read again with line
and column marks (:func:`~engine.rules.source.load_yaml`) and checked against the record schema.

The marked read is costly for a big text, so what it would refuse anyway is refused before it on
the plain values when the text is big (issue 50: a 200,000-turn record held a server for minutes
at about 1 GB): its ruleset reference (judged by a caller's check first: the
web table's folder), a key given twice at the top, and more turns than a game of the ruleset can
hold (:func:`~engine.files.supply.most_entries`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import UserError
from ..rules.ruleset import load_ruleset
from ..rules.source import Document, Shape, load_yaml, own_refusal
from ..rules.validate import check
from ..rules.yaml_nodes import MAX_DEPTH
from .supply import most_entries

#: A record is a JSON object with (at least) these keys; anything else is refused unquoted.
RECORD_SHAPE = Shape("record", frozenset({"format", "ruleset", "turns"}), "of a game record (format, ruleset, turns)",
                     foreign=(("expect", "a scenario"), ("rulesets", "a scenario")))


#: Checks a record's ruleset reference (``(ref, folder it is relative to)``) before anything reads the
#: files it names; raises to refuse it (the web table: :meth:`engine.web.limits.Limits.check_ref`).
RefCheck = Callable[[str, Path], None]


def record_from_text(text: str, file: str, ref_check: RefCheck | None = None) -> Document:
    """The schema-checked record in ``text`` (what :func:`load_record` reads from a file),
    with errors located in ``file`` (a name for messages, e.g. an uploaded file's; the folder
    its ruleset reference is relative to); :class:`UserError` on any problem.  Before the text is
    read again with line and column marks (the costly part), ``ref_check`` (if given) judges the
    ruleset reference, and a record of more turns than a game of its ruleset can hold is refused
    (:func:`_refuse_overlong`): a 200,000-turn record is refused in well under a second."""
    pairs = _TopLevelKeys()
    try:
        data = json.loads(text, object_pairs_hook=pairs)
    except json.JSONDecodeError as error:  # say what is wrong in JSON's own terms
        message = "a byte-order mark where a value should be" if "BOM" in error.msg else error.msg
        if "BOM" not in error.msg and not text[:error.pos].strip():  # not JSON from the start: maybe YAML
            message += " (a game record is the JSON file that carcassonne play --record FILE writes)"
        raise UserError(f"not valid JSON: {message}", file=file, line=error.lineno, col=error.colno,
                        code="json-syntax") from None
    except ValueError as error:  # an integer of more digits than Python converts
        raise UserError(f"not valid JSON: {error}", file=file, code="json-syntax") from None
    except RecursionError:  # json recurses once a level, and gives no position
        raise _too_deep(text, file) from None
    if isinstance(data, dict) and isinstance(data.get("ruleset"), str) and ref_check is not None:
        try:
            ref_check(data["ruleset"], Path(file).parent)
        except UserError as error:
            raise _at(error, text, file, "ruleset") from None
    if len(text) > BIG_TEXT:
        _refuse_big(data, pairs.duplicates, text, file)
    elif isinstance(data, dict) and isinstance(data.get("ruleset"), str) and isinstance(data.get("turns"), list):
        _refuse_overlong(data, text, file)
    doc = load_yaml(file, text=text, shape=RECORD_SHAPE)  # JSON is YAML: one reader keeps line/column marks
    check(doc, "record")
    return doc


#: A record text over this many characters is checked on its plain values before it is read again
#: with line and column marks (the costly read): its shape, a key given twice at
#: the top, its ruleset, and its turns against the deck (:func:`_refuse_big`).
BIG_TEXT = 1 << 20


class _TopLevelKeys:
    """``json.loads``'s ``object_pairs_hook``: each object a dict, and the keys given twice in the
    last one made, the outermost (``duplicates``): the plain reader keeps a repeated key's last
    value, where the marked reader refuses the key (issue 50: a small second ``turns`` hid a huge
    first one from the size check)."""

    def __init__(self) -> None:
        self.duplicates: list[str] = []

    def __call__(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: set[str] = set()
        self.duplicates = [key for key, _ in pairs if key in seen or seen.add(key)]
        return dict(pairs)


def _refuse_big(data: Any, duplicates: list[str], text: str, file: str) -> None:
    """For a big record text: :class:`UserError` for what the full read would refuse anyway, found
    on the plain values (located at the key concerned): not an object, a top-level key given
    twice, a ruleset that is not a reference or does not load, turns that are not a list or
    outnumber the deck's (:func:`_refuse_overlong`)."""
    if not isinstance(data, dict):
        raise UserError("a game record is a JSON object (the file carcassonne play --record FILE writes)", file=file,
                        line=1, col=1, code="schema")
    if duplicates:
        line, col = _value_position(text, duplicates[0], nth=2)
        raise UserError(f"the key '{duplicates[0]}' is given twice", file=file, line=line, col=col,
                        code="yaml-duplicate-key")
    for key, wanted, what in (("ruleset", str, "a ruleset reference (a string)"),
                              ("turns", list, "a list of turn entries")):
        if not isinstance(data.get(key), wanted):
            line, col = _value_position(text, key)
            raise UserError(f"a record's '{key}' is {what}", file=file, line=line, col=col, path=f"$.{key}",
                            code="schema")
    try:
        load_ruleset(data["ruleset"], Path(file).parent)
    except UserError as error:
        if any(d.file for d in error.diagnostics) and own_refusal(error) is None:
            raise  # a problem inside the ruleset's own files, located there
        raise _at(error, text, file, "ruleset") from None
    _refuse_overlong(data, text, file)


def _at(error: UserError, text: str, file: str, key: str) -> UserError:
    """``error``'s first message, located at the value of the record's top-level ``key``."""
    line, col = _value_position(text, key)
    first = error.diagnostics[0]
    return UserError(first.message, file=file, line=line, col=col, path=f"$.{key}", code=first.code)


#: Records of at most this many turns are read whole before their turns are counted against their
#: ruleset's deck (:func:`_refuse_overlong`): under it, reading costs less than loading the ruleset.
FEW_TURNS = 1000


def _refuse_overlong(data: dict[str, Any], text: str, file: str) -> None:
    """:class:`UserError` (``replay``, at the ``turns`` key) for a record whose turns outnumber
    what a game of its ruleset can hold (:func:`~engine.files.supply.most_entries`, for the
    ruleset's most players); nothing for a ruleset that does not load (:func:`_refuse_big` has
    refused a big text for it; a small one is read whole, and the replay reports it, located)."""
    turns = len(data["turns"])
    if turns <= FEW_TURNS:
        return
    try:
        ruleset = load_ruleset(data["ruleset"], Path(file).parent)
    except UserError:
        return
    most = most_entries(ruleset, ruleset.max_players)
    if turns > most:
        line, col = _value_position(text, "turns")
        raise UserError(f"{turns:,} turn entries, but a game of {ruleset.ref} holds at most {most:,} (its tiles to "
                        "draw, personal tiles and followers moving on): not a record of a game of it", file=file,
                        line=line, col=col, path="$.turns", code="replay")


def _value_position(text: str, key: str, nth: int = 1) -> tuple[int, int]:
    """Line and column (from 1) of the value of the top-level object's key ``key`` (its ``nth``
    occurrence) in JSON ``text`` (1, 1 if absent), found without reading the text into values."""
    depth, wanted = 0, json.dumps(key)
    for token in _JSON_TOKEN.finditer(text):
        found = token.group()
        if found in "[{":
            depth += 1
        elif found in "]}":
            depth -= 1
        elif depth == 1 and found == wanted and (nth := nth - 1) == 0:
            after = re.compile(r"\s*:\s*").match(text, token.end())
            at = after.end() if after else token.start()
            return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
    return 1, 1


_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[][{}]')


def _too_deep(text: str, file: str) -> UserError:
    """The error for JSON ``text`` nested deeper than YAML's :data:`MAX_DEPTH` (the reader's own
    limit), at the first bracket too deep (brackets inside strings do not count)."""
    depth = 0
    for token in _JSON_TOKEN.finditer(text):
        depth += 1 if token.group() in "[{" else -1 if token.group() in "]}" else 0
        if depth > MAX_DEPTH:
            at = token.start()
            line, col = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
            return UserError(f"more than {MAX_DEPTH} lists and objects nested in one another", file=file,
                             line=line, col=col, code="yaml-too-large")
    return UserError("not valid JSON: nested too deeply", file=file, code="json-syntax")


