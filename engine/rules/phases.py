"""The deck's phases (``deck.phases``): the tile groups drawn one after another (the River's tiles
before the rest), each with tiles pinned to be drawn first or last (the River's spring and lake)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .problems import Problems
from .tiles import TileType


@dataclass(frozen=True)
class Phase:
    """One phase of the deck: the tile ``group`` drawn in it, with tile type indices
    pinned to be drawn ``first`` or ``last`` (or None)."""

    group: str
    first: int | None = None
    last: int | None = None


def compile_phases(deck: dict, tiles: list[TileType], tile_ids: dict[str, int],
                   problems: Problems) -> Iterator[Phase]:
    """The deck's phases; every tile group must be drawn in exactly one phase."""
    specs = deck.get("phases", ())
    groups = {t.group for t in tiles}
    named = [spec["group"] for spec in specs]
    for i, spec in enumerate(specs):
        at = ("deck", "phases", i)
        if spec["group"] not in groups:
            problems.at(at + ("group",), f"no tile type is in group '{spec['group']}'", "deck-phase")
        if named.count(spec["group"]) > 1 and named.index(spec["group"]) < i:
            problems.at(at + ("group",), f"group '{spec['group']}' is drawn in two phases", "deck-phase")
        pins = {}
        for end in ("first", "last"):
            tile_id = spec.get(end)
            if tile_id is None:
                continue
            # By id, not index: a tile type that failed to compile is missing from ``tiles``.
            if tile_id not in tile_ids or next(t for t in tiles if t.id == tile_id).group != spec["group"]:
                problems.at(at + (end,), f"'{tile_id}' is not a tile type of group '{spec['group']}'", "deck-phase")
            else:
                pins[end] = tile_ids[tile_id]
        yield Phase(spec["group"], pins.get("first"), pins.get("last"))
    if specs:
        for group in sorted(groups - set(named)):
            users = ", ".join(t.id for t in tiles if t.group == group)
            problems.at(("deck", "phases"), f"tiles of group '{group}' ({users}) are in no phase", "deck-phase")


__all__ = ["Phase", "compile_phases"]
