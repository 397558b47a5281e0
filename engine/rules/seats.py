"""Per-seat setup compiled from ``seats``: each seat's pieces and the points it starts with.

``seats`` names seats ``first`` (the first player) to ``sixth``; each gives its seat a count
of any follower type (``pieces: {normal: 5}``) and ``points`` to start with.  A seat not named,
and a type a seat does not name, start as ``followers`` and ``follower_types`` say; being a
mapping, ``seats`` merges seat by seat and type by type when options compose
(docs/rulesets.md, "Per-seat setup").  A handicap (issue 26: "player 1 has 5 followers,
player 2 has 8") or a turn-order compensation is then data, as any other rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .bonuses import Bonus
from .follower_types import FollowerType
from .kinds import FeatureKind
from .problems import Problems
from .source import Document

if TYPE_CHECKING:
    from .ruleset import Ruleset

#: The score category of the points a seat starts with (the breakdown's column, ``by_kind``'s key).
START = "start"


#: The seats ``seats`` names, in turn order.
SEAT_NAMES = ("first", "second", "third", "fourth", "fifth", "sixth")


def compile_seats(doc: Document, follower_types: tuple[FollowerType, ...], kinds: list[FeatureKind],
                  bonuses: tuple[Bonus, ...], max_players: int,
                  problems: Problems) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """``(pieces, points)``: per seat up to the last one ``seats`` names, its count of every
    follower type (in ``follower_types`` order) and its starting points.  Problems are collected
    (code ``seats``): a seat past the ruleset's most players, a type the ruleset does not have,
    and a kind or bonus named ``start`` beside starting points (the breakdown could not tell
    them apart)."""
    named = doc.data.get("seats", {})
    by_name = {t.name: t.index for t in follower_types}
    pieces, points = [], []
    for i, seat in enumerate(SEAT_NAMES[:max((SEAT_NAMES.index(n) + 1 for n in named), default=0)]):
        entry = named.get(seat, {})
        if seat in named and i >= max_players:
            most = f"{max_players} player{'s' if max_players != 1 else ''}"
            problems.at(("seats", seat), f"the {seat} seat is set up, but the ruleset seats at most {most} "
                        "(players.max)", "seats", key=True)
        counts = [t.count for t in follower_types]
        for name, count in entry.get("pieces", {}).items():
            if name not in by_name:
                problems.at(("seats", seat, "pieces", name), f"{seat} seat: '{name}' is not a follower type of this "
                            f"ruleset (it has {', '.join(by_name)})", "seats", key=True)
                continue
            counts[by_name[name]] = count
        pieces.append(tuple(counts))
        points.append(entry.get("points", 0))
    if any(points):
        for section, names in (("features", [k.name for k in kinds]), ("bonuses", [b.name for b in bonuses])):
            if START in names:
                problems.at((section, START), f"'{START}' is the score category of the points a seat starts with "
                            "(seats): name this another way", "seats", key=True)
    return tuple(pieces), tuple(points)


def seat_gives(doc: Document, type_name: str) -> bool:
    """Whether a seat ``seats`` sets up has a piece of type ``type_name`` (whose count may be 0
    for the others: a trigger of that type can still fire)."""
    return any(entry.get("pieces", {}).get(type_name, 0) > 0 for entry in doc.data.get("seats", {}).values())


def pieces_at_start(ruleset: Ruleset, seat: int) -> list[int]:
    """Seat ``seat``'s (0: the first player) count of every follower type at the start."""
    if seat < len(ruleset.seat_pieces):
        return list(ruleset.seat_pieces[seat])
    return [t.count for t in ruleset.follower_types]


def points_at_start(ruleset: Ruleset, seat: int) -> int:
    """The points seat ``seat`` (0: the first player) starts with."""
    return ruleset.seat_points[seat] if seat < len(ruleset.seat_points) else 0


def categories_at_start(ruleset: Ruleset, seat: int) -> dict[str, int]:
    """Seat ``seat``'s points by score category (``ruleset.categories``) at the start: all 0 but
    ``start``."""
    found = dict.fromkeys(ruleset.categories, 0)
    if START in found:
        found[START] = points_at_start(ruleset, seat)
    return found


__all__ = ["SEAT_NAMES", "START", "categories_at_start", "compile_seats", "seat_gives", "pieces_at_start",
           "points_at_start"]
