"""Ports, rotation and positions (RULES.md §0)."""

from __future__ import annotations

import pytest

from engine.geometry import PORT_INDEX, PORTS, RING8, SIDE_STEP, facing_port, pack, rotate_port, unpack


@pytest.mark.parametrize("mine, theirs", [("EL", "WR"), ("NL", "SR"), ("NR", "SL"), ("ER", "WL"), ("N", "S"),
                                          ("W", "E")])
def test_facing_ports(mine: str, theirs: str) -> None:
    assert PORTS[facing_port(PORT_INDEX[mine])] == theirs
    assert PORTS[facing_port(PORT_INDEX[theirs])] == mine


@pytest.mark.parametrize("port, turns, after", [("N", 1, "E"), ("NL", 1, "EL"), ("WR", 1, "NR"), ("SL", 2, "NL"),
                                                ("E", 3, "N"), ("ER", 4, "ER")])
def test_rotation_is_clockwise_and_keeps_left_right(port: str, turns: int, after: str) -> None:
    assert PORTS[rotate_port(PORT_INDEX[port], turns)] == after


def test_positions_round_trip_and_neighbours() -> None:
    for x, y in [(0, 0), (-1, 0), (0, -1), (17, -300), (-4000, 4000)]:
        assert unpack(pack(x, y)) == (x, y)
    origin = pack(0, 0)
    assert [unpack(origin + step) for step in SIDE_STEP] == [(0, -1), (1, 0), (0, 1), (-1, 0)]
    assert sorted(unpack(origin + d) for d in RING8) == sorted(
        (dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)


def test_position_off_the_board_is_refused() -> None:
    with pytest.raises(ValueError):
        pack(10**7, 0)
