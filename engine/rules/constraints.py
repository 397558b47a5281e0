"""Named placement constraints a ruleset can switch on, beyond matching edges.

Each constraint applies to tiles that carry a segment of one feature kind
(the river) and is a predicate ``(game, tile type, position, rotation) ->
bool`` checked after edge matching.  A ruleset enables them by name::

    constraints:
      - {rule: extend, kind: river}              # the tile must continue that feature
      - {rule: no-u-turn, kind: river, look: ahead}

* ``extend``: a tile carrying the kind must join it to the same kind already
  on the board (a river tile continues the river from its open end; River I
  rules, seed 000 and RULES.md §2.2).
* ``no-u-turn``: after the placement, the cells in front of every open end of
  the kind on the new tile must be free.  ``look: ahead`` checks five cells
  (the two beside the next cell, the cell two steps ahead and the two beside
  it), which forbids immediate U-turns and three same-way turns but allows
  bend–straight–bend (JCloisterZone's RiverCapability, the Winter FAQ);
  ``look: immediate`` checks only the two cells beside the next one, which
  forbids just two consecutive same-way bends (HiG's C1 clarification).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from ..geometry import SIDE_STEP

if TYPE_CHECKING:
    from ..core.game import Game


@dataclass(frozen=True)
class Constraint:
    """One enabled constraint: its rule name, the kind it watches, and its parameter."""

    rule: str
    kind: int
    look: str = "ahead"

    def allows(self, game: "Game", tile: int, pos: int, rotation: int) -> bool:
        """Whether placing tile type ``tile`` at ``pos`` turned ``rotation`` obeys this constraint."""
        return RULES[self.rule](self, game, tile, pos, rotation)


def _kind_sides(game: "Game", tile: int, rotation: int, kind: int) -> list[int]:
    """Sides of the turned tile whose centre a segment of ``kind`` crosses."""
    tile_type = game.tiles[tile]
    ports = tile_type.orientations[rotation].port_segment
    return [side for side in range(4)
            if ports[3 * side + 1] >= 0 and tile_type.segments[ports[3 * side + 1]].kind == kind]


def _extend(constraint: Constraint, game: "Game", tile: int, pos: int, rotation: int) -> bool:
    return any(pos + SIDE_STEP[side] in game.board for side in _kind_sides(game, tile, rotation, constraint.kind))


def _no_u_turn(constraint: Constraint, game: "Game", tile: int, pos: int, rotation: int) -> bool:
    board = game.board
    for side in _kind_sides(game, tile, rotation, constraint.kind):
        ahead = SIDE_STEP[side]
        after = pos + ahead
        if after in board:
            continue  # this end is joined, not open
        left, right = SIDE_STEP[(side + 3) % 4], SIDE_STEP[(side + 1) % 4]
        cells = [after + left, after + right]
        if constraint.look == "ahead":
            two = after + ahead
            cells += [two, two + left, two + right]
        if any(cell in board and cell != pos for cell in cells):
            return False
    return True


RULES: dict[str, Callable[[Constraint, "Game", int, int, int], bool]] = {
    "extend": _extend,
    "no-u-turn": _no_u_turn,
}
