"""The packing of followers on a feature (engine/core/followers.py): what a packed value holds is
what was put in, seat by seat and type by type, however many seats and types (a packed value of
five types and two seats passes 62 bits, where the compiled build leaves its small ints)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.core.followers import count_of, one_follower, pieces_by_player, strengths, unpack_followers

#: (seats, types, pieces per (seat, type) slot, weight per type)
TABLES = st.integers(2, 6).flatmap(lambda seats: st.integers(1, 5).flatmap(lambda types: st.tuples(
    st.just(seats), st.just(types),
    st.lists(st.integers(0, 3), min_size=seats * types, max_size=seats * types),
    st.lists(st.integers(0, 4), min_size=types, max_size=types))))


def packed_of(seats: int, types: int, counts: list[int]) -> int:
    """The packed value of ``counts[t * seats + p]`` pieces of type ``t`` per seat ``p``, one by one."""
    packed = 0
    for t in range(types):
        for p in range(seats):
            packed += counts[t * seats + p] * one_follower(p, t, seats)
    return packed


@given(TABLES)
def test_a_packed_value_gives_back_each_seats_pieces_and_strength(table: tuple) -> None:
    seats, types, counts, weights = table
    packed = packed_of(seats, types, counts)
    for t in range(types):
        for p in range(seats):
            assert count_of(packed, p, t, seats) == counts[t * seats + p]
    assert pieces_by_player(packed, seats, types) == [sum(counts[t * seats + p] for t in range(types))
                                                      for p in range(seats)]
    assert strengths(packed, seats, tuple(weights)) == [sum(weights[t] * counts[t * seats + p] for t in range(types))
                                                        for p in range(seats)]
    assert unpack_followers(packed, seats) == counts[:seats]


def test_a_strength_counts_the_later_types_past_62_bits() -> None:
    # Two seats, five types: seat 1's fifth type sits in bits 72-79.
    packed = one_follower(1, 4, 2) + 2 * one_follower(0, 0, 2)
    assert packed.bit_length() > 62
    assert strengths(packed, 2, (1, 2, 0, 0, 5)) == [2, 5]
    assert pieces_by_player(packed, 2, 5) == [2, 1]
