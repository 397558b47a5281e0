"""What a feature's formula inputs read from its own segments, kept while the feature is unchanged.

A feature's positions (its ``tiles`` input), segment count, attribute sums and the segments
of other kinds it touches (its adjacency) depend on its member segments alone.  The board
never changes a member list in place — a merge makes a new list (engine/core/board.py) —
so the list object itself tells whether totals worked out earlier still hold: they are
kept per root with the list they came from, and a feature that grew is worked out again.
The bots ask for the same features' inputs every turn (the look-ahead starts from each
occupied feature's value) and the search bot in every copy of the game it plays out;
copies share one store, since a member list found in it is the one it was worked out from.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .board import Board
    from .scoring import Facts


class Totals:
    """A feature's totals: ``members`` (the list they were worked out from), ``positions``
    (distinct packed positions of its segments), ``attrs`` (each attribute of its kind summed,
    in declaration order) and ``touching`` (the segments of its kind's adjacency kinds that its
    segments touch, by global id: their roots are the adjacent features)."""

    __slots__ = ("members", "positions", "attrs", "touching", "standing")

    def __init__(self, members: list[int], positions: set[int], attrs: list[int], touching: set[int]) -> None:
        self.members = members
        self.positions = positions
        self.attrs = attrs
        self.touching = touching
        #: What the look-ahead last found the feature pays as it stands
        #: (:meth:`~engine.core.majorities.Majorities.standing`): ``(facts, followers packed, inputs,
        #: points per seat)``, good while the facts and followers are the same.
        self.standing: tuple[Facts, int, dict[str, int | bool], list[int]] | None = None


def totals(board: "Board", root: int) -> Totals:
    """The :class:`Totals` of the feature whose root is ``root`` (a root: its member list is
    its own), worked out again only if its members changed since the last time."""
    members = board.members[root]
    found = board.totals.get(root)
    if found is not None and found.members is members:
        return found
    positions: set[int] = set()
    touching: set[int] = set()
    attrs = [0] * len(board.ruleset.kinds[board.seg_kind[root]].attributes)
    board_cells, tiles, seg_pos, seg_tile = board.board, board.tiles, board.seg_pos, board.seg_tile
    for m in members:
        pos = seg_pos[m]
        positions.add(pos)
        base = seg_tile[m]
        segment = tiles[board_cells[pos][2]].segments[m - base]
        for i, value in enumerate(segment.attrs):
            attrs[i] = attrs[i] + value
        for j in segment.adjacent:
            touching.add(base + j)
    found = board.totals[root] = Totals(members, positions, attrs, touching)
    return found


def adjacent_of(board: "Board", root: int) -> set[int]:
    """Roots of the features of the adjacency kinds that the feature at ``root`` touches."""
    return {board.find(s) for s in totals(board, root).touching}
