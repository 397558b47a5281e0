"""Tile types compiled for play: every rotation precomputed once.

A tile type in a ruleset lists its segments by port in canonical orientation.
For the turn loop we precompute, for each of the four rotations, which segment
sits at each of the twelve ports, the edge code of each side (for matching),
and the joins to make with each neighbour, so placing a tile does no string or
geometry work at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from .geometry import CENTRE, facing_port, rotate_port

#: ``ports`` values of a feature kind: how its segments sit on the sides.
SIDE, CENTRE_KIND, HALF, NONE = "side", "centre", "half", "none"


@dataclass(frozen=True, slots=True)
class SegmentType:
    """One segment of a tile type, in canonical orientation.

    ``ports`` are port indices (a side-kind segment covers all three ports of
    each of its sides); ``attrs`` are the values of the kind's declared
    attributes in declaration order (e.g. ``(1,)`` for one pennant);
    ``adjacent`` are indices of the tile's segments of the kind's adjacency
    kind (cities touched by a field); ``open_sides`` is how many sides must be
    joined before a ``closed`` feature is complete (0 for other kinds).
    """

    kind: int
    ports: tuple[int, ...]
    attrs: tuple[int, ...]
    adjacent: tuple[int, ...]
    open_sides: int


@dataclass(frozen=True, slots=True)
class Orientation:
    """A tile type turned ``rotation`` quarter turns clockwise.

    ``side_codes[d]`` is the edge code of side d (see :class:`EdgeCodes`);
    ``port_segment[p]`` the segment index at board port p, or -1;
    ``joins[d]`` the ``(segment index, board port, counts)`` pairs to join
    with the neighbour across side d — one per segment and side, ``counts``
    being 1 when the join closes one open side of a ``closed`` feature.
    """

    rotation: int
    side_codes: tuple[int, int, int, int]
    port_segment: tuple[int, ...]
    joins: tuple[tuple[tuple[int, int, int], ...], ...]
    segment_ports: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class TileType:
    """A tile type: its id, count and segments, with all four orientations.

    ``surrounded`` and ``closing`` list the indices of the segments whose kind
    completes when surrounded (cloisters) or when closed (roads, cities), so
    completion checks after a placement look only where they can succeed.
    """

    id: str
    index: int
    count: int
    edges: str
    segments: tuple[SegmentType, ...]
    orientations: tuple[Orientation, ...]
    surrounded: tuple[int, ...]
    closing: tuple[int, ...]
    group: str = "base"
    #: The kind index of each segment, in order (the engine keeps one per placed segment).
    kinds: tuple[int, ...] = ()


class EdgeCodes:
    """Interns side signatures into small ints for edge matching.

    A side's signature is the kind index at its left half, centre and right
    half (-1 where nothing is).  Two sides match when one's signature is the
    mirror (right, centre, left) of the other's, so each code knows the code a
    facing side must have: ``mirror[code]``.  Code 0 means "no constraint".
    """

    def __init__(self) -> None:
        self._codes: dict[tuple[int, int, int], int] = {}
        self.mirror: list[int] = [0]

    def code(self, signature: tuple[int, int, int]) -> int:
        """Code of a signature (interned on first use, with its mirror)."""
        found = self._codes.get(signature)
        if found is not None:
            return found
        left, centre, right = signature
        mine = self._codes[signature] = len(self.mirror)
        self.mirror.append(0)
        mirrored = (right, centre, left)
        other = self._codes.get(mirrored)
        if other is None:
            other = self._codes[mirrored] = len(self.mirror)
            self.mirror.append(0)
        self.mirror[mine], self.mirror[other] = other, mine
        return mine

    @property
    def base(self) -> int:
        """Radix for packing four side codes into one constraint key."""
        return len(self.mirror) + 1


def orient(segments: tuple[SegmentType, ...], kind_ports: list[str],
           counts_open: list[bool], codes: EdgeCodes, rotation: int) -> Orientation:
    """Build the :class:`Orientation` of a tile's segments turned ``rotation`` quarter turns.

    ``kind_ports[k]`` is the ``ports`` value of kind k and ``counts_open[k]``
    whether kind k completes by closing (so joins count open sides).
    """
    port_segment = [-1] * 12
    segment_ports = []
    for index, segment in enumerate(segments):
        ports = tuple(sorted(rotate_port(p, rotation) for p in segment.ports))
        segment_ports.append(ports)
        for p in ports:
            port_segment[p] = index
    side_codes = []
    joins = []
    for side in range(4):
        ports = (3 * side, 3 * side + 1, 3 * side + 2)
        signature = tuple(-1 if port_segment[p] < 0 else segments[port_segment[p]].kind for p in ports)
        side_codes.append(codes.code(signature))  # type: ignore[arg-type]
        side_joins = []
        for p in ports:
            index = port_segment[p]
            if index < 0:
                continue
            kind = segments[index].kind
            # A side-kind segment spans the whole side: join it once, at the centre.
            if kind_ports[kind] == SIDE and p % 3 != CENTRE:
                continue
            side_joins.append((index, p, 1 if counts_open[kind] else 0))
        joins.append(tuple(side_joins))
    return Orientation(rotation, tuple(side_codes), tuple(port_segment), tuple(joins),  # type: ignore[arg-type]
                       tuple(segment_ports))


def ring_adjacent(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """True when a port of ``a`` is next to a port of ``b`` going round the tile."""
    bs = set(b)
    return any((p + 1) % 12 in bs or (p - 1) % 12 in bs for p in a)


__all__ = ["SIDE", "CENTRE_KIND", "HALF", "NONE", "SegmentType", "Orientation", "TileType",
           "EdgeCodes", "orient", "ring_adjacent", "facing_port"]
