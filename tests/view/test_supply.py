"""A seat's supply drawn as pieces (engine/view/supply.py, issue 50 item 2): a figure per piece
left, grouped by type, in words in its title; each figure's extent (engine/view/figures.py's
``FIGURE_BOXES``) read back from the drawing; the picture fits the web table's side bar and every
piece in it is legible."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from engine.rules.ruleset import load_ruleset
from engine.view.figures import FIGURE_BOXES, FIGURES, piece_box
from engine.view.supply import GAP, ROW, supply_layout, supply_svg, supply_words

SVG = "{http://www.w3.org/2000/svg}"
#: A tile in the web table's units (engine/web/table_state.py's TILE): one unit a pixel at zoom 1.
TILE = 84
SCENARIOS = Path(__file__).parents[1] / "scenarios" / "rulesets"


@pytest.fixture(scope="module")
def abbey():
    return load_ruleset("basic+abbey-and-mayor")


def _groups(svg: str) -> dict[str, tuple[int, int]]:
    """Each ``g.supply-type`` of ``svg``: its ``data-type`` → ``(data-count, pieces drawn in it)``."""
    root = ET.fromstring(svg)
    return {g.get("data-type"): (int(g.get("data-count")), sum(1 for p in g if p.get("class") == "supply-piece"))
            for g in root.iter(f"{SVG}g") if g.get("class") == "supply-type"}


def _extent(markup: str) -> tuple[float, float, float, float]:
    """How far the shapes of ``markup`` reach: every point of its paths, every circle's edge."""
    xs, ys = [], []
    for d in re.findall(r' d="([^"]*)"', markup):
        for x, y in re.findall(r"(-?[\d.]+),(-?[\d.]+)", d):
            xs.append(float(x))
            ys.append(float(y))
    for cx, cy, r in re.findall(r'<circle cx="(-?[\d.]+)" cy="(-?[\d.]+)" r="([\d.]+)"', markup):
        xs += [float(cx) - float(r), float(cx) + float(r)]
        ys += [float(cy) - float(r), float(cy) + float(r)]
    return min(xs), min(ys), max(xs), max(ys)


def test_the_abbey_and_mayor_starting_supply_draws_each_piece(abbey) -> None:
    svg = supply_svg(abbey, [t.count for t in abbey.follower_types], "#0072b2", TILE)
    assert _groups(svg) == {"normal": (7, 7), "mayor": (1, 1), "wagon": (1, 1), "barn": (1, 1)}
    root = ET.fromstring(svg)
    words = "7 followers, 1 mayor, 1 wagon, 1 barn left"
    assert root.get("aria-label") == words and root.find(f"{SVG}title").text == words and root.get("role") == "img"
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    assert svg.count('fill="#0072b2"') >= 10  # every piece in the seat's colour


def test_a_spent_type_draws_no_figure(abbey) -> None:
    wagon = FIGURES["wagon"](0, 0, TILE, "#0072b2", False, 1.0, "")
    svg = supply_svg(abbey, [2, 0, 1, 0], "#0072b2", TILE)
    assert _groups(svg) == {"normal": (2, 2), "wagon": (1, 1)}
    assert svg.count("<circle") == 2  # the wagon's wheels: the only figure with circles
    assert svg.count("<path") == 2 + wagon.count("<path")  # two meeples and a wagon, no mayor, no barn
    assert ET.fromstring(svg).get("aria-label") == "2 followers, 0 mayor, 1 wagon, 0 barn left"


def test_an_empty_supply_draws_nothing_and_says_so(abbey) -> None:
    svg = supply_svg(abbey, [0, 0, 0, 0], "#0072b2", TILE)
    root = ET.fromstring(svg)
    assert _groups(svg) == {} and "<path" not in svg
    assert (root.get("width"), root.get("height")) == ("0", "0")
    assert root.get("aria-label") == root.find(f"{SVG}title").text == "no pieces left"


def test_a_ruleset_of_one_type_says_followers() -> None:
    basic = load_ruleset("basic")
    assert supply_words(basic, [7]) == "7 followers left" and supply_words(basic, [1]) == "1 follower left"
    assert _groups(supply_svg(basic, [7], "#d55e00", TILE)) == {"normal": (7, 7)}


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_each_figures_box_is_what_it_draws(name: str) -> None:
    """``FIGURE_BOXES`` (what the supply lays out by) reaches where the outline does."""
    box = _extent(FIGURES[name](0, 0, 100, "#000000", False, 1.0, ""))
    assert box == pytest.approx(tuple(100 * v for v in FIGURE_BOXES[name]), abs=0.02)


#: Every figure shipped, the biggest meeple (strength 3) and the smallest (strength 0).
RULESETS = ["basic+abbey-and-mayor+inns-and-cathedrals+traders-and-builders", "basic",
            *(str(SCENARIOS / f"{name}.yaml") for name in ("large-follower-3", "zero-strength-own", "helper-follower"))]


@pytest.mark.parametrize("ref", RULESETS)
def test_the_supply_fits_the_side_bar_and_every_piece_is_legible(ref: str) -> None:
    """At the web table's size a meeple is about 20 pixels tall, every piece at least 15 across
    (a meeple of strength 0 is 0.7 of one), no row is wider than the side bar (about 380 pixels),
    and no two pieces touch."""
    ruleset = load_ruleset(ref)
    for counts in ([t.count for t in ruleset.follower_types], [t.count * 3 for t in ruleset.follower_types]):
        placed, width, height = supply_layout(ruleset, counts, TILE)
        assert len(placed) == sum(counts) and width <= ROW * TILE <= 380
        boxes = []
        for t, x, y in placed:
            left, top, right, bottom = piece_box(ruleset, t, TILE)
            assert max(right - left, bottom - top) >= 15, ruleset.follower_types[t].name
            assert 0 < x + left and x + right < width and 0 < y + top and y + bottom < height
            boxes.append((x + left, y + top, x + right, y + bottom))
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert (a[2] + GAP * TILE <= b[0] + 1e-9 or b[2] + GAP * TILE <= a[0] + 1e-9
                        or a[3] <= b[1] or b[3] <= a[1]), (a, b)
    _, top, _, bottom = piece_box(ruleset, 0, TILE)  # a normal follower
    assert 20 <= bottom - top <= 23


def test_the_pieces_drawn_are_where_the_layout_puts_them(abbey) -> None:
    """Each piece's outline in the picture lies in the box the layout gave it."""
    svg = supply_svg(abbey, [7, 1, 1, 1], "#0072b2", TILE)
    placed, _, _ = supply_layout(abbey, [7, 1, 1, 1], TILE)
    pieces = re.findall(r'<g class="supply-piece">(.*?)</g>', svg)
    assert len(pieces) == len(placed) == 10
    for markup, (t, x, y) in zip(pieces, placed):
        left, top, right, bottom = piece_box(abbey, t, TILE)
        assert _extent(markup) == pytest.approx((x + left, y + top, x + right, y + bottom), abs=0.02)
