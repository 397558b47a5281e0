"""The replay viewer: one self-contained HTML file that steps through a recorded game.

The page carries everything it needs (no network): an SVG symbol per tile type
and rotation drawn by :mod:`engine.view.tile_svg`, every placement tagged with the
turn it happened on, every follower with the turns it stood on the board, and
per turn the scores and the score events with their explanations.  A few
lines of JavaScript show the board as it was after the chosen turn
(buttons, arrow keys, or ``#turn=N`` / ``#turn=last`` in the address).
"""

from __future__ import annotations

from pathlib import Path

from ..core import personal
from ..core.game import Game
from ..core.standings import standing
from ..files.notation import follower_phrase
from ..files.record import replay_start
from ..files.turn_entries import play_turn
from ..geometry import CORNER_POINTS, PORTS
from ..rules.ruleset import Ruleset, load_ruleset
from ..rules.source import Document
from .figures import piece_svg
from .markup import script_json, xml_text
from .render import LAST_MARK, PLAYER_COLOURS
from .tile_svg import tile_group

CELL = 60  # pixels per tile
MAP_GAP = 2  # empty columns between the maps of a multi-map game

# Where each port sits on a tile of side 1, from its top-left corner (y down).
_PORT_XY = {"NL": (0.25, 0.1), "N": (0.5, 0.1), "NR": (0.75, 0.1), "EL": (0.9, 0.25), "E": (0.9, 0.5),
            "ER": (0.9, 0.75), "SL": (0.75, 0.9), "S": (0.5, 0.9), "SR": (0.25, 0.9), "WL": (0.1, 0.75),
            "W": (0.1, 0.5), "WR": (0.1, 0.25)}


def replay_html(doc: Document) -> str:
    """The viewer page of the loaded, schema-checked record ``doc``.

    Raises :class:`~engine.errors.UserError` if the record cannot be replayed.
    """
    data = doc.data
    ruleset = load_ruleset(data["ruleset"], Path(doc.file).parent)
    names = [p["name"] for p in data["players"]]
    game = Game(ruleset, len(names), data["seed"], draw_order=[], start=replay_start(ruleset, doc))
    placed = [(0, tile, rotation, m, 0, 0) for m, (tile, rotation) in enumerate(game.starts)]
    # (segment, seat, follower type) -> [first turn, last turn, map, x, y, lying, at a corner]
    stays: dict[tuple[int, int, int], list] = {}
    steps = [{"title": "Start", "scores": list(game.scores), "events": []}]
    seen = 0
    for i, turn in enumerate(data["turns"], start=1):
        seat = game.player
        play_turn(game, turn, doc, ("turns", i - 1))
        if "move" in turn:
            title = (f"{names[seat]}'s {turn['move']} goes home" if turn.get("home") else
                     f"{names[seat]}'s {turn['move']} moves on to {turn['follower']} "
                     f"at ({turn['to'][0]},{turn['to'][1]})")
        elif turn.get("discarded"):
            title = f"{names[seat]} draws {turn['tile']}: it fits nowhere"
        else:
            move = game.history[-1][1]
            m, x, y = game.local(move.pos)
            placed.append((i, game.history[-1][0], move.rotation, m, x, y))
            title = f"{names[seat]} places {turn['tile']} at ({x},{y}), {move.rotation * 90}°"
            if move.follower is not None:
                title += ", " + follower_phrase(ruleset, game.history[-1][0], move.rotation, move.follower, move.type)
            if game.turn in game.extra_turns:
                title += " (an extra turn)"
            if game.turn in personal.of(game).turns:
                title += " (their own tile, instead of a draw)"
            if "buried" in turn:  # deck.bury: the record, read after the game, may show it
                title += f" (with {turn['buried']} buried under it)"
        for segment, owner, kind, corner in game.on_board:
            stay = stays.get((segment, owner, kind))  # a segment takes a follower only on its own turn: one stay
            if stay is None:
                stays[(segment, owner, kind)] = [i, i, *_follower_spot(game, segment, corner)]
            else:
                stay[1] = i
        steps.append({"title": f"Turn {i}: {title}", "scores": list(game.scores),
                      "events": [e.explain(names) for e in game.events[seen:]]})
        seen = len(game.events)
    if data.get("finished", True):  # a game a player stopped early had no final scoring
        game.finish()
        steps.append({"title": f"Final scoring: {standing(game.scores, names)}", "scores": list(game.scores),
                      "events": [e.explain(names) for e in game.events[seen:]]})
    else:
        steps.append({"title": "The game was stopped here (no final scoring)", "scores": list(game.scores),
                      "events": []})
    for stay in stays.values():
        if stay[1] == len(data["turns"]):
            stay[1] = len(steps) - 1  # still standing at game end: shown in the final view too
    return _page(ruleset, names, placed, list(stays.items()), steps, data["ruleset"])


def _follower_spot(game: Game, segment: int, corner: int = -1) -> tuple[int, float, float, bool, bool]:
    """``(map, x, y, lying, at a corner)`` of a follower: the middle of its segment's ports, in
    tiles, or the tile's board corner ``corner`` (0-3 from NE) for a piece standing there (the barn)."""
    orientation, base, tile_index = game.board[game.seg_pos[segment]]
    m, x, y = game.local(game.seg_pos[segment])
    ports = orientation.segment_ports[segment - base]
    kind = game.ruleset.kinds[game.tiles[tile_index].segments[segment - base].kind]
    if corner >= 0:
        px, py = CORNER_POINTS[corner]
    elif ports:
        px = sum(_PORT_XY[PORTS[p]][0] for p in ports) / len(ports)
        py = sum(_PORT_XY[PORTS[p]][1] for p in ports) / len(ports)
        px, py = 0.5 + (px - 0.5) * 0.7, 0.5 + (py - 0.5) * 0.7
    else:
        px = py = 0.5
    return m, x + px, y + py, kind.ports == "half", corner >= 0


def _page(ruleset: Ruleset, names: list[str], placed, stays, steps, ref: str) -> str:
    spans = {}  # map -> (min x, min y, max x, max y)
    for _, _, _, m, x, y in placed:
        lo_x, lo_y, hi_x, hi_y = spans.get(m, (x, y, x, y))
        spans[m] = (min(lo_x, x), min(lo_y, y), max(hi_x, x), max(hi_y, y))
    offsets, cursor = {}, 0
    for m in sorted(spans):
        lo_x, lo_y, hi_x, hi_y = spans[m]
        offsets[m] = cursor - lo_x
        cursor += hi_x - lo_x + 1 + MAP_GAP
    top = min(s[1] for s in spans.values())
    height = max(s[3] for s in spans.values()) - top + 1
    width = cursor - MAP_GAP
    symbols = sorted({(tile, rotation) for _, tile, rotation, *_ in placed})
    defs = "".join(f'<symbol id="t{tile}r{rotation}" viewBox="0 0 {CELL} {CELL}">'
                   f"{tile_group(ruleset, tile, rotation, CELL)}</symbol>" for tile, rotation in symbols)
    uses = "".join(f'<use class="placed" data-turn="{turn}" href="#t{tile}r{rotation}" '
                   f'x="{(x + offsets[m]) * CELL}" y="{(y - top) * CELL}" width="{CELL}" height="{CELL}"/>'
                   for turn, tile, rotation, m, x, y in placed)
    marks = []
    for (_, seat, kind), (first, last, m, x, y, lying, at_corner) in stays:
        cx, cy = (x + offsets[m]) * CELL, (y - top) * CELL
        colour = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
        shape = piece_svg(ruleset, kind, cx, cy, CELL, colour, lying and not at_corner)  # as render draws them
        marks.append(f'<g class="follower" data-from="{first}" data-to="{last}" data-player="{seat}">{shape}</g>')
    legend = "".join(f'<span class="who" style="color:{PLAYER_COLOURS[p % len(PLAYER_COLOURS)]}">■</span> '
                     f"{xml_text(n)} " for p, n in enumerate(names))
    payload = script_json({"steps": steps, "names": names})
    # Coordinates as the turn log gives them (hidden until asked for), and the outline the
    # script moves onto the tile placed last.
    labels = [f'<text x="{(x + offsets[m]) * CELL + CELL / 2}" y="-8" text-anchor="middle">{x}</text>'
              for m, (lo_x, _, hi_x, _) in spans.items() for x in range(lo_x, hi_x + 1)]
    labels += [f'<text x="-8" y="{(y - top) * CELL + CELL / 2 + 4}" text-anchor="end">{y}</text>'
               for y in range(top, top + height)]
    coords = f'<g id="coords" font-size="12" fill="#555">{"".join(labels)}</g>'  # shown at first: the log names cells
    last_mark = (f'<rect id="last-tile" class="last" width="{CELL - 4}" height="{CELL - 4}" fill="none" '
                 f'stroke="{LAST_MARK}" stroke-width="4" style="display:none"/>')
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-30 -30 {width * CELL + 40} {height * CELL + 40}" '
           f'width="{width * CELL + 40}" height="{height * CELL + 40}"><defs>{defs}</defs>{uses}{last_mark}'
           f'{"".join(marks)}{coords}</svg>')
    return _TEMPLATE.format(title=xml_text(f"Carcassonne replay — {ref}"), legend=legend, svg=svg,
                            payload=payload)


_TEMPLATE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: sans-serif; margin: 1em; }}
#controls button {{ font-size: 1em; margin-right: .3em; }}
#board {{ overflow: auto; max-height: 75vh; border: 1px solid #ccc; margin-top: .5em; }}
#side {{ margin-top: .5em; }}
#scores span {{ margin-right: 1.5em; font-weight: bold; }}
#events li {{ font-size: .9em; }}
</style></head>
<body>
<h1>{title}</h1>
<div id="controls"><button id="first">« first</button><button id="prev">‹ back</button>
<button id="next">next ›</button><button id="last">last »</button>
<span id="where"></span>
<label><input type="checkbox" id="coords-on" checked> coordinates</label></div>
<div id="step"></div>
<div id="side"><div>{legend}</div><div id="scores"></div><ul id="events"></ul></div>
<div id="board">{svg}</div>
<script>
const DATA = {payload};
let turn = 0;
const last = DATA.steps.length - 1;
function show(t) {{
  turn = Math.max(0, Math.min(last, t));
  const step = DATA.steps[turn];
  document.getElementById("where").textContent = `step ${{turn}} of ${{last}}`;
  document.getElementById("step").textContent = step.title;
  // Names and explanations come from the record: shown as text, never as markup.
  const scores = document.getElementById("scores");
  scores.replaceChildren(...DATA.names.map((n, p) => {{
    const span = document.createElement("span"); span.textContent = `${{n}}: ${{step.scores[p]}}`; return span; }}));
  const events = document.getElementById("events");
  events.replaceChildren(...step.events.map(e => {{
    const li = document.createElement("li"); li.textContent = e; return li; }}));
  const tileTurn = Math.min(turn, last - 1);
  document.querySelectorAll("use.placed").forEach(el => {{
    el.style.display = Number(el.dataset.turn) <= tileTurn ? "" : "none"; }});
  const mark = document.getElementById("last-tile");
  const placed = [...document.querySelectorAll("use.placed")].filter(
    el => Number(el.dataset.turn) <= tileTurn && Number(el.dataset.turn) > 0).pop();
  mark.style.display = placed ? "" : "none";
  if (placed) {{
    mark.setAttribute("x", Number(placed.getAttribute("x")) + 2);
    mark.setAttribute("y", Number(placed.getAttribute("y")) + 2);
  }}
  document.querySelectorAll(".follower").forEach(el => {{
    el.style.display = Number(el.dataset.from) <= turn && turn <= Number(el.dataset.to) ? "" : "none"; }});
  history.replaceState(null, "", `#turn=${{turn === last ? "last" : turn}}`);
}}
document.getElementById("first").onclick = () => show(0);
document.getElementById("prev").onclick = () => show(turn - 1);
document.getElementById("next").onclick = () => show(turn + 1);
document.getElementById("last").onclick = () => show(last);
document.getElementById("coords-on").onchange = e => {{
  document.getElementById("coords").style.display = e.target.checked ? "" : "none"; }};
document.addEventListener("keydown", e => {{
  if (e.key === "ArrowRight") show(turn + 1);
  if (e.key === "ArrowLeft") show(turn - 1);
}});
const wanted = (location.hash.match(/turn=(\\w+)/) || [])[1];
const asked = wanted === "last" ? last : Number(wanted);
show(Number.isFinite(asked) ? asked : 0);
</script>
</body></html>
"""
