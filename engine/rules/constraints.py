"""Named placement constraints a ruleset can switch on, beyond matching edges.

Each constraint applies to tiles that carry a segment of one feature kind
(the river), or to the tile types it lists, and is a predicate ``(game, tile
type, position, rotation) -> bool`` checked after edge matching.  A ruleset
enables them by name::

    constraints:
      river-continues: {rule: extend, kind: river}   # the tile must continue that feature
      river-no-u-turn: {rule: no-u-turn, kind: river, look: ahead}
      abbey-fills-holes: {rule: hole, tiles: [AB], neighbors: 4}

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
* ``hole``: the cell must touch placed tiles on at least ``neighbors`` of its
  four sides (default 4: Abbey & Mayor's abbey "may only be used to fill a
  hole", Wikicarpedia, Abbey_and_the_Mayor).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from ..geometry import SIDE_STEP
from .tiles import CENTRE_KIND, SIDE

if TYPE_CHECKING:
    from ..core.game import Game
    from .kinds import FeatureKind
    from .problems import Problems
    from .tiles import Orientation, TileType


@dataclass(frozen=True)
class Constraint:
    """One enabled constraint: its rule name, the kind it watches (-1: none), its parameters,
    and the tile types it applies to beside those carrying the kind."""

    rule: str
    kind: int
    look: str = "ahead"
    neighbors: int = 4
    tiles: frozenset[int] = frozenset()
    #: :meth:`allows_cell`'s answers by edge constraint, kept as they are asked: the abbey is
    #: offered every turn, and its frontier cells share a few dozen edge constraints.
    answers: dict[int, bool] = field(default_factory=dict, compare=False, repr=False)

    def applies_to(self, tile: "TileType") -> bool:
        """Whether tiles of type ``tile`` are held to this constraint."""
        return tile.index in self.tiles or any(seg.kind == self.kind for seg in tile.segments)

    def allows(self, game: "Game", tile: int, pos: int, rotation: int) -> bool:
        """Whether placing tile type ``tile`` at ``pos`` turned ``rotation`` obeys this constraint."""
        return RULES[self.rule](self, game, tile, pos, rotation)

    @property
    def per_cell(self) -> bool:
        """Whether the rule's answer depends on the cell alone, not the rotation (``hole``): asked
        once a cell, by :meth:`allows_cell`, before the rotations that fit there are looked at."""
        return self.rule in CELL_RULES

    def allows_cell(self, key: int, base: int) -> bool:
        """For a :attr:`per_cell` rule: whether a frontier cell whose edge constraint is ``key``
        (four side codes in base ``base``, 0 where no tile is: engine/core/board.py) obeys it."""
        found = self.answers.get(key)
        if found is None:
            found = self.answers[key] = CELL_RULES[self.rule](self, key, base)
        return found


def _kind_sides(game: "Game", tile: int, rotation: int, kind: int) -> list[int]:
    """Sides of the turned tile whose centre a segment of ``kind`` crosses."""
    tile_type = game.tiles[tile]
    ports = tile_type.orientations[rotation].port_segment
    return [side for side in range(4)
            if ports[3 * side + 1] >= 0 and tile_type.segments[ports[3 * side + 1]].kind == kind]


def _extend(constraint: Constraint, game: "Game", tile: int, pos: int, rotation: int) -> bool:
    board = game.board
    for side in _kind_sides(game, tile, rotation, constraint.kind):
        neighbour = board.get(pos + SIDE_STEP[side])
        # the same kind across the side: a wild side beyond it (an abbey) would end it, not continue it
        if neighbour is not None and _kind_at(game, neighbour, (side + 2) % 4) == constraint.kind:
            return True
    return False


def _kind_at(game: "Game", placed: "tuple[Orientation, int, int]", side: int) -> int:
    """The kind of the segment crossing the centre of ``side`` of a placed tile, or -1."""
    orientation, _, tile_index = placed
    segment = orientation.port_segment[3 * side + 1]
    return game.tiles[tile_index].segments[segment].kind if segment >= 0 else -1


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


def _hole(constraint: Constraint, game: "Game", tile: int, pos: int, rotation: int) -> bool:
    board = game.board
    return sum(1 for step in SIDE_STEP if pos + step in board) >= constraint.neighbors


def _hole_cell(constraint: Constraint, key: int, base: int) -> bool:
    neighbours = 0
    while key:  # a side code is 0 where no tile is, so each other digit is a neighbour
        key, code = divmod(key, base)
        neighbours += code != 0
    return neighbours >= constraint.neighbors


RULES: dict[str, Callable[[Constraint, "Game", int, int, int], bool]] = {
    "extend": _extend,
    "no-u-turn": _no_u_turn,
    "hole": _hole,
}
#: The rules whose answer is the same for every rotation at a cell, read from its edge constraint.
CELL_RULES: dict[str, Callable[[Constraint, int, int], bool]] = {"hole": _hole_cell}
#: The rules that watch a feature kind, and so need one.
WATCHING = frozenset({"extend", "no-u-turn"})


def compile_constraints(specs: dict, kinds: list["FeatureKind"], tile_ids: dict[str, int],
                        problems: "Problems") -> list[Constraint]:
    """The ruleset's ``constraints`` (docs/rulesets.md, "Placement constraints"); each problem is
    collected in ``problems`` (``kind-unknown``, ``constraint``, ``tile-unknown``) and its constraint left out."""
    by_name = {k.name: k.index for k in kinds}
    found = []
    for name, spec in specs.items():
        at = ("constraints", name)
        kind = spec.get("kind")
        if kind is not None and kind not in by_name:
            problems.at(at + ("kind",), f"unknown feature kind '{kind}'", "kind-unknown")
            continue
        if kind is None and spec["rule"] in WATCHING:
            problems.at(at + ("rule",), f"rule '{spec['rule']}' watches a feature kind: give its 'kind'",
                        "constraint")
            continue
        if spec["rule"] in WATCHING and kinds[by_name[kind]].ports not in (SIDE, CENTRE_KIND):
            problems.at(at + ("kind",), f"rule '{spec['rule']}' follows a kind across the centres of sides, and "
                        f"kind '{kind}' crosses none (ports: {kinds[by_name[kind]].ports})", "constraint")
            continue
        stray = [(key, rule) for key, rule in (("look", "no-u-turn"), ("neighbors", "hole"))
                 if key in spec and spec["rule"] != rule]
        for key, rule in stray:
            problems.at(at + (key,), f"'{key}' is a parameter of rule '{rule}', not of '{spec['rule']}'",
                        "constraint", key=True)
        if stray:
            continue
        if kind is None and "tiles" not in spec:
            problems.at(at, "the constraint applies to no tile: give a 'kind' (tiles carrying it) or 'tiles'",
                        "constraint", key=True)
            continue
        unknown = [(i, t) for i, t in enumerate(spec.get("tiles", ())) if t not in tile_ids]
        for i, tile_id in unknown:
            problems.at(at + ("tiles", i), f"'{tile_id}' is not a tile type of this ruleset", "tile-unknown")
        if unknown:
            continue
        found.append(Constraint(spec["rule"], by_name[kind] if kind is not None else -1, spec.get("look", "ahead"),
                                spec.get("neighbors", 4), frozenset(tile_ids[t] for t in spec.get("tiles", ()))))
    return found
