"""The observation tensor: the board as planes over the unclipped square of the action encoding.

Everything in it is public (the board, scores, supplies, the drawn tile and
how many tiles of each type are still to come), so every seat observes the
same thing but for the "me" plane.  Pieces, in this order, flattened into one
float32 vector:

========== ================================= ============================================
piece      shape                             value
========== ================================= ============================================
board      (maps, planes, side, side)        per cell ``[x + reach, y + reach]``:
                                             plane 0 a tile is there, 1 the cell is on
                                             the frontier, 2 the tile placed last, then
                                             one plane per feature kind (the tile has a
                                             segment of it), one per seat (a follower of
                                             that seat is on the tile), and the last: the
                                             drawn tile fits there (some rotation)
me         (players,)                        1 for the observing seat
to_move    (players,)                        1 for the seat to act (none at a draw)
scores     (players,)                        points so far
supply     (players,)                        followers in supply
tile       (tile types,)                     1 for the drawn tile (none while a
                                             follower moves on)
unseen     (tile types,)                     copies not seen yet (stack or deck.size box)
personal   (players,)                        personal tiles held (only under ``deck.personal``;
                                             the tile piece shows one offered)
titles     (titles, players)                 the title's record for its holder, else 0 (only
                                             under titles: ``award: title``)
========== ================================= ============================================

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

    from ..rules.ruleset import Ruleset
    from .turns import ChanceGame


def pieces(ruleset: "Ruleset", players: int) -> list[tuple[str, tuple[int, ...]]]:
    """The pieces' names and shapes for ``ruleset`` and ``players`` seats (module docstring)."""
    codec = ActionCodec.for_ruleset(ruleset)
    planes = 3 + len(ruleset.kinds) + players + 1
    types = len(ruleset.tiles)
    return [("board", (codec.maps, planes, codec.side, codec.side)), ("me", (players,)),
            ("to_move", (players,)), ("scores", (players,)), ("supply", (players,)),
            ("tile", (types,)), ("unseen", (types,))] + ([("personal", (players,))] if ruleset.personal_tile >= 0 else []) \
        + ([("titles", (len(ruleset.titles), players))] if ruleset.titles else [])


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
    if game.tile is not None and not game.pending_starts and not game.movers:  # a tile to place
        for pos, _ in game.placements():
            m, x, y = _local(pos)
            board[m, fits_plane, x + r, y + r] = 1
        view["tile"][game.tile] = 1
    view["me"][seat] = 1
    if not state.chance and not state.over:
        view["to_move"][state.player] = 1
    view["scores"][:] = game.scores
    view["supply"][:] = game.supply
    for tile, copies in chance.unseen(game).items():
        view["unseen"][tile] = copies
    if "personal" in view:
        view["personal"][:] = game.personal
    for i, (holder, record) in enumerate(game.titles):
        if holder >= 0:
            view["titles"][i, holder] = record
