"""The compact observation: board planes ``[C, H, W]`` and a vector of scalars, seats relative to
the observer, every value in [0, 1] but the points.

What a network takes (issue 52): a third of the size of the full observation
(:mod:`engine.api.observation`), which one-hot encodes every tile type and feature kind per
cell.  Here a cell's tile type and rotation are one value each, and they fix every segment and
how the segments connect, so the observation still determines the position as the observer
knows it (tests/api/test_planes.py plays thousands of positions to check it).  Seats come in
turn order from the observer: "me", then the next seat, and so on (``rel`` below).

``board``, shape ``(maps × planes, crop, crop)`` (each map's planes, map after map), a cell
``[row, col]`` of the map's crop:

============ ==============================================================================
plane        value
============ ==============================================================================
tile         1 where a tile is
frontier     1 on the frontier (where a tile may go)
last         1 on the tile placed last
origin       1 on the map's start cell (0, 0)
fits         the rotations the tile shown fits turned to there, as Σ 2^r / 15 (r = 0–3)
placing      the placement chosen whose follower spot is still to choose: (rotation + 1) / 4
type         the tile there: (tile type index + 1) / tile types
rotation     the tile there: (quarter turns + 1) / 4
side N … W   per side, the side's edge code: (code + 1) / (codes + 1)
mover        the tile a follower moving on stands on: (follower type + 1) / follower types
followers    per seat (rel) and follower type: the spots they stand on as Σ 2^spot / 2^spots
             (spot: segment index, then corners NE SE SW NW of the tile type as drawn;
             spots: the most a tile type has)
============ ==============================================================================

``scalars``, in this order: ``to_move`` (seats, rel: 1 for the seat to act), ``scores`` and
``potential`` (seats, rel: points / 100, unbounded: the only values that may pass 1 or go
below 0), ``pieces`` (seats × follower types, rel: in supply / at most at the start),
``tile`` (tile types: 1 for the tile shown, as the full observation's), ``unseen`` (tile
types: copies not seen / copies in the ruleset), then only where the ruleset has them
``tokens`` (seats × tokens, rel: / tokens in the ruleset), ``personal`` (seats, rel: held /
at the start), ``titles`` (titles × seats, rel: 1 for the holder), ``hand`` (tile types:
copies held / hand size) and ``held`` (seats, rel: / hand size).

Needs numpy.
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING

from ..core import chance, moving
from ..core.moves import PLACE
from ..geometry import map_local
from ..rules.seats import pieces_at_start
from .actions import ActionCodec
from .mechanism_parts import parts_of
from .observation import Layout, followers_on_board, shown_tile

if TYPE_CHECKING:
    import numpy

    from ..core.game import Game
    from ..rules.ruleset import Ruleset
    from .turns import ChanceGame

#: The planes of every cell before the followers' (module docstring).
FIXED_PLANES = ("tile", "frontier", "last", "origin", "fits", "placing", "type", "rotation",
                "side N", "side E", "side S", "side W", "mover")
_TILE, _FRONTIER, _LAST, _ORIGIN, _FITS, _PLACING, _TYPE, _ROTATION, _SIDES, _MOVER = 0, 1, 2, 3, 4, 5, 6, 7, 8, 12
#: Points are divided by this in the scalars.
POINTS_SCALE = 100.0


class CompactLayout:
    """The compact observation of one ruleset, number of seats and crop (module docstring):
    :attr:`board_shape`, :attr:`scalars` (names and lengths), :attr:`size` (board then scalars,
    flat), :attr:`low` / :attr:`high` per scalar, :meth:`views` and :meth:`fill`."""

    def __init__(self, ruleset: "Ruleset", players: int, crop: int) -> None:
        self.ruleset, self.players = ruleset, players
        self.codec = ActionCodec.for_ruleset(ruleset, crop)
        self.types = len(ruleset.follower_types)
        self.per_map = len(FIXED_PLANES) + players * self.types
        self.board_shape = (ruleset.maps * self.per_map, crop, crop)
        tiles = len(ruleset.tiles)
        #: The mechanisms' parts the ruleset has (:mod:`engine.api.mechanism_parts`).
        self.parts = parts_of(ruleset, players)
        found = [("to_move", players), ("scores", players), ("potential", players),
                 ("pieces", players * self.types), ("tile", tiles), ("unseen", tiles)]
        for part in self.parts:
            found += part.compact
        #: ``(name, length)`` of each part of the scalars, in order.
        self.scalars: list[tuple[str, int]] = found
        self.scalar_size = sum(n for _, n in found)
        #: Values in the board planes: the scalars follow them in the flat tensor.
        self.board_size = math.prod(self.board_shape)
        self.size = self.board_size + self.scalar_size
        spots = max(len(t.segments) for t in ruleset.tiles) + (4 if ruleset.corner_types else 0)
        self._spot_scale = 2.0 ** spots
        codes = max(code for t in ruleset.tiles for o in t.orientations for code in o.side_codes) + 1
        self.area = crop * crop
        # Per tile type and rotation: the planes a placed tile sets (as offsets in the flat board) and their values.
        offsets = tuple(plane * self.area for plane in (_TILE, _TYPE, _ROTATION, _SIDES, _SIDES + 1, _SIDES + 2,
                                                          _SIDES + 3))
        self._cells = [[(offsets, [1.0, (i + 1) / tiles, (o.rotation + 1) / 4,
                                   *((code + 1) / (codes + 1) for code in o.side_codes)])
                        for o in t.orientations] for i, t in enumerate(ruleset.tiles)]
        self._copies = [max(t.count, 1) for t in ruleset.tiles]
        self._start = [max(max(pieces_at_start(ruleset, s)[k] for s in range(players)), 1)
                       for k in range(self.types)]
        #: The last board planes of placed tiles (:meth:`_placed`): ``(game, window, tiles written)`` and the planes.
        self._kept: tuple["Game", list[tuple[int, int]], int] | None = None
        self._planes: "numpy.ndarray | None" = None
        #: Per packed position, its cell's flat index (:meth:`_at`) in the window ``_where_window``.
        self._where: dict[int, int] = {}
        self._where_window: list[tuple[int, int]] = []

    def __getstate__(self) -> dict:
        # A pickle or a copy starts without the kept planes (they hold a game and a board's worth of values).
        state = self.__dict__.copy()
        state.update(_kept=None, _planes=None, _where={}, _where_window=[])
        return state

    @property
    def low(self) -> list[float]:
        """Per scalar, its least value: −inf for the points, else 0."""
        return [-math.inf if name in ("scores", "potential") else 0.0 for name, n in self.scalars for _ in range(n)]

    @property
    def high(self) -> list[float]:
        """Per scalar, its greatest value: +inf for the points, else 1."""
        return [math.inf if name in ("scores", "potential") else 1.0 for name, n in self.scalars for _ in range(n)]

    def views(self, tensor: "numpy.ndarray") -> dict[str, "numpy.ndarray"]:
        """``board`` (reshaped) and each part of the scalars as views into a flat ``tensor`` of
        :attr:`size` (writing them writes it); they partition it, as OpenSpiel's observer needs
        (the scalars whole are ``tensor[board_size:]``)."""
        found = {"board": tensor[:self.board_size].reshape(self.board_shape)}
        at = self.board_size
        for name, length in self.scalars:
            found[name] = tensor[at:at + length]
            at += length
        return found

    def fill(self, view: dict[str, "numpy.ndarray"], state: "ChanceGame", seat: int) -> None:
        """Write ``state`` as ``seat`` sees it into the :meth:`views` of a zeroed tensor.
        Raises :class:`~engine.api.actions.CropTooSmall` when the board outgrew the crop."""
        game, window = state.game, state.window
        if window != self._where_window:
            self._where, self._where_window = {}, list(window)
        flat = view["board"].reshape(-1)
        flat[:] = self._placed(game, window, flat)
        frontier_plane = _FRONTIER * self.area
        flat[[self._at(pos, window) + frontier_plane for frontier in game.frontiers for pos in frontier]] = 1.0
        players, first = self.players, len(FIXED_PLANES)
        for pos, owner, kind, spot in followers_on_board(game):
            plane = first + ((owner - seat) % players) * self.types + kind
            flat[self._at(pos, window) + plane * self.area] += 2.0 ** spot / self._spot_scale
        self._fill_moment(view, state, seat)
        self._fill_scalars(view, state, seat)

    def _placed(self, game: "Game", window: list[tuple[int, int]], like: "numpy.ndarray") -> "numpy.ndarray":
        """The board planes of the placed tiles and the origins (a flat array like ``like``): kept
        between observations of one game while its window stays, each new tile written once (a game's
        tiles are only ever added, in ``game.board``'s order)."""
        kept = self._kept
        if kept is not None and kept[0] is game and kept[1] == window and kept[2] <= len(game.board):
            planes, written = self._planes, kept[2]
        else:
            planes, written = like.copy(), 0
            planes.fill(0)
            crop = self.codec.crop
            for m, (x0, y0) in enumerate(window):
                if 0 <= -y0 < crop and 0 <= -x0 < crop:
                    planes[(m * self.per_map + _ORIGIN) * self.area - y0 * crop - x0] = 1.0
        # One numpy write for the new cells: numpy costs far more per call than per value.
        index, values = [], []
        cells = self._cells
        for pos, (orientation, _base, tile) in itertools.islice(game.board.items(), written, None):
            at = self._at(pos, window)
            offsets, placed = cells[tile][orientation.rotation]
            index += [at + offset for offset in offsets]
            values += placed
        planes[index] = values
        self._kept, self._planes = (game, list(window), len(game.board)), planes
        return planes

    def _at(self, pos: int, window: list[tuple[int, int]]) -> int:
        """The flat index of ``pos``'s cell in its map's first plane (remembered while the window stays:
        :meth:`fill` forgets them when it moves)."""
        found = self._where.get(pos)
        if found is None:
            m, x, y = map_local(pos)
            found = self._where[pos] = m * self.per_map * self.area + (y - window[m][1]) * self.codec.crop \
                + x - window[m][0]
        return found

    def _fill_moment(self, view: dict[str, "numpy.ndarray"], state: "ChanceGame", seat: int) -> None:
        """The planes of this moment: the last tile, where the tile shown fits, the placement
        chosen, the follower moving on; and the ``tile`` scalars."""
        game, flat, window, area = state.game, view["board"].reshape(-1), state.window, self.area
        last = next((move for _, move in reversed(game.history) if move is not None and move.kind == PLACE), None)
        if last is not None:
            flat[self._at(last.pos, window) + _LAST * area] = 1
        tile = shown_tile(state, seat)
        if tile is not None:
            view["tile"][tile] = 1
            if not game.pending_starts:
                fits: dict[int, float] = {}
                for pos, rotation in game.placements():
                    at = self._at(pos, window) + _FITS * area
                    fits[at] = fits.get(at, 0.0) + 2 ** rotation / 15
                flat[list(fits)] = list(fits.values())
        if state.placing is not None:
            flat[self._at(state.placing[0], window) + _PLACING * area] = (state.placing[1] + 1) / 4
        movers = moving.of(game).movers
        if movers:
            flat[self._at(movers[0][2], window) + _MOVER * area] = (movers[0][1] + 1) / self.types

    def _fill_scalars(self, view: dict[str, "numpy.ndarray"], state: "ChanceGame", seat: int) -> None:
        game, players = state.game, self.players
        order = [(seat + k) % players for k in range(players)]  # rel: me, then the others in turn order
        if not state.chance and not state.over:
            view["to_move"][(state.player - seat) % players] = 1
        potential = game.potential_scores()
        for k, s in enumerate(order):
            view["scores"][k] = game.scores[s] / POINTS_SCALE
            view["potential"][k] = potential[s] / POINTS_SCALE
            for t in range(self.types):
                view["pieces"][k * self.types + t] = game.reserve[s][t] / self._start[t]
        for tile, copies in chance.unseen(game).items():
            view["unseen"][tile] = copies
        for part in self.parts:
            part.fill_compact(view, game, seat, order)
        view["unseen"][:] /= self._copies


#: The observations by name: ``compact`` (this module's: board planes and scalars) and ``full``
#: (:class:`~engine.api.observation.Layout`: one flat vector, every tile type and kind one-hot).
OBSERVATIONS = ("compact", "full")


def make_layout(kind: str, ruleset: "Ruleset", players: int, crop: int) -> "CompactLayout | Layout":
    """The layout of observation ``kind`` (:data:`OBSERVATIONS`); ``ValueError`` for another name."""
    if kind == "compact":
        return CompactLayout(ruleset, players, crop)
    if kind == "full":
        return Layout(ruleset, players, crop)
    raise ValueError(f"observation must be one of {', '.join(OBSERVATIONS)}, not {kind!r}")
