"""Followers on a feature, packed into one int per union-find root.

Each seat gets ``PLAYER_BITS`` bits (up to 255 followers of one seat on one
feature), so merging two features adds two ints and "is anyone here?" is a
truth test.  The game, the deploy check and the look-ahead all read this
packing, so it is defined once here.
"""

from __future__ import annotations

PLAYER_BITS = 8
PLAYER_MASK = (1 << PLAYER_BITS) - 1


def one_follower(player: int) -> int:
    """The packed value of a single follower of seat ``player``."""
    return 1 << (PLAYER_BITS * player)


def others_mask(player: int) -> int:
    """A mask that keeps every seat's count but ``player``'s (``packed & mask`` is
    truthy when someone else is on the feature)."""
    return ~(PLAYER_MASK << (PLAYER_BITS * player))


def unpack_followers(packed: int, players: int) -> list[int]:
    """Followers per seat, ``players`` long, from a packed value."""
    return [(packed >> (PLAYER_BITS * p)) & PLAYER_MASK for p in range(players)]
