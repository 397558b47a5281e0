"""The expansions' tile data against the facts of two sources: JCloisterZone's tile sets
(farin/JCloisterZone tile-definitions at cf4910dd; ids in each tile's comment) and
Wikicarpedia's totals (Inns & Cathedrals: 18 tiles, 6 inns, 2 cathedrals; Hills & Sheep: 18 tiles,
8 hills, 8 vineyards, by carcassonne.wikia.com).

The per-tile facts below (separate cities, a field enclosed by cities, which cities a
field borders) are JCloisterZone's, written out here as expectations.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.rules.ruleset import load_ruleset

IC = load_ruleset("basic+inns-and-cathedrals")
IC_TILES = [t for t in IC.tiles if t.id.startswith("IC_")]


def total(ruleset, tiles, attribute: str) -> int:
    found = 0
    for tile in tiles:
        for seg in tile.segments:
            kind = ruleset.kinds[seg.kind]
            if attribute in kind.attributes:
                found += tile.count * seg.attrs[kind.attributes.index(attribute)]
    return found


def test_inns_and_cathedrals_totals_agree_with_both_sources() -> None:
    assert len(IC_TILES) == 17 and sum(t.count for t in IC_TILES) == 18
    assert total(IC, IC_TILES, "inns") == 6 and total(IC, IC_TILES, "cathedrals") == 2
    assert total(IC, IC_TILES, "pennants") == 3
    cloister = IC.kind("cloister").index
    assert sum(t.count for t in IC_TILES if any(s.kind == cloister for s in t.segments)) == 1


@pytest.mark.parametrize("tile_id, cities", [("IC_CCCC", 4), ("IC_CCC", 3), ("IC_CRCR", 2), ("IC_CCcP", 2),
                                             ("IC_Cccc_c", 1), ("IC_CRcRP", 1)])
def test_separate_cities(tile_id: str, cities: int) -> None:
    tile = IC.tiles[IC.tile_ids[tile_id]]
    assert sum(1 for s in tile.segments if s.kind == IC.kind("city").index) == cities


def test_fields_border_the_cities_jcloisterzone_says() -> None:
    city, field = IC.kind("city").index, IC.kind("field").index
    expected = {  # tile: bordered cities of each field, in segment order (JCloisterZone's city="…")
        "IC_CCCC": [4], "IC_CCC": [3], "IC_CRCR": [1, 1, 1, 1], "IC_CCcP": [2], "IC_CX": [1, 1],
        "IC_CFR": [1, 1], "IC_CcR": [1, 1], "IC_CRcRP": [1, 1, 1, 1], "IC_RCc_i": [1, 1], "IC_RrC_i": [0, 1],
        "IC_CcRrP_i": [0, 1], "IC_RRR_i": [0, 0, 0], "IC_RFr_i": [0, 0], "IC_Rr_i": [0, 0], "IC_RrRr": [0, 0, 0],
        "IC_LRFR": [0, 0],
    }
    for tile_id, borders in expected.items():
        tile = IC.tiles[IC.tile_ids[tile_id]]
        found = [sum(1 for a in s.adjacent if tile.segments[a].kind == city) for s in tile.segments if s.kind == field]
        assert found == borders, tile_id


def test_the_field_enclosed_by_four_cities_touches_no_side() -> None:
    tile = IC.tiles[IC.tile_ids["IC_CCCC"]]
    enclosed = [s for s in tile.segments if s.kind == IC.kind("field").index]
    assert len(enclosed) == 1 and enclosed[0].ports == ()


def test_the_cloister_tile_has_two_roads_ending_at_it() -> None:
    tile = IC.tiles[IC.tile_ids["IC_LRFR"]]
    kinds = Counter(IC.kinds[s.kind].name for s in tile.segments)
    assert kinds == {"cloister": 1, "road": 2, "field": 2}


TB = load_ruleset("basic+traders-and-builders")
TB_TILES = [t for t in TB.tiles if t.id.startswith("TB_")]


def test_traders_and_builders_totals_agree_with_both_sources() -> None:
    assert len(TB_TILES) == 24 and sum(t.count for t in TB_TILES) == 24
    goods = {name: total(TB, TB_TILES, name) for name in ("wine", "grain", "cloth")}
    assert goods == {"wine": 9, "grain": 6, "cloth": 5}
    city = TB.kind("city")
    without = [t.id for t in TB_TILES if not any(s.kind == city.index and any(s.attrs[i] for i in city.tokens)
                                                 for s in t.segments)]
    assert sorted(without) == ["TB_CR", "TB_LRRR", "TB_RRC", "TB_RRrr"]


def test_the_bridge_is_two_roads_and_four_fields() -> None:
    tile = TB.tiles[TB.tile_ids["TB_RRrr"]]
    kinds = Counter(TB.kinds[s.kind].name for s in tile.segments)
    assert kinds == {"road": 2, "field": 4}


@pytest.mark.parametrize("tile_id, borders", [
    ("TB_CcRR_w", [1, 1, 1]),        # the field between two roads ending in the city borders it too
    ("TB_CcRRX_c", [1, 1, 1, 1]),
    ("TB_CcRC_c", [1, 2]),
    ("TB_CcCC_c", [3]),              # enclosed by three separate cities
    ("TB_CcCc_w", [2]),
    ("TB_RRC", [1, 0, 1]),
])
def test_traders_and_builders_fields_border_the_cities_jcloisterzone_says(tile_id: str, borders: list[int]) -> None:
    city, field = TB.kind("city").index, TB.kind("field").index
    tile = TB.tiles[TB.tile_ids[tile_id]]
    assert [sum(1 for a in s.adjacent if tile.segments[a].kind == city) for s in tile.segments
            if s.kind == field] == borders


AM = load_ruleset("basic+abbey-and-mayor")
AM_TILES = [t for t in AM.tiles if t.id.startswith("AM_") and t.id != "AM_Abbey"]


def test_abbey_and_mayor_totals_agree_with_both_sources() -> None:
    """Wikicarpedia (Abbey_and_the_Mayor): 12 land tiles; JCloisterZone (abbey_and_mayor.xml): one
    of each, 6 pennants (two on the four-sided city), one cloister (four roads ending at it)."""
    assert len(AM_TILES) == 12 and sum(t.count for t in AM_TILES) == 12
    assert total(AM, AM_TILES, "pennants") == 6
    cloister = AM.kind("cloister").index
    assert [t.id for t in AM_TILES if any(s.kind == cloister for s in t.segments)] == ["AM_LRRRR"]
    abbey = AM.tiles[AM.tile_ids["AM_Abbey"]]
    assert abbey.count == 0 and abbey.edges == "****" and AM.personal_tile == abbey.index
    assert [t.name for t in AM.follower_types] == ["normal", "mayor", "wagon", "barn"]


def test_abbey_and_mayor_fields_border_the_cities_jcloisterzone_says() -> None:
    city, field = AM.kind("city").index, AM.kind("field").index
    expected = {  # tile: bordered cities of each field, in segment order (JCloisterZone's city="…")
        "AM_CCccP": [2, 2], "AM_CCcP": [2, 2], "AM_CCRR": [1, 1, 2], "AM_LRRRR": [0, 0, 0, 0], "AM_RC": [1, 1],
        "AM_CRr": [1, 1, 0], "AM_RrC": [1, 1, 0], "AM_C3P": [1, 1, 1], "AM_R": [0], "AM_RRR": [0, 0, 0],
        "AM_CRcrP": [1, 1, 1],
    }
    for tile_id, borders in expected.items():
        tile = AM.tiles[AM.tile_ids[tile_id]]
        found = [sum(1 for a in s.adjacent if tile.segments[a].kind == city) for s in tile.segments if s.kind == field]
        assert found == borders, tile_id


@pytest.mark.parametrize("tile_id, cities, roads", [("AM_CPP", 1, 0), ("AM_CCccP", 2, 0), ("AM_CCcP", 2, 0),
                                                    ("AM_CCRR", 2, 2), ("AM_LRRRR", 0, 4), ("AM_RRR", 0, 1),
                                                    ("AM_CRcrP", 1, 1)])
def test_abbey_and_mayor_separate_features(tile_id: str, cities: int, roads: int) -> None:
    """Crossing cities stay two (CCcc+), the tunnel road is one road under one city (CRcr+), the
    branching road is one road (RRR: Wikicarpedia, "it branches into 3 directions")."""
    tile = AM.tiles[AM.tile_ids[tile_id]]
    kinds = Counter(AM.kinds[s.kind].name for s in tile.segments)
    assert (kinds["city"], kinds["road"]) == (cities, roads)


def test_the_tunnel_road_splits_the_field_on_one_side_only() -> None:
    """Wikicarpedia: "The top part of the road separates two fields, the lower part does not"
    (drawn as JCloisterZone's CRcr+ is: its north field split, its south one whole)."""
    tile = AM.tiles[AM.tile_ids["AM_CRcrP"]]
    fields = [sorted(s.ports) for s in tile.segments if AM.kinds[s.kind].name == "field"]
    assert fields == [[6, 8], [0], [2]]  # SL SR together; NL and NR apart


HS = load_ruleset("basic+hills+vineyards")
HS_TILES = [t for t in HS.tiles if t.id.startswith("HS_")]


def test_hills_and_sheep_totals_agree_with_the_sources() -> None:
    """18 tiles, 8 with a hill and 8 with a vineyard (carcassonne.wikia.com, Hills_%26_Sheep), 2 of
    them monasteries (JCloisterZone's LCRr and LRrR); no pennant on any."""
    def having(kind: str) -> int:
        index = HS.kind(kind).index
        return sum(t.count for t in HS_TILES if any(s.kind == index for s in t.segments))
    assert sum(t.count for t in HS_TILES) == 18
    assert (having("hill"), having("vineyard"), having("cloister")) == (8, 8, 2)
    assert total(HS, HS_TILES, "pennants") == 0


def test_hills_and_sheep_fields_border_the_cities_jcloisterzone_says() -> None:
    city, field = HS.kind("city").index, HS.kind("field").index
    expected = {  # tile: bordered cities of each field, in segment order (JCloisterZone's city="…")
        "HS_C_v": [1, 1], "HS_CC_v": [2], "HS_Cc_v": [1], "HS_CFC_v": [2, 2], "HS_RCC_v": [2, 1], "HS_RRr_v": [0, 0],
        "HS_Cc_h1": [1], "HS_CC_h2": [2], "HS_CFC_h": [2], "HS_CFR_h": [1, 1], "HS_CRr_h": [1, 0], "HS_RFR_h": [0, 0],
        "HS_RR_h": [0, 0], "HS_RrC_h": [1, 0], "HS_LCRr": [1, 0], "HS_LRrR": [0, 0],
    }
    assert sorted(expected) == sorted(t.id for t in HS_TILES)
    for tile_id, borders in expected.items():
        tile = HS.tiles[HS.tile_ids[tile_id]]
        found = [sum(1 for a in s.adjacent if tile.segments[a].kind == city) for s in tile.segments if s.kind == field]
        assert found == borders, tile_id
