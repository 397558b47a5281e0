"""Collecting the diagnostics of one document, each located by its JSON path."""

from __future__ import annotations

from ..errors import Diagnostic
from .source import Document


def diagnostic_order(d: Diagnostic) -> tuple:
    return (d.file or "", d.line or 0, d.col or 0)


class Problems:
    """Collects the diagnostics of one document, located by JSON path: errors in
    ``found``, warnings (accepted, but probably not meant) in ``warnings``."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.found: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []

    def at(self, path: tuple, message: str, code: str, *, key: bool = False) -> None:
        """Record an error at ``path`` (``key``: at the entry's key, not its value)."""
        self.found.append(Diagnostic(message, code=code, **self.doc.where(path, key=key)))

    def warn(self, path: tuple, message: str, code: str) -> None:
        """Record a warning at ``path``."""
        self.warnings.append(Diagnostic(message, code=code, severity="warning", **self.doc.where(path)))
