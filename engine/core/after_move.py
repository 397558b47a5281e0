"""The look-ahead's working data: features as they would be after a placement, and
per-seat point vectors (engine/core/lookahead.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..geometry import RING8

if TYPE_CHECKING:
    from .game import Game


class Group:
    """A feature as it would be after the placement: new segments plus the features they join."""

    __slots__ = ("kind", "locals", "roots", "open", "fol", "complete", "value", "inputs", "points")

    def __init__(self, kind: int) -> None:
        self.kind = kind
        self.locals: list[int] = []
        self.roots: list[int] = []
        self.open = 0
        self.fol = 0
        self.complete = False
        self.value: list[int] | None = None
        #: The look-ahead's formula inputs of the group and what its majority is paid (None: not
        #: yet worked out): neither depends on the followers, so each option of a placement reads them.
        self.inputs: dict[str, int | bool] | None = None
        self.points: int | None = None


def local_root(parent: list[int], j: int) -> int:
    """The root of ``j`` in a small union-find over one tile's segments."""
    while parent[j] != j:
        j = parent[j]
    return j


def meet_group(local: list[int], other: int, j: int) -> bool:
    """Segments ``other`` and ``j`` of the tile weighed meet one neighbouring feature: make them one
    in the small union-find ``local``; True when they were apart."""
    a, b = local_root(local, other), local_root(local, j)
    if a == b:
        return False
    local[b] = a
    return True


def add_to(into: list[int], vector: list[int] | None) -> None:
    """Add a per-seat vector (None: nothing) to ``into``, in place."""
    if vector:
        for p, v in enumerate(vector):
            into[p] = into[p] + v


def subtract_from(into: list[int], vector: list[int] | None) -> None:
    """Subtract a per-seat vector (None: nothing) from ``into``, in place."""
    if vector:
        for p, v in enumerate(vector):
            into[p] = into[p] - v


def complete_after(game: "Game", root: int, gained: dict[int, bool]) -> bool:
    """Whether the feature at ``root``, which the placement does not join, is complete after
    it: ``gained`` says, for surrounded features around the new tile, whether they now are."""
    completion = game.ruleset.kinds[game.seg_kind[root]].completion
    if completion == "closed":
        return game.open[root] == 0
    if completion == "surrounded":
        if root in gained:
            return gained[root]
        pos = game.seg_pos[root]
        return all(pos + d in game.board for d in RING8)
    return completion == "formula" and game.is_done(root)
