"""A fixed action encoding for any ruleset: every legal move is one integer, and no board is clipped.

A map can hold no more tiles than the ruleset has, so no tile lies more
than ``reach`` = (tiles in the ruleset) cells from its map's start tile:
positions run over a square of side ``2·reach + 1`` per map.  An action is

    ((((map · side + y + reach) · side + x + reach) · 4 + rotation) · slots + slot)

with ``slot`` 0 for no follower and ``1 + j · types + t`` for a follower of
type ``t`` on spot ``j`` (``slots`` = 1 + the most segments any tile type
has, times the ruleset's follower types: 1 + segments when there is only the
normal follower, so ``j + 1``; a ruleset with a ``spot: corner`` type, the barn,
has 4 spots more, past each tile's segments, for its corners); the last four actions
turn a start tile drawn from the stack (``deck.start_rule: drawn``) 0–3
quarter turns.  Under ``deck.personal`` one more action, the last, declines a
personal tile offered (:data:`~engine.core.moves.DRAW`), and the personal tiles
count among the tiles.  Under a ``triggers`` move (the wagon), a follower moving on
has an action per map, cell and follower slot after those,
``((map · side + y + reach) · side + x + reach) · slots + slot``, and one more
sends it home.  Under ``deck.hand`` one action per tile type comes last, after
all of those: action ``(first pick) + t`` picks held tile type ``t``
(``Move(t, PICK)``, :data:`~engine.core.moves.PICK`).  Rulesets without hands keep
every number above.  The basic game has 145 × 145 × 4 × 9 + 4 = 756,904 actions.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.moves import DRAW, HOME, MOVE_ON, PICK, Move, is_decision, is_draw, is_pick
from ..geometry import map_local, map_origin, pack
from ..rules.ruleset import Ruleset


@dataclass(frozen=True)
class ActionCodec:
    """Moves ↔ action integers for one ruleset (module docstring).  ``ValueError`` for an
    action or a move outside the encoding."""

    maps: int
    reach: int
    slots: int
    types: int = 1
    #: Whether the ruleset has personal tiles: one more action, :data:`~engine.core.moves.DRAW`.
    draws: bool = False
    #: Whether a follower may move on after scoring (``triggers``): its actions, and HOME.
    movers: bool = False
    #: Under ``deck.hand``, the tile types (one pick action each, the last actions); else 0.
    picks: int = 0

    @classmethod
    def for_ruleset(cls, ruleset: Ruleset) -> ActionCodec:
        """The encoding of ``ruleset``: its maps, tile count, largest tile, corner spots and hands."""
        tiles = sum(t.count for t in ruleset.tiles) + ruleset.personal_count * ruleset.max_players
        types = len(ruleset.follower_types)
        spots = max(len(t.segments) for t in ruleset.tiles) + (4 if ruleset.corner_types else 0)
        return cls(ruleset.maps, tiles, 1 + spots * types, types,
                   ruleset.personal_tile >= 0, bool(ruleset.movers), len(ruleset.tiles) if ruleset.hand else 0)

    @property
    def side(self) -> int:
        """Cells per row and column of a map's square."""
        return 2 * self.reach + 1

    @property
    def placements(self) -> int:
        """How many actions place a tile (the start rotations come after them)."""
        return self.maps * self.side * self.side * 4 * self.slots

    @property
    def size(self) -> int:
        """How many actions there are in all."""
        return self.pick_from + self.picks

    @property
    def pick_from(self) -> int:
        """The first pick action (:attr:`size` when the ruleset has no hands): ``pick_from + t``
        picks tile type ``t``."""
        return self._moves_from + (self.maps * self.side * self.side * self.slots + 1 if self.movers else 0)

    @property
    def _moves_from(self) -> int:
        """The first action of a follower moving on."""
        return self.placements + 4 + self.draws

    @property
    def draw_action(self) -> int:
        """The action of :data:`~engine.core.moves.DRAW`; ``ValueError`` without personal tiles."""
        if not self.draws:
            raise ValueError("the ruleset has no personal tiles to decline (deck.personal)")
        return self.placements + 4

    def encode(self, move: Move) -> int:
        """The action of ``move``."""
        if is_draw(move):
            return self.draw_action
        if is_pick(move):
            if not self.picks:
                raise ValueError("the ruleset has no hands to pick a tile from (deck.hand)")
            if not 0 <= move.pos < self.picks:
                raise ValueError(f"no tile type {move.pos} to pick (the ruleset has {self.picks})")
            return self.pick_from + move.pos
        if is_decision(move):
            return self._encode_decision(move)
        m, x, y = map_local(move.pos)
        r = self.reach
        if not (0 <= m < self.maps and -r <= x <= r and -r <= y <= r):
            raise ValueError(f"move at {(m, x, y)} lies outside the encoding (reach {r})")
        slot = 0 if move.follower is None else 1 + move.follower * self.types + move.type
        if not 0 <= slot < self.slots or not 0 <= move.type < self.types:
            raise ValueError(f"no tile has a segment {move.follower} for follower type {move.type}")
        return (((m * self.side + y + r) * self.side + x + r) * 4 + move.rotation) * self.slots + slot

    def decode(self, action: int) -> Move:
        """The move of a placing, declining, moving-on or picking ``action`` (not a start rotation)."""
        if self.draws and action == self.placements + 4:
            return DRAW
        if self.movers and self._moves_from <= action < self.pick_from:
            return self._decode_decision(action)
        if self.pick_from <= action < self.size:
            return Move(action - self.pick_from, PICK)
        if not 0 <= action < self.placements:
            raise ValueError(f"action {action} places no tile (those are 0 ≤ action < {self.placements}; "
                             f"the 4 after them turn a start tile)")
        rest, slot = divmod(action, self.slots)
        rest, rotation = divmod(rest, 4)
        rest, x = divmod(rest, self.side)
        m, y = divmod(rest, self.side)
        pos = map_origin(m) + pack(x - self.reach, y - self.reach)
        if slot == 0:
            return Move(pos, rotation)
        segment, kind = divmod(slot - 1, self.types)
        return Move(pos, rotation, segment, kind)

    def _encode_decision(self, move: Move) -> int:
        if not self.movers:
            raise ValueError("no follower of the ruleset moves on (triggers)")
        if move == HOME:
            return self.pick_from - 1
        m, x, y = map_local(move.pos)
        r = self.reach
        if not (0 <= m < self.maps and -r <= x <= r and -r <= y <= r):
            raise ValueError(f"move at {(m, x, y)} lies outside the encoding (reach {r})")
        slot = 1 + (move.follower or 0) * self.types + move.type
        return self._moves_from + ((m * self.side + y + r) * self.side + x + r) * self.slots + slot

    def _decode_decision(self, action: int) -> Move:
        if action == self.pick_from - 1:
            return HOME
        rest, slot = divmod(action - self._moves_from, self.slots)
        m, rest = divmod(rest, self.side * self.side)
        y, x = divmod(rest, self.side)
        if slot == 0:
            raise ValueError(f"action {action} moves no follower")
        segment, kind = divmod(slot - 1, self.types)
        return Move(map_origin(m) + pack(x - self.reach, y - self.reach), MOVE_ON, segment, kind)

    def start_action(self, rotation: int) -> int:
        """The action that turns a drawn start tile ``rotation`` quarter turns."""
        return self.placements + rotation

    def start_rotation(self, action: int) -> int | None:
        """The rotation of a start ``action``, or None if it places a tile, declines a personal
        tile, moves a follower on, picks a held tile or is no action."""
        return action - self.placements if self.placements <= action < self.placements + 4 else None
