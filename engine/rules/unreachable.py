"""Warnings for parts of a ruleset that can never take effect.

A ruleset can be valid and still say something a designer did not mean: a tile
type no other tile can meet is drawn and discarded every time, a follower on a
kind with no scoring formula never scores, a follower type that counts for
nothing anywhere is only carried about.  Each is a warning (severity
``warning``: ``rulesets validate`` and ``play`` show it and go on), located
where the designer would change it (docs/rulesets.md, "Warnings").
"""

from __future__ import annotations

from .bonuses import Bonus
from .follower_types import FollowerType
from .kinds import FeatureKind
from .problems import Problems
from .tiles import TileType


def warn_unreachable(tiles: list[TileType], mirror: list[int], wild: int, kinds: list[FeatureKind],
                     follower_types: tuple[FollowerType, ...], bonuses: tuple[Bonus, ...], starts: dict[int, int],
                     personal: int, problems: Problems) -> None:
    """Add the warnings of :func:`tiles_never_placed`, :func:`kinds_never_scored` and
    :func:`types_never_scoring` to ``problems``."""
    tiles_never_placed(tiles, mirror, wild, starts, personal, problems)
    kinds_never_scored(kinds, bonuses, problems)
    types_never_scoring(kinds, follower_types, problems)


def tiles_never_placed(tiles: list[TileType], mirror: list[int], wild: int, starts: dict[int, int],
                       personal: int, problems: Problems) -> None:
    """``tile-unplaceable``: a tile type that no placement can ever reach.  Every placement but
    the first meets a placed tile across a side whose edge matches (RULES.md §3.2), so from the
    start tiles (``starts``: tile type index → copies placed before any draw; empty when the
    first tile is drawn, and could be any) a tile type becomes placeable once one of its sides
    meets a side of a placeable one; the others are discarded every time they are drawn.
    ``mirror[code]`` is the side code that meets side code ``code``, and a ``wild`` side meets
    any (:class:`~engine.rules.tiles.EdgeCodes`).  The ``personal`` tile type (``deck.personal``;
    -1: none) is in the game though its count may be 0."""
    if not starts:
        return
    sides = {tile.index: {code for o in tile.orientations for code in o.side_codes} for tile in tiles}
    placeable = set(starts)
    meets = {mirror[code] for index in placeable for code in sides[index]}
    grown = True
    while grown:
        grown = False
        for tile in tiles:
            if (tile.count or tile.index == personal) and tile.index not in placeable and (
                    sides[tile.index] & meets or wild in sides[tile.index] or wild in meets):
                placeable.add(tile.index)
                meets |= {mirror[code] for code in sides[tile.index]}
                grown = True
    for tile in tiles:
        if tile.index not in placeable and (tile.count - starts.get(tile.index, 0) > 0 or tile.index == personal):
            fate = "it is never offered" if tile.index == personal else "every copy drawn is discarded"
            problems.warn(("tiles", tile.id, "edges"), f"tile '{tile.id}' can never be placed: none of its sides "
                          f"({tile.edges}) meets a side of a tile that can be placed, so {fate}", "tile-unplaceable")


def kinds_never_scored(kinds: list[FeatureKind], bonuses: tuple[Bonus, ...], problems: Problems) -> None:
    """``kind-never-scores``: a kind followers may go on with no scoring formula, that no bonus
    reads (``completed_K``, ``largest_K``): a follower there never earns anything.  Located at
    its ``deployable``, or at the kind where that is left to its default."""
    read = {name for bonus in bonuses for score in (bonus.value, bonus.points)
            for _, formula in score.items for name in formula.names}
    for kind in kinds:
        if not kind.deployable or kind.complete or kind.incomplete or kind.final:
            continue
        if {f"completed_{kind.name}", f"largest_{kind.name}"} & read:
            continue
        spec = problems.doc.data["features"][kind.name]
        at = ("features", kind.name) + (("deployable",) if "deployable" in spec else ())
        problems.warn(at, f"followers may go on a {kind.name}, but kind "
                      f"'{kind.name}' has no scoring formula (complete, incomplete or final) and no bonus reads it, "
                      f"so a {kind.follower} there never scores", "kind-never-scores")


def types_never_scoring(kinds: list[FeatureKind], follower_types: tuple[FollowerType, ...],
                        problems: Problems) -> None:
    """``follower-never-scores``: a follower type of strength 0 (never in a majority) that no
    formula reads as ``own_T``, that earns no extra turn and does not pay its owner (``pays:
    owner``): it never changes a score."""
    read = {index for kind in kinds for _, index in kind.own}
    for follower_type in follower_types:
        if follower_type.strength or follower_type.strength_of is not None or follower_type.extra_turn \
                or follower_type.pays_owner:
            continue
        if follower_type.index in read:
            continue
        problems.warn(("follower_types", follower_type.name, "strength"), f"follower type '{follower_type.name}' "
                      f"counts 0 in every majority, no formula reads own_{follower_type.name} and it earns no "
                      "extra turn, so it never changes a score", "follower-never-scores")
