"""User-facing errors: every problem in a ruleset, formula, scenario or record.

Library code raises :class:`UserError` (or :class:`UserErrors` for several at
once); only the CLI renders them, as ``file:line:col: error: message [code]``,
and exits with status 2.  Anything else escaping to the CLI is a bug.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True)
class Diagnostic:
    """One problem with a location.

    ``line`` and ``col`` are 1-based; ``path`` is the JSON path of the value
    inside the document (``$.tiles.D.count``); ``code`` is a short stable
    identifier of the kind of problem (``schema``, ``formula-syntax``, …);
    ``snippet`` is optional extra text (a formula with a caret under it).
    """

    message: str
    file: str | None = None
    line: int | None = None
    col: int | None = None
    path: str | None = None
    code: str | None = None
    snippet: str | None = None

    def render(self) -> str:
        """Return ``file:line:col: error: message [code]`` (parts that are unknown are left out)."""
        where = ""
        if self.file is not None:
            where = self.file
            if self.line is not None:
                where += f":{self.line}"
                if self.col is not None:
                    where += f":{self.col}"
            where += ": "
        text = f"{where}error: {self.message}"
        if self.path:
            text += f" (at {self.path})"
        if self.code:
            text += f" [{self.code}]"
        if self.snippet:
            text += "\n" + self.snippet
        return text


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
