"""Collecting the diagnostics of one document, each located by its JSON path."""

from __future__ import annotations

from ..errors import Diagnostic
from .source import Document


def diagnostic_order(d: Diagnostic) -> tuple:
    return (d.file or "", d.line or 0, d.col or 0)


class Problems:
    """Collects the diagnostics of one document, located by JSON path."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.found: list[Diagnostic] = []

    def at(self, path: tuple, message: str, code: str) -> None:
        self.found.append(Diagnostic(message, code=code, **self.doc.where(path)))
