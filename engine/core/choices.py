"""What the current player may do: legal placements and the placement decision (followers:
:mod:`engine.core.deployment`).

:class:`~engine.core.game.Game`'s methods of the same names call these, kept
here so that the game module holds the turn loop only.
The current tile's placements are found once per drawn tile, in one walk of
the frontier (:func:`placement_table`), and every question about them — how
many, the n-th, whether there is any (the discard check), the list — is
answered from that table: this walk is most of a random game.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate
from typing import TYPE_CHECKING

from .constrained import by_cell_only, spots, walk
from .deployment import current_tile, deploy_choices, raise_refused_spot
from .mechanism import DecisionKind
from .moves import PLACE, IllegalMove, Move, kind_name

if TYPE_CHECKING:
    from .game import Game


#: The current tile's legal placements, walked once per drawn tile: cells in frontier
#: order, the rotations that fit at each (maybe none), and the running count of
#: placements up to and including each cell.
PlacementTable = tuple[list[int], list[tuple[int, ...]], list[int]]


def placements(game: Game, tile: int | None = None) -> list[tuple[int, int]]:
    """Legal ``(pos, rotation)`` placements of ``tile`` (default: the current tile):
    the edges match, and so do the ruleset's placement constraints.  Frontier
    order, then rotation order (the order :meth:`placement` indexes)."""
    if tile is None or tile == game.tile:
        cells, rotations, _ = placement_table(game)
        return [(pos, r) for pos, rs in zip(cells, rotations) for r in rs]
    return walk(game, tile)


def placement_table(game: Game) -> PlacementTable:
    """The current tile's :data:`PlacementTable`, built on first use after each draw or
    placement (the game drops it whenever the tile, the map or the frontier changes)."""
    table = game.placement_cache
    if table is None:
        table = game.placement_cache = _table(game, current_tile(game))
    return table


def placement_count(game: Game) -> int:
    """How many legal placements the current tile has."""
    ends = placement_table(game)[2]
    return ends[-1] if ends else 0


def placement(game: Game, n: int) -> tuple[int, int]:
    """The ``n``-th legal placement, in :meth:`placements` order; ``IndexError`` past the last."""
    cells, rotations, ends = placement_table(game)
    i = bisect_right(ends, n)  # the first cell whose placements reach past n: it has some
    if n < 0 or i == len(cells):
        raise IndexError("placement index out of range")
    return cells[i], rotations[i][n - ends[i - 1] if i else n]


def fits_somewhere(game: Game, tile: int) -> bool:
    """Whether ``tile`` has a legal placement now: from the current tile's table, or for a tile
    whose constraints read the cell alone from where it is kept to fit (the abbey offered each
    turn: :func:`~engine.core.constrained.spots`)."""
    now = game.tile
    current = now is not None and now == tile  # not ``tile == game.tile``: an int beside None compares boxed
    if game.ruleset.constraints[tile]:
        if not (current and game.placement_cache is not None) and by_cell_only(game, tile):
            return bool(spots(game, tile))
        if not current:
            return bool(walk(game, tile))
    if current:
        return placement_count(game) > 0
    fits = game.ruleset.fits
    return any(fits(tile, key) for key in game.frontier.values())


def _table(game: Game, tile: int) -> PlacementTable:
    frontier = game.frontier
    if game.ruleset.constraints[tile]:
        if by_cell_only(game, tile):
            return _table_at(game, tile, spots(game, tile))
        by_cell: dict[int, tuple[int, ...]] = {}
        for pos, r in walk(game, tile):  # frontier order, then rotation order
            by_cell[pos] = by_cell.get(pos, ()) + (r,)
        return list(by_cell), list(by_cell.values()), list(accumulate(map(len, by_cell.values())))
    # One pass, a dict look-up a cell; a key not met before costs one :meth:`fits` (it memoises).
    ruleset = game.ruleset
    memo = ruleset.fit_table(tile)
    rotations: list[tuple[int, ...]] = []
    ends: list[int] = []
    total = 0
    for key in frontier.values():
        found = memo.get(key)
        if found is None:
            found = ruleset.fits(tile, key)  # not a bound method in a local: that call is not native
        rotations.append(found)
        total += len(found)
        ends.append(total)
    return list(frontier), rotations, ends


def _table_at(game: Game, tile: int, cells: frozenset[int]) -> PlacementTable:
    """The table of a tile that fits at ``cells`` alone (its constraints read the cell alone)."""
    frontier, ruleset = game.frontier, game.ruleset
    at = [pos for pos in frontier if pos in cells]  # frontier order
    rotations = [ruleset.fits(tile, frontier[pos]) for pos in at]
    return at, rotations, list(accumulate(map(len, rotations)))


def decision_kind(game: Game) -> DecisionKind:
    """The kind of decision the player to move faces: the first a mechanism has pending
    (``game.moments.decisions``), else placing the tile (:data:`PLACE_DECISION`)."""
    for kind in game.moments.decisions:
        if kind.pending(game):
            return kind
    return PLACE_DECISION


def legal_moves(game: Game) -> list[Move]:
    """Every legal :class:`Move` of the decision the player to move faces (:func:`decision_kind`)."""
    return decision_kind(game).options(game)


def check(game: Game, move: Move) -> None:
    """Raise :class:`IllegalMove` unless ``move`` is legal for the decision the player to move faces."""
    if game.tile is None:
        raise IllegalMove("placement", "the game has no tile left to place")
    decision_kind(game).check(game, move)


def placement_moves(game: Game) -> list[Move]:
    """The placement decision's options: each placement with no follower and with each follower
    option (of each type that may go there); last, what mechanisms offer beside (the personal
    tile's :data:`~engine.core.moves.DRAW`)."""
    moves = []
    several = len(game.ruleset.follower_types) > 1
    for pos, r in game.placements():
        moves.append(Move(pos, r))
        if several:
            moves.extend(Move(pos, r, j, t) for j, t in deploy_choices(game, pos, r))
        else:
            moves.extend(Move(pos, r, j) for j in game.deploy_options(pos, r))
    moves.extend(offered(game))
    return moves


def offered(game: Game) -> list[Move]:
    """The moves mechanisms offer beside the placements of the current tile (``moments.options``:
    the personal tile's :data:`~engine.core.moves.DRAW`), in registry order; usually none."""
    moves: list[Move] = []
    for options in game.moments.options:
        moves.extend(options(game))
    return moves


def check_placement(game: Game, move: Move) -> None:
    """Raise :class:`IllegalMove` unless ``move`` places the current tile legally, or is one of the
    moves mechanisms offer beside (a move of another kind gets its mechanism's reason, ``Moments.refusals``,
    or, under a ruleset none of whose mechanisms makes such moves, says so)."""
    if move.kind != PLACE:
        if move in offered(game):
            return
        refusal = game.moments.refusals.get(move.kind)
        if refusal is None:
            raise IllegalMove("placement", f"{game.ruleset.ref} has no {kind_name(move.kind)} moves: none of its "
                                           "mechanisms asks for one")
        raise IllegalMove(*refusal)
    tile = current_tile(game)
    key = game.frontier.get(move.pos)
    if move.pos in game.board:
        raise IllegalMove("placement", "that cell already holds a tile")
    if key is None:
        raise IllegalMove("placement", "that cell does not touch the board")
    if move.rotation not in game.ruleset.fits(tile, key):
        raise IllegalMove("placement", "the tile's sides do not match its neighbours there")
    for constraint in game.ruleset.constraints[tile]:
        if not constraint.allows(game, tile, move.pos, move.rotation):
            kind = game.ruleset.kinds[constraint.kind].name if constraint.kind >= 0 else ""
            why = {"extend": f"the tile must continue the {kind}",
                   "no-u-turn": f"the {kind} may not turn back on itself",
                   "hole": f"the tile goes only into a cell with tiles on {constraint.neighbors} of its sides"
                   }[constraint.rule]
            raise IllegalMove("placement", why)
    if move.follower is not None:
        raise_refused_spot(game, move)


def _always(game: Game) -> bool:
    return True


#: Where to place the tile, and whether to deploy: the decision of every turn no mechanism takes over.
PLACE_DECISION: DecisionKind = DecisionKind("place", _always, placement_moves, check_placement, (PLACE,))
