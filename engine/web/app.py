"""The web table's HTTP side: pages and a JSON API over :class:`~engine.web.table.Table`, on Starlette.

Routes (``{id}`` is a table's id):

* ``GET /`` — start a game (ruleset, players, seed) and the tables in progress;
* ``GET /table/{id}`` — the table page (its script asks the API for everything);
* ``POST /api/tables`` ``{"ruleset", "players", "seed"?}`` → ``{"id", "url"}`` (a seed may be
  a string of digits, as typed: JavaScript numbers cannot hold every 64-bit seed);
* ``GET /api/tables/{id}`` → the table's state (:meth:`Table.state`);
* ``POST /api/tables/{id}/play`` ``{"turn", "move"}`` → the new state: every move of a human, a
  JSON object tagged by its ``"kind"`` — ``place``, ``decline``, ``pick``, ``move-on``, ``home``,
  ``start`` or ``take-back`` — with the fields that kind needs (:mod:`engine.web.moves_json` lists them);
* ``GET /api/tables/{id}/record`` — the record as a download (under ``deck.hand`` once the game is
  over: it names every hand);
* ``GET /rulesets``, ``GET /rulesets/atlas?ref=REF`` — shipped rulesets and options, a ruleset's tiles;
* ``GET /replay``, ``GET /replay/{name}``, ``POST /api/replay`` (a record's text, sent as
  ``application/json``) — replay viewer pages for the saved records and for any record uploaded.

Every error is JSON ``{"error": message}`` with a 4xx status (a bad ruleset or record
gives its ``file:line:col: error: …`` lines); an unexpected one is 500 with no traceback.
What a client may ask for is held to the server's :class:`~engine.web.limits.Limits`: bots'
budgets, and rulesets shipped or in the server's rulesets folder.
"""

from __future__ import annotations

import json
import secrets
import sys
import traceback
from pathlib import Path
from typing import Any

try:
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.requests import ClientDisconnect, Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles
except ImportError as error:  # pragma: no cover - depends on the extra
    raise ImportError(f"the web table needs the 'web' extra: pip install 'carcassonne-rules[web]' ({error})") from None

from ..errors import UserError
from ..files.record import load_record, replay
from ..files.record_text import record_from_text
from ..rules.ruleset import load_ruleset
from ..view.render import atlas_svg
from ..view.viewer import replay_html
from . import pages
from .limits import Limits
from .moves_json import BadField, whole
from .table import Refused
from .tables import Gone, Tables

STATIC = Path(__file__).resolve().parent / "static"
#: The largest request body taken (a record upload; moves are a few bytes).
MAX_BODY = 16 * 2**20


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _limited_body(request: Request, what: str = "the request") -> bytes:
    """The request's body, read as it streams in and refused (413) as soon as it passes
    :data:`MAX_BODY` (at once when its ``Content-Length`` says so), so a huge post never sits in
    memory whole.  Only JSON is taken: another site's page cannot send that to this server
    without a preflight, which the server does not answer, so it cannot play, open tables or
    upload records behind the user's back (415 otherwise)."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise Refused("send the request body as JSON (Content-Type: application/json)", 415)
    too_big = Refused(f"{what} is over {MAX_BODY // 2**20} MiB", 413)
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise too_big
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise too_big
        chunks.append(chunk)
    return b"".join(chunks)


async def _json_body(request: Request) -> dict[str, Any]:
    body = await _limited_body(request)
    try:
        data = json.loads(body.decode("utf-8") or "null")
    except UnicodeDecodeError:
        raise Refused("the request body is not UTF-8 text") from None
    except (json.JSONDecodeError, RecursionError) as error:
        raise Refused(f"the request body is not JSON: {error}") from None
    except ValueError:  # an integer of more digits than Python converts
        raise Refused("a number in the request body has too many digits") from None
    if not isinstance(data, dict):
        raise Refused("the request body must be a JSON object")
    return data


class _LocalHostsOnly:
    """Answers only requests addressed to this machine by name (``Host: 127.0.0.1:PORT`` or
    ``localhost``): a page whose own name was made to point at 127.0.0.1 (DNS rebinding)
    gets a JSON 421, not the tables."""

    def __init__(self, app: Any, hosts: tuple[str, ...]) -> None:
        self.app, self.hosts = app, hosts

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            name, _, port = host.rpartition(":")
            host = name if port.isdigit() else host  # "127.0.0.1:8000", not "127.0.0.1:8000@elsewhere"
            if host not in self.hosts:
                answer = _error(f"this server answers to {' or '.join(self.hosts)} only, not '{host}'", 421)
                await answer(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(tables: Tables, *, defaults: dict[str, str] | None = None,
               hosts: tuple[str, ...] = ("127.0.0.1", "localhost"), limits: Limits | None = None) -> Starlette:
    """The Starlette app serving ``tables``; ``defaults`` pre-fill the new-game form
    (``ruleset``, ``players``); ``hosts`` are the names in the ``Host`` header it answers to;
    ``limits`` what a client may ask for (:mod:`engine.web.limits`; default: the caps' defaults,
    ruleset files from the records folder)."""
    form = {"ruleset": "basic", "players": "human,greedy"} | (defaults or {})
    limits = limits if limits is not None else Limits(tables.records)
    base = limits.folder if limits.folder is not None else Path.cwd()  # where a client's paths are taken from

    async def index(request: Request) -> Response:
        return HTMLResponse(await _in_thread(lambda: pages.index_page(form, tables.listing())))

    async def table_page(request: Request) -> Response:
        table_id = request.path_params["id"]
        try:
            await _in_thread(tables.get, table_id)  # a table saved before a restart is resumed here
        except Gone as gone:  # a page, not JSON: this is what a reload of a lost table shows
            return HTMLResponse(pages.problem_page(f"Table {table_id}", str(gone), gone.record),
                                status_code=gone.status)
        return HTMLResponse(pages.table_page(table_id))

    async def open_table(request: Request) -> Response:
        data = await _json_body(request)
        ref, players = data.get("ruleset"), data.get("players")
        if not isinstance(ref, str) or not ref.strip():
            raise Refused("'ruleset' must be a ruleset reference such as \"basic+river\"")
        if not isinstance(players, str) or not players.strip():
            raise Refused("'players' must be a comma-separated list such as \"human,mcts\"")
        if isinstance(data.get("seed"), str) and data["seed"].isdigit() and len(data["seed"]) <= 19:
            data["seed"] = int(data["seed"])  # the page sends a seed as typed: JavaScript numbers round past 2**53
        seed = whole(data, "seed", low=0, high=2**63 - 1, none=True)
        if seed is None:
            seed = secrets.randbelow(10**9)
        specs = [p.strip() for p in players.split(",") if p.strip()]
        limits.check_players(specs)
        limits.check_ref(ref.strip(), base)
        table_id = await _in_thread(tables.open, ref.strip(), specs, seed, base)
        return JSONResponse({"id": table_id, "url": f"/table/{table_id}"}, status_code=201)

    def state(request: Request) -> Response:  # plain functions run in a worker thread
        return JSONResponse(tables.get(request.path_params["id"]).state())

    async def play(request: Request) -> Response:
        table = await _in_thread(tables.get, request.path_params["id"])
        data = await _json_body(request)
        await _in_thread(table.play, whole(data, "turn", low=0), data.get("move"))
        return JSONResponse(await _in_thread(table.state))

    def record(request: Request) -> Response:
        table_id = request.path_params["id"]
        text = json.dumps(tables.get(table_id).download(), indent=1, ensure_ascii=False) + "\n"
        return Response(text, media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="table-{table_id}.json"'})

    async def rulesets(request: Request) -> Response:
        return HTMLResponse(pages.rulesets_page())

    def atlas(request: Request) -> Response:
        ref = request.query_params.get("ref", "").strip()
        try:  # a page, not JSON: this address is followed from the rulesets page
            if not ref:
                raise Refused("say which ruleset: /rulesets/atlas?ref=basic%2Briver (a + in an address is %2B)")
            limits.check_ref(ref, base)
            ruleset = load_ruleset(ref, base)
        except (Refused, UserError) as error:
            why = error.render() if isinstance(error, UserError) else str(error)
            if " " in ref:  # a + that the address turned into a space
                why += " (a + in an address is written %2B: ?ref=basic%2Briver)"
            return HTMLResponse(pages.problem_page("Tiles", why), status_code=getattr(error, "status", 400))
        return HTMLResponse(pages.atlas_page(ref, atlas_svg(ruleset)))

    async def replay_index(request: Request) -> Response:
        return HTMLResponse(await _in_thread(lambda: pages.replay_page(tables.saved_records())))

    def replay_saved(request: Request) -> Response:
        name = request.path_params["name"]
        found = next((p for p in tables.saved() if p.name == name), None)
        try:
            if found is None:
                raise Refused(f"no saved record '{name}'", 404)
            return HTMLResponse(_checked_viewer(load_record(found)))
        except (Refused, UserError) as error:  # a page: this address is followed from other pages
            why = error.render() if isinstance(error, UserError) else str(error)
            status = error.status if isinstance(error, Refused) else 400
            return HTMLResponse(pages.problem_page(f"Replay of {name}", f"cannot replay it: {why}"),
                                status_code=status)

    async def replay_upload(request: Request) -> Response:
        body = await _limited_body(request, "the record")
        name = Path(request.query_params.get("name", "")).name  # a name: its folder is the server's (limits)
        name = name if name not in ("", ".", "..") else "upload.json"
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused(f"{name}: not UTF-8 text") from None
        file = str(base / name)  # the folder its ruleset's paths are taken from, checked first
        return HTMLResponse(await _in_thread(lambda: _checked_viewer(record_from_text(text, file, limits.check_ref))))

    async def refused(request: Request, error: Exception) -> Response:
        assert isinstance(error, Refused)
        return _error(str(error), error.status)

    async def bad_field(request: Request, error: Exception) -> Response:
        return _error(str(error), 400)

    async def user_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, UserError)
        return _error(error.render(), 400)

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        detail = f"no page {request.url.path}" if error.detail == "Not Found" else str(error.detail)
        if request.method == "GET" and not request.url.path.startswith(("/api/", "/static/")):
            return HTMLResponse(pages.problem_page("Not here", detail), status_code=error.status_code)
        return _error(detail, error.status_code)

    async def cut(request: Request, error: Exception) -> Response:
        print(f"{request.method} {request.url.path}: the client went away before its request was whole",
              file=sys.stderr)  # one line: nothing went wrong here
        return _error("the request was cut off", 400)

    async def server_error(request: Request, error: Exception) -> Response:
        traceback.print_exception(error, file=sys.stderr)  # for whoever runs the server, not for the page
        return _error(f"internal error: {type(error).__name__} (the server's log has the details)", 500)

    routes = [
        Route("/", index),
        Route("/table/{id}", table_page),
        Route("/api/tables", open_table, methods=["POST"]),
        Route("/api/tables/{id}", state),
        Route("/api/tables/{id}/play", play, methods=["POST"]),
        Route("/api/tables/{id}/record", record),
        Route("/rulesets", rulesets),
        Route("/rulesets/atlas", atlas),
        Route("/replay", replay_index),
        Route("/replay/{name}", replay_saved),
        Route("/api/replay", replay_upload, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers = {Refused: refused, BadField: bad_field, UserError: user_error, HTTPException: http_error,
                ClientDisconnect: cut, Exception: server_error}
    return Starlette(routes=routes, exception_handlers=handlers,  # type: ignore[arg-type]
                     middleware=[Middleware(_LocalHostsOnly, hosts=hosts)])


def _checked_viewer(doc: Any) -> str:
    """The replay viewer of record ``doc``, once it replays as ``carcassonne replay`` checks it:
    :class:`UserError` for a record no game under its ruleset can have written, :class:`Refused`
    (422) when its scores or events disagree with the rules."""
    _, problems = replay(doc)
    if problems:
        raise Refused(f"{doc.file}: the record disagrees with its ruleset: " + "; ".join(problems), 422)
    return replay_html(doc)


async def _in_thread(function: Any, *args: Any) -> Any:
    """Run a blocking call (a bot's move, a replay) off the event loop, so pages stay responsive."""
    return await run_in_threadpool(function, *args)


__all__ = ["Tables", "create_app", "MAX_BODY"]
