"""Tile types compiled for play: every rotation precomputed once.

A tile type in a ruleset lists its segments by port in canonical orientation.
For the turn loop we precompute, for each of the four rotations, which segment
sits at each of the twelve ports, the edge code of each side (for matching),
and the joins to make with each neighbour, so placing a tile does no string or
geometry work at all.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import Diagnostic
from ..geometry import CENTRE, CORNER_PORTS, PORT_INDEX, SIDES, facing_port, rotate_port

if TYPE_CHECKING:
    from .kinds import FeatureKind
    from .problems import Problems

#: ``ports`` values of a feature kind: how its segments sit on the sides.
SIDE, CENTRE_KIND, HALF, NONE = "side", "centre", "half", "none"
#: The edge letter of a wild side, which fits any neighbour and ends the features it meets.
WILD = "*"
#: A wild side's signature: no segment at any of its ports.
WILD_SIGNATURE = (-1, -1, -1)


@dataclass(frozen=True, slots=True)
class SegmentType:
    """One segment of a tile type, in canonical orientation.

    ``ports`` are port indices (a side-kind segment covers all three ports of
    each of its sides); ``attrs`` are the values of the kind's declared
    attributes in declaration order (e.g. ``(1,)`` for one pennant);
    ``adjacent`` are indices of the tile's segments of the kind's adjacency
    kinds that this one touches (cities touched by a field; a segment with no
    ports, a cloister, touches the segments its ``touches`` lists, by default
    every segment of its tile); ``open_sides`` is how many sides must be
    joined before a ``closed`` feature is complete (0 for other kinds), its ``shares`` included;
    ``shares`` are the sides (0-3 from N) held by another segment of its kind that it also
    reaches (the YAML key ``shares``; Hills & Sheep's two cities meeting on one side).
    """

    kind: int
    ports: tuple[int, ...]
    attrs: tuple[int, ...]
    adjacent: tuple[int, ...]
    open_sides: int
    shares: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Orientation:
    """A tile type turned ``rotation`` quarter turns clockwise.

    ``side_codes[d]`` is the edge code of side d (see :class:`EdgeCodes`);
    ``port_segment[p]`` the segment index at board port p, or -1;
    ``joins[d]`` the ``(segment index, board port, counts)`` pairs to join
    with the neighbour across side d — one per segment and side, ``counts``
    being 1 when the join closes one open side of a ``closed`` feature.  ``shared[d]`` lists the
    same triples for the segments that reach side d without holding it (:attr:`SegmentType.shares`):
    each joins whatever the neighbour has at the side's centre, closing only its own open side.
    """

    rotation: int
    side_codes: tuple[int, ...]
    port_segment: tuple[int, ...]
    joins: tuple[tuple[tuple[int, int, int], ...], ...]
    segment_ports: tuple[tuple[int, ...], ...]
    shared: tuple[tuple[tuple[int, int, int], ...], ...] = ((), (), (), ())


@dataclass(frozen=True, slots=True)
class TileType:
    """A tile type: its id, count and segments, with all four orientations.

    ``surrounded`` and ``closing`` list the indices of the segments whose kind
    completes when surrounded (cloisters) or when closed (roads, cities), and ``judged``
    those whose kind completes by a formula (:mod:`engine.rules.completes`), so
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
    judged: tuple[int, ...] = ()
    #: Per corner (``NE SE SW NW``, canonical orientation), the segment holding both half-sides
    #: that meet there, or -1: where a ``spot: corner`` piece may stand (the barn, on a field).
    corners: tuple[int, ...] = (-1, -1, -1, -1)

    def spot_segment(self, spot: int) -> int:
        """The segment a piece at ``spot`` stands on: a segment index is its own; spot
        ``len(segments) + c`` is corner ``c`` (``NE SE SW NW``, canonical orientation)."""
        n = len(self.segments)
        return spot if spot < n else self.corners[spot - n]


class EdgeCodes:
    """Interns side signatures into small ints for edge matching.

    A side's signature is the kind index at its left half, centre and right
    half (-1 where nothing is).  Two sides match when one's signature is the
    mirror (right, centre, left) of the other's, so each code knows the code a
    facing side must have: ``mirror[code]``.  Code 0 means "no constraint".
    A **wild** side (edge letter ``*``: no segment reaches it, the abbey's) has
    the signature ``(-1, -1, -1)``, its own mirror, and meets any side
    (:attr:`wild`).
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
    def wild(self) -> int:
        """The code of a wild side, or -1 when no tile has one."""
        return self._codes.get(WILD_SIGNATURE, -1)

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
    shared: list[list[tuple[int, int, int]]] = [[], [], [], []]
    for index, segment in enumerate(segments):
        for s in segment.shares:
            side = (s + rotation) % 4
            shared[side].append((index, 3 * side + CENTRE, 1 if counts_open[segment.kind] else 0))
    return Orientation(rotation, tuple(side_codes), tuple(port_segment), tuple(joins),  # type: ignore[arg-type]
                       tuple(segment_ports), tuple(tuple(entries) for entries in shared))


def ring_adjacent(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """True when a port of ``a`` is next to a port of ``b`` going round the tile."""
    bs = set(b)
    return any((p + 1) % 12 in bs or (p - 1) % 12 in bs for p in a)


__all__ = ["SIDE", "CENTRE_KIND", "HALF", "NONE", "WILD", "WILD_SIGNATURE", "SegmentType", "Orientation", "TileType",
           "EdgeCodes", "orient", "ring_adjacent", "facing_port"]


def compile_tile(tile_id: str, spec: dict, index: int, kinds: list[FeatureKind],
                  kind_index: dict[str, int], codes: EdgeCodes, problems: Problems) -> TileType | None:
    """Check one tile type's segments against its kinds and edges; compile its orientations."""
    at = ("tiles", tile_id)
    problem = problems.at
    errors_before = len(problems.found)
    segments: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
    covered: dict[int, int] = {}
    for s_index, seg in enumerate(spec["segments"]):
        s_at = at + ("segments", s_index)
        kind_name = seg["kind"]
        if kind_name not in kind_index:
            close = difflib.get_close_matches(kind_name, list(kind_index), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else f" (kinds: {', '.join(kind_index)})"
            problem(s_at + ("kind",), f"unknown feature kind '{kind_name}'{hint}", "kind-unknown")
            continue
        kind = kinds[kind_index[kind_name]]
        ports = _ports(seg, s_at, s_index, kind, covered, problems)
        for attr in seg:
            if attr not in ("kind", "ports", "adjacent", "touches", "shares") and attr not in kind.attributes:
                close = difflib.get_close_matches(attr, kind.attributes, n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                problems.found.append(Diagnostic(f"'{attr}' is not an attribute of kind '{kind.name}'{hint}",
                                                 code="segment-attribute",
                                                 **problems.doc.where(s_at + (attr,), key=True)))
        attrs = tuple(int(seg.get(a, 0)) for a in kind.attributes)
        segments.append((kind.index, ports, attrs))
    if len(problems.found) > errors_before:
        return None  # edges can only be checked against well-formed segments
    edges = spec["edges"]
    letters = {k.edge: k for k in kinds if k.edge}
    for side, letter in enumerate(edges):
        if letter == WILD:
            if any(p in covered for p in (3 * side, 3 * side + 1, 3 * side + 2)):
                problem(at + ("edges",), f"side {SIDES[side]} is '{WILD}' (wild: no segment reaches it), but "
                        "segments list its ports", "edge-mismatch")
            continue
        if letter not in letters:
            problem(at + ("edges",), f"edge letter '{letter}' is not the edge of any feature kind", "edge-letter")
            continue
        centre = covered.get(3 * side + 1)
        halves = (covered.get(3 * side), covered.get(3 * side + 2))
        centre_kind = kinds[segments[centre][0]] if centre is not None else None
        expect = letters[letter]
        if expect.ports in (SIDE, CENTRE_KIND):
            ok = centre_kind is expect
        else:
            ok = centre_kind is None and all(h is not None and kinds[segments[h][0]] is expect for h in halves)
        if not ok:
            problem(at + ("edges",), f"side {SIDES[side]} is '{letter}' but its segments do not make a "
                    f"{expect.name} side", "edge-mismatch")
        if None in halves:
            problem(at + ("segments",), f"half-sides of side {SIDES[side]} are not covered by any segment",
                    "port-uncovered")
    shares = _shares(spec["segments"], segments, covered, kinds, at, problems)
    if len(problems.found) > errors_before:
        return None
    touches: list[set[int]] = []  # per segment, the segments a port-less one lies in (default: all)
    for s_index, seg in enumerate(spec["segments"]):
        listed = seg.get("touches")
        if listed is not None and (segments[s_index][1] or kinds[segments[s_index][0]].ports != NONE):
            problem(at + ("segments", s_index, "touches"), "only a segment with no ports (a cloister) lists "
                    "the segments it touches; the others touch by their ports", "touches")
        for t_index, j in enumerate(listed or ()):
            if j >= len(segments) or j == s_index:
                problem(at + ("segments", s_index, "touches", t_index),
                        f"segment {j} is not another segment of this tile", "touches")
        touches.append(set(range(len(segments))) if listed is None else set(listed))
    compiled = []
    for s_index, (k_index, seg_ports, attrs) in enumerate(segments):
        k = kinds[k_index]
        seg = spec["segments"][s_index]
        if "adjacent" in seg:
            adjacent = tuple(seg["adjacent"])
            for a_index, j in enumerate(adjacent):
                if j >= len(segments) or segments[j][0] not in k.adjacency:
                    problem(at + ("segments", s_index, "adjacent", a_index),
                            f"segment {j} is not a segment of an adjacency kind on this tile", "adjacent")
        else:
            adjacent = tuple(j for j, (other, other_ports, _) in enumerate(segments) if other in k.adjacency and (
                ring_adjacent(seg_ports, other_ports) if other_ports
                else s_index in touches[j]))
        if k.completion not in ("closed", "formula"):  # formula: its ``open`` input counts them
            open_sides = 0
        elif k.ports == SIDE:
            open_sides = len(seg_ports) // 3 + len(shares[s_index])
        else:
            open_sides = len(seg_ports)
        compiled.append(SegmentType(k_index, seg_ports, attrs, adjacent, open_sides, shares[s_index]))
    segs = tuple(compiled)
    kind_ports = [k.ports for k in kinds]
    counts_open = [k.completion in ("closed", "formula") for k in kinds]
    return TileType(
        id=tile_id, index=index, count=spec["count"], edges=edges, segments=segs,
        orientations=tuple(orient(segs, kind_ports, counts_open, codes, r) for r in range(4)),
        surrounded=tuple(i for i, s in enumerate(segs) if kinds[s.kind].completion == "surrounded"),
        closing=tuple(i for i, s in enumerate(segs) if kinds[s.kind].completion == "closed"),
        judged=tuple(i for i, s in enumerate(segs) if kinds[s.kind].completes is not None),
        group=spec.get("group", "base"),
        kinds=tuple(seg.kind for seg in segs),
        corners=(_corner(segs, 0), _corner(segs, 1), _corner(segs, 2), _corner(segs, 3)),
    )


def _ports(seg: dict, s_at: tuple, s_index: int, kind: FeatureKind, covered: dict[int, int],
           problems: Problems) -> tuple[int, ...]:
    """The port indices segment ``s_index`` (``seg``, at path ``s_at``) lists, each checked against its
    kind's ``ports`` value (a side-kind segment covers a side's three ports) and noted in ``covered``
    (port → segment); problems ``segment-ports`` and ``port-twice``."""
    problem = problems.at
    ports: list[int] = []
    listed_before = len(problems.found)
    for p_index, name in enumerate(seg.get("ports", ())):
        p_at = s_at + ("ports", p_index)
        if kind.ports == NONE:
            problem(p_at, f"a {kind.name} segment has no ports", "segment-ports")
        elif kind.ports in (SIDE, CENTRE_KIND) and name not in SIDES:
            problem(p_at, f"a {kind.name} segment lists sides (N, E, S, W), not '{name}'", "segment-ports")
        elif kind.ports == HALF and (name in SIDES or name not in PORT_INDEX):
            problem(p_at, f"a {kind.name} segment lists half-sides (NL … WR), not '{name}'", "segment-ports")
        else:
            side_port = PORT_INDEX[name]
            new = [side_port - 1, side_port, side_port + 1] if kind.ports == SIDE else [side_port]
            for p in new:
                if p in covered:
                    problem(p_at, f"port {name} is already covered by segment {covered[p]}", "port-twice")
                covered[p] = s_index
            ports.extend(new)
    if not ports and kind.ports in (SIDE, CENTRE_KIND) and len(problems.found) == listed_before:
        # A city or road touching no side would be complete, closed all round, as it is placed.
        where = s_at + ("ports",) if "ports" in seg else s_at
        problem(where, f"a {kind.name} segment reaches at least one side (N, E, S or W); an enclosed one "
                "touching none would be complete as it is placed", "segment-ports")
    return tuple(ports)


def _shares(specs: list[dict], segments: list[tuple[int, tuple[int, ...], tuple[int, ...]]],
            covered: dict[int, int], kinds: list[FeatureKind], at: tuple, problems: Problems) -> list[tuple[int, ...]]:
    """Per segment, the sides its ``shares`` lists (0-3 from N), each checked: only a segment of a
    kind whose ports are whole sides shares, and only a side another segment of its kind holds
    (JCloisterZone's ``multi-edge``, hills_and_sheep.xml ``CC!.v``)."""
    found: list[tuple[int, ...]] = []
    for s_index, seg in enumerate(specs):
        sides: list[int] = []
        kind = kinds[segments[s_index][0]]
        for n, name in enumerate(seg.get("shares", ())):
            side = SIDES.index(name)
            holder = covered.get(3 * side + CENTRE)
            if kind.ports != SIDE:
                problems.at(at + ("segments", s_index, "shares"), f"only a segment of a kind whose ports are whole "
                            f"sides shares a side; a {kind.name} segment does not", "shares")
                break
            if holder is None or holder == s_index or segments[holder][0] != kind.index:
                whose = _holder([covered[3 * side + k] for k in (1, 0, 2) if 3 * side + k in covered], s_index,
                                segments, kinds)
                problems.at(at + ("segments", s_index, "shares", n), f"side {name} is {whose}: a segment shares "
                            f"only a side another {kind.name} segment of the tile holds", "shares")
                continue
            sides.append(side)
        found.append(tuple(sides))
    return found


def _holder(holders: list[int], s_index: int, segments: list[tuple[int, tuple[int, ...], tuple[int, ...]]],
            kinds: list[FeatureKind]) -> str:
    """Who holds a side a segment may not share, in words, from the segments at its ports
    (``holders``): the segment itself, no segment (a wild side), or a segment of another kind."""
    if s_index in holders:
        return "this segment's own"
    if not holders:
        return "held by no segment (a wild side)"
    return f"held by segment {holders[0]}, a {kinds[segments[holders[0]][0]].name}"


def _corner(segments: tuple[SegmentType, ...], corner: int) -> int:
    """The segment holding both half-sides that meet at ``corner`` (0-3 from NE), or -1."""
    return next((j for j, seg in enumerate(segments) if set(CORNER_PORTS[corner]) <= set(seg.ports)), -1)
