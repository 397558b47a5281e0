"""The tables of one web server, by id: opened, resumed from their records, and let go once over.

Each table's record is saved in the records folder after every move (``table-ID.json``,
written atomically), so the folder *is* the server's memory across restarts: a table not in
memory is resumed from its record the first time it is asked for
(:meth:`~engine.web.table.Table.resume`), and a finished table leaves memory once
:data:`KEEP_FINISHED` more recently used ones are over (it is read back if asked for again).
"""

from __future__ import annotations

import json
import re
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.standings import ranking
from ..errors import UserError
from ..rules.reading import read_bytes
from ..rules.ruleset import load_ruleset
from .table import Refused, Table

#: How many finished tables stay in memory (the most recently used); the rest are on disk only.
KEEP_FINISHED = 4
#: A table id: what :meth:`Tables.open` makes (a record's name says which table it saved).
TABLE_ID = re.compile(r"[0-9a-f]{8}")


class Gone(Refused):
    """A table that cannot be shown: none by that id (404), or its record cannot be resumed
    (410: edited, or saved under a ruleset that has changed since); ``record`` is the saved
    record's file name, if there is one."""

    def __init__(self, message: str, status: int, record: str | None = None) -> None:
        super().__init__(message, status)
        self.record = record


@dataclass(frozen=True)
class Listed:
    """A table on the start page: its id, ruleset, seed, seats' names and how far it has got."""

    id: str
    ref: str
    seed: int
    names: tuple[str, ...]
    progress: str


class Tables:
    """The tables of one server, by id, and the folder their records are saved in (None: kept
    in memory only, never let go)."""

    def __init__(self, records: Path | None) -> None:
        self.records = records
        self.by_id: OrderedDict[str, Table] = OrderedDict()  # least recently used first
        self._lock = threading.Lock()
        self._summaries: dict[Path, tuple[tuple[int, int], _Facts | None]] = {}

    def open(self, ref: str, specs: list[str], seed: int, base: Path | None = None) -> str:
        """A new table's id (its ruleset's paths taken from ``base``, default the working directory);
        :class:`UserError` for a bad ruleset reference or players."""
        ruleset = load_ruleset(ref, base)
        table_id = secrets.token_hex(4)
        table = Table(ruleset, ref, specs, seed, save=self._path(table_id), base=base)
        with self._lock:
            self.by_id[table_id] = table
            self._let_go()
        return table_id

    def get(self, table_id: str) -> Table:
        """Table ``table_id``, resumed from its record if it is not in memory; :class:`Gone`
        when there is none, or its record cannot be resumed."""
        with self._lock:
            table = self.by_id.get(table_id)
            if table is None:
                table = self._resume(table_id)
                self.by_id[table_id] = table
            self.by_id.move_to_end(table_id)
            self._let_go()
            return table

    def listing(self) -> list[Listed]:
        """The tables in memory and those saved in the records folder, newest first."""
        with self._lock:
            listed = {i: Listed(i, t.ref, t.seed, tuple(t.names), _progress(t.game.finished, t.game.turn))
                      for i, t in self.by_id.items()}
        for path in self.saved():
            table_id = path.stem.removeprefix("table-")
            if table_id in listed or not path.name.startswith("table-") or not TABLE_ID.fullmatch(table_id):
                continue
            found = self._summary(path, table_id)
            if found is not None:
                listed[table_id] = found
        return [listed[i] for i in _newest_first(listed, self.by_id, self.saved())]

    def _summary(self, path: Path, table_id: str) -> Listed | None:
        """What the start page says of the record at ``path``, or None for a file that is not a
        record of a table."""
        facts = self._facts(path)
        if facts is None:
            return None
        return Listed(table_id, facts.ref, facts.seed, facts.names, _progress(facts.finished, facts.turns))

    def saved_records(self) -> list[SavedRecord]:
        """The records of the records folder as ``/replay`` lists them, newest first (files that are
        not records left out)."""
        found = []
        for path in self.saved():
            facts = self._facts(path)
            if facts is not None:
                when = time.strftime("%Y-%m-%d %H:%M", time.localtime(facts.modified))
                found.append(SavedRecord(path.name, facts.ref, facts.names, when, facts.result()))
        return found

    def _facts(self, path: Path) -> _Facts | None:
        """What a listing shows of the record at ``path``, or None for a file that is not a record (read
        as every input is: a regular file of at most 16 MiB, never a FIFO; remembered while the
        file's size and time stay the same)."""
        try:
            info = path.stat()
        except OSError:
            return None
        key = (info.st_mtime_ns, info.st_size)
        if self._summaries.get(path, (None, None))[0] == key:
            return self._summaries[path][1]
        try:
            data = json.loads(read_bytes(path).decode("utf-8"))
        except (UserError, UnicodeDecodeError, ValueError, RecursionError):
            data = None
        found = None
        if _looks_like_record(data):
            turns = sum(1 for t in data["turns"] if isinstance(t, dict) and "at" in t)
            scores = data.get("scores", {}).get("final") if isinstance(data.get("scores"), dict) else None
            found = _Facts(data["ruleset"], data["seed"], tuple(p["name"] for p in data["players"]), turns,
                           data.get("finished", True) is not False, _whole_numbers(scores), info.st_mtime)
        self._summaries[path] = (key, found)
        return found

    def saved(self) -> list[Path]:
        """The records in the records folder, newest first."""
        if self.records is None or not self.records.is_dir():
            return []
        found = []
        for path in self.records.glob("*.json"):
            try:  # a dangling link, or a file removed since the listing, is no record
                found.append((path.stat().st_mtime, path))
            except OSError:
                continue
        return [path for _, path in sorted(found, key=lambda pair: (-pair[0], pair[1].name))]

    def _path(self, table_id: str) -> Path | None:
        return self.records / f"table-{table_id}.json" if self.records is not None else None

    def _resume(self, table_id: str) -> Table:
        path = self._path(table_id) if TABLE_ID.fullmatch(table_id) else None
        if path is None or not path.is_file():
            raise Gone(f"no table '{table_id}': it was never opened here, or its record is no longer in "
                       f"{self.records or 'the records folder'}", 404)
        try:
            return Table.resume(path)
        except UserError as error:
            raise Gone(f"table '{table_id}' cannot be resumed from its record: {error.render()}", 410,
                       path.name) from None

    def _let_go(self) -> None:
        """Drop the least recently used finished tables past :data:`KEEP_FINISHED` whose records
        are saved (lock held): they are read back from disk if asked for again."""
        over = [i for i, t in self.by_id.items() if t.game.finished and t.save is not None and t.save_error is None]
        for table_id in over[:max(0, len(over) - KEEP_FINISHED)]:
            del self.by_id[table_id]


@dataclass(frozen=True)
class SavedRecord:
    """A record in the records folder as ``/replay`` lists it: its file name, ruleset, the seats'
    names, when it was saved (local time, to the minute) and how the game stands (:meth:`_Facts.result`)."""

    name: str
    ref: str
    names: tuple[str, ...]
    saved: str
    result: str


@dataclass(frozen=True)
class _Facts:
    """What the listings read of a record: ruleset, seed, names, placements, finished or not, the
    final scores (None where the record has none to read) and the file's time."""

    ref: str
    seed: int
    names: tuple[str, ...]
    turns: int
    finished: bool
    scores: tuple[int, ...] | None
    modified: float

    def result(self) -> str:
        """``greedy-2 won, 82 to 72``, ``A and B tied at 40``, or ``unfinished, turn 12``."""
        if not self.finished or self.scores is None or len(self.scores) != len(self.names):
            return f"unfinished, turn {self.turns}" if not self.finished else "over"
        first, *rest = ranking(self.scores)
        who = " and ".join(self.names[seat] for seat in first)
        if len(first) > 1:
            return f"{who} tied at {self.scores[first[0]]}"
        return f"{who} won, {self.scores[first[0]]} to {self.scores[rest[0][0]]}" if rest else f"{who} won"


def _whole_numbers(values: Any) -> tuple[int, ...] | None:
    if isinstance(values, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return tuple(values)
    return None


def _looks_like_record(data: Any) -> bool:
    """Whether ``data`` has what the start page shows of a record, of the right types (the full
    check is the record schema's, when the table is resumed)."""
    return (isinstance(data, dict) and isinstance(data.get("ruleset"), str)
            and isinstance(data.get("seed"), int) and not isinstance(data.get("seed"), bool)
            and isinstance(data.get("players"), list)
            and all(isinstance(p, dict) and isinstance(p.get("name"), str) for p in data["players"])
            and isinstance(data.get("turns"), list))


def _progress(finished: bool, turns: int) -> str:
    return "over" if finished else f"turn {turns}"


def _newest_first(listed: dict[str, Listed], in_memory: OrderedDict[str, Table], saved: list[Path]) -> list[str]:
    """The listed ids, newest record first; a table in memory whose record is not saved last."""
    order = [p.stem.removeprefix("table-") for p in saved]
    known = [i for i in order if i in listed]
    return known + [i for i in reversed(in_memory) if i not in known]


__all__ = ["Gone", "KEEP_FINISHED", "Listed", "SavedRecord", "Tables"]
