"""Where the player may deploy a follower with the current tile: the spots and types, and why not.

:func:`deploy_choices` answers for one placement of the current tile (the bots ask it for every
placement they weigh); :func:`choices_given` is its core, for a caller that already knows which
features each of the tile's segments would join (the look-ahead's groups);
:func:`raise_refused_spot` says why a move's follower may not go where it names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..geometry import FACING, SIDE_STEP
from ..rules.follower_types import FREE, JOINS, NEEDS
from .followers import count_of, types_mask
from .moves import IllegalMove, Move

if TYPE_CHECKING:
    from ..rules.follower_types import FollowerType
    from ..rules.tiles import Orientation, TileType
    from .game import Game


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
    tile = game.tiles[current_tile(game)]
    kinds = game.ruleset.kinds
    group, packed, done = _joined(game, tile, pos, rotation, _sides_beside(game, pos))
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
    tile = game.tiles[current_tile(game)]
    beside = _sides_beside(game, pos)
    group, packed, done = _joined(game, tile, pos, rotation, beside)
    found = choices_given(game, tile, pos, rotation, [packed[_local_find(group, j)] for j in range(len(tile.segments))],
                          beside)
    if done:
        spots = _not_done(group, done, [tile.spot_segment(spot) for spot, _ in found])
        found = [(spot, t) for spot, t in found if tile.spot_segment(spot) in spots]
    return found


def choices_given(game: Game, tile: TileType, pos: int, rotation: int, here_of: list[int],
                  beside: int = -1) -> list[tuple[int, int]]:
    """:func:`deploy_choices` of ``tile`` placed at ``pos``, ``rotation``, given per segment the
    packed followers its feature holds after the placement (``here_of``, as :func:`_joined` or the
    look-ahead's groups find them), before features completed by a formula are left out; a player
    with a follower left.  Types are tried in ``ruleset.follower_types`` order per spot.
    ``beside``: the cell's :func:`_sides_beside` when the caller has it (-1: worked out here)."""
    player = game.player
    types = game.ruleset.follower_types
    reserve, mask, kept_out, by_kind = (game.reserve[player], game.deploy_masks[player], game.kept_out,
                                        game.segment_types)
    rules_by_kind = game.segment_rules
    found: list[tuple[int, int]] = []
    for j, seg in enumerate(tile.segments):
        here = here_of[j]
        if here & kept_out:
            continue
        kind = seg.kind
        on_kind, rules = by_kind[kind], rules_by_kind[kind]  # the segment types that go on its kind, in type order
        for k in range(len(on_kind)):
            t, rule = on_kind[k], rules[k]
            if reserve[t] and (rule == JOINS or rule == FREE and not here & mask
                               or rule == NEEDS and _allowed(game, types[t], kind, here, mask)):
                found.append((j, t))
    if _any_left(reserve, game.ruleset.corner_types):  # none left (a barn each): no junction to look for
        n = len(tile.segments)
        if beside < 0:
            beside = _sides_beside(game, pos)
        for c, j in enumerate(tile.corners):
            b = (c + rotation) % 4  # the corner is between board sides b and b + 1: both need a tile
            if j < 0 or not (beside >> b) & (beside >> (b + 1) % 4) & 1 or here_of[j] & kept_out \
                    or not corner_meets(game, tile, pos, rotation, c):
                continue
            found.extend((n + c, t) for t in game.ruleset.corner_types
                         if _may_go(game, types[t], tile.segments[j].kind, here_of[j], mask))
    return found


def _any_left(reserve: list[int], types: tuple[int, ...]) -> bool:
    """Whether ``reserve`` (one seat's pieces left, by type) holds a piece of one of ``types`` (a loop,
    not any(…): no generator object a placement)."""
    for t in types:
        if reserve[t]:
            return True
    return False


def _sides_beside(game: Game, pos: int) -> int:
    """A bit per board side (N E S W: 1, 2, 4, 8) of cell ``pos`` that has a tile beside it, read from
    the cell's edge constraint (a side code of 0: no tile), or from the board for a cell not on the
    frontier (no caller asks about one today: a placement is checked first)."""
    key, base, found = game.frontier.get(pos, -1), game.ruleset.edge_base, 0
    for side in range(4):
        beside = key % base != 0 if key >= 0 else pos + SIDE_STEP[side] in game.board
        if beside:
            found |= 1 << side
        key //= base
    return found


def _may_go(game: Game, piece: FollowerType, kind: int, here: int, mask: int) -> bool:
    """Whether the player may put a piece of type ``piece`` on a feature of kind ``kind`` whose
    packed followers are ``here`` (after the placement): one left in supply, a kind it goes on,
    and ``needs`` met, or else the kind deployable and the feature free under the deploy rule
    (``mask``), or the type may ``join`` it anyway."""
    return (bool(game.reserve[game.player][piece.index]) and kind in piece.kinds
            and _allowed(game, piece, kind, here, mask))


def _allowed(game: Game, piece: FollowerType, kind: int, here: int, mask: int) -> bool:
    """:func:`_may_go` for a piece the player has and a kind it goes on: ``needs`` met, or else the
    kind deployable and the feature free under the deploy rule (``mask``), or the type may ``join``."""
    if piece.needs:
        return any(count_of(here, game.player, need, game.players) for need in piece.needs)
    return game.ruleset.kinds[kind].deployable and (piece.join or not here & mask)


def corner_meets(game: Game, tile: TileType, pos: int, rotation: int, corner: int) -> bool:
    """Whether corner ``corner`` (canonical, ``NE SE SW NW``) of ``tile`` placed at ``pos`` turned
    ``rotation`` is a spot where four tiles meet, each with its corner there on a segment of the
    same kind (Abbey & Mayor's barn: "a junction where 4 tiles connect to create an open field",
    papageek.com car/Barn.htm): the other three cells hold tiles, and their corners are whole."""
    board = game.board
    b = (corner + rotation) % 4  # between board sides b and b + 1
    across, beside = SIDE_STEP[b], SIDE_STEP[(b + 1) % 4]
    a, s, d = board.get(pos + across), board.get(pos + beside), board.get(pos + across + beside)
    if a is None or s is None or d is None:  # most corners: not four tiles yet
        return False
    kind = tile.segments[tile.corners[corner]].kind
    return (_corner_kind(game, a, (b + 1) % 4) == kind and _corner_kind(game, s, (b + 3) % 4) == kind
            and _corner_kind(game, d, (b + 2) % 4) == kind)


def _corner_kind(game: Game, placed: tuple[Orientation, int, int], corner: int) -> int:
    """The kind of the segment a placed tile (a board entry) has whole at board corner ``corner``;
    -1 where no segment holds that corner whole."""
    orientation, _, index = placed
    tile = game.tiles[index]
    j = tile.corners[(corner - orientation.rotation) % 4]
    return tile.segments[j].kind if j >= 0 else -1


def _joined(game: Game, tile: TileType, pos: int, rotation: int,
            beside: int) -> tuple[list[int], list[int], list[int]]:
    """For ``tile`` placed at ``pos``, ``rotation`` (``beside``: the cell's :func:`_sides_beside`):
    a small union-find over its segments (those joined through one neighbouring feature are one),
    per local root the packed followers of the features it would join, and the segments that would
    join a feature completed by its kind's formula (:attr:`~engine.core.board.Board.done`; empty
    when there is none)."""
    orientation = tile.orientations[rotation]
    n = len(tile.segments)
    group = [j for j in range(n)]  # a comprehension, not list(range(n)): native when compiled
    packed = [0 for _ in range(n)]
    met: list[int] = []  # the neighbouring features' roots met so far, and the local segment of each
    met_at: list[int] = []
    done: list[int] = []
    judged = bool(game.done)
    fol, board, wild, sharing = game.fol, game.board, game.ruleset.edge_wild, game.sharing
    steps, facing = SIDE_STEP, FACING  # module globals, looked up once a call
    for side in range(4):
        if not (beside >> side) & 1:
            continue
        neighbour = board[pos + steps[side]]
        n_orientation, n_base, _ = neighbour
        if wild >= 0 and (orientation.side_codes[side] == wild or n_orientation.side_codes[(side + 2) % 4] == wild):
            continue  # a wild side joins nothing
        n_ports = n_orientation.port_segment
        for j, port, _ in orientation.joins[side]:
            root = game.find(n_base + n_ports[facing[port]])
            if judged and game.is_done(root):
                done.append(j)
            _meet(group, packed, met, met_at, fol, j, root)
        if sharing:  # segments reaching the side without holding it, ours and the neighbour's
            for j, root, _ in game.shared_meetings(orientation, side, neighbour):
                if judged and game.is_done(root):
                    done.append(j)
                _meet(group, packed, met, met_at, fol, j, root)
    return group, packed, done


def _meet(group: list[int], packed: list[int], met: list[int], met_at: list[int], fol: list[int],
          j: int, root: int) -> None:
    """Segment ``j`` of the tile being placed joins the neighbouring feature at ``root``: note it
    in :func:`_joined`'s union-find ``group`` (two segments meeting one feature are one) and the
    feature's followers (``fol[root]``) in ``packed`` the first time the feature is met."""
    g = _local_find(group, j)
    k = _position(met, root)
    if k < 0:
        met.append(root)
        met_at.append(g)
        packed[g] = packed[g] + fol[root]  # not +=: an item's in-place add is not native
    else:
        other = _local_find(group, met_at[k])
        if other != g:
            group[other] = g
            packed[g] = packed[g] + packed[other]


def _position(items: list[int], item: int) -> int:
    """The index of ``item`` in the short list ``items``, -1 if absent (a loop: no boxing, no hashing)."""
    for k in range(len(items)):
        if items[k] == item:
            return k
    return -1


def _not_done(group: list[int], done: list[int], segments: list[int]) -> list[int]:
    """``segments`` whose feature would not join one completed by its kind's formula, given the local
    union-find ``group`` and the ``done`` segments :func:`_joined` gives: a complete feature takes no
    follower (engine/rules/completes.py)."""
    done_groups = {_local_find(group, j) for j in done}
    return [j for j in segments if _local_find(group, j) not in done_groups]


def raise_refused_spot(game: Game, move: Move) -> None:
    """Raise :class:`IllegalMove` (``follower``) saying why the follower of ``move`` may not go
    where it names, unless it may."""
    tile = game.tiles[current_tile(game)]
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


def _spot_free_of_done(game: Game, tile: TileType, move: Move) -> bool:
    """Whether ``move``'s spot would not join a feature completed by its kind's formula."""
    group, _, done = _joined(game, tile, move.pos, move.rotation, _sides_beside(game, move.pos))
    assert move.follower is not None, "a move that deploys names its spot"
    return bool(_not_done(group, done, [tile.spot_segment(move.follower)]))


def _holds(game: Game, move: Move, kind: int) -> bool:
    """Whether the feature ``move``'s spot would join (after its placement) holds a piece of type ``kind``."""
    tile = game.tiles[current_tile(game)]
    group, packed, _ = _joined(game, tile, move.pos, move.rotation, _sides_beside(game, move.pos))
    assert move.follower is not None, "a move that deploys names its spot"
    here = packed[_local_find(group, tile.spot_segment(move.follower))]
    return bool(here & types_mask([kind], game.players))


def current_tile(game: Game) -> int:
    """The tile type index of the tile to place; :class:`IllegalMove` when none is left."""
    tile = game.tile
    if tile is None:
        raise IllegalMove("placement", "the game has no tile left to place")
    return tile


def _local_find(group: list[int], j: int) -> int:
    while group[j] != j:
        j = group[j]
    return j
