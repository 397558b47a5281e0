"""The picture defects of issue 16, one test each: the last tile is marked, coordinates
are optional, bridges and springs are drawn where the ports put them, pennants and
player colours stay apart (also for colour-blind eyes), and maps are counted from 0
everywhere.  Each expected value is worked out from the tile data, not from a drawing."""

from __future__ import annotations

import io
import itertools
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from rich.console import Console

from engine.cli.turn_log import turn_logger
from engine.errors import UserError
from engine.rules.inspect import shipped
from engine.rules.ruleset import load_ruleset
from engine.rules.tiles import CENTRE_KIND
from engine.sim.play import play_game
from engine.view.render import LAST_MARK, PLAYER_COLOURS, atlas_svg, board_after, board_svg
from engine.view.tile_svg import PALETTE, PENNANT, tile_group

SIZE = 60


def _classed(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("class") == cls]


@pytest.fixture(scope="module")
def river_game():
    return play_game(load_ruleset("basic+river"), ["random", "greedy"], 3)


# -- the last tile -----------------------------------------------------------------------

@pytest.mark.parametrize("turn", [1, 5, 20])
def test_the_last_tile_placed_is_outlined(river_game, turn) -> None:
    record = river_game.record
    game = board_after(record, turn=turn)
    root = ET.fromstring(board_svg(game, ["a", "b"]))
    marks = _classed(root, "last")
    placed = [t for t in record["turns"][:turn] if not t.get("discarded")]
    assert len(marks) == 1
    assert [int(marks[0].get("data-x")), int(marks[0].get("data-y"))] == placed[-1]["at"]
    assert marks[0].get("stroke") == LAST_MARK


def test_no_tile_is_marked_before_the_first_turn(river_game) -> None:
    game = board_after(river_game.record, turn=0)
    assert _classed(ET.fromstring(board_svg(game, ["a", "b"])), "last") == []


# -- coordinates -------------------------------------------------------------------------

def test_coordinates_label_every_column_and_row_only_when_asked(river_game) -> None:
    game = board_after(river_game.record, turn=12)
    cells = [game.local(pos)[1:] for pos in game.board]
    xs = range(min(x for x, _ in cells), max(x for x, _ in cells) + 1)
    ys = range(min(y for _, y in cells), max(y for _, y in cells) + 1)
    root = ET.fromstring(board_svg(game, ["a", "b"], coordinates=True))
    (group,) = _classed(root, "coordinates")
    labels = [int(t.text) for t in group]
    assert labels == [*xs, *ys]
    assert _classed(ET.fromstring(board_svg(game, ["a", "b"])), "coordinates") == []


def test_spots_widen_the_panel_and_carry_their_cell(river_game) -> None:
    game = board_after(river_game.record, turn=3)
    far = (0, 40, -7)  # well outside the board
    root = ET.fromstring(board_svg(game, ["a", "b"], spots=[far]))
    (spot,) = _classed(root, "spot")
    (panel,) = _classed(root, "map")
    assert (int(spot.get("data-x")), int(spot.get("data-y"))) == far[1:]
    x0, y0 = float(panel.get("data-x0")), float(panel.get("data-y0"))
    assert float(spot.get("x")) == pytest.approx(x0 + 40 * SIZE, abs=0.01)
    assert float(spot.get("y")) == pytest.approx(y0 - 7 * SIZE, abs=0.01)
    assert float(spot.get("y")) >= 0  # inside the picture


# -- river tiles -------------------------------------------------------------------------

def _segment(root: ET.Element, kind: str) -> ET.Element:
    (found,) = [g for g in _classed(root, "segment") if g.get("data-kind") == kind]
    return found


def _line_ends(group: ET.Element) -> list[tuple[float, float]]:
    d = group.find("{http://www.w3.org/2000/svg}path").get("d")
    return [(float(x), float(y)) for x, y in re.findall(r"(-?[\d.]+),(-?[\d.]+)", d)]


def _tile(ruleset, tile_id: str, rotation: int = 0) -> ET.Element:
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg">'
           f'{tile_group(ruleset, ruleset.tile_ids[tile_id], rotation, SIZE)}</svg>')
    return ET.fromstring(svg)


def test_rb_road_crosses_the_river_into_the_city_gate() -> None:
    """RB (river W–E, city N, road S): the road runs from S across the river to the city
    side N, where the wall covers its end; no junction is drawn in the water."""
    root = _tile(load_ruleset("basic+river"), "RB")
    assert _line_ends(_segment(root, "road")) == [(30, 60), (30, 0)]
    assert _classed(root, "junction") == []


def test_rh_cloister_stands_on_the_north_bank_where_its_bridge_leads() -> None:
    """RH (river W–E, cloister, road S): the cloister is north of the river and the
    road crosses from S to it."""
    root = _tile(load_ruleset("basic+river"), "RH")
    roof_and_walls = [float(y) for e in _classed(root, "icon")[0].iter()
                      for y in re.findall(r",(-?[\d.]+)", e.get("points") or "")]
    assert max(roof_and_walls) < 30 - 0.075 * SIZE  # wholly above the river's casing (0.15 wide)
    (start, end) = _line_ends(_segment(root, "road"))
    assert start == (30, 60) and end[1] < 30


@pytest.mark.parametrize("tile_id", ["RA", "RL"])
def test_spring_and_lake_end_in_a_pool(tile_id: str) -> None:
    root = _tile(load_ruleset("basic+river"), tile_id)
    (pool,) = _classed(root, "pool")
    assert (float(pool.get("cx")), float(pool.get("cy"))) == (30, 30)
    assert pool.get("fill") == PALETTE["river"][0]
    assert _classed(root, "junction") == []


def _every_shipped_tile():
    refs = ["basic", *(f"basic+{s.name}" for s in shipped() if s.kind == "option")]
    seen = set()
    for ref in refs:
        try:
            ruleset = load_ruleset(ref)
        except Exception:  # an option that needs another first is covered where it applies
            continue
        for index, tile_type in enumerate(ruleset.tiles):
            if tile_type.id not in seen:
                seen.add(tile_type.id)
                yield ruleset, index


def test_nothing_is_drawn_in_the_water_on_any_shipped_tile() -> None:
    """The whole kind of RB's and RH's defect: on every shipped tile in every rotation, when
    a line runs straight through the centre, no junction mark and no icon sits on it."""
    checked = 0
    for ruleset, index in _every_shipped_tile():
        tile_type = ruleset.tiles[index]
        for rotation in range(4):
            ports = tile_type.orientations[rotation].segment_ports
            through = [p for j, p in enumerate(ports) if ruleset.kinds[tile_type.segments[j].kind].ports == CENTRE_KIND
                       and len(p) == 2 and abs(p[0] // 3 - p[1] // 3) == 2]
            if not through:
                continue
            checked += 1
            root = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">'
                                 f'{tile_group(ruleset, index, rotation, SIZE)}</svg>')
            marks = [(float(c.get("cx")), float(c.get("cy"))) for c in _classed(root, "junction")]
            for icon in _classed(root, "icon"):
                (body, *_) = list(icon)
                points = [tuple(map(float, p.split(","))) for p in body.get("points").split()]
                marks.append((sum(p[0] for p in points) / 4, sum(p[1] for p in points) / 4))
            for line in through:
                horizontal = line[0] // 3 in (1, 3)
                for x, y in marks:
                    off_axis = abs((y if horizontal else x) - SIZE / 2)
                    assert off_axis > 0.12 * SIZE, (tile_type.id, rotation, (x, y))
    assert checked >= 5  # RB, RC, RD, RF, RH, RK at least


# -- colours -----------------------------------------------------------------------------

#: Colour-vision deficiency simulation matrices on linear RGB, severity 1 (Machado, Oliveira
#: and Fernandes, "A Physiologically-based Model for Simulation of Color Vision
#: Deficiency", IEEE TVCG 15(6), 2009, table 1).
VISIONS = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def _lab(colour: str, vision: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB hex colour as seen with ``vision``."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    rgb = [linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5)]
    m = VISIONS[vision]
    r, g, b = [min(1.0, max(0.0, sum(m[row][k] * rgb[k] for k in range(3)))) for row in range(3)]
    x, y, z = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b, \
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _distance(a: str, b: str, vision: str) -> float:
    """CIE76 ΔE between two colours as ``vision`` sees them."""
    return math.dist(_lab(a, vision), _lab(b, vision))


#: How far apart colours must be (ΔE): a pennant from any meeple, and meeples from one another.
PENNANT_APART = {"normal": 40, "protanopia": 20, "deuteranopia": 20, "tritanopia": 20}
SEATS_APART = {"normal": 40, "protanopia": 15, "deuteranopia": 15, "tritanopia": 15}


def _pennant_problems(pennant: str, seats: tuple[str, ...]) -> list[str]:
    return [f"{vision}: pennant {pennant} ~ {seat}" for vision, least in PENNANT_APART.items()
            for seat in seats if _distance(pennant, seat, vision) < least]


def _seat_problems(seats: tuple[str, ...]) -> list[str]:
    return [f"{vision}: {a} ~ {b}" for vision, least in SEATS_APART.items()
            for a, b in itertools.combinations(seats, 2) if _distance(a, b, vision) < least]


def test_pennants_are_apart_from_every_player_colour() -> None:
    assert _pennant_problems(PENNANT[0], PLAYER_COLOURS) == []


def test_player_colours_stay_apart_for_colour_blind_eyes() -> None:
    assert _seat_problems(PLAYER_COLOURS) == []


def test_the_colour_checks_catch_the_old_colours() -> None:
    """The colours before issue 16: the pennant's blue next to seat 2's, and seats 2 and 6
    alike under protanopia.  The checks above must fail on them."""
    old_seats = ("#d62828", "#1d4ed8", "#f2c200", "#2a9d3f", "#222222", "#c026d3")
    assert "normal: pennant #1f4aa8 ~ #1d4ed8" in _pennant_problems("#1f4aa8", old_seats)
    assert "protanopia: #1d4ed8 ~ #c026d3" in _seat_problems(old_seats)


def test_a_drawn_pennant_uses_the_pennant_colour() -> None:
    ruleset = load_ruleset("basic")
    root = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{tile_group(ruleset, ruleset.tile_ids["C"])}</svg>')
    (shield,) = _classed(root, "pennant")
    assert shield.get("fill") == PENNANT[0]


# -- map numbering -----------------------------------------------------------------------

def test_maps_are_numbered_from_0_in_picture_record_and_log() -> None:
    ruleset = load_ruleset("basic+two-maps")
    console = Console(file=io.StringIO(), width=120)
    played = play_game(ruleset, ["random", "random"], 5, on_turn=turn_logger(console, ruleset, ["a", "b"]))
    in_record = {t["map"] for t in played.record["turns"] if "map" in t}
    in_log = {int(n) for n in re.findall(r"map (\d+)", console.file.getvalue())}
    root = ET.fromstring(board_svg(played.game, ["a", "b"]))
    in_picture = {int(e.text.split()[1]) for e in _classed(root, "map-label")}
    panels = {int(g.get("data-map")) for g in _classed(root, "map")}
    assert in_record == in_log == in_picture == panels == {0, 1}


def test_the_viewer_marks_the_last_tile_and_can_show_coordinates(river_game, tmp_path) -> None:
    """The replay page carries the outline its script moves onto each step's last tile,
    and coordinate labels for every column and row of the board (hidden until asked)."""
    import json

    from engine.files.record import load_record
    from engine.view.viewer import replay_html

    path = tmp_path / "game.json"
    path.write_text(json.dumps(river_game.record))
    page = replay_html(load_record(path))
    assert f'<rect id="last-tile" class="last" width="56" height="56" fill="none" stroke="{LAST_MARK}"' in page
    cells = [river_game.game.local(pos)[1:] for pos in river_game.game.board]
    (coords,) = re.findall(r'<g id="coords"[^>]*>(.*?)</g>', page)
    labels = [int(n) for n in re.findall(r">(-?\d+)</text>", coords)]
    xs = range(min(x for x, _ in cells), max(x for x, _ in cells) + 1)
    ys = range(min(y for _, y in cells), max(y for _, y in cells) + 1)
    assert labels == [*xs, *ys]


def test_the_viewer_draws_followers_as_the_board_picture_does(river_game, tmp_path) -> None:
    """One meeple shape everywhere: standing, or lying for a farmer (a ``half`` kind)."""
    import json

    from engine.files.record import load_record
    from engine.view.figures import meeple_svg
    from engine.view.viewer import replay_html

    path = tmp_path / "game.json"
    path.write_text(json.dumps(river_game.record))
    page = replay_html(load_record(path))
    followers = re.findall(r'<g class="follower"[^>]*>(.*?)</g>', page)
    assert followers and all(f.startswith("<path ") and f.count("<path") == 1 for f in followers)
    assert "<ellipse" not in page
    standing, lying = meeple_svg(30, 30, 60, "#000000", False), meeple_svg(30, 30, 60, "#000000", True)
    assert standing != lying and standing.startswith("<path ")


def test_a_token_is_drawn_as_its_own_symbol_not_as_a_pennant() -> None:
    """Goods a kind hands out (rewards) are discs with their initial; pennants stay shields."""
    ruleset = load_ruleset(str(Path(__file__).parents[1] / "scenarios" / "rulesets" / "goods.yaml"))
    wine = tile_group(ruleset, ruleset.tile_ids["EW"], 0, 100)
    assert wine.count('class="token"') == 1 and 'data-token="wine"' in wine and ">W</text>" in wine
    assert 'class="pennant"' not in wine
    pennant = tile_group(ruleset, ruleset.tile_ids["C"], 0, 100)  # CCCC with a pennant
    assert pennant.count('class="pennant"') == 1 and 'class="token"' not in pennant


def test_every_mark_of_a_ruleset_has_its_own_label() -> None:
    # Inns & Cathedrals' cathedral and Traders & Builders' cloth both start with C.
    ruleset = load_ruleset("basic+inns-and-cathedrals+traders-and-builders")
    shown: dict[str, set[str]] = {}
    for index in range(len(ruleset.tiles)):
        root = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{tile_group(ruleset, index)}</svg>')
        for mark in root.iter():
            name = mark.get("data-attribute") or mark.get("data-token")
            if name:
                text = next(t for t in mark.iter() if t.tag.endswith("text")).text or ""
                shown.setdefault(name, set()).add(text.rstrip("0123456789"))
    assert shown["cathedrals"] == {"Ca"} and shown["cloth"] == {"Cl"}
    assert shown["inns"] == {"I"} and shown["wine"] == {"W"} and shown["grain"] == {"G"}
    assert len({label for labels in shown.values() for label in labels}) == len(shown)


# -- field splits ------------------------------------------------------------------------

def _inside(point: tuple[float, float], polygon: list[tuple[float, float]]) -> bool:
    x, y = point
    crossings = 0
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            crossings += 1
    return crossings % 2 == 1


def _field_at(root: ET.Element, point: tuple[float, float]) -> str | None:
    """The segment index of the field polygon drawn under ``point``, if any."""
    for group in _classed(root, "segment"):
        for polygon in group.iter(f"{SVG}polygon"):
            points = [tuple(map(float, p.split(","))) for p in polygon.get("points").split()]
            if _inside(point, points):
                return group.get("data-segment")
    return None


SVG = "{http://www.w3.org/2000/svg}"


def _pairs(d: str) -> set[tuple[int, int]]:
    return {(round(float(x)), round(float(y))) for x, y in re.findall(r"(-?[\d.]+),(-?[\d.]+)", d)}


#: Clockwise round the border from the NW corner: corners and side middles, and the way
#: the border runs on from each (N eastwards, E southwards, S westwards, W northwards).
_BORDER = [((0, 0), (1, 0)), ((30, 0), (1, 0)), ((60, 0), (0, 1)), ((60, 30), (0, 1)),
           ((60, 60), (-1, 0)), ((30, 60), (-1, 0)), ((0, 60), (0, -1)), ((0, 30), (0, -1))]


def test_two_fields_that_meet_with_nothing_between_are_split_on_every_shipped_tile() -> None:
    """Where the field drawn just before a corner or a side's middle (going clockwise round
    the border) is another field than the one just after it, a road leaves that point or a
    split line runs from it to the centre: read from the drawn polygons, not the ports."""
    split_tiles = set()
    for ruleset, index in _every_shipped_tile():
        for rotation in range(4):
            root = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">'
                                 f'{tile_group(ruleset, index, rotation, SIZE)}</svg>')
            splits = set().union(*(_pairs(path.get("d")) for path in _classed(root, "field-split")))
            lines = set().union(*(_pairs(path.get("d") or "") for group in _classed(root, "segment")
                                  if group.get("data-kind") in ("road", "river") for path in group.iter(f"{SVG}path")))
            for k, (point, ahead) in enumerate(_BORDER):
                behind = _BORDER[k - 1][1] if k % 2 == 0 else ahead  # a corner turns the border
                pulled = (point[0] + (SIZE / 2 - point[0]) * 0.1, point[1] + (SIZE / 2 - point[1]) * 0.1)
                a = _field_at(root, (pulled[0] - 2 * behind[0], pulled[1] - 2 * behind[1]))
                b = _field_at(root, (pulled[0] + 2 * ahead[0], pulled[1] + 2 * ahead[1]))
                if a is not None and b is not None and a != b:
                    assert point in splits or point in lines, (ruleset.tiles[index].id, rotation, point)
                    if point in splits:
                        split_tiles.add(ruleset.tiles[index].id)
    # HS_C_v: Hills & Sheep's vineyard cap, whose two fields meet at the middle of its south side;
    # KR_CcRR: the King & Robber Baron's corner city, whose ER and SL fields meet at the south-east corner.
    assert split_tiles == {"IC_CX", "TB_CcRX_w", "TB_CcRRX_c", "TB_RCcX_g", "AM_C3P", "HS_C_v", "KR_CcRR"}


def test_a_seam_runs_where_the_fields_meet() -> None:
    # IC_CX: a city cap on N, one field on E, one on S and W.  They meet at the SE corner,
    # and through the ground between the cap and the centre: seams from the SE corner and
    # from N's middle, turning with the tile (clockwise).
    ruleset = load_ruleset("basic+inns-and-cathedrals")
    seams = ["M30,0 L30,30 M60,60 L30,30", "M60,30 L30,30 M0,60 L30,30",
             "M0,0 L30,30 M30,60 L30,30", "M60,0 L30,30 M0,30 L30,30"]
    for rotation, expected in enumerate(seams):
        svg = tile_group(ruleset, ruleset.tile_ids["IC_CX"], rotation, SIZE)
        assert re.findall(r'class="field-split" d="([^"]*)"', svg) == [expected]
    # IC_CFR: a cap on N, a road from S ending in the middle, a field either side of the road:
    # they meet under the cap only.
    assert re.findall(r'class="field-split" d="([^"]*)"', tile_group(ruleset, ruleset.tile_ids["IC_CFR"], 0, SIZE)) \
        == ["M30,0 L30,30"]
    # Every basic field seam is a road or a city over two sides or more (which reaches the centre).
    assert all('class="field-split"' not in tile_group(ruleset, i) for i in range(len(ruleset.tiles))
               if not ruleset.tiles[i].id.startswith("IC_"))


# -- atlas labels ------------------------------------------------------------------------

def test_no_atlas_label_runs_into_its_neighbours() -> None:
    """Each tile label, measured in DejaVu Sans (matplotlib's own font, the widest of the
    usual sans faces), fits its column with room to spare."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath

    font = FontProperties(family="DejaVu Sans")
    refs = ["basic", "basic+river", "basic+inns-and-cathedrals+traders-and-builders"]
    for ref in refs:
        root = ET.fromstring(atlas_svg(load_ruleset(ref)))
        places = [(float(re.search(r"translate\(([\d.]+),", g.get("transform")).group(1)), g)
                  for g in root if g.tag == f"{SVG}g"]
        column = places[1][0] - places[0][0]
        for _x, group in places:
            label = next(e for e in group if e.get("class") == "tile-label")
            size = float(label.get("font-size"))
            real = TextPath((0, 0), label.text, size=size, prop=font).get_extents().width
            assert real <= column - 0.1 * size, (ref, label.text, real, column)
    long = atlas_svg(load_ruleset("basic+traders-and-builders"))
    assert "TB_CcRRX_c ×1" in long and 'font-size="14.4" text-anchor' in long  # its columns widened: no label shrank
    assert len(set(re.findall(r'class="tile-label"[^>]*font-size="([\d.]+)"', long))) == 1


def test_a_label_too_long_for_any_column_is_set_smaller_to_fit_it(tmp_path: Path) -> None:
    ruleset_file = tmp_path / "long.yaml"
    ruleset_file.write_text("extends: basic\nname: long\ndescription: d\nsource: s\ntiles:\n"
                            "  WWWWWWWWWWWWWWWWWWWWWWWW:\n    count: 1\n    edges: FFFF\n"
                            "    segments:\n      - {kind: field, ports: [NL, NR, EL, ER, SL, SR, WL, WR]}\n")
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath

    svg = atlas_svg(load_ruleset(str(ruleset_file)))
    (font,) = re.findall(r'<text class="tile-label" [^>]*font-size="([\d.]+)"[^>]*>W+ ×1<', svg)
    width = TextPath((0, 0), "W" * 24 + " ×1", size=float(font), prop=FontProperties(family="DejaVu Sans"))
    assert float(font) < 14.4 and width.get_extents().width <= 2 * 80  # a column grows to twice the tile at most


def test_wild_sides_are_drawn_as_stone_bands_turning_with_the_tile(tmp_path: Path) -> None:
    path = tmp_path / "wild.yaml"
    path.write_text("extends: basic\nname: wild\ntiles:\n  WR:\n    count: 1\n    edges: '*R*R'\n    segments:\n"
                    "      - {kind: road, ports: [E, W]}\n      - {kind: field, ports: [EL, WR]}\n"
                    "      - {kind: field, ports: [ER, WL]}\n")
    ruleset = load_ruleset(str(path), cache=False)
    wild = ruleset.tile_ids["WR"]
    for rotation, sides in ((0, ["N", "S"]), (1, ["E", "W"])):
        group = ET.fromstring(tile_group(ruleset, wild, rotation))
        assert [band.get("data-side") for band in group.iter("rect") if band.get("class") == "wild"] == sides
    assert "wild" not in tile_group(ruleset, ruleset.tile_ids["D"])


def test_a_follower_of_another_type_carries_the_start_of_its_name() -> None:
    from engine.view.figures import follower_mark
    ruleset = load_ruleset("basic+inns-and-cathedrals+traders-and-builders")
    assert [follower_mark(ruleset, t.index) for t in ruleset.follower_types] == ["", "L", "B", "P"]
    mayor = load_ruleset(str(Path(__file__).parents[1] / "scenarios" / "rulesets" / "mayor.yaml"))
    played = play_game(mayor, ["greedy", "greedy"], 2)
    svg = "<svg/>"
    for turn in range(1, len(played.game.history) + 1):  # the first board with a mayor on it
        game = board_after(played.record, mayor, turn)
        if any(kind for _, _, kind, _ in game.on_board):
            svg = board_svg(game, ["A", "B"])
            break
    followers = [g for g in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "follower"]
    marked = {g.get("data-type"): [t.text for t in g.iter("{http://www.w3.org/2000/svg}text")] for g in followers}
    assert marked["mayor"] == ["M"] and all(texts == [] for kind, texts in marked.items() if kind != "mayor")


def test_each_piece_is_drawn_as_what_it_is() -> None:
    """Issue 30's reviewer: a pig and a builder differed from meeples only by size.  Each follower
    type names its figure; the shipped builder, pig, mayor, wagon and barn are each their own
    silhouette, and a board draws them so (``data-figure``)."""
    from engine.view.figures import FIGURES, piece_svg

    drawn = {name: figure(30, 30, 60, "#0072b2", False, 1.0, "") for name, figure in FIGURES.items()}
    assert len(set(drawn.values())) == len(FIGURES) == 6  # no two figures alike
    for _name, svg in drawn.items():
        ET.fromstring(f'<g xmlns="http://www.w3.org/2000/svg">{svg}</g>')  # well-formed
    ruleset = load_ruleset("basic+traders-and-builders+abbey-and-mayor+inns-and-cathedrals")
    figures = {t.name: t.figure for t in ruleset.follower_types}
    assert figures == {"normal": "meeple", "large": "meeple", "builder": "builder", "pig": "pig", "mayor": "mayor",
                       "wagon": "wagon", "barn": "barn"}
    by_type = {t.name: piece_svg(ruleset, t.index, 30, 30, 60, "#0072b2", False) for t in ruleset.follower_types}
    assert len(set(by_type.values())) == len(by_type)  # the large meeple is bigger, with its L
    played = play_game(ruleset, ["greedy", "greedy"], 4)
    svg = board_svg(played.game, ["A", "B"])
    placed = {g.get("data-type"): g.get("data-figure")
              for g in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "follower"}
    assert placed and all(figures[kind] == figure for kind, figure in placed.items())


def test_a_figure_the_pictures_do_not_have_is_refused(tmp_path) -> None:
    path = tmp_path / "unicorn.yaml"
    path.write_text("name: unicorn\nextends: basic\nfollower_types:\n  unicorn: {count: 1, figure: unicorn}\n")
    with pytest.raises(UserError) as refused:
        load_ruleset(str(path), cache=False)
    assert "figure" in refused.value.render() and "unicorn.yaml:4:" in refused.value.render()


def test_no_seat_colour_is_near_the_legal_cell_highlight() -> None:
    """Issue 30's reviewer: the third seat's yellow was close to the yellow legal cells.  Each seat
    colour stands apart from the highlight as the page shows it (over white) as far as a pennant
    does (:data:`PENNANT_APART`, for every vision), and a chromatic seat colour of about its
    lightness (L* within 20) a hue at least 45° away; the old pale yellow fails this."""
    from engine.view.render import SPOT_FILL, SPOT_OPACITY

    def over_white(colour: str) -> str:
        return "#" + "".join(f"{round(SPOT_OPACITY * int(colour[i:i + 2], 16) + (1 - SPOT_OPACITY) * 255):02x}"
                             for i in (1, 3, 5))

    def problems(spot: str) -> list[str]:
        found = [f"{vision}: {seat} ~ {spot}" for vision, least in PENNANT_APART.items() for seat in PLAYER_COLOURS
                 if _distance(seat, spot, vision) < least]
        cell = _lab(spot, "normal")
        for colour in PLAYER_COLOURS:
            seat = _lab(colour, "normal")
            if math.hypot(seat[1], seat[2]) > 20 and abs(seat[0] - cell[0]) < 20:
                apart = abs(math.degrees(math.atan2(seat[2], seat[1]) - math.atan2(cell[2], cell[1]))) % 360
                if min(apart, 360 - apart) < 45:
                    found.append(f"hue: {colour} ~ {spot}")
        return found

    assert problems(over_white(SPOT_FILL)) == []
    assert _distance(over_white(SPOT_FILL), "#ffffff", "normal") >= 20  # and it shows on the white page
    assert f"hue: {PLAYER_COLOURS[2]} ~ #fffad1" in problems("#fffad1")  # the old highlight, as the page showed it


#: How far the River's water must be (ΔE) from every follower colour (issue 50: seat 2's blue on it).
RIVER_APART = {"normal": 30, "protanopia": 20, "deuteranopia": 20, "tritanopia": 20}


def test_the_river_is_told_apart_from_every_follower_colour() -> None:
    def problems(river: str) -> list[str]:
        return [f"{vision}: river {river} ~ {seat}" for vision, least in RIVER_APART.items()
                for seat in PLAYER_COLOURS if _distance(river, seat, vision) < least]

    assert problems(PALETTE["river"][0]) == []
    assert "normal: river #4f92d6 ~ #0072b2" in problems("#4f92d6")  # the old water: the check catches it


def test_the_atlas_says_what_each_player_holds_of_a_personal_tile_and_marks_show() -> None:
    """Issue 50: the abbey read "×0" (as none); inn and cathedral marks and field seams were too
    small or faint to see at the atlas's default size."""
    atlas = atlas_svg(load_ruleset("basic+abbey-and-mayor+inns-and-cathedrals"))
    labels = re.findall(r'class="tile-label"[^>]*>([^<]*)<', atlas)
    assert "AM_Abbey 1 each" in labels and not any(label.startswith("AM_Abbey ×") for label in labels)
    widths = {float(w) for w in re.findall(r'class="badge"[^>]*><rect [^>]*? width="([0-9.]+)"', atlas)}
    assert widths == {16.0}  # 0.2 of the atlas's 80-unit tiles
    seams = re.findall(r'class="field-split"[^>]*stroke="(#[0-9a-f]{6})" stroke-width="([0-9.]+)"', atlas)
    assert seams and all(float(width) == 3.6 and _lab(colour, "normal")[0] < _lab(PALETTE["field"][1], "normal")[0]
                         for colour, width in seams)
