"""Placements of a tile held to placement constraints (engine/rules/constraints.py): the
river's tiles, the abbey, any tile a ruleset's ``constraints`` name."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game


def walk(game: "Game", tile: int) -> list[tuple[int, int]]:
    """``(pos, rotation)`` of every placement of ``tile`` that fits and that its constraints allow,
    in frontier order, then rotation order.  A constraint that reads the cell alone (``hole``) is
    asked once a cell: a tile that fits everywhere (the abbey's wild sides) is otherwise asked
    about four rotations of every frontier cell on every offer."""
    fits = game.ruleset.fits
    constraints = game.ruleset.constraints[tile]
    by_cell = [c for c in constraints if c.per_cell]
    by_rotation = [c for c in constraints if not c.per_cell]
    found = []
    base = game.ruleset.edge_base
    for pos, key in game.frontier.items():
        if by_cell and not all(c.allows_cell(key, base) for c in by_cell):
            continue
        for r in fits(tile, key):
            if all(c.allows(game, tile, pos, r) for c in by_rotation):
                found.append((pos, r))
    return found
