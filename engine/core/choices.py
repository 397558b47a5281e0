"""What the current player may do: legal placements, follower options, and why a move is refused.

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

from ..geometry import FACING, SIDE_STEP
from .constrained import walk
from .followers import count_of, types_mask
from .mechanism import DecisionKind
from .moves import PLACE, IllegalMove, Move, kind_name

if TYPE_CHECKING:
    from ..rules.follower_types import FollowerType
    from ..rules.tiles import TileType
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
        table = game.placement_cache = _table(game, _current(game))
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
    """Whether ``tile`` has a legal placement now (the current tile's from its table)."""
    if tile == game.tile:
        ends = placement_table(game)[2]
        return bool(ends) and ends[-1] > 0
    if game.ruleset.constraints[tile]:
        return bool(walk(game, tile))
    fits = game.ruleset.fits
    return any(fits(tile, key) for key in game.frontier.values())


def _table(game: Game, tile: int) -> PlacementTable:
    frontier = game.frontier
    if game.ruleset.constraints[tile]:
        by_cell: dict[int, tuple[int, ...]] = {}
        for pos, r in walk(game, tile):  # frontier order, then rotation order
            by_cell[pos] = by_cell.get(pos, ()) + (r,)
        return list(by_cell), list(by_cell.values()), list(accumulate(map(len, by_cell.values())))
    # One pass, a dict look-up a cell; a key not met before costs one :meth:`fits` (it memoises).
    memo, fits = game.ruleset.fit_table(tile), game.ruleset.fits
    rotations: list[tuple[int, ...]] = []
    ends: list[int] = []
    total = 0
    for key in frontier.values():
        found = memo.get(key)
        if found is None:
            found = fits(tile, key)
        rotations.append(found)
        total += len(found)
        ends.append(total)
    return list(frontier), rotations, ends


def deploy_options(game: Game, pos: int, rotation: int) -> list[int]:
    """Segments of the current tile a follower may go on if it is placed at ``pos``, ``rotation``.

    A segment qualifies when its kind is deployable and the feature it
    would belong to after the placement holds no follower (with the
    ruleset's ``own-or-empty`` policy: none of another player's), and the
    player has a follower in supply (RULES.md §3.1, "Deploy restriction").
    With several follower types: the segments some type may go on
    (:func:`deploy_choices`).
    """
    if not game.supply[game.player]:
        return []
    if len(game.ruleset.follower_types) > 1:
        return list(dict.fromkeys(j for j, _ in deploy_choices(game, pos, rotation)))
    tile = game.tiles[_current(game)]
    kinds = game.ruleset.kinds
    group, packed, done = _joined(game, tile, pos, rotation)
    mask = game.deploy_masks[game.player]
    found = [j for j, seg in enumerate(tile.segments)
             if kinds[seg.kind].deployable and not packed[_local_find(group, j)] & mask]
    return _not_done(group, done, found) if done else found


def deploy_choices(game: Game, pos: int, rotation: int) -> list[tuple[int, int]]:
    """``(spot, follower type)`` pairs the player may deploy if the current tile is placed
    at ``pos``, ``rotation``: the player has one of the type left, the type may go on the
    segment's kind, and either the type ``needs`` one of the player's followers of the named
    types already on the feature, or (no ``needs``) the feature is free under the ruleset's
    deploy rule, as for :func:`deploy_options`, or the type may ``join`` it; never a feature
    holding a ``keeps_out`` piece (docs/rulesets.md, "Follower types").  A spot is a segment
    index, or for a ``spot: corner`` type ``len(segments) + c`` for corner ``c`` where four
    tiles meet (:func:`corner_meets`)."""
    types = game.ruleset.follower_types
    if len(types) == 1:
        return [(j, 0) for j in deploy_options(game, pos, rotation)]
    player = game.player
    if not game.supply[player]:
        return []
    tile = game.tiles[_current(game)]
    group, packed, done = _joined(game, tile, pos, rotation)
    mask = game.deploy_masks[player]
    kept_out = game.kept_out
    found: list[tuple[int, int]] = []
    for j, seg in enumerate(tile.segments):
        here = packed[_local_find(group, j)]
        if not here & kept_out:
            found.extend((j, t.index) for t in types if t.spot == "segment" and _may_go(game, t, seg.kind, here, mask))
    reserve = game.reserve[player]
    if any(reserve[t] for t in game.ruleset.corner_types):  # none left (a barn each): no junction to look for
        n = len(tile.segments)
        for c, j in enumerate(tile.corners):
            if j < 0 or not corner_meets(game, tile, pos, rotation, c):
                continue
            here = packed[_local_find(group, j)]
            if not here & kept_out:
                found.extend((n + c, t) for t in game.ruleset.corner_types
                             if _may_go(game, types[t], tile.segments[j].kind, here, mask))
    if done:
        spots = _not_done(group, done, [tile.spot_segment(spot) for spot, _ in found])
        found = [(spot, t) for spot, t in found if tile.spot_segment(spot) in spots]
    return found


def _may_go(game: Game, piece: "FollowerType", kind: int, here: int, mask: int) -> bool:
    """Whether the player may put a piece of type ``piece`` on a feature of kind ``kind`` whose
    packed followers are ``here`` (after the placement): one left in supply, a kind it goes on,
    and ``needs`` met, or else the kind deployable and the feature free under the deploy rule
    (``mask``), or the type may ``join`` it anyway."""
    if not game.reserve[game.player][piece.index] or kind not in piece.kinds:
        return False
    if piece.needs:
        return any(count_of(here, game.player, need, game.players) for need in piece.needs)
    return game.ruleset.kinds[kind].deployable and (piece.join or not here & mask)


def corner_meets(game: Game, tile: "TileType", pos: int, rotation: int, corner: int) -> bool:
    """Whether corner ``corner`` (canonical, ``NE SE SW NW``) of ``tile`` placed at ``pos`` turned
    ``rotation`` is a spot where four tiles meet, each with its corner there on a segment of the
    same kind (Abbey & Mayor's barn: "a junction where 4 tiles connect to create an open field",
    papageek.com car/Barn.htm): the other three cells hold tiles, and their corners are whole."""
    board, tiles = game.board, game.tiles
    kind = tile.segments[tile.corners[corner]].kind
    b = (corner + rotation) % 4  # between board sides b and b + 1
    across, beside = SIDE_STEP[b], SIDE_STEP[(b + 1) % 4]
    for step, theirs in ((across, (b + 1) % 4), (beside, (b + 3) % 4), (across + beside, (b + 2) % 4)):
        placed = board.get(pos + step)
        if placed is None:
            return False
        n_orientation, _, n_tile = placed
        other = tiles[n_tile]
        j = other.corners[(theirs - n_orientation.rotation) % 4]
        if j < 0 or other.segments[j].kind != kind:
            return False
    return True


def _joined(game: Game, tile: "TileType", pos: int,
            rotation: int) -> tuple[list[int], list[int], list[int]]:
    """For ``tile`` placed at ``pos``, ``rotation``: a small union-find over its segments (those
    joined through one neighbouring feature are one), per local root the packed followers of the
    features it would join, and the segments that would join a feature completed by its kind's
    formula (:attr:`~engine.core.board.Board.done`; empty when there is none)."""
    orientation = tile.orientations[rotation]
    n = len(tile.segments)
    group = list(range(n))
    packed = [0] * n
    seen: dict[int, int] = {}
    done: list[int] = []
    judged = bool(game.done)
    fol, board, wild = game.fol, game.board, game.ruleset.edge_wild
    for side in range(4):
        neighbour = board.get(pos + SIDE_STEP[side])
        if neighbour is None:
            continue
        n_orientation, n_base, _ = neighbour
        if wild >= 0 and wild in (orientation.side_codes[side], n_orientation.side_codes[(side + 2) % 4]):
            continue  # a wild side joins nothing
        n_ports = n_orientation.port_segment
        for j, port, _ in orientation.joins[side]:
            root = game.find(n_base + n_ports[FACING[port]])
            if judged and game.is_done(root):
                done.append(j)
            g = _local_find(group, j)
            other = seen.get(root)
            if other is None:
                seen[root] = g
                packed[g] += fol[root]
            else:
                other = _local_find(group, other)
                if other != g:
                    group[other] = g
                    packed[g] += packed[other]
    return group, packed, done


def _not_done(group: list[int], done: list[int], segments: list[int]) -> list[int]:
    """``segments`` whose feature would not join one completed by its kind's formula, given the local
    union-find ``group`` and the ``done`` segments :func:`_joined` gives: a complete feature takes no
    follower (engine/rules/completes.py)."""
    done_groups = {_local_find(group, j) for j in done}
    return [j for j in segments if _local_find(group, j) not in done_groups]


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
    tile = _current(game)
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


def raise_refused_spot(game: Game, move: Move) -> None:
    """Raise :class:`IllegalMove` (``follower``) saying why the follower of ``move`` may not go
    where it names, unless it may."""
    tile = game.tiles[_current(game)]
    types = game.ruleset.follower_types
    assert move.follower is not None, "a move that deploys names its spot"
    spots = len(tile.segments) + (4 if game.ruleset.corner_types else 0)
    if not 0 <= move.follower < spots or tile.spot_segment(move.follower) < 0:
        raise IllegalMove("follower", "the tile has no such segment" if move.follower < len(tile.segments)
                          or not game.ruleset.corner_types else "no feature holds that corner of the tile whole")
    if not 0 <= move.type < len(types):
        raise IllegalMove("follower", "the ruleset has no such follower type")
    if (move.follower, move.type) in deploy_choices(game, move.pos, move.rotation):
        return
    refused = game.ruleset.kinds[tile.segments[tile.spot_segment(move.follower)].kind]
    wanted = types[move.type]
    a = "a follower" if len(types) == 1 else f"a {wanted.name} follower"
    at_corner = move.follower >= len(tile.segments)
    if not refused.deployable or refused.index not in wanted.kinds:
        why = f"no {a[2:]} may go on a {refused.name}"
    elif at_corner != (wanted.spot == "corner"):
        why = f"{a} goes {'on a corner where four tiles meet' if wanted.spot == 'corner' else 'on a segment'}, " \
              f"not {'on a corner' if at_corner else 'on a segment'}"
    elif not game.reserve[game.player][move.type]:
        why = f"the player has no {a[2:]} left in supply"
    elif at_corner and not corner_meets(game, tile, move.pos, move.rotation, move.follower - len(tile.segments)):
        why = f"a {wanted.name} goes only where four tiles meet, each with its corner there on the {refused.name}"
    elif game.done and not _spot_free_of_done(game, tile, move):
        why = f"the {refused.name} is complete (its completion formula held), so no follower goes on it"
    elif wanted.needs:
        needed = " or ".join(types[n].name for n in wanted.needs)
        why = f"{a} goes only on a {refused.name} that already holds the player's {needed} follower"
    else:
        keeper = next((t.name for t in types if t.keeps_out and _holds(game, move, t.index)), None)
        why = f"the {refused.name} holds a {keeper}, so nothing more is deployed there" if keeper else \
            f"the {refused.name} already holds a follower"
    raise IllegalMove("follower", why)


def _spot_free_of_done(game: Game, tile: "TileType", move: Move) -> bool:
    """Whether ``move``'s spot would not join a feature completed by its kind's formula."""
    group, _, done = _joined(game, tile, move.pos, move.rotation)
    assert move.follower is not None, "a move that deploys names its spot"
    return bool(_not_done(group, done, [tile.spot_segment(move.follower)]))


def _holds(game: Game, move: Move, kind: int) -> bool:
    """Whether the feature ``move``'s spot would join (after its placement) holds a piece of type ``kind``."""
    tile = game.tiles[_current(game)]
    group, packed, _ = _joined(game, tile, move.pos, move.rotation)
    assert move.follower is not None, "a move that deploys names its spot"
    here = packed[_local_find(group, tile.spot_segment(move.follower))]
    return bool(here & types_mask([kind], game.players))


def _current(game: Game) -> int:
    tile = game.tile
    if tile is None:
        raise IllegalMove("placement", "the game has no tile left to place")
    return tile


def _local_find(group: list[int], j: int) -> int:
    while group[j] != j:
        j = group[j]
    return j
