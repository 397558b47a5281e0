"""Edge matching: which rotations of a tile type fit a cell's edge-constraint key
(:meth:`~engine.rules.ruleset.Ruleset.fits`, RULES.md §3 "Tile placement": every side
touching a placed tile continues its feature; a wild side meets any side)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.rules.ruleset import Ruleset, load_ruleset

ABBEYS = str(Path(__file__).parents[1] / "scenarios" / "rulesets" / "abbey-tiles.yaml")


def written_out(ruleset: Ruleset, tile: int, key: int) -> tuple[int, ...]:
    """The rule as stated: a rotation fits when on each of the four sides the neighbour's
    code (a base ``edge_base`` digit of ``key``, N first; 0 for no neighbour) is absent,
    equal to the tile's, or one of the two is wild."""
    base, wild = ruleset.edge_base, ruleset.edge_wild
    need = [key // base ** side % base for side in range(4)]
    return tuple(o.rotation for o in ruleset.tiles[tile].orientations
                 if all(n in (0, c, wild) or c == wild for n, c in zip(need, o.side_codes)))


@pytest.mark.parametrize("ref", ["basic", "basic+river", "first-edition+inns-and-cathedrals", ABBEYS,
                                 "basic+abbey-and-mayor+king-and-robber-baron"])
def test_every_key_fits_the_rotations_the_rule_says(ref: str) -> None:
    ruleset = load_ruleset(ref)
    keys = range(ruleset.edge_base ** 4)
    for tile in range(len(ruleset.tiles)):
        assert [ruleset.fits(tile, key) for key in keys] == [written_out(ruleset, tile, key) for key in keys]
        assert [ruleset.fits(tile, key) for key in keys] == [ruleset.fit_table(tile)[key] for key in keys]


def test_a_one_city_tile_fits_a_city_to_its_north_one_way_only() -> None:
    ruleset = load_ruleset("basic")
    e = ruleset.tile_ids["E"]  # edges CFFF: a city on the north side, fields on the others
    city, field = ruleset.tiles[e].orientations[0].side_codes[:2]
    base = ruleset.edge_base
    assert ruleset.fits(e, 0) == (0, 1, 2, 3)  # no neighbour: any rotation
    assert ruleset.fits(e, city) == (0,)  # a city needed on the north side
    assert ruleset.fits(e, city * base ** 2) == (2,)  # on the south side: turned twice
    assert ruleset.fits(e, city + city * base ** 2) == ()  # on both: no rotation has two cities
    assert ruleset.fits(e, field + field * base) == (2, 3)  # fields north and east: the city south or west
