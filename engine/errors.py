"""User-facing errors: every problem in a ruleset, formula, scenario or record.

Library code raises :class:`UserError` (or :class:`UserErrors` for several at
once); only the CLI renders them, as ``file:line:col: error: message [code]``,
and exits with status 2.  Anything else escaping to the CLI is a bug.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

#: Characters that must not reach a terminal, an SVG or an HTML page as they are:
#: C0 and C1 controls and DEL (ANSI sequences, a carriage return that overwrites
#: a line; CSI U+009B starts a sequence on its own), lone surrogates (no encoding
#: can write them), U+2028/U+2029 (line breaks to some terminals and to older
#: JavaScript), the bidirectional overrides, embeddings, isolates and marks
#: (they reorder what is shown: "Trojan Source"), and U+FFFE/U+FFFF (not XML).
#: Newline and tab are left alone: they cannot steer a terminal.
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u061c\u200e\u200f"
                    "\u202a-\u202e\u2066-\u2069\ufffe\uffff]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    r"""``text`` with every :data:`UNSAFE` character written as a visible escape
    (``\x1b``, ``\u202e``): what any text from a file (a player name, a tile id, a
    description, an error message quoting either) becomes before it is shown.

    >>> printable("\x1b[2Jbob\u202e")
    '\\x1b[2Jbob\\u202e'
    """
    return UNSAFE.sub(_visible, text) if UNSAFE.search(text) else text


@dataclass(frozen=True)
class Diagnostic:
    """One problem with a location.

    ``line`` and ``col`` are 1-based; ``path`` is the JSON path of the value
    inside the document (``$.tiles.D.count``); ``code`` is a short stable
    identifier of the kind of problem (``schema``, ``formula-syntax``, …);
    ``snippet`` is optional extra text (a formula with a caret under it);
    ``severity`` is ``error`` (the input is refused) or ``warning`` (it is
    accepted, but probably not what was meant; see ``Ruleset.warnings``).
    """

    message: str
    file: str | None = None
    line: int | None = None
    col: int | None = None
    path: str | None = None
    code: str | None = None
    snippet: str | None = None
    severity: str = "error"

    def render(self) -> str:
        """Return ``file:line:col: error: message [code]`` (``warning:`` for a warning;
        parts that are unknown are left out)."""
        where = ""
        if self.file is not None:
            where = self.file
            if self.line is not None:
                where += f":{self.line}"
                if self.col is not None:
                    where += f":{self.col}"
            where += ": "
        text = f"{where}{self.severity}: {self.message}"
        if self.path:
            text += f" (at {self.path})"
        if self.code:
            text += f" [{self.code}]"
        # One line per diagnostic, whatever a quoted file name or value holds (a newline in a path).
        text = text.replace("\n", "\\n")
        if self.snippet:
            text += "\n" + self.snippet
        return printable(text)  # messages quote names and values from the file


class UserError(Exception):
    """Bad user input: carries one or more :class:`Diagnostic`.

    Raise it with a message and keyword location parts, or with ready-made
    diagnostics through :meth:`from_diagnostics`.
    """

    def __init__(self, message: str = "", **location: object) -> None:
        self.diagnostics: list[Diagnostic] = (
            [Diagnostic(message, **location)] if message else []  # type: ignore[arg-type]
        )
        super().__init__(message)

    @classmethod
    def from_diagnostics(cls, diagnostics: Iterable[Diagnostic]) -> "UserError":
        """Build one error that reports every diagnostic given (at least one)."""
        error = cls()
        error.diagnostics = list(diagnostics)
        error.args = (error.diagnostics[0].message,) if error.diagnostics else ()
        return error

    def render(self) -> str:
        """All diagnostics, one ``file:line:col: error: …`` line each."""
        return "\n".join(d.render() for d in self.diagnostics)

    def __str__(self) -> str:
        return self.render()
