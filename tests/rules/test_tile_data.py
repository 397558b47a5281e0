"""Data test for the 24 base-game tile types in rulesets/basic.yaml.

Uses only yaml + plain Python (not the engine). The figures asserted here are the
published cross-check figures of RULES.md §1.2 ([GAT] Gatliff's edge statistics,
[WTC] Wikicarpedia "Tile Counts" with RULES.md §5 point 3 for roads), which are
independent of our data; plus structural checks of the ruleset's tile format
(docs/rulesets.md) and the field→city adjacency marks of RULES.md §1.1.
"""

from collections import Counter
from pathlib import Path

import pytest
import yaml

from engine.geometry import PORTS
from engine.rules.ruleset import load_ruleset

RULESET = Path(__file__).parents[2] / "rulesets" / "basic.yaml"

SIDES = ("N", "E", "S", "W")
HALVES = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")
# Clockwise port ring (docs/rulesets.md).
RING = ("NL", "N", "NR", "EL", "E", "ER", "SL", "S", "SR", "WL", "W", "WR")
EDGE_NAME = {"F": "field", "R": "road", "C": "city"}


@pytest.fixture(scope="module")
def tiles():
    with RULESET.open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    return data["tiles"]


def segs(tile, kind):
    return [s for s in tile["segments"] if s["kind"] == kind]


def total(tiles, per_tile):
    """Sum per_tile(tile) * count over all types."""
    return sum(per_tile(t) * t["count"] for t in tiles.values())


def copies_with(tiles, pred):
    """Number of the 72 tiles for which pred(tile) holds."""
    return sum(t["count"] for t in tiles.values() if pred(t))


# --- counts -----------------------------------------------------------------


def test_types_and_counts(tiles):
    assert list(tiles) == [chr(c) for c in range(ord("A"), ord("X") + 1)]
    assert len(tiles) == 24
    assert [t["count"] for t in tiles.values()] == [
        2, 4, 1, 4, 5, 2, 1, 3, 2, 3, 3, 3, 2, 3, 2, 3, 1, 3, 2, 1, 8, 9, 4, 1,
    ]
    assert sum(t["count"] for t in tiles.values()) == 72


def test_start_tile_is_d(tiles):
    with RULESET.open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    assert data["deck"]["start"] == "D"
    assert tiles["D"]["count"] == 4  # start tile included
    assert tiles["D"]["edges"] == "CRFR"


# --- [GAT] edge statistics ----------------------------------------------------


def test_gatliff_edge_totals(tiles):
    counts = Counter()
    for t in tiles.values():
        for letter in t["edges"]:
            counts[EDGE_NAME[letter]] += t["count"]
    assert sum(counts.values()) == 288
    assert counts == {"field": 115, "road": 94, "city": 79}


def test_gatliff_tiles_having_edge(tiles):
    having = {
        name: copies_with(tiles, lambda t, L=letter: L in t["edges"])
        for letter, name in EDGE_NAME.items()
    }
    assert having == {"field": 59, "road": 45, "city": 44}


def clockwise_pairs(edges):
    """(N,E), (E,S), (S,W), (W,N): each side with the next side clockwise."""
    return [(edges[i], edges[(i + 1) % 4]) for i in range(4)]


def pair_stats(tiles, first, second):
    pairs = total(tiles, lambda t: clockwise_pairs(t["edges"]).count((first, second)))
    on = copies_with(tiles, lambda t: (first, second) in clockwise_pairs(t["edges"]))
    return pairs, on


def test_gatliff_adjacent_edge_pairs(tiles):
    # RULES.md §1.2: City–City 30 pairs on 20 tiles, Road–City 18 on 18.
    # [GAT] counts *ordered* clockwise pairs ("Clockwise around the tiles, adjacent
    # edges ..."): Road–City = a road side followed clockwise by a city side.
    # (Counted unordered, Road/City pairs would be 36 on 21 tiles.)
    assert pair_stats(tiles, "C", "C") == (30, 20)
    assert pair_stats(tiles, "R", "C") == (18, 18)
    assert pair_stats(tiles, "C", "R") == (18, 18)


def test_gatliff_full_clockwise_pair_table(tiles):
    # The rest of the same [GAT] table (russcon.org/RussCon/carcassonne/tiles2.html),
    # elided by "…" in RULES.md §1.2.
    expected = {
        ("F", "R"): (38, 30),
        ("R", "F"): (38, 30),
        ("R", "R"): (38, 28),
        ("F", "F"): (46, 27),
        ("F", "C"): (31, 25),
        ("C", "F"): (31, 25),
        ("C", "C"): (30, 20),
        ("R", "C"): (18, 18),
        ("C", "R"): (18, 18),
    }
    assert sum(p for p, _ in expected.values()) == 288
    for (a, b), figure in expected.items():
        assert pair_stats(tiles, a, b) == figure, (a, b)


# --- [WTC] segment counts -----------------------------------------------------


def test_wtc_segment_counts(tiles):
    assert total(tiles, lambda t: len(segs(t, "field"))) == 126
    assert copies_with(tiles, lambda t: segs(t, "field")) == 71
    assert total(tiles, lambda t: len(segs(t, "city"))) == 49
    assert copies_with(tiles, lambda t: segs(t, "city")) == 44
    # [WTC] says 61 road segments on 44 tiles; RULES.md §5 point 3: the four
    # agreeing sources give 62 on 45 (WTC leaves out one D tile).
    assert total(tiles, lambda t: len(segs(t, "road"))) == 62
    assert copies_with(tiles, lambda t: segs(t, "road")) == 45
    assert total(tiles, lambda t: sum(s.get("pennants", 0) for s in t["segments"])) == 10
    assert total(tiles, lambda t: len(segs(t, "cloister"))) == 6


def test_pennant_and_cloister_distribution(tiles):
    # RULES.md §1.1: pennants C1, F2, M2, O2, Q1, S2; cloisters A2, B4.
    pennants = {
        k: t["count"] * sum(s.get("pennants", 0) for s in t["segments"])
        for k, t in tiles.items()
    }
    assert {k: v for k, v in pennants.items() if v} == {
        "C": 1, "F": 2, "M": 2, "O": 2, "Q": 1, "S": 2,
    }
    cloisters = {k: t["count"] * len(segs(t, "cloister")) for k, t in tiles.items()}
    assert {k: v for k, v in cloisters.items() if v} == {"A": 2, "B": 4}


# --- structure ----------------------------------------------------------------


@pytest.mark.parametrize("letter", [chr(c) for c in range(ord("A"), ord("X") + 1)])
def test_structure(tiles, letter):
    t = tiles[letter]
    assert list(t) == ["count", "edges", "segments"]
    edges = t["edges"]
    assert len(edges) == 4 and set(edges) <= set("FRC")

    covered = Counter()
    for s in t["segments"]:
        kind = s["kind"]
        assert kind in ("city", "road", "field", "cloister")
        extra = set(s) - {"kind", "ports", "pennants", "adjacent"}
        assert not extra, extra
        if kind == "cloister":
            assert set(s) == {"kind"}
            continue
        ports = s["ports"]
        assert ports and len(ports) == len(set(ports))
        if "pennants" in s:
            assert kind == "city" and s["pennants"] >= 1
        if "adjacent" in s:
            assert kind == "field"
            for i in s["adjacent"]:
                assert t["segments"][i]["kind"] == "city"
        if kind == "city":  # lists sides; fills the whole side
            assert set(ports) <= set(SIDES)
            for side in ports:
                covered.update([side + "L", side, side + "R"])
        elif kind == "road":  # lists side centres
            assert set(ports) <= set(SIDES)
            covered.update(ports)
        else:  # field: half-sides
            assert set(ports) <= set(HALVES)
            covered.update(ports)

    # edges letters agree with the segments
    for i, side in enumerate(SIDES):
        in_city = any(side in s["ports"] for s in segs(t, "city"))
        in_road = any(side in s["ports"] for s in segs(t, "road"))
        assert (edges[i] == "C") == in_city, side
        assert (edges[i] == "R") == in_road, side

    # every port covered exactly once; an F side's centre is not covered at all
    expected = Counter()
    for i, side in enumerate(SIDES):
        expected.update([side + "L", side + "R"])
        if edges[i] != "F":
            expected[side] += 1
    assert covered == expected


# --- field → city adjacency (RULES.md §1.1 "⟂ city" marks) --------------------

# For each tile: each field segment (as in RULES.md's fields column) mapped to
# the city segments it borders, a city being named by its sides.
ALL8 = "NL NR EL ER SL SR WL WR"
ADJ = {
    "A": {ALL8: set()},
    "B": {ALL8: set()},
    "C": {},
    "D": {"EL WR": {"N"}, "ER SL SR WL": set()},
    "E": {"WL WR SL SR EL ER": {"N"}},
    "F": {"NL NR": {"EW"}, "SL SR": {"EW"}},
    "G": {"NL NR": {"EW"}, "SL SR": {"EW"}},
    "H": {"WL WR EL ER": {"N", "S"}},
    "I": {"EL ER SL SR": {"N", "W"}},
    "J": {"EL WL WR SR": {"N"}, "ER SL": set()},
    "K": {"WR EL ER SL": {"N"}, "WL SR": set()},
    "L": {"WR EL": {"N"}, "WL SR": set(), "ER SL": set()},
    "M": {"WL WR SL SR": {"NE"}},
    "N": {"WL WR SL SR": {"NE"}},
    "O": {"EL SR": {"NW"}, "ER SL": set()},
    "P": {"EL SR": {"NW"}, "ER SL": set()},
    "Q": {"SL SR": {"NEW"}},
    "R": {"SL SR": {"NEW"}},
    "S": {"SL": {"NEW"}, "SR": {"NEW"}},
    "T": {"SL": {"NEW"}, "SR": {"NEW"}},
    "U": {"NR EL ER SL": set(), "SR WL WR NL": set()},
    "V": {"SR WL": set(), "WR NL NR EL ER SL": set()},
    "W": {"WR NL NR EL": set(), "ER SL": set(), "SR WL": set()},
    "X": {"WR NL": set(), "NR EL": set(), "ER SL": set(), "SR WL": set()},
}


def ring_adjacent(tile, field):
    """City segments (by index) the field touches, per the clockwise port ring."""
    if "adjacent" in field:
        return set(field["adjacent"])
    result = set()
    for i, s in enumerate(tile["segments"]):
        if s["kind"] != "city":
            continue
        city_ports = {p for side in s["ports"] for p in (side + "L", side, side + "R")}
        for p in field["ports"]:
            k = RING.index(p)
            if {RING[k - 1], RING[(k + 1) % 12]} & city_ports:
                result.add(i)
    return result


@pytest.mark.parametrize("letter", [chr(c) for c in range(ord("A"), ord("X") + 1)])
def test_field_city_adjacency(tiles, letter):
    t = tiles[letter]
    name = {
        i: "".join(x for x in SIDES if x in s["ports"])
        for i, s in enumerate(t["segments"])
        if s["kind"] == "city"
    }
    got = {
        frozenset(f["ports"]): {name[i] for i in ring_adjacent(t, f)}
        for f in segs(t, "field")
    }
    want = {frozenset(k.split()): v for k, v in ADJ[letter].items()}
    assert got == want


def _fields_touching_the_cloister(ruleset_ref: str, tile_id: str) -> list[tuple[int, ...]]:
    """The ports of each field of ``tile_id`` that counts its cloister, with farms paying for cloisters."""
    ruleset = load_ruleset(ruleset_ref)
    tile = ruleset.tiles[ruleset.tile_ids[tile_id]]
    field, cloister = ruleset.kind("field").index, ruleset.kind("cloister").index
    return [seg.ports for seg in tile.segments
            if seg.kind == field and any(tile.segments[j].kind == cloister for j in seg.adjacent)]


def test_a_cloister_lies_in_the_one_field_of_its_tile() -> None:
    # RULES.md §1.1: A, B and every other cloister tile have exactly one field.
    for tile_id in ("A", "B"):
        assert len(_fields_touching_the_cloister("basic+farms-pay-cloisters", tile_id)) == 1


def test_the_river_cloister_lies_in_the_north_field_only() -> None:
    # RULES.md §2.1, RH: the cloister sits in the north field {WR, NL, NR, EL}; the road from it
    # crosses the river to S between the SE {ER, SL} and SW {WL, SR} fields.
    found = _fields_touching_the_cloister("basic+river+farms-pay-cloisters", "RH")
    assert [sorted(PORTS[p] for p in ports) for ports in found] == [sorted(["WR", "NL", "NR", "EL"])]


def test_without_the_option_no_field_counts_a_cloister() -> None:
    assert _fields_touching_the_cloister("basic", "B") == []


def test_a_ruleset_of_many_side_codes_keeps_no_cell_memo_it_cannot_hold(tmp_path: Path) -> None:
    """Found by review: the abbey's cell-fit memo, a list of ``edge_base`` to the fourth entries,
    asked for gigabytes under a ruleset of many side codes (a MemoryError, 'a bug in the engine').
    Past ``CELL_MEMO_MOST`` there is no memo, and a tile that fills holes still plays."""
    from engine.core.game import Game
    from engine.rules.edge_fit import CELL_MEMO_MOST

    letters = "ABCDEGHIJKLMNOPQ"  # 16 side kinds, each its own side code
    kinds = "".join(f"  k{i}: {{edge: {c}, ports: side, deployable: false}}\n" for i, c in enumerate(letters))
    tiles = "".join(f"  T{i}:\n    count: 2\n    edges: {c * 4}\n    segments:\n"
                    f"      - {{kind: k{i}, ports: [N, E, S, W]}}\n" for i, c in enumerate(letters))
    path = tmp_path / "many.yaml"
    path.write_text(f"name: many\nplayers: {{min: 2, max: 2}}\nfollowers: 1\nfeatures:\n{kinds}"
                    "  hole: {ports: none, deployable: false}\n"
                    f"tiles:\n{tiles}  W:\n    count: 4\n    edges: '****'\n    segments:\n      - {{kind: hole}}\n"
                    "deck: {start: T0}\nconstraints:\n  fills-holes: {rule: hole, tiles: [W]}\n")
    ruleset = load_ruleset(str(path), cache=False)
    wild = ruleset.tile_ids["W"]
    assert ruleset.edge_base ** 4 > CELL_MEMO_MOST and ruleset.cell_table(wild) == []
    assert not ruleset.fits_cell(wild, 0) and ruleset.cell_table(wild) == []
    game = Game(ruleset, 2, 1)
    while game.tile is not None:
        game.play(game.legal_moves()[0], checked=True)
    game.finish()
