"""Placements of a tile held to placement constraints (engine/rules/constraints.py): the
river's tiles, the abbey, any tile a ruleset's ``constraints`` name.

A tile whose constraints all read the cell alone (``hole``) fits at a frontier cell or not by
the cell's edge constraint only, and a cell's edge constraint changes only when a tile is
placed beside it: where such a tile fits is kept on the board (:class:`Spots`) and brought
up to date from the tiles placed since, so the abbey offered at the start of every turn
(Abbey & Mayor) does not walk the frontier to learn that no hole is left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..geometry import SIDE_STEP

if TYPE_CHECKING:
    from .game import Game


class Spots:
    """Frontier cells where one tile type fits, as of the board's first ``seen`` tiles
    (``cells``: positions, unordered).  Never mutated: a later board gets a new one, so
    copies of a game share it."""

    __slots__ = ("cells", "seen")

    def __init__(self, seen: int, cells: frozenset[int]) -> None:
        self.seen = seen
        self.cells = cells


def walk(game: "Game", tile: int) -> list[tuple[int, int]]:
    """``(pos, rotation)`` of every placement of ``tile`` that fits and that its constraints allow,
    in frontier order, then rotation order.  A constraint that reads the cell alone (``hole``) is
    asked once a cell: a tile that fits everywhere (the abbey's wild sides) is otherwise asked
    about four rotations of every frontier cell on every offer."""
    ruleset = game.ruleset
    constraints = ruleset.constraints[tile]
    by_cell = [c for c in constraints if c.per_cell]
    by_rotation = [c for c in constraints if not c.per_cell]
    found = []
    base = ruleset.edge_base
    for pos, key in game.frontier.items():
        if by_cell and not all(c.allows_cell(key, base) for c in by_cell):
            continue
        for r in ruleset.fits(tile, key):
            if all(c.allows(game, tile, pos, r) for c in by_rotation):
                found.append((pos, r))
    return found


def by_cell_only(game: "Game", tile: int) -> bool:
    """Whether where ``tile`` fits is kept as :class:`Spots`: it has constraints, they all read
    the cell alone, and the game has one map (a cell's spots are its map's)."""
    constraints = game.ruleset.constraints[tile]
    if not constraints or game.ruleset.maps != 1:
        return False
    for constraint in constraints:  # a loop, not all(…): asked on every offer
        if not constraint.per_cell:
            return False
    return True


def spots(game: "Game", tile: int) -> frozenset[int]:
    """The frontier cells where ``tile`` (:func:`by_cell_only`) has a legal placement now:
    the cells of its kept :class:`Spots`, with the cells beside each tile placed since looked at
    again (the newest tiles are the board's last entries)."""
    board = game.board
    kept = game.spots.get(tile)
    if kept is not None and kept.seen == len(board):
        return kept.cells
    if kept is None or len(board) - kept.seen > 4:
        found = frozenset(pos for pos, key in game.frontier.items() if game.ruleset.fits_cell(tile, key))
    else:
        found = kept.cells
        # The tiles placed since, newest first, by their segments: each tile has at least one, and
        # a tile's are numbered after the previous tile's (one map: by_cell_only).
        seg_pos, first = game.seg_pos, game.seg_tile
        last = len(seg_pos) - 1
        for _ in range(len(board) - kept.seen):
            pos = seg_pos[last]
            last = first[last] - 1  # the previous tile's last segment
            if pos in found or _changed_beside(game, tile, pos, found):  # most turns open no hole, fill none
                found = _beside(game, tile, pos, found)
    game.spots[tile] = Spots(len(board), found)
    return found


def _changed_beside(game: "Game", tile: int, pos: int, found: frozenset[int]) -> bool:
    """Whether a frontier cell beside ``pos`` (the only cells whose edge constraint a tile placed
    there changed) now fits ``tile`` where ``found`` says not, or the other way round."""
    frontier, ruleset = game.frontier, game.ruleset
    known = ruleset.cell_table(tile)
    for step in SIDE_STEP:
        key = frontier.get(pos + step, -1)
        if key < 0:
            continue
        fit = known[key] if known else -1  # no memo under very many side codes
        if fit < 0:
            fit = 1 if ruleset.fits_cell(tile, key) else 0
        if (fit == 1) != (pos + step in found):
            return True
    return False


def _beside(game: "Game", tile: int, pos: int, found: frozenset[int]) -> frozenset[int]:
    """``found`` without ``pos`` (a tile was placed there), the cells beside it that fit ``tile``
    now added and those that no longer do dropped."""
    frontier = game.frontier
    added: list[int] = []
    dropped = [pos]
    for step in SIDE_STEP:
        q = pos + step
        key = frontier.get(q, -1)
        if key < 0:
            continue
        if game.ruleset.fits_cell(tile, key):
            added.append(q)
        else:
            dropped.append(q)
    return found.difference(dropped).union(added)
