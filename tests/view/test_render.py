"""SVG rendering: well-formed documents, one shape per segment and follower, rotation, new kinds, snapshot."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from engine.errors import UserError
from engine.rules.ruleset import load_ruleset
from engine.sim.play import play_game
from engine.view.render import atlas_svg, board_after, board_svg, to_png
from engine.view.tile_svg import segment_anchor, tile_group

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOT = Path(__file__).parents[1] / "snapshots" / "atlas_basic.svg"
SVG = "{http://www.w3.org/2000/svg}"


def _classed(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("class") == cls]


def _numbers(element: ET.Element) -> list[tuple[float, float]]:
    """Every ``x,y`` pair in the element's path data and polygon points, below it included."""
    pairs = []
    for e in element.iter():
        text = (e.get("d") or "") + " " + (e.get("points") or "")
        pairs += [(float(x), float(y)) for x, y in re.findall(r"(-?[\d.]+),(-?[\d.]+)", text)]
    return pairs


@pytest.fixture(scope="module")
def basic():
    return load_ruleset("basic")


@pytest.fixture(scope="module")
def played(basic):
    return play_game(basic, ["random", "greedy"], 7)


def test_atlas_has_one_group_per_segment_and_a_label_per_tile(basic) -> None:
    root = ET.fromstring(atlas_svg(basic))
    assert root.tag == f"{SVG}svg"
    segments = _classed(root, "segment")
    assert len(segments) == sum(len(t.segments) for t in basic.tiles)
    labels = [e.text for e in _classed(root, "tile-label")]
    assert len(labels) == 24
    assert "D ×4 start" in labels and "V ×9" in labels
    assert len(_classed(root, "start")) == 1
    # Each tile's groups name its segments 0..n-1 and their kinds, whatever order they are painted in.
    for tile in _classed(root, "tile"):
        tile_type = basic.tiles[basic.tile_ids[tile.get("data-tile")]]
        groups = _classed(tile, "segment")
        assert sorted(int(g.get("data-segment")) for g in groups) == list(range(len(tile_type.segments)))
        for g in groups:
            assert g.get("data-kind") == basic.kinds[tile_type.segments[int(g.get("data-segment"))].kind].name


def test_pennants_junctions_and_icons_come_from_the_data(basic) -> None:
    root = ET.fromstring(atlas_svg(basic))
    pennant_tiles = sum(1 for t in basic.tiles for s in t.segments if any(v > 0 for v in s.attrs))
    assert len(_classed(root, "pennant")) == pennant_tiles == 6  # C F M O Q S
    dead_ends = sum(1 for t in basic.tiles for s in t.segments
                    if basic.kinds[s.kind].ports == "centre" and len(s.ports) == 1)
    assert len(_classed(root, "junction")) == dead_ends
    assert len(_classed(root, "icon")) == 2  # the cloisters on A and B (one picture per type)


def test_board_has_every_placed_segment_and_every_follower(played) -> None:
    game = played.game
    assert game.on_board  # final scoring leaves followers on the board: they are drawn
    text = board_svg(game, ["random-1", "greedy-2"], title="seed 7")
    root = ET.fromstring(text)
    tiles = _classed(root, "tile")
    assert len(tiles) == len(game.board)
    assert len(_classed(root, "segment")) == sum(len(game.tiles[t].segments) for _, _, t in game.board.values())
    followers = _classed(root, "follower")
    assert len(followers) == len(game.on_board)
    assert sorted(int(f.get("data-player")) for f in followers) == sorted(seat for _, seat, _, _ in game.on_board)
    rows = _classed(root, "score")
    assert [("".join(r.itertext())) for r in rows] == [f"random-1{game.scores[0]}", f"greedy-2{game.scores[1]}"]


def test_board_after_replays_a_record(basic, played) -> None:
    record = played.record
    final = board_after(record, basic)
    assert final.scores == record["scores"]["final"]
    assert final.on_board == played.game.on_board
    assert board_after(record, None, 0).board.keys() == {0}  # only the start tile
    after = board_after(record, basic, 10)
    assert len(after.history) == 10
    ET.fromstring(board_svg(after, ["a", "b"]))
    with pytest.raises(UserError):
        board_after(record, basic, len(record["turns"]) + 1)


def test_rotation_turns_the_picture_like_the_board(basic) -> None:
    e = basic.tile_ids["E"]  # a city cap on N
    size = 60

    def city_points(rotation: int) -> list[tuple[float, float]]:
        root = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{tile_group(basic, e, rotation, size)}</svg>')
        (city,) = [g for g in _classed(root, "segment") if g.get("data-kind") == "city"]
        return _numbers(city)

    def mean(values: list[float]) -> float:
        return sum(values) / len(values)

    # Corners and curve control points alike lie on the city's side of the tile.
    north, east = city_points(0), city_points(1)
    assert mean([y for _, y in north]) < size * 0.3 and {(0, 0), (size, 0)} <= set(north)
    assert mean([x for x, _ in east]) > size * 0.7 and {(size, 0), (size, size)} <= set(east)
    assert all(x >= size * 0.4 for x, _ in east)
    ax, ay = segment_anchor(basic, e, 1, 0, size)
    assert ax > size * 0.7 and abs(ay - size / 2) < 1


def test_a_designer_kind_renders_without_drawing_code() -> None:
    ruleset = load_ruleset(str(ROOT / "examples" / "garden-variant.yaml"))
    root = ET.fromstring(atlas_svg(ruleset))
    (ga,) = [t for t in _classed(root, "tile") if t.get("data-tile") == "GA"]
    kinds = {g.get("data-kind") for g in _classed(ga, "segment")}
    assert kinds == {"garden", "road", "field"}
    (garden,) = [g for g in _classed(ga, "segment") if g.get("data-kind") == "garden"]
    assert _classed(garden, "icon")
    game = play_game(ruleset, ["greedy", "greedy"], 3).game
    ET.fromstring(board_svg(game, ["a", "b"]))


def test_atlas_snapshot(basic) -> None:
    """The basic atlas, byte for byte.

    When the drawing changes on purpose, regenerate the snapshot and look at it:

        python -c "from engine.rules.ruleset import load_ruleset; from engine.view.render import atlas_svg; \\
        open('tests/snapshots/atlas_basic.svg', 'w', encoding='utf-8').write(atlas_svg(load_ruleset('basic')))"
    """
    assert atlas_svg(basic) == SNAPSHOT.read_text(encoding="utf-8")


def test_png_needs_cairosvg(basic, tmp_path: Path) -> None:
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        with pytest.raises(UserError) as error:
            to_png(atlas_svg(basic), tmp_path / "atlas.png")
        assert error.value.diagnostics[0].code == "dependency"
        return
    to_png(atlas_svg(basic), tmp_path / "atlas.png")
    assert (tmp_path / "atlas.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
