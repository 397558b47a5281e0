"""The tension measures on trajectories worked out by hand (engine/sim/tension.py): each list is a
game's potential scores after each turn, seat by seat."""

from __future__ import annotations

import pytest

from engine.sim.tension import comeback, decided_turn, lead_changes, leaders

#: Two lead changes: seat 0 leads, seat 1 takes the lead at turn 2, seat 0 takes it back at turn 3
#: and keeps it.
TWO_CHANGES = [[2, 0], [2, 4], [6, 4], [7, 4]]


def test_a_game_with_two_lead_changes() -> None:
    assert [sorted(leaders(s)) for s in TWO_CHANGES] == [[0], [1], [0], [0]]
    assert lead_changes(TWO_CHANGES) == 2
    assert decided_turn(TWO_CHANGES) == 3


def test_a_tie_forming_or_breaking_is_a_change() -> None:
    # {0} → {0, 1} (tie) → {1} → {0, 1} → {0, 1}: three changes; decided when the last tie formed.
    trajectory = [[1, 0], [1, 1], [1, 2], [3, 3], [4, 4]]
    assert lead_changes(trajectory) == 3
    assert decided_turn(trajectory) == 4


def test_a_game_decided_at_turn_10() -> None:
    # Seat 1 leads turns 1–9, seat 0 takes the lead at turn 10 and holds it to turn 30.
    trajectory = [[t, t + 1] for t in range(1, 10)] + [[t + 20, t] for t in range(10, 31)]
    assert len(trajectory) == 30
    assert decided_turn(trajectory) == 10
    assert lead_changes(trajectory) == 1
    assert not comeback(trajectory, [0])  # at turn 20 (two thirds of 30) seat 0 already led


def test_a_game_led_from_the_first_turn_is_decided_at_turn_1() -> None:
    assert decided_turn([[1, 0], [2, 0], [9, 3]]) == 1
    assert lead_changes([[1, 0], [2, 0], [9, 3]]) == 0


def test_a_comeback_is_a_win_from_behind_at_two_thirds() -> None:
    # Six turns: two thirds is turn 4, where seat 1 leads 5–8; seat 0 wins 12–10.
    trajectory = [[0, 1], [2, 1], [2, 6], [5, 8], [9, 8], [12, 10]]
    assert comeback(trajectory, [0])
    assert not comeback(trajectory, [1])
    assert not comeback(trajectory, [0, 1])  # a shared win with the leader is no comeback


def test_an_empty_game_has_no_decided_turn() -> None:
    with pytest.raises(ValueError):
        decided_turn([])
    with pytest.raises(ValueError):
        comeback([], [0])
