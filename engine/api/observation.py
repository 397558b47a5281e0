"""The observation: the board as planes over the crop, then the players, the tile and the stack.

It determines the state as the observing seat knows it: two positions with
different tiles, rotations, followers or scores never give the same tensor
(tests/api/test_observation.py plays thousands of positions to check it).
Without hands everything in it is public, so every seat observes the same
thing but for ``me``; under ``deck.hand`` a seat's hand is its own (``hand``)
and the others' count only as ``held``.  Pieces, in order, flattened into one
float32 vector (``crop`` and the window are :mod:`engine.api.actions`'s):

========== ================================= ============================================
piece      shape                             value
========== ================================= ============================================
board      (maps, planes, crop, crop)        per cell ``[row, col]`` of the map's crop, the
                                             planes of :data:`FIXED_PLANES` then: per side
                                             (N E S W) and feature kind, 1 when a port of
                                             that side holds a segment of that kind; per tile
                                             type, 1 for the tile there (with the rotation
                                             planes, this fixes every segment and how they
                                             connect); per seat, 1 when one of its followers
                                             is on the tile; per seat and follower type, the
                                             spots they stand on as a sum of ``2 ** spot``
                                             (segment index; past the segments, corner
                                             ``NE SE SW NW`` of the tile type as drawn)
me         (players,)                        1 for the observing seat
to_move    (players,)                        1 for the seat to act (none at a draw)
scores     (players,)                        points so far
potential  (players,)                        points if the game ended now (final scoring
                                             of every feature as it stands)
pieces     (players, follower types)         followers of each type in supply
tile       (tile types,)                     1 for the tile to place or the start tile to
                                             turn (none at a draw or while a follower moves
                                             on; under deck.hand for its holder only, and
                                             none while a tile is to be picked)
unseen     (tile types,)                     copies not seen yet (stack or box; under
                                             deck.hand also the other seats' hands and the
                                             tiles returned unknown to the observer)
tokens     (players, tokens)                 tokens collected (only with ``tokens``)
personal   (players,)                        personal tiles held (only under deck.personal)
titles     (titles, players)                 the title's record for its holder, else 0
                                             (only under ``award: title``)
hand       (tile types,)                     copies the observing seat holds (deck.hand)
held       (players,)                        tiles each seat holds (deck.hand)
========== ================================= ============================================

Needs numpy.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..core import chance, moving
from ..core.hands import of as hands_of
from ..core.moves import PLACE
from ..files.notation import format_follower
from ..geometry import map_local
from .actions import ActionCodec
from .mechanism_parts import parts_of

if TYPE_CHECKING:
    import numpy

    from ..core.game import Game
    from ..rules.ruleset import Ruleset
    from .turns import ChanceGame

#: The first planes of every cell: a tile is there; the cell is on the frontier; the tile placed
#: last; the map's start cell (0, 0); the tile piece's tile fits there turned 0-3 (4 planes); the
#: placement chosen, turned 0-3, whose follower spot is still to choose (4); the placed tile's
#: rotation 0-3 (4); the tile a follower moving on stood on (1 + its type).
FIXED_PLANES = ("tile", "frontier", "last", "origin", "fits0", "fits1", "fits2", "fits3",
                "placing0", "placing1", "placing2", "placing3", "rotation0", "rotation1", "rotation2",
                "rotation3", "mover")
_FITS, _PLACING, _ROTATION, _MOVER = 4, 8, 12, 16


class Layout:
    """The observation of one ruleset, number of seats and crop (module docstring):
    :attr:`pieces` (names and shapes), :attr:`size`, :meth:`views` and :meth:`fill`."""

    def __init__(self, ruleset: "Ruleset", players: int, crop: int) -> None:
        self.ruleset, self.players = ruleset, players
        self.codec = ActionCodec.for_ruleset(ruleset, crop)
        kinds, types = len(ruleset.kinds), len(ruleset.tiles)
        follower_types = len(ruleset.follower_types)
        self.edges = len(FIXED_PLANES)
        self.types_at = self.edges + 4 * kinds
        self.seats_at = self.types_at + types
        self.spots_at = self.seats_at + players
        planes = self.spots_at + players * follower_types
        found = [("board", (ruleset.maps, planes, crop, crop)), ("me", (players,)), ("to_move", (players,)),
                 ("scores", (players,)), ("potential", (players,)), ("pieces", (players, follower_types)),
                 ("tile", (types,)), ("unseen", (types,))]
        #: The mechanisms' parts the ruleset has (:mod:`engine.api.mechanism_parts`).
        self.parts = parts_of(ruleset, players)
        for part in self.parts:
            found += part.full
        #: ``(name, shape)`` of each piece, in order.
        self.pieces: list[tuple[str, tuple[int, ...]]] = found
        #: Floats in the flat tensor.
        self.size = sum(math.prod(shape) for _, shape in found)
        # Per (tile type, rotation): the edge planes set (side · kinds + kind, from the board ports).
        self._edge_planes = [[sorted({self.edges + (port // 3) * kinds + tile.kinds[j]
                                      for port, j in enumerate(o.port_segment[:12]) if j >= 0})
                              for o in tile.orientations] for tile in ruleset.tiles]

    def views(self, tensor: "numpy.ndarray") -> dict[str, "numpy.ndarray"]:
        """Named, reshaped views into a flat ``tensor`` of :attr:`size` (writing them writes it)."""
        found, at = {}, 0
        for name, shape in self.pieces:
            n = math.prod(shape)
            found[name] = tensor[at:at + n].reshape(shape)
            at += n
        return found

    def fill(self, view: dict[str, "numpy.ndarray"], state: "ChanceGame", seat: int) -> None:
        """Write ``state`` as ``seat`` sees it into the :meth:`views` of a zeroed tensor.
        Raises :class:`~engine.api.actions.CropTooSmall` when the board outgrew the crop."""
        game = state.game
        board, window = view["board"], state.window
        for pos, (orientation, _base, tile) in game.board.items():
            m, x, y = map_local(pos)
            cell = board[m, :, y - window[m][1], x - window[m][0]]
            cell[0] = 1
            cell[_ROTATION + orientation.rotation] = 1
            cell[self.types_at + tile] = 1
            for plane in self._edge_planes[tile][orientation.rotation]:
                cell[plane] = 1
        for pos, owner, kind, spot in followers_on_board(game):
            m, x, y = map_local(pos)
            cell = board[m, :, y - window[m][1], x - window[m][0]]
            cell[self.seats_at + owner] = 1
            cell[self.spots_at + owner * len(game.ruleset.follower_types) + kind] += 2 ** spot
        for m, frontier in enumerate(game.frontiers):
            x0, y0 = window[m]
            if 0 <= -y0 < self.codec.crop and 0 <= -x0 < self.codec.crop:
                board[m, 3, -y0, -x0] = 1
            for pos in frontier:
                _, x, y = map_local(pos)
                board[m, 1, y - y0, x - x0] = 1
        self._fill_moment(view, state, seat)
        view["me"][seat] = 1
        if not state.chance and not state.over:
            view["to_move"][state.player] = 1
        view["scores"][:] = game.scores
        view["potential"][:] = game.potential_scores()
        view["pieces"][:] = game.reserve
        for tile, copies in chance.unseen(game).items():
            view["unseen"][tile] = copies
        for part in self.parts:
            part.fill_full(view, game, seat)

    def _fill_moment(self, view: dict[str, "numpy.ndarray"], state: "ChanceGame", seat: int) -> None:
        """The planes of this moment: the last tile, where the tile shown fits, the placement
        chosen, the follower moving on; and the ``tile`` piece."""
        game, board, window = state.game, view["board"], state.window

        def cell(pos: int) -> "numpy.ndarray":
            m, x, y = map_local(pos)
            return board[m, :, y - window[m][1], x - window[m][0]]

        last = next((move for _, move in reversed(game.history) if move is not None and move.kind == PLACE), None)
        if last is not None:
            cell(last.pos)[2] = 1
        tile = shown_tile(state, seat)
        if tile is not None:
            view["tile"][tile] = 1
            if not game.pending_starts:
                for pos, rotation in game.placements():
                    cell(pos)[_FITS + rotation] = 1
        if state.placing is not None:
            cell(state.placing[0])[_PLACING + state.placing[1]] = 1
        movers = moving.of(game).movers
        if movers:
            cell(movers[0][2])[_MOVER] = 1 + movers[0][1]


def shown_tile(state: "ChanceGame", seat: int) -> int | None:
    """The tile type the ``tile`` piece shows ``seat``: the tile to place or the start tile to
    turn (none at a draw or while a follower moves on); under ``deck.hand`` only to its holder,
    and none while a tile is to be picked."""
    game = state.game
    if state.chance or moving.of(game).movers:
        return None
    if game.pending_starts:
        return game.start_tile
    hands = hands_of(game)
    if game.tile is None or (hands is not None and (seat != game.player or hands.picking)):
        return None
    return game.tile


def text(state: "ChanceGame", seat: int) -> str:
    """What ``seat`` observes, as one line that determines it as the tensor does: ``"seat 0 |
    to move 1 | turn 3 | scores [2, 0] | potential [4, 0] | supply [[6], [7]] | tile V | board
    D(0,0)r0 V(1,0)r1 0:road@S | 66 to draw"``, then under ``deck.hand`` the seat's hand and
    what each holds, and the placement chosen or the follower moving on when there is one."""
    game, ruleset = state.game, state.ruleset
    tiles = ruleset.tiles
    tile = shown_tile(state, seat)
    followers: dict[int, list[str]] = {}
    for pos, owner, kind, spot in followers_on_board(game):
        orientation, _, placed = game.board[pos]
        followers.setdefault(pos, []).append(
            f"{owner}:{format_follower(ruleset, placed, orientation.rotation, spot, kind)}")
    cells = []
    for pos, (orientation, _, placed) in sorted(game.board.items()):
        cells.append(f"{tiles[placed].id}{_where(state, pos)}r{orientation.rotation}"
                     + "".join(f" {f}" for f in sorted(followers.get(pos, ()))))
    to_move = "-" if state.chance or state.over else str(state.player)
    parts = [f"seat {seat}", f"to move {to_move}", f"turn {game.turn}", f"scores {game.scores}",
             f"potential {game.potential_scores()}", f"supply {game.reserve}",
             f"tile {'-' if tile is None else tiles[tile].id}", "board " + " ".join(cells),
             f"{game.remaining} to draw"]
    parts += [part.text(game, seat) for part in parts_of(ruleset, game.players)]
    if state.placing is not None:
        parts.append(f"placing{_where(state, state.placing[0])}r{state.placing[1]}")
    movers = moving.of(game).movers
    if movers:
        owner, kind, pos = movers[0]
        parts.append(f"moving {owner}:{ruleset.follower_types[kind].name} from{_where(state, pos)}")
    return " | ".join(parts)


def followers_on_board(game: "Game") -> list[tuple[int, int, int, int]]:
    """``(packed position, owner, follower type, spot)`` of every follower on the board: ``spot`` is
    the tile type's segment index, or past the segments its corner ``NE SE SW NW`` as drawn (the
    board corner turned back by the tile's rotation)."""
    found = []
    for segment, owner, kind, corner in game.on_board:
        pos = game.seg_pos[segment]
        orientation, base, tile = game.board[pos]
        n = len(game.tiles[tile].segments)
        spot = segment - base if corner < 0 else n + (corner - orientation.rotation) % 4
        found.append((pos, owner, kind, spot))
    return found


def _where(state: "ChanceGame", pos: int) -> str:
    m, x, y = map_local(pos)
    return f"({x},{y})" if state.codec.maps == 1 else f"(map {m}: {x},{y})"
