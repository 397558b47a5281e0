"""Who won a game, and the order the others came in: the most points wins, and seats with equal
points share their place (tied winners all win; RULES.md §3.1, the basic rulebook in
../shared/seeds/).  What the end of the terminal log, the replay viewer and ``play --json`` say.
"""

from __future__ import annotations

from collections.abc import Sequence


def ranking(scores: Sequence[int]) -> list[list[int]]:
    """The seats in places, best first: each place the seats (in seat order) with one score, so a
    tie is a place of several seats.  ``[7, 68, 7]`` → ``[[1], [0, 2]]``."""
    return [[seat for seat, points in enumerate(scores) if points == score]
            for score in sorted(set(scores), reverse=True)]


def standing(scores: Sequence[int], names: Sequence[str], finished: bool = True) -> str:
    """One sentence naming the winner (or the tied winners) and the places after:
    ``greedy-2 wins with 68 points; then random-1 7.`` or ``A and B tie for the win with 40
    points each; then C 30.``; of a game stopped before its end (``finished`` false), who leads:
    ``Unfinished: B leads with 10 points; then A 7.``, ``Unfinished: A and B are level at 0 points.``"""
    places = ranking(scores)
    if not places:
        return "No players."
    first, *rest = places
    who = _joined([names[seat] for seat in first])
    points = scores[first[0]]
    unit = "point" if abs(points) == 1 else "points"
    if not finished:
        said = "Unfinished: " + (f"{who} leads with {points} {unit}" if len(first) == 1 else
                                 f"{who} are level at {points} {unit}")
    else:
        said = (f"{who} wins with {points} {unit}" if len(first) == 1 else
                f"{who} tie for the win with {points} {unit} each")
    if rest:
        said += "; then " + ", ".join(f"{_joined([names[seat] for seat in place])} {scores[place[0]]}"
                                      + (" (tied)" if len(place) > 1 else "") for place in rest)
    return said + "."


def _joined(names: list[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def winners(scores: Sequence[int], finished: bool = True) -> list[int]:
    """The seats with the most points of a finished game (several: a tie); none while it goes on."""
    return ranking(scores)[0] if finished and scores else []
