"""The observation tensor: the board as planes over the unclipped square of the action encoding.

Without hands everything in it is public (the board, scores, supplies, the
drawn tile and how many tiles of each type are still to come), so every seat
observes the same thing but for the "me" plane.  Under ``deck.hand`` the tiles
a seat holds are its own: the observation of a seat shows its hand, and
depends on the others' only through how many tiles each holds (``held``).
Pieces, in this order, flattened into one float32 vector:

========== ================================= ============================================
piece      shape                             value
========== ================================= ============================================
board      (maps, planes, side, side)        per cell ``[x + reach, y + reach]``:
                                             plane 0 a tile is there, 1 the cell is on
                                             the frontier, 2 the tile placed last, then
                                             one plane per feature kind (the tile has a
                                             segment of it), one per seat (a follower of
                                             that seat is on the tile), and the last: the
                                             tile piece's tile fits there (some rotation)
me         (players,)                        1 for the observing seat
to_move    (players,)                        1 for the seat to act (none at a draw)
scores     (players,)                        points so far
supply     (players,)                        followers in supply
tile       (tile types,)                     1 for the drawn tile (none while a
                                             follower moves on); under deck.hand the
                                             tile to place, for its holder only, and
                                             none while a tile is to be picked
unseen     (tile types,)                     copies not seen yet (stack or deck.size box;
                                             under deck.hand also the other seats'
                                             hands and the tiles they returned to the
                                             box unknown to the observer)
personal   (players,)                        personal tiles held (only under ``deck.personal``;
                                             the tile piece shows one offered)
titles     (titles, players)                 the title's record for its holder, else 0 (only
                                             under titles: ``award: title``)
hand       (tile types,)                     copies of each type the observing seat holds
                                             (only under ``deck.hand``)
held       (players,)                        tiles each seat holds (only under ``deck.hand``)
========== ================================= ============================================

Under ``deck.hand`` ``unseen`` is every tile not on the board, not set aside,
not in the observer's own hand and not returned to the box where the observer
knows it: the stack's tiles count even when the observer returned them to its
bottom (they are still to come), and so does every tile of the other seats'
hands, so ``unseen`` depends on nothing they hold.

``side`` and ``reach`` are the :class:`~engine.api.actions.ActionCodec`'s; needs numpy.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..core import chance
from ..geometry import map_local as _local
from .actions import ActionCodec

if TYPE_CHECKING:
    import numpy

    from ..core.hands import Hands
    from ..rules.ruleset import Ruleset
    from .turns import ChanceGame


def pieces(ruleset: "Ruleset", players: int) -> list[tuple[str, tuple[int, ...]]]:
    """The pieces' names and shapes for ``ruleset`` and ``players`` seats (module docstring)."""
    codec = ActionCodec.for_ruleset(ruleset)
    planes = 3 + len(ruleset.kinds) + players + 1
    types = len(ruleset.tiles)
    found = [("board", (codec.maps, planes, codec.side, codec.side)), ("me", (players,)),
             ("to_move", (players,)), ("scores", (players,)), ("supply", (players,)),
             ("tile", (types,)), ("unseen", (types,))]
    if ruleset.personal_tile >= 0:
        found.append(("personal", (players,)))
    if ruleset.titles:
        found.append(("titles", (len(ruleset.titles), players)))
    if ruleset.hand:
        found += [("hand", (types,)), ("held", (players,))]
    return found


def size(ruleset: "Ruleset", players: int) -> int:
    """Length of the flat tensor."""
    return sum(math.prod(shape) for _, shape in pieces(ruleset, players))


def views(tensor: "numpy.ndarray", ruleset: "Ruleset", players: int) -> dict[str, "numpy.ndarray"]:
    """Named, reshaped views into a flat ``tensor`` (writing them writes the tensor)."""
    found, at = {}, 0
    for name, shape in pieces(ruleset, players):
        n = math.prod(shape)
        found[name] = tensor[at:at + n].reshape(shape)
        at += n
    return found


def fill(view: dict[str, "numpy.ndarray"], state: "ChanceGame", seat: int) -> None:
    """Write ``state`` as seen by ``seat`` into the :func:`views` of a flat tensor
    (zero the tensor first)."""
    game, codec = state.game, state.codec
    r = codec.reach
    board = view["board"]
    kinds = len(state.ruleset.kinds)
    follower_plane = 3 + kinds
    fits_plane = follower_plane + game.players
    owner = {segment: player for segment, player, _, _ in game.on_board}
    for pos, (_, base, tile) in game.board.items():
        m, x, y = _local(pos)
        cell = board[m, :, x + r, y + r]
        cell[0] = 1
        for j, kind in enumerate(game.tiles[tile].kinds):
            cell[3 + kind] = 1
            player = owner.get(base + j)
            if player is not None:
                cell[follower_plane + player] = 1
    for m, frontier in enumerate(game.frontiers):
        for pos in frontier:
            _, x, y = _local(pos)
            board[m, 1, x + r, y + r] = 1
    last = next((move for _, move in reversed(game.history) if move is not None), None)
    if last is not None:
        m, x, y = _local(last.pos)
        board[m, 2, x + r, y + r] = 1
    tile = shown_tile(state, seat)
    if tile is not None:
        for pos, _ in game.placements():
            m, x, y = _local(pos)
            board[m, fits_plane, x + r, y + r] = 1
        view["tile"][tile] = 1
    view["me"][seat] = 1
    if not state.chance and not state.over:
        view["to_move"][state.player] = 1
    view["scores"][:] = game.scores
    view["supply"][:] = game.supply
    for tile, copies in chance.unseen(game).items():
        view["unseen"][tile] = copies
    if game.hands is not None:
        _fill_hands(view, game.hands, seat)
    if "personal" in view:
        view["personal"][:] = game.personal
    for i, (holder, record) in enumerate(game.titles):
        if holder >= 0:
            view["titles"][i, holder] = record


def shown_tile(state: "ChanceGame", seat: int) -> int | None:
    """The tile type the ``tile`` piece shows ``seat``: the tile to place (none at a draw, a start
    rotation or a follower moving on); under ``deck.hand`` only to its holder, and none while a
    tile is to be picked."""
    game = state.game
    if game.tile is None or game.pending_starts or game.movers:
        return None
    if game.hands is not None and (seat != game.player or game.hands.picking):
        return None
    return game.tile


def text(state: "ChanceGame", seat: int) -> str:
    """Under ``deck.hand``, what ``seat`` observes as a line: ``"seat 0: turn 3, scores [2, 0],
    supply [7, 7], tile V, hand V W, held [2, 2], 4 tiles placed, 66 to draw"`` (``tile -``
    when the ``tile`` piece shows none)."""
    game, tiles = state.game, state.ruleset.tiles
    hands = game.hands
    assert hands is not None, "without hands every seat observes the whole state"
    tile = shown_tile(state, seat)
    hand = " ".join(tiles[t].id for t in sorted(t for t, _, _ in hands.held[seat])) or "-"
    return (f"seat {seat}: turn {game.turn}, scores {game.scores}, supply {game.supply}, "
            f"tile {'-' if tile is None else tiles[tile].id}, hand {hand}, "
            f"held {[len(held) for held in hands.held]}, {len(game.board)} tiles placed, {game.remaining} to draw")


def _fill_hands(view: dict[str, "numpy.ndarray"], hands: "Hands", seat: int) -> None:
    """The ``hand`` and ``held`` pieces of ``seat``, and the tiles others hold or returned to
    the box unknown to it added to ``unseen`` (which :func:`fill` filled from the stacks and box)."""
    me = 1 << seat
    for other, held in enumerate(hands.held):
        view["held"][other] = len(held)
        for tile, _, _ in held:
            view["hand" if other == seat else "unseen"][tile] += 1
    for tile, _, known in hands.out:
        if not known & me:
            view["unseen"][tile] += 1
