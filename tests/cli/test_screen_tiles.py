"""The terminal player's tile preview and names (issue 16): a preview shows how segments
join, every kind has its own mark, and follower spots are named by where they lie."""

from __future__ import annotations

import pytest
from rich.console import Console

from engine.cli.screen import kind_letter, rotated_edges, tile_text
from engine.files.notation import place_name
from engine.rules.inspect import shipped
from engine.rules.ruleset import load_ruleset

BASIC = load_ruleset("basic")


def _plain(text) -> str:
    console = Console(width=100, color_system=None)
    with console.capture() as captured:
        console.print(text)
    return captured.get()


def test_f_turned_once_and_h_share_edges_but_not_a_drawing() -> None:
    """F is one city through the tile E–W (with a pennant), H two separate caps N and S; F
    turned once has H's edges CFCF, and the preview must still tell them apart."""
    f, h = BASIC.tile_ids["F"], BASIC.tile_ids["H"]
    assert rotated_edges(BASIC, f, 1) == rotated_edges(BASIC, h, 0) == "CFCF"
    f_rows = _plain(tile_text(BASIC, f, (1,))).splitlines()[1:6]
    h_rows = _plain(tile_text(BASIC, h, (0,))).splitlines()[1:6]
    assert [row[2] for row in f_rows] == ["C"] * 5  # the city runs N to S through the centre
    assert [row[2] for row in h_rows] == ["C", "C", " ", "C", "C"]  # two caps, field between


def test_a_road_through_and_a_cloister_read_differently_from_a_city() -> None:
    rows = _plain(tile_text(BASIC, BASIC.tile_ids["A"], (0,))).splitlines()[1:6]
    assert rows[2] == "F ⌂ F" and rows[3] == "F R F"  # the cloister in the centre, its road to S
    rows = _plain(tile_text(BASIC, BASIC.tile_ids["U"], (0,))).splitlines()[1:6]
    assert [row[2] for row in rows] == ["R"] * 5  # a straight road N–S


@pytest.mark.parametrize("ref", ["basic", *(f"basic+{s.name}" for s in shipped()
                                             if s.kind == "option" and s.name in {"river", "tiny-city"})])
def test_every_kind_has_its_own_mark(ref: str) -> None:
    ruleset = load_ruleset(ref)
    marks = [kind_letter(ruleset, k.index) for k in ruleset.kinds]
    assert len(set(marks)) == len(marks), dict(zip((k.name for k in ruleset.kinds), marks))


@pytest.mark.parametrize("tile, rotation, names", [
    # D: city cap N, road W–E, a field between them (north) and one south of the road.
    ("D", 0, ["city (north)", "road (east to west)", "field (north)", "field (south)"]),
    ("D", 1, ["city (east)", "road (north to south)", "field (east)", "field (west)"]),
    # A: cloister with a road to S; one field all round it.
    ("A", 0, ["cloister", "road (dead end, south)", "field (all round)"]),
    # K: city N, road W–S curve; the field inside the curve is SW, the other E.
    ("K", 0, ["city (north)", "road (south to west)", "field (east)", "field (south-west)"]),
])
def test_follower_spots_are_named_by_where_they_lie(tile: str, rotation: int, names: list[str]) -> None:
    index = BASIC.tile_ids[tile]
    assert [place_name(BASIC, index, rotation, j) for j in range(len(BASIC.tiles[index].segments))] == names


def test_seats_have_the_pictures_colours_in_the_terminal() -> None:
    from engine.cli.screen import SEAT_STYLES
    from engine.view.render import PLAYER_COLOURS

    assert [style.rsplit(" on ", 1)[1] for style in SEAT_STYLES] == list(PLAYER_COLOURS)
    assert SEAT_STYLES[2].startswith("bold black") and SEAT_STYLES[4].startswith("bold white")  # yellow, black
