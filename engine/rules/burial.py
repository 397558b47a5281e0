"""Burial as data: ``deck.bury`` names a feature kind whose tiles each take a tile from the stack
under them, face down and out of the game (docs/rulesets.md, "Burial").

Hills & Sheep's hills: "Whenever a tile featuring a hill icon is added to the playing area, it
is placed on top of another randomly drawn tile" (blackdragongames.net,
carcassonne-hills-and-sheep); "If a player draws a Hill tile, he/she immediately draws another
tile (without looking at it) and places it underneath the Hill tile" (carcassonne.wikia.com,
Hills_%26_Sheep).  Nobody sees the buried tile, so the game simply ends sooner.
:mod:`engine.core.burial` plays it.
"""

from __future__ import annotations

from .kinds import FeatureKind
from .problems import Problems
from .tiles import TileType


def compile_bury(deck: dict, kinds: list[FeatureKind], tiles: list[TileType], hand: bool, problems: Problems) -> int:
    """The index of the kind ``deck.bury`` names, -1 without one.  Problems: an unknown kind
    (``kind-unknown``); a burial beside a hand of tiles (``hand``: ``deck.hand`` other than the
    single draw; ``deck-bury``), where seats hold tiles drawn ahead that some of them know and
    others do not, so "the next tile of the stack" is not the same tile for every seat.  A warning
    (``bury-never``) when no tile type has a segment of the kind: nothing is ever buried."""
    name = deck.get("bury")
    if name is None:
        return -1
    names = [kind.name for kind in kinds]
    if name not in names:
        problems.at(("deck", "bury"), f"unknown feature kind '{name}' (kinds: {', '.join(names)})", "kind-unknown")
        return -1
    if hand:
        problems.at(("deck", "bury"), "burial does not combine with a hand of tiles (deck.hand): the tile buried "
                    "is the next of the stack, and under a hand seats hold and know different tiles drawn ahead",
                    "deck-bury", key=True)
    index = names.index(name)
    if not any(index in tile.kinds for tile in tiles):
        problems.warn(("deck", "bury"), f"no tile type has a {name}, so deck.bury never buries a tile", "bury-never")
    return index
