"""Which orientations of a tile meet the side codes a frontier cell shows: the tables behind
:meth:`engine.rules.ruleset.Ruleset.fits`, worked out once per tile type as a ruleset loads."""

from __future__ import annotations

import functools

from .tiles import TileType

#: The most edge constraints (``edge_base`` to the fourth) :meth:`~engine.rules.ruleset.Ruleset.cell_table`
#: keeps a list for: 65,536 (up to 15 side codes; the shipped rulesets have at most 6); past it a
#: ruleset of many side codes would need gigabytes, and the cell fits are worked out each time.
CELL_MEMO_MOST = 1 << 16


def side_fits(tile: TileType, base: int, wild: int) -> tuple[tuple[int, ...], ...]:
    """Per side of ``tile`` (``N E S W``) and per side code a neighbour may show there (0: no
    neighbour; codes below ``base``), a bit for each of the tile's orientations (``orientations``
    order) whose side meets that code: the same code, or a wild one on either side (``wild``,
    -1 for none).  :meth:`~engine.rules.ruleset.Ruleset.fits` ands the four sides' bits."""
    found = []
    for side in range(4):
        bits = [0] * base
        for i, o in enumerate(tile.orientations):
            code = o.side_codes[side]
            for n in range(base):
                if n == 0 or n == code or n == wild or code == wild:
                    bits[n] |= 1 << i
        found.append(tuple(bits))
    return tuple(found)


@functools.cache
def rotation_sets(rotations: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per bit set over a tile's orientations (:func:`side_fits`), the rotations ``rotations``
    (one per orientation, in order) of the bits set; shared by every tile with the same ones."""
    return tuple(tuple(r for i, r in enumerate(rotations) if bits >> i & 1) for bits in range(1 << len(rotations)))
