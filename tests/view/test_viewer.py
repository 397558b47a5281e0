"""The replay viewer page, the tile atlas and board pictures from the command line.

The viewer is checked in a real headless Chromium when the machine has one
(Debian's `chromium` package); elsewhere that test is skipped.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


@pytest.fixture(scope="module")
def viewer(tmp_path_factory) -> tuple[Path, dict]:
    folder = tmp_path_factory.mktemp("viewer")
    record = folder / "g.json"
    assert run("play", "-p", "random,greedy", "-s", "7", "-q", "--record", str(record)).returncode == 0
    page = folder / "replay.html"
    result = run("replay", str(record), "--html", str(page))
    assert result.returncode == 0, result.stderr
    return page, json.loads(record.read_text())


def test_viewer_page_is_self_contained_and_has_every_step(viewer) -> None:
    page, record = viewer
    text = page.read_text()
    assert not re.search(r"(src|href)=\"https?:", text)  # no network
    payload = json.loads(re.search(r"const DATA = (\{.*?\});\n", text).group(1).replace("<\\/", "</"))
    steps = payload["steps"]
    assert len(steps) == len(record["turns"]) + 2  # start, every turn, final scoring
    assert steps[-1]["scores"] == record["scores"]["final"]
    assert steps[-2]["scores"] == record["scores"]["in_game"]
    assert text.count('<use class="placed"') == len(record["turns"]) + 1  # + the start tile


def dump_dom(page: Path, fragment: str, tmp_path: Path) -> str:
    """The DOM headless Chromium builds for ``page#fragment`` once its scripts ran."""
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", f"file://{page}#{fragment}"],
        capture_output=True, text=True, timeout=120).stdout


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine")
@pytest.mark.parametrize("where, shows", [("1", "Turn 1:"), ("last", "Final scoring")])
def test_viewer_loads_in_a_browser(viewer, tmp_path: Path, where: str, shows: str) -> None:
    page, _ = viewer
    dom = dump_dom(page, f"turn={where}", tmp_path)
    step = re.search(r'<div id="step">(.*?)</div>', dom)
    assert step and shows in step.group(1)


def test_tiles_and_render_write_pictures(tmp_path: Path, viewer) -> None:
    atlas = tmp_path / "atlas.svg"
    assert run("tiles", "basic", "--svg", str(atlas)).returncode == 0
    assert ET.parse(atlas).getroot().tag.endswith("svg")
    _, record = viewer
    source = tmp_path / "g.json"
    source.write_text(json.dumps(record))
    board = tmp_path / "board.svg"
    result = run("render", str(source), "--turn", "10", "--svg", str(board))
    assert result.returncode == 0, result.stderr
    tiles = [g for g in ET.parse(board).getroot().iter() if g.get("class") == "tile"]
    assert len(tiles) == 11  # the start tile and ten turns
    bad = run("render", str(source), "--turn", "999", "--svg", str(board))
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert run("render", str(source)).returncode == 2


def test_names_from_a_record_are_text_not_markup(tmp_path: Path, viewer) -> None:
    _, record = viewer
    record = json.loads(json.dumps(record))
    record["players"][0]["name"] = '<img src=x onerror="document.body.dataset.pwned=1">'
    source = tmp_path / "evil.json"
    source.write_text(json.dumps(record))
    page = tmp_path / "evil.html"
    assert run("replay", str(source), "--html", str(page)).returncode == 0
    text = page.read_text()
    outside_script = text.split("<script>")[0]
    assert "<img" not in outside_script and "&lt;img" in outside_script
    assert "innerHTML" not in text  # record text only ever goes in as textContent
    if CHROMIUM:
        dom = subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", f"file://{page}#turn=1"],
            capture_output=True, text=True, timeout=120).stdout
        assert "data-pwned" not in dom and "&lt;img" in dom  # shown as text; the handler never ran


def test_a_stopped_game_gets_no_final_scoring(tmp_path: Path) -> None:
    record = tmp_path / "stopped.json"
    played = subprocess.run([sys.executable, "-m", "engine.cli", "play", "-p", "human,greedy", "-s", "5",
                             "--record", str(record)], input="1\n1\nq\n", capture_output=True, text=True,
                            timeout=300)
    assert played.returncode == 0, played.stderr
    page = tmp_path / "stopped.html"
    assert run("replay", str(record), "--html", str(page)).returncode == 0
    assert "no final scoring" in page.read_text() and "Final scoring" not in page.read_text()
    board = tmp_path / "stopped.svg"
    assert run("render", str(record), "--svg", str(board)).returncode == 0
    assert "stopped after turn" in board.read_text()


#: Names that try every HTML context: ending the script, opening a comment or a nested
#: script inside it, closing an attribute, an entity, a bidi override, a control character.
HOSTILE_NAMES = ['</script><script>document.body.dataset.pwned=1</script>',
                 '<!--<script>" onmouseover="x=1\' &amp; \u202eevil \x1b[2J \u2028']


@pytest.fixture(scope="module")
def hostile_page(tmp_path_factory, viewer) -> tuple[Path, Path]:
    _, record = viewer
    record = json.loads(json.dumps(record))
    for player, name in zip(record["players"], HOSTILE_NAMES):
        player["name"] = name
    folder = tmp_path_factory.mktemp("hostile")
    source = folder / "g.json"
    source.write_text(json.dumps(record))
    page = folder / "g.html"
    result = run("replay", str(source), "--html", str(page))
    assert result.returncode == 0, result.stderr
    return source, page


def test_names_cannot_end_or_change_the_viewer_script(hostile_page) -> None:
    from html import escape

    from engine.errors import printable

    _, page = hostile_page
    text = page.read_text()
    # The page's own script is the only one, and nothing in it can open a comment.
    assert text.lower().count("<script") == 1 and text.lower().count("</script") == 1
    script = text.split("<script>", 1)[1].split("</script>", 1)[0]
    payload = re.search(r"const DATA = (\{.*?\});\n", script).group(1)
    assert not set(payload) & set("<>&")
    data = json.loads(payload)
    assert data["names"] == [printable(n) for n in HOSTILE_NAMES]
    assert all(printable(n) in " ".join(s["title"] for s in data["steps"]) for n in HOSTILE_NAMES)
    # Outside the script the names are element text: no markup character left as it is.
    legend = text.split('<div id="side"><div>', 1)[1].split("</div>", 1)[0]
    assert "<!--" not in legend and "<script" not in legend
    assert all(escape(printable(n)) in legend for n in HOSTILE_NAMES)


def test_names_are_text_in_the_board_svg(hostile_page, tmp_path: Path) -> None:
    from engine.errors import printable

    source, _ = hostile_page
    board = tmp_path / "board.svg"
    result = run("render", str(source), "--svg", str(board))
    assert result.returncode == 0, result.stderr
    rows = [el for el in ET.parse(board).getroot().iter() if el.get("class") == "score"]
    assert [el.text for el in rows] == [printable(n) for n in HOSTILE_NAMES]


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine")
def test_a_browser_runs_the_viewer_with_hostile_names(hostile_page, tmp_path: Path) -> None:
    _, page = hostile_page
    dom = dump_dom(page, "turn=1", tmp_path)
    step = re.search(r'<div id="step">(.*?)</div>', dom)
    assert step and step.group(1).startswith("Turn 1: &lt;/script&gt;&lt;script&gt;")  # the script ran
    assert "data-pwned" not in dom
    scores = re.search(r'<div id="scores">(.*?)</div>', dom).group(1)
    assert scores.count("<span>") == 2 and "&lt;!--&lt;script&gt;" in scores
