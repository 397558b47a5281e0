"""The web table's HTML pages: small documents around the shared style and script.

Every name from a file or a request is escaped with :func:`~engine.view.markup.xml_text`;
the table page holds no game data at all (its script asks the API), so a reload
shows the game as the server has it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlencode

from ..rules.inspect import shipped
from ..view.markup import xml_text

if TYPE_CHECKING:
    from .tables import Listed, SavedRecord

_NAV = ('<nav><a href="/">new game</a> · <a href="/rulesets">rulesets</a> · '
        '<a href="/replay">replays</a></nav>')


def _page(title: str, body: str, *, scripts: tuple[str, ...] = (), data: str = "") -> str:
    """A page titled ``title`` around the HTML ``body``, with ``scripts`` (file names under
    ``static/``, run in that order once the page is read) and the body's ``data`` attributes."""
    tags = "".join(f'<script src="/static/{script}" defer></script>' for script in scripts)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{xml_text(title)}</title><link rel="stylesheet" href="/static/table.css">{tags}</head>'
            f'<body{data}>{_NAV}<h1>{xml_text(title)}</h1>\n{body}\n</body></html>\n')


def index_page(form: dict[str, str], tables: list[Listed]) -> str:
    """The start page: a form for a new game (``form`` pre-fills ruleset and players; the shipped
    options as checkboxes the script adds to the ruleset, issue 50: they were offered as rulesets and
    refused) and links to the tables, those in progress before a restart included."""
    found = shipped()
    options = "".join(f'<option value="{xml_text(s.name)}">' for s in found if s.kind == "ruleset")
    boxes = "".join(f'<label title="{xml_text(s.description)}"><input type="checkbox" name="option" '
                    f'value="{xml_text(s.name)}"> {xml_text(s.name)}</label> ' for s in found if s.kind == "option")
    rows = "".join(f'<li><a href="/table/{xml_text(t.id)}">table {xml_text(t.id)}: {xml_text(t.ref)}, '
                   f'seed {xml_text(str(t.seed))}, {xml_text(", ".join(t.names))}</a> ({xml_text(t.progress)})</li>'
                   for t in tables)
    body = f"""<form id="new-game">
<label>Ruleset <input name="ruleset" list="shipped" value="{xml_text(form['ruleset'])}" size="40"></label>
<datalist id="shipped">{options}</datalist>
<label>Players <input name="players" value="{xml_text(form['players'])}" size="30"></label>
<label>Seed <input name="seed" inputmode="numeric" placeholder="random" size="10"></label>
<button type="submit">Start</button>
<fieldset id="options"><legend>Expansions and house rules (added to the ruleset; hover for what each does)</legend>
{boxes}</fieldset>
<p class="hint">Players in seat order, comma-separated: <code>human</code>, <code>random</code>, <code>greedy</code>,
<code>mcts</code> (<code>mcts:2000</code>, <code>mcts:1.5s</code>). A ruleset is a shipped name or a file of the
server's rulesets folder; the options ticked are added to it, or typed after it: <code>basic+river</code>,
<code>first-edition+farm-points-4</code>.</p>
<p id="error" class="error" role="alert"></p>
</form>
<h2>Tables</h2><ul id="tables">{rows or "<li>none yet</li>"}</ul>"""
    return _page("Carcassonne table", body, scripts=("index.js",))


def table_page(table_id: str) -> str:
    """The page of table ``table_id``: panels the script fills from ``/api/tables/ID``."""
    body = """<div id="layout">
<div id="board-panel"><div id="zoom"><button id="zoom-out" title="smaller (-)">−</button>
<button id="zoom-in" title="larger (+)">+</button></div><div id="board" aria-label="the board"></div></div>
<aside id="side">
<p id="about" class="hint"></p>
<div id="status" role="status"></div>
<div id="players"></div>
<table id="breakdown" hidden></table>
<div id="held" hidden></div>
<div id="hand">
<div id="tile-preview"></div>
<div id="controls">
<button id="rotate" title="R">turn ↻ (R)</button>
<button id="undo" title="Escape">undo (Esc)</button>
<button id="confirm" title="Enter">confirm (Enter)</button>
<button id="keep" title="D" hidden>keep it and draw (D)</button>
</div>
<p id="choice"></p>
<ul id="spots"></ul>
</div>
<p id="error" class="error" role="alert"></p>
<p id="links"></p>
<h2>Scores</h2><ol id="events" reversed></ol>
<h2>Turns</h2><ul id="log"></ul>
</aside>
</div>"""
    # hands.js first: it only defines what table.js calls once the state has come
    return _page("Carcassonne", body, scripts=("hands.js", "table.js"), data=f' data-table="{xml_text(table_id)}"')


def problem_page(title: str, why: str, record: str | None = None) -> str:
    """What a page address that cannot be shown gives, as a page (never raw JSON): why (no table
    or page there, a record that cannot be resumed or replayed), and the replay of the saved
    ``record`` when there is one to look at."""
    replay = (f'<p>Its record is saved: <a href="/replay/{xml_text(record)}">replay it</a> as far as it '
              'goes.</p>' if record else "")
    body = f"""<p class="error">{xml_text(why)}</p>{replay}
<p><a href="/">Start a new game, or open another table</a>.</p>"""
    return _page(title, body)


def rulesets_page() -> str:
    """Every shipped ruleset and option with its description, and a form for a ruleset's atlas."""
    rows = "".join(f'<tr><td>{xml_text(s.kind)}</td><td><a href="/rulesets/atlas?'
                   f'{xml_text(urlencode({"ref": s.name if s.kind == "ruleset" else "basic+" + s.name}))}">'
                   f'{xml_text(s.name)}</a></td><td>{xml_text(s.description)}</td></tr>' for s in shipped())
    body = f"""<form action="/rulesets/atlas"><label>Show the tiles of
<input name="ref" value="basic+river" size="40"></label> <button>show</button></form>
<table class="rulesets"><thead><tr><th>kind</th><th>name</th><th>what it is</th></tr></thead>
<tbody>{rows}</tbody></table>"""
    return _page("Rulesets and options", body)


def atlas_page(ref: str, svg: str) -> str:
    """Ruleset ``ref``'s tile types drawn by :func:`~engine.view.render.atlas_svg`."""
    return _page(f"Tiles of {ref}", f'<div class="atlas">{svg}</div>')


def replay_page(saved: list[SavedRecord]) -> str:
    """The saved records, newest first, each with its ruleset, players, when it was saved and how
    the game stands (a link to its replay), and an upload for any record file."""
    rows = "".join(f'<tr><td><a href="/replay/{xml_text(r.name)}">{xml_text(r.name)}</a></td>'
                   f"<td>{xml_text(r.ref)}</td><td>{xml_text(', '.join(r.names))}</td><td>{xml_text(r.saved)}</td>"
                   f"<td>{xml_text(r.result)}</td></tr>" for r in saved)
    listing = (f'<table class="replays"><thead><tr><th>record</th><th>ruleset</th><th>players</th><th>saved</th>'
               f"<th>result</th></tr></thead><tbody>{rows}</tbody></table>" if rows else "<p>none yet</p>")
    body = f"""<p>Choose a record file (from <code>carcassonne play --record</code> or this table) to step
through it: <input type="file" id="record-file" accept=".json,application/json"></p>
<p id="error" class="error" role="alert"></p>
<h2>Saved here</h2>{listing}"""
    return _page("Replays", body, scripts=("replay.js",))


__all__ = ["atlas_page", "index_page", "problem_page", "replay_page", "rulesets_page", "table_page"]
