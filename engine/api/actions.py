"""The factored action encoding: a placement is a cell of the crop and a rotation, then a follower spot.

A turn that places a tile is two decisions by the same seat: **where**, a
cell of the crop (:func:`windows`) and a quarter turn, then **which
follower spot** (none, or a follower of a type on a segment or corner of
the tile just chosen).  When the placement allows no follower at all the
second decision is skipped.  Actions, in this order:

============== ===================================== ==========================================
block          actions                               action
============== ===================================== ==========================================
placements     maps · crop² · 4                      ``((map · crop + row) · crop + col) · 4 +
                                                     rotation``; ``row``/``col`` are the cell's
                                                     ``y``/``x`` minus its map window's corner
follower spots slots                                 ``placements + slot``: 0 no follower,
                                                     ``1 + spot · types + type``
start turns    4                                     a start tile drawn from the stack, turned
decline        1 (``deck.personal`` only)            keep the personal tile offered and draw
move on        (2·within + 1)² · slots + 1           a follower moving on (``triggers``): the
               (``triggers`` move only)              cell relative to the tile it stood on
                                                     (``((dy + w) · (2w + 1) + dx + w) · slots +
                                                     slot``), and last, home
picks          tile types (``deck.hand`` only)       pick held tile type ``t``
============== ===================================== ==========================================

``slots`` is 1 + (the most segments of any tile type, plus 4 corners under a
``spot: corner`` type) × the follower types.  The basic game with the
default crop of 35 cells has 35 × 35 × 4 + 9 + 4 = 4,913 actions.

**The crop** is a square of ``crop`` cells per map centred on the placed
tiles and the frontier (the cells a tile may go): its corner is the
bounding box's centre minus ``crop // 2``, so it moves as the board grows
and always holds every legal placement.  A board whose tiles and frontier
span more than ``crop`` cells raises :class:`CropTooSmall`.  The default
fits every measured game of random, greedy and search players of every
shipped ruleset with room to spare (benchmarks/results/board-spans.json);
a policy that lays its tiles in a line can outgrow any crop short of
:func:`full_crop`, which ``crop=0`` asks for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from ..core.moves import HOME, Move, move_on, pick
from ..geometry import map_local, map_origin, pack, unpack
from ..rules.ruleset import Ruleset

if TYPE_CHECKING:
    from ..core.game import Game

#: The crop's side (cells) unless a game says otherwise: the widest board of the shipped rulesets'
#: measured games, tiles and frontier, was 30 cells (benchmarks/results/board-spans.json); 5 more
#: leave room for the rare wider game.
DEFAULT_CROP = 35

#: Per map, the board coordinates ``(x, y)`` of the crop's first cell (row 0, column 0).
Window = Sequence[tuple[int, int]]


class CropTooSmall(ValueError):
    """The board outgrew the crop: its tiles and frontier span more cells than the crop's side."""


def windows(game: "Game", crop: int) -> list[tuple[int, int]]:
    """Per map, the corner ``(x0, y0)`` of its crop window (module docstring): cells
    ``x0 ≤ x < x0 + crop``, ``y0 ≤ y < y0 + crop``, the map's tiles and frontier in the middle
    (any spare cell of an odd margin goes after them).  A map with no tile yet is centred on
    its start cell.  Raises :class:`CropTooSmall` when a map's tiles and frontier span more
    than ``crop`` cells."""
    found = []
    placed = [map_local(pos) for pos in game.board]
    for m, frontier in enumerate(game.frontiers):
        cells = [map_local(pos) for pos in frontier] + [cell for cell in placed if cell[0] == m]
        if not cells:
            found.append((-(crop // 2), -(crop // 2)))
            continue
        corner = []
        for axis in (1, 2):
            low, high = min(cell[axis] for cell in cells), max(cell[axis] for cell in cells)
            span = high - low + 1
            if span > crop:
                raise CropTooSmall(
                    f"the board of map {m} spans {span} cells with its frontier, more than the crop of {crop}: a "
                    f"game can span up to {full_crop(game.ruleset, game.players)} cells (its tiles in a line and "
                    f"the frontier at both ends); load it with a larger crop, or crop=0 for that (docs/api.md, "
                    f"\"The crop\")")
            corner.append(low - (crop - span) // 2)
        found.append((corner[0], corner[1]))
    return found


def full_crop(ruleset: Ruleset, players: int) -> int:
    """The crop no game of ``ruleset`` can outgrow: its tiles (personal ones included) in one
    line, and the frontier at both ends."""
    return sum(t.count for t in ruleset.tiles) + ruleset.personal_count * players + 2


@dataclass(frozen=True)
class ActionCodec:
    """The factored actions of one ruleset at one crop size (module docstring).  Every
    method raises ``ValueError`` for an action or a move outside its block."""

    maps: int
    crop: int
    slots: int
    types: int = 1
    #: Whether the ruleset has personal tiles: one action declines the one offered (``DRAW``).
    draws: bool = False
    #: How far a follower moving on may go (``triggers``), in tiles; -1 when none moves on.
    within: int = -1
    #: Under ``deck.hand``, the tile types (one pick action each, the last actions); else 0.
    picks: int = 0

    @classmethod
    def for_ruleset(cls, ruleset: Ruleset, crop: int) -> ActionCodec:
        """The encoding of ``ruleset`` with a crop of ``crop`` cells (at least 3)."""
        if isinstance(crop, bool) or not isinstance(crop, int) or crop < 3:
            raise ValueError(f"crop is a number of cells, at least 3, not {crop!r}")
        types = len(ruleset.follower_types)
        spots = max(len(t.segments) for t in ruleset.tiles) + (4 if ruleset.corner_types else 0)
        within = max((w for _, w in ruleset.movers), default=-1)
        return cls(ruleset.maps, crop, 1 + spots * types, types, ruleset.personal_tile >= 0, within,
                   len(ruleset.tiles) if ruleset.hand else 0)

    # -- the blocks ---------------------------------------------------------------

    @property
    def placements(self) -> int:
        """Actions that choose a cell and a rotation (the first block)."""
        return self.maps * self.crop * self.crop * 4

    @property
    def starts_from(self) -> int:
        """The first start-turn action (after the follower spots)."""
        return self.placements + self.slots

    @property
    def draw_action(self) -> int:
        """The action of :data:`~engine.core.moves.DRAW`; ``ValueError`` without personal tiles."""
        if not self.draws:
            raise ValueError("the ruleset has no personal tiles to decline (deck.personal)")
        return self.starts_from + 4

    @property
    def moves_from(self) -> int:
        """The first move-on action."""
        return self.starts_from + 4 + self.draws

    @property
    def _reach_side(self) -> int:
        return 2 * self.within + 1 if self.within >= 0 else 0

    @property
    def home_action(self) -> int:
        """The action that sends a follower moving on home; ``ValueError`` when none moves on."""
        if self.within < 0:
            raise ValueError("no follower of the ruleset moves on (triggers)")
        return self.moves_from + self._reach_side ** 2 * self.slots

    @property
    def pick_from(self) -> int:
        """The first pick action (:attr:`size` when the ruleset has no hands)."""
        return self.moves_from + (self._reach_side ** 2 * self.slots + 1 if self.within >= 0 else 0)

    @property
    def size(self) -> int:
        """How many actions there are in all."""
        return self.pick_from + self.picks

    def block(self, action: int) -> str:
        """Which block ``action`` is in: ``place``, ``follower``, ``start``, ``decline``,
        ``move on``, ``pick``; ``ValueError`` outside them all."""
        for name, end in (("place", self.placements), ("follower", self.starts_from),
                          ("start", self.starts_from + 4), ("decline", self.moves_from),
                          ("move on", self.pick_from), ("pick", self.size)):
            if 0 <= action < end:
                return name
        raise ValueError(f"action {action} is outside the actions (0 ≤ action < {self.size})")

    # -- placements ------------------------------------------------------------------

    def place_action(self, pos: int, rotation: int, window: Window) -> int:
        """The action placing a tile at packed ``pos`` turned ``rotation``; ``ValueError``
        outside the map's crop ``window``."""
        m, x, y = map_local(pos)
        x0, y0 = window[m]
        row, col = y - y0, x - x0
        if not (0 <= row < self.crop and 0 <= col < self.crop):
            raise ValueError(f"cell ({x}, {y}) of map {m} lies outside the crop (from ({x0}, {y0}), "
                             f"{self.crop} cells)")
        return ((m * self.crop + row) * self.crop + col) * 4 + rotation

    def placement(self, action: int, window: Window) -> tuple[int, int]:
        """``(packed position, rotation)`` of a placement ``action`` in the crop ``window``."""
        if not 0 <= action < self.placements:
            raise ValueError(f"action {action} places no tile (those are 0 ≤ action < {self.placements})")
        rest, rotation = divmod(action, 4)
        rest, col = divmod(rest, self.crop)
        m, row = divmod(rest, self.crop)
        x0, y0 = window[m]
        return map_origin(m) + pack(x0 + col, y0 + row), rotation

    # -- follower spots -----------------------------------------------------------------

    def slot(self, spot: int | None, kind: int = 0) -> int:
        """The slot of a follower of type ``kind`` on ``spot`` (None: no follower)."""
        if spot is None:
            return 0
        slot = 1 + spot * self.types + kind
        if not 0 <= kind < self.types or not 0 < slot < self.slots:
            raise ValueError(f"no tile has a spot {spot} for follower type {kind}")
        return slot

    def follower_action(self, spot: int | None, kind: int = 0) -> int:
        """The second decision: a follower of type ``kind`` on ``spot``, or none."""
        return self.placements + self.slot(spot, kind)

    def follower(self, action: int) -> tuple[int | None, int]:
        """``(spot or None, follower type)`` of a follower-spot ``action``."""
        if not self.placements <= action < self.starts_from:
            raise ValueError(f"action {action} chooses no follower spot (those are {self.placements} ≤ "
                             f"action < {self.starts_from})")
        return self._unslot(action - self.placements)

    def _unslot(self, slot: int) -> tuple[int | None, int]:
        if slot == 0:
            return None, 0
        spot, kind = divmod(slot - 1, self.types)
        return spot, kind

    # -- the rest ------------------------------------------------------------------------

    def start_action(self, rotation: int) -> int:
        """The action that turns a drawn start tile ``rotation`` quarter turns."""
        return self.starts_from + rotation

    def start_rotation(self, action: int) -> int | None:
        """The rotation of a start ``action``, or None for any other action."""
        return action - self.starts_from if self.starts_from <= action < self.starts_from + 4 else None

    def move_on_action(self, move: Move, origin: int) -> int:
        """The action of a follower moving on (``move_on(pos, spot, type)``, or
        :data:`HOME`) from the tile at packed ``origin``."""
        if move == HOME:
            return self.home_action
        w = self.within
        (x, y), (ox, oy) = unpack(move.pos), unpack(origin)
        dx, dy = x - ox, y - oy
        if w < 0 or not (-w <= dx <= w and -w <= dy <= w):
            raise ValueError(f"a follower may not move on {dx, dy} cells (within {w})")
        cell = (dy + w) * self._reach_side + dx + w
        return self.moves_from + cell * self.slots + self.slot(move.follower, move.type)

    def move_on(self, action: int, origin: int) -> Move:
        """The move of a move-on ``action`` for a follower that stood on the tile at ``origin``."""
        if action == self.home_action:
            return HOME
        if not self.moves_from <= action < self.home_action:
            raise ValueError(f"action {action} moves no follower on")
        rest, slot = divmod(action - self.moves_from, self.slots)
        dy, dx = divmod(rest, self._reach_side)
        spot, kind = self._unslot(slot)
        if spot is None:
            raise ValueError(f"action {action} moves no follower")
        ox, oy = unpack(origin)
        return move_on(pack(ox + dx - self.within, oy + dy - self.within), spot, kind)

    def pick_action(self, tile: int) -> int:
        """The action picking held tile type ``tile`` (``pick(tile)``)."""
        if not 0 <= tile < self.picks:
            raise ValueError(f"no tile type {tile} to pick (deck.hand; the ruleset has {self.picks})")
        return self.pick_from + tile

    def pick(self, action: int) -> Move:
        """The pick of a pick ``action``."""
        if not self.pick_from <= action < self.size:
            raise ValueError(f"action {action} picks no tile")
        return pick(action - self.pick_from)

