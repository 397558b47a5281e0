"""The look-ahead's working data: features as they would be after a placement, and
per-seat point vectors (engine/core/lookahead.py)."""

from __future__ import annotations


class Group:
    """A feature as it would be after the placement: new segments plus the features they join."""

    __slots__ = ("kind", "locals", "roots", "open", "fol", "complete", "value")

    def __init__(self, kind: int) -> None:
        self.kind = kind
        self.locals: list[int] = []
        self.roots: list[int] = []
        self.open = 0
        self.fol = 0
        self.complete = False
        self.value: list[int] | None = None


def local_root(parent: list[int], j: int) -> int:
    """The root of ``j`` in a small union-find over one tile's segments."""
    while parent[j] != j:
        j = parent[j]
    return j


def add_to(into: list[int], vector: list[int] | None) -> None:
    """Add a per-seat vector (None: nothing) to ``into``, in place."""
    if vector:
        for p, v in enumerate(vector):
            into[p] += v


def subtract_from(into: list[int], vector: list[int] | None) -> None:
    """Subtract a per-seat vector (None: nothing) from ``into``, in place."""
    if vector:
        for p, v in enumerate(vector):
            into[p] -= v
