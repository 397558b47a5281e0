"""Followers on a feature, packed into one int per union-find root.

Each seat gets ``PLAYER_BITS`` bits per follower type (up to 255 followers of
one seat and type on one feature): type ``t`` of seat ``p`` sits in slot
``t * players + p``, so the normal type (0) of seat ``p`` is slot ``p`` and a
ruleset without other types packs exactly as before.  Merging two features
adds two ints and "is anyone here?" is a truth test.  The game, the deploy
check and the look-ahead all read this packing, so it is defined once here.
"""

from __future__ import annotations

PLAYER_BITS = 8
PLAYER_MASK = (1 << PLAYER_BITS) - 1


def one_follower(player: int, kind: int = 0, players: int = 0) -> int:
    """The packed value of a single follower of seat ``player`` and type ``kind`` (of a game
    of ``players`` seats; the normal type 0 needs no seat count)."""
    return 1 << (PLAYER_BITS * (kind * players + player))


def others_mask(player: int, players: int = 1, types: int = 1) -> int:
    """A mask that keeps every seat's counts but ``player``'s, of every type (``packed & mask``
    is truthy when someone else is on the feature)."""
    mine = 0
    for kind in range(types):
        mine |= PLAYER_MASK << (PLAYER_BITS * (kind * players + player))
    return ~mine


def types_mask(kinds: "tuple[int, ...] | list[int]", players: int) -> int:
    """A mask of every seat's counts of the types ``kinds`` (``packed & mask`` is truthy when a
    piece of one of them is on the feature)."""
    mask = 0
    for kind in kinds:
        for p in range(players):
            mask |= PLAYER_MASK << (PLAYER_BITS * (kind * players + p))
    return mask


def count_of(packed: int, player: int, kind: int, players: int) -> int:
    """How many followers of type ``kind`` seat ``player`` has in ``packed``."""
    return (packed >> (PLAYER_BITS * (kind * players + player))) & PLAYER_MASK


def strengths(packed: int, players: int, weights: tuple[int, ...]) -> list[int]:
    """Each seat's strength in a majority: its followers of each type times the type's weight
    (``weights`` per type, the normal type first)."""
    found = [0] * players
    step = PLAYER_BITS * players
    for weight in weights:  # type by type, each type's slots shifted down in turn
        if not packed:  # no piece of this type or a later one: most features hold the normal type only
            break
        if weight:
            for p in range(players):
                found[p] = found[p] + weight * ((packed >> (PLAYER_BITS * p)) & PLAYER_MASK)
        packed >>= step
    return found


def unpack_followers(packed: int, players: int) -> list[int]:
    """Followers per seat, ``players`` long, from a packed value."""
    return [(packed >> (PLAYER_BITS * p)) & PLAYER_MASK for p in range(players)]


def pieces_by_player(packed: int, players: int, types: int) -> list[int]:
    """Pieces per seat, of all ``types`` follower types, whatever their strength (what goes back to
    the supplies when the feature scores)."""
    if types == 1:
        return unpack_followers(packed, players)
    found = [0] * players
    step = PLAYER_BITS * players
    for _ in range(types):
        if not packed:
            break
        for p in range(players):
            found[p] = found[p] + ((packed >> (PLAYER_BITS * p)) & PLAYER_MASK)
        packed >>= step
    return found
