"""The web table over HTTP (Starlette's test client): pages, the JSON API, and every bad
request answered with a JSON error and a 4xx status, never a traceback."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web table needs the web extra")
try:
    from starlette.testclient import TestClient
except (ImportError, RuntimeError):
    pytest.skip("Starlette's test client needs httpx2 (the dev extra)", allow_module_level=True)

from engine.rules.inspect import shipped  # noqa: E402
from engine.rules.ruleset import load_ruleset  # noqa: E402
from engine.sim.play import play_game  # noqa: E402
from engine.web.app import MAX_BODY, Tables, create_app  # noqa: E402
from engine.web.limits import Limits  # noqa: E402
from engine.web.tables import KEEP_FINISHED  # noqa: E402

JSON = {"Content-Type": "application/json"}
from engine.web.table import Table  # noqa: E402


@pytest.fixture()
def records(tmp_path: Path) -> Path:
    return tmp_path


@pytest.fixture()
def client(records: Path) -> TestClient:
    return TestClient(create_app(Tables(records)), raise_server_exceptions=False, base_url="http://127.0.0.1:8000")


def _open(client: TestClient, **body) -> str:
    answer = client.post("/api/tables", json={"ruleset": "basic", "players": "human,greedy", "seed": 7} | body)
    assert answer.status_code == 201, answer.text
    return answer.json()["id"]


def _answered(client: TestClient, table: str) -> dict:
    """The table's state once its bots have answered: they play in a thread of the table's own,
    so a move's answer may come while one still thinks."""
    deadline = time.monotonic() + 60
    while True:
        state = client.get(f"/api/tables/{table}").json()
        if state["to_play"] is None or state["players"][state["to_play"]]["human"]:
            return state
        assert time.monotonic() < deadline, "the bots did not answer within a minute"
        time.sleep(0.02)


def _play(client: TestClient, table: str, turn: int, move: dict):
    """Send ``move`` for turn ``turn`` to the table's one route for moves."""
    return client.post(f"/api/tables/{table}/play", json={"turn": turn, "move": move})


def _first_place(state: dict) -> dict:
    """The move placing the tile on the first legal cell, turned its first legal way, no follower."""
    cell = state["options"][0]
    return {"kind": "place", "map": cell["map"], "x": cell["x"], "y": cell["y"],
            "rotation": int(min(cell["rotations"], key=int)), "follower": None}


def _page_error(answer, status: int) -> str:
    """The page a browser gets for an address that cannot be shown: HTML, never raw JSON."""
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("text/html") and "Traceback" not in answer.text
    return answer.text


def _error(answer, status: int) -> str:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    assert "Traceback" not in answer.text
    return answer.json()["error"]


def test_a_move_through_the_api(client: TestClient, records: Path) -> None:
    table = _open(client)
    page = client.get(f"/table/{table}")
    assert page.status_code == 200 and f'data-table="{table}"' in page.text and "/static/table.js" in page.text
    state = client.get(f"/api/tables/{table}").json()
    moved = _play(client, table, state["turn"], _first_place(state))
    assert moved.status_code == 200, moved.text
    assert moved.json()["turn"] >= state["turn"] + 1  # the bot answers in a thread of its own
    after = _answered(client, table)
    assert after["turn"] == state["turn"] + 2  # the human's tile and the bot's
    assert (records / f"table-{table}.json").is_file()
    record = client.get(f"/api/tables/{table}/record")
    assert "attachment" in record.headers["content-disposition"]
    assert len(record.json()["turns"]) == 2
    assert client.get(f"/api/tables/{table}").json() == after  # a reload sees the same game


def test_the_start_page_and_static_files(client: TestClient) -> None:
    table = _open(client)
    page = client.get("/")
    assert page.status_code == 200 and f'href="/table/{table}"' in page.text
    for name in ("table.js", "hands.js", "table.css", "index.js", "replay.js"):
        assert client.get(f"/static/{name}").status_code == 200


#: A placement of the first tile of basic seed 7 but for its rotation; a move for turn 0.
PLACE = {"kind": "place", "map": 0, "x": 0, "y": 1}
KINDS = '"place", "decline", "pick", "move-on", "home", "start", "take-back"'


@pytest.mark.parametrize("body, status, says", [
    (b"not json", 400, "not JSON"),
    (b"[1, 2]", 400, "JSON object"),
    (b"[" * 100000, 400, "not JSON"),
    ({"turn": 0}, 400, "'move' must be a JSON object such as {\"kind\": \"place\", \u2026}, not null"),
    ({"turn": 0, "move": [1]}, 400, "'move' must be a JSON object"),
    ({"turn": 0, "map": 0, "x": 0, "y": 1, "rotation": 0}, 400, "'move' must be a JSON object"),  # the old body
    ({"move": PLACE | {"rotation": 0}}, 400, "'turn' must be a whole number"),
    ({"turn": True, "move": PLACE | {"rotation": 0}}, 400, "'turn' must be a whole number"),
    ({"turn": 0, "move": {}}, 400, f"the move's 'kind' must be one of {KINDS}, not null"),
    ({"turn": 0, "move": {"kind": "fly"}}, 400, f"the move's 'kind' must be one of {KINDS}, not \"fly\""),
    ({"turn": 0, "move": {"kind": 3}}, 400, "'kind' must be one of"),
    ({"turn": 0, "move": {"kind": "place"}}, 400, "'map' must be a whole number from 0 to 0, not null"),
    ({"turn": 0, "move": PLACE}, 400, "'rotation' must be a whole number from 0 to 3, not null"),
    ({"turn": 0, "move": PLACE | {"rotation": 7}}, 400, "'rotation' must be a whole number from 0 to 3, not 7"),
    ({"turn": 0, "move": PLACE | {"x": 0.5, "rotation": 0}}, 400, "'x' must be a whole number"),
    ({"turn": 0, "move": PLACE | {"rotation": 0, "follower": "city@N"}}, 400, "'follower' must be"),
    ({"turn": 0, "move": PLACE | {"rotation": 0, "segment": 1}}, 400,
     "a place move takes 'map', 'x', 'y', 'rotation', 'follower', 'type', not \"segment\""),
    ({"turn": 0, "move": PLACE | {"x": 30, "y": 30, "rotation": 0}}, 400, "that cell does not touch the board"),
    ({"turn": 0, "move": PLACE | {"y": 0, "rotation": 0}}, 400, "that cell already holds a tile"),
    ({"turn": 5, "move": PLACE | {"rotation": 0}}, 409, "that move was for turn 6, but turn 1 is being played"),
    ({"turn": 0, "move": {"kind": "decline"}}, 409, "basic has no decline moves: none of its mechanisms asks for one"),
    ({"turn": 0, "move": {"kind": "decline", "tile": "D"}}, 400, "a decline move takes no other field, not \"tile\""),
    ({"turn": 0, "move": {"kind": "pick", "tile": "D"}}, 409, "basic has no pick moves"),
    ({"turn": 0, "move": {"kind": "pick", "tile": "ZZ"}}, 400, "the ruleset has no tile \"ZZ\""),
    ({"turn": 0, "move": {"kind": "move-on", "map": 0, "x": 0, "y": 0, "segment": 0}}, 409,
     "basic has no move-on moves"),
    ({"turn": 0, "move": {"kind": "home"}}, 409, "basic has no home moves"),
    ({"turn": 0, "move": {"kind": "start", "rotation": 1}}, 409, "there is no start tile to turn"),
    ({"turn": 0, "move": {"kind": "take-back"}}, 409, "there is no answer to take back"),
])
def test_bad_moves_get_json_errors(client: TestClient, body: bytes | dict, status: int, says: str) -> None:
    """Each a 4xx with a message: a body that is no move, an unknown kind, a missing field, a
    wrong type, a field the kind does not take, a move the rules refuse (400); a move for another
    turn, or of a kind the game does not ask for now (409)."""
    table = _open(client)
    body = body if isinstance(body, bytes) else json.dumps(body).encode()
    answer = client.post(f"/api/tables/{table}/play", content=body, headers={"Content-Type": "application/json"})
    assert says in _error(answer, status)
    assert client.get(f"/api/tables/{table}").json()["turn"] == 0  # nothing was played


@pytest.mark.parametrize("body, says", [
    ({"ruleset": "basic+nope", "players": "human,greedy"}, "unknown option 'nope'"),
    ({"ruleset": "", "players": "human,greedy"}, "'ruleset' must be"),
    ({"ruleset": "basic", "players": "human,robot"}, "unknown player 'robot'"),
    ({"ruleset": "basic", "players": "human"}, "2–5 players, not 1"),
    ({"ruleset": "basic", "players": 3}, "'players' must be"),
    ({"ruleset": "basic", "players": "human,greedy", "seed": -1}, "'seed' must be"),
])
def test_bad_tables_get_json_errors(client: TestClient, body: dict, says: str) -> None:
    assert says in _error(client.post("/api/tables", json=body), 400)


def test_a_broken_ruleset_file_is_named_with_its_line_and_column(client: TestClient, tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: broken\nextends: basic\nplayers: {min: [\n")
    message = _error(client.post("/api/tables", json={"ruleset": "broken.yaml", "players": "human,greedy"}), 400)
    assert f"{broken}:4:1: error: did not find expected node content" in message  # the flow list never closes


def test_unknown_things_are_404_and_wrong_methods_405(client: TestClient) -> None:
    assert "no table 'nope'" in _error(client.get("/api/tables/nope"), 404)
    page = client.get("/table/nope")  # a page, as a reload of a lost table shows, never raw JSON
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "no table &#x27;nope&#x27;" in page.text or "no table 'nope'" in page.text
    assert "no page /nowhere" in _page_error(client.get("/nowhere"), 404)  # pages answer with a page
    assert "no page /api/nowhere" in _error(client.get("/api/nowhere"), 404)  # the API with JSON
    _error(client.get("/api/tables"), 405)
    assert "no saved record &#x27;elsewhere.json&#x27;" in _page_error(client.get("/replay/elsewhere.json"), 404)
    assert "no page" in _page_error(client.get("/replay/..%2F..%2Fetc%2Fpasswd"), 404)  # a name is one path part
    for lost, says in (("/table/a%2Fb", "no page"), ("/table/", "no page"), ("/table/%3Cscript%3E", "no table")):
        page = _page_error(client.get(lost), 404)  # found by the newcomer try: the first two were JSON
        assert says in page and "<script>" not in page


def test_only_json_bodies_are_taken(client: TestClient) -> None:
    """A form or text body (what another site's page can send without asking) is refused."""
    table = _open(client)
    answer = client.post(f"/api/tables/{table}/play", content=b'{"turn": 0}', headers={"Content-Type": "text/plain"})
    assert "Content-Type: application/json" in _error(answer, 415)
    assert "Content-Type" in _error(client.post("/api/tables", data={"ruleset": "basic"}), 415)


def test_other_host_names_are_refused(client: TestClient) -> None:
    """A page whose name points at 127.0.0.1 (DNS rebinding) sends its own name as the Host."""
    table = _open(client)
    answer = client.get(f"/api/tables/{table}", headers={"Host": "evil.example:8000"})
    assert "not 'evil.example'" in _error(answer, 421)
    assert client.get("/", headers={"Host": "localhost:8000"}).status_code == 200


def test_an_oversized_body_is_refused(client: TestClient) -> None:
    assert "MiB" in _error(client.post("/api/replay", content=b" " * (MAX_BODY + 1), headers=JSON), 413)


def test_an_oversized_body_is_refused_while_it_streams_in(records: Path) -> None:
    """Found by a reviewer: a 500 MB post was read whole before the 16 MiB check (about 1 GB
    of memory).  A body without a length is now read chunk by chunk and refused once past it:
    the app, called as the server calls it, stops asking for chunks just past the limit."""
    import asyncio

    app = create_app(Tables(records))
    asked, started = [], []

    async def receive() -> dict:
        asked.append(1)
        return {"type": "http.request", "body": b" " * 2**20, "more_body": len(asked) < 64}  # 64 MiB on offer

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            started.append(message["status"])

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": "/api/tables", "raw_path": b"/api/tables", "query_string": b"", "root_path": "",
             "headers": [(b"host", b"127.0.0.1:8000"), (b"content-type", b"application/json")],
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 8000)}
    asyncio.run(app(scope, receive, send))
    assert started == [413] and len(asked) <= MAX_BODY // 2**20 + 2


def test_a_record_upload_must_be_json_so_no_other_site_can_post_one(client: TestClient) -> None:
    """Found by a reviewer: /api/replay took text/plain posts, which any page may send without
    asking first.  It now takes JSON only, as every other state-changing endpoint does."""
    record = play_game(load_ruleset("basic"), ["random", "random"], 1).record
    assert "Content-Type" in _error(client.post("/api/replay", content=json.dumps(record),
                                                headers={"Content-Type": "text/plain"}), 415)


def test_an_unexpected_error_is_a_500_without_traceback(client: TestClient, monkeypatch) -> None:
    table = _open(client)
    monkeypatch.setattr(Table, "state", lambda self: 1 / 0)
    assert "internal error: ZeroDivisionError" in _error(client.get(f"/api/tables/{table}"), 500)


def test_the_rulesets_page_lists_every_shipped_ruleset_and_option(client: TestClient) -> None:
    page = client.get("/rulesets").text
    for item in shipped():
        assert f">{item.name}</a>" in page
    assert 'href="/rulesets/atlas?ref=basic%2Briver"' in page


def test_the_atlas_page_draws_every_tile_type(client: TestClient) -> None:
    page = client.get("/rulesets/atlas", params={"ref": "basic+river"})
    assert page.status_code == 200
    assert page.text.count('class="tile-label"') == len(load_ruleset("basic+river").tiles) == 36
    assert "unknown option" in _page_error(client.get("/rulesets/atlas", params={"ref": "basic+nope"}), 400)
    assert "say which ruleset" in _page_error(client.get("/rulesets/atlas"), 400)  # a page: a link is followed


def test_replay_pages_for_saved_and_uploaded_records(client: TestClient, records: Path) -> None:
    record = play_game(load_ruleset("basic"), ["random", "greedy"], 4).record
    (records / "mine.json").write_text(json.dumps(record))
    listing = client.get("/replay").text
    assert 'href="/replay/mine.json"' in listing
    # Issue 50: listed by ruleset, players, when saved and the result, not by file name alone.
    final = record["scores"]["final"]
    best = max(range(2), key=final.__getitem__)
    names = [p["name"] for p in record["players"]]
    row = listing[listing.index('href="/replay/mine.json"'):].split("</tr>")[0]
    assert "<td>basic</td>" in row and f"<td>{names[0]}, {names[1]}</td>" in row
    assert f"<td>{names[best]} won, {final[best]} to {final[1 - best]}</td>" in row
    assert re.search(r"<td>\d{4}-\d\d-\d\d \d\d:\d\d</td>", row)
    saved = client.get("/replay/mine.json")
    assert saved.status_code == 200 and "Carcassonne replay" in saved.text
    uploaded = client.post("/api/replay", params={"name": "x.json"}, content=json.dumps(record), headers=JSON)
    assert uploaded.status_code == 200 and "Carcassonne replay" in uploaded.text


@pytest.mark.parametrize("text, says", [
    ("{oops", "x.json:1:2: error: not valid JSON"),
    ('{"format": "carcassonne-record", "ruleset": "basic", "turns": 3}', "x.json:1:"),
    ('{"format": "carcassonne-record", "ruleset": "nope", "turns": []}', "x.json:1:45: error: unknown ruleset 'nope'"),
])
def test_a_bad_uploaded_record_is_named_with_its_place(client: TestClient, text: str, says: str) -> None:
    assert says in _error(client.post("/api/replay", params={"name": "x.json"}, content=text, headers=JSON), 400)


def test_a_record_that_is_not_utf8_is_refused(client: TestClient) -> None:
    assert "not UTF-8" in _error(client.post("/api/replay", params={"name": "x.json"}, content=b"\xff\xfe{",
                                             headers=JSON), 400)


def test_a_very_long_ruleset_name_is_an_unknown_ruleset(client: TestClient) -> None:
    """Found by the newcomer try: "file name too long" from looking the name up was a 500."""
    assert "unknown ruleset 'aaa" in _error(client.post("/api/tables", json={"ruleset": "a" * 300,
                                                                              "players": "human,greedy"}), 400)
    atlas = client.get("/rulesets/atlas", params={"ref": "basic+" + "a" * 300})
    assert "unknown option &#x27;aaa" in _page_error(atlas, 400)


def test_a_broken_link_among_the_records_hides_nothing_else(client: TestClient, records: Path) -> None:
    """Found by the newcomer try: one dangling symlink made every replay page a 500."""
    record = play_game(load_ruleset("basic"), ["random", "greedy"], 4).record
    (records / "mine.json").write_text(json.dumps(record))
    (records / "gone.json").symlink_to(records / "nowhere.json")
    listing = client.get("/replay")
    assert listing.status_code == 200 and 'href="/replay/mine.json"' in listing.text and "gone.json" not in listing.text
    assert client.get("/replay/mine.json").status_code == 200
    assert "no saved record &#x27;gone.json&#x27;" in _page_error(client.get("/replay/gone.json"), 404)


def test_a_record_is_checked_before_it_is_shown(client: TestClient) -> None:
    """Found by the newcomer try: the page showed records that ``carcassonne replay`` refuses."""
    record = play_game(load_ruleset("basic"), ["random", "greedy"], 4).record
    edited = record | {"scores": record["scores"] | {"final": [500, 1]}}
    says = _error(client.post("/api/replay", params={"name": "x.json"}, content=json.dumps(edited), headers=JSON), 422)
    assert "x.json: the record disagrees with its ruleset: final scores" in says and "[500, 1]" in says
    cut = record | {"turns": record["turns"][:10]}  # still says it finished, with tiles left to draw
    assert "x.json:" in _error(client.post("/api/replay", params={"name": "x.json"}, content=json.dumps(cut),
                                           headers=JSON), 400)


def test_a_body_that_is_not_utf8_is_refused(client: TestClient) -> None:
    table = _open(client)
    answer = client.post(f"/api/tables/{table}/play", content='{"turn": 0}'.encode("utf-16"),
                         headers={"Content-Type": "application/json"})
    assert _error(answer, 400) == "the request body is not UTF-8 text"


def test_a_record_that_cannot_be_saved_leaves_the_move_played(client: TestClient, records: Path) -> None:
    """Found by the newcomer try: a failed save answered 400 although the move was played."""
    table = _open(client)
    assert not (records / f"table-{table}.json").exists()  # a table nobody played in leaves no record
    (records / f"table-{table}.json").mkdir()  # now the record cannot be written there
    state = client.get(f"/api/tables/{table}").json()
    moved = _play(client, table, 0, _first_place(state))
    assert moved.status_code == 200 and moved.json()["turn"] >= 1
    after = _answered(client, table)
    assert after["turn"] == 2 and f"table-{table}.json" in after["save_error"]


def test_numbers_of_too_many_digits_are_refused(client: TestClient) -> None:
    """Found by the second newcomer try: json.loads raised ValueError past 4300 digits (a 500)."""
    body = '{"ruleset": "basic", "players": "human,greedy", "seed": ' + "9" * 5000 + "}"
    answer = client.post("/api/tables", content=body, headers={"Content-Type": "application/json"})
    assert _error(answer, 400) == "a number in the request body has too many digits"


def test_a_seed_typed_as_digits_keeps_every_digit(client: TestClient) -> None:
    """Found by the second newcomer try: the page rounded 900000000000000001 to …000 (a JavaScript number)."""
    table = _open(client, seed="900000000000000001")
    assert client.get(f"/api/tables/{table}").json()["seed"] == 900000000000000001
    assert "'seed' must be" in _error(client.post("/api/tables", json={"ruleset": "basic", "players": "human,greedy",
                                                                       "seed": "1e3"}), 400)
    assert "'seed' must be" in _error(client.post("/api/tables", json={"ruleset": "basic", "players": "human,greedy",
                                                                       "seed": 2**63}), 400)


def test_a_host_with_anything_after_the_port_is_refused(client: TestClient) -> None:
    assert "not '127.0.0.1:8000@elsewhere'" in _error(client.get("/", headers={"Host": "127.0.0.1:8000@elsewhere"}),
                                                      421)


def test_a_plus_turned_into_a_space_is_explained(client: TestClient) -> None:
    answer = client.get("/rulesets/atlas?ref=basic+river")  # the + of a hand-typed address reads as a space
    assert "a + in an address is written %2B" in _page_error(answer, 400)


def test_keeping_an_own_tile_through_the_api(records: Path) -> None:
    served = Limits(Path(__file__).parents[1] / "scenarios" / "rulesets")  # where the page may name rulesets
    client = TestClient(create_app(Tables(records), limits=served), raise_server_exceptions=False,
                        base_url="http://127.0.0.1:8000")
    table = _open(client, ruleset="abbey-supply.yaml", players="human,random", seed=11)
    state = client.get(f"/api/tables/{table}").json()
    assert "own" not in state["tile"] and state["players"][0]["personal"] == 1
    decline = {"kind": "decline"}
    assert "only a personal tile may be declined" in _error(_play(client, table, state["turn"], decline), 409)
    while "own" not in state["tile"]:  # place the first legal way until the abbey is offered
        _play(client, table, state["turn"], _first_place(state))
        state = _answered(client, table)
    kept = _play(client, table, state["turn"], decline)
    assert kept.status_code == 200, kept.text
    after = kept.json()
    assert after["turn"] == state["turn"] and "own" not in after["tile"] and after["players"][0]["personal"] == 1
    assert "'turn' must be" in _error(client.post(f"/api/tables/{table}/play", json={"move": decline}), 400)


def _same_game(a: dict, b: dict) -> bool:
    """Two states of one game alike but for the change counter and the thinking bot."""
    drop = ("version", "thinking")
    return {k: v for k, v in a.items() if k not in drop} == {k: v for k, v in b.items() if k not in drop}


def test_a_restarted_server_resumes_its_tables_from_their_records(client: TestClient, records: Path) -> None:
    table = _open(client, players="human,greedy,random", seed=21)
    for _ in range(3):
        state = _answered(client, table)
        cell = state["options"][-1]
        _play(client, table, state["turn"], {"kind": "place", "map": cell["map"], "x": cell["x"], "y": cell["y"],
                                             "rotation": int(max(cell["rotations"], key=int)), "follower": None})
    before = _answered(client, table)
    assert before["turn"] == 9
    restarted = _restarted(records)
    assert f"/table/{table}" in restarted.get("/").text and "(turn 9)" in restarted.get("/").text
    page = restarted.get(f"/table/{table}")
    assert page.status_code == 200 and f'data-table="{table}"' in page.text
    after = restarted.get(f"/api/tables/{table}").json()
    assert _same_game(after, before)
    moved = _play(restarted, table, 9, _first_place(after))  # and the game goes on
    assert moved.status_code == 200, moved.text
    assert _answered(restarted, table)["turn"] == 12


def test_a_record_that_cannot_be_resumed_gets_a_page_saying_why(client: TestClient, records: Path) -> None:
    table = _open(client, seed=3)
    state = _answered(client, table)
    _play(client, table, 0, _first_place(state))
    _answered(client, table)
    path = records / f"table-{table}.json"
    record = json.loads(path.read_text())
    record["seed"] = 4  # another deal: the recorded tiles are not the ones it gives
    path.write_text(json.dumps(record))
    restarted = _restarted(records)
    page = restarted.get(f"/table/{table}")
    assert page.status_code == 410 and "cannot be resumed" in page.text and "the seed deals" in page.text
    assert f'href="/replay/table-{table}.json"' in page.text
    assert "cannot be resumed" in _error(restarted.get(f"/api/tables/{table}"), 410)


def test_finished_tables_leave_memory_and_come_back_from_their_records(client: TestClient, records: Path) -> None:
    tables = Tables(records)
    app = TestClient(create_app(tables), raise_server_exceptions=False, base_url="http://127.0.0.1:8000")
    ids = [_open(app, players="random,random", seed=seed) for seed in range(KEEP_FINISHED + 2)]
    finals = [_answered(app, i) for i in ids]
    assert all(state["finished"] for state in finals)
    assert len(tables.by_id) == KEEP_FINISHED  # the two used least recently are on disk only
    first = app.get(f"/api/tables/{ids[0]}").json()  # read back from its record
    assert _same_game(first, finals[0]) and ids[0] in tables.by_id and len(tables.by_id) == KEEP_FINISHED


def _one_move(client: TestClient, table: str) -> None:
    state = _answered(client, table)
    answer = _play(client, table, state["turn"], _first_place(state))
    assert answer.status_code == 200, answer.text
    _answered(client, table)


def test_a_ruleset_given_by_a_relative_path_resumes_from_anywhere(tmp_path: Path, monkeypatch) -> None:
    """Found by the newcomer try: the record kept the path as typed, which a restart then read
    relative to the records folder (410).  It names it relative to itself, as play --record does."""
    (tmp_path / "work" / "rules").mkdir(parents=True)
    variant = Path(__file__).parents[2] / "examples" / "garden-variant.yaml"
    (tmp_path / "work" / "rules" / "garden.yaml").write_text(variant.read_text())
    records = tmp_path / "records"
    records.mkdir()
    monkeypatch.chdir(tmp_path / "work")
    served = Limits(Path("rules"))  # serve --rulesets rules: relative to where the server started
    client = TestClient(create_app(Tables(records), limits=served), raise_server_exceptions=False,
                        base_url="http://127.0.0.1:8000")
    table = _open(client, ruleset="garden.yaml")
    _one_move(client, table)
    assert json.loads((records / f"table-{table}.json").read_text())["ruleset"] == "../work/rules/garden.yaml"
    monkeypatch.chdir(tmp_path)  # restarted from elsewhere
    restarted = _restarted(records)
    assert restarted.get(f"/table/{table}").status_code == 200
    assert restarted.get(f"/api/tables/{table}").json()["turn"] == 2


def test_the_start_page_lists_only_records_and_shows_their_text_as_text(client: TestClient, records: Path) -> None:
    """Found by the newcomer try: a record's seed went into the start page unescaped, and junk
    in the records folder crashed the listing (a RecursionError, a TypeError) or hung it (a FIFO)."""
    table = _open(client, seed=9)
    _one_move(client, table)
    good = json.loads((records / f"table-{table}.json").read_text())
    (records / "table-0000eee6.json").write_text(json.dumps({**good, "seed": "<b>x</b>"}))
    (records / "table-0000eee7.json").write_text(json.dumps({**good, "players": [{"name": 5, "kind": "human"}]}))
    (records / "table-0000eee8.json").write_text("[" * 200_000)
    (records / "table-0000eee9.json").write_text("not json")
    (records / "table-0000eeea.json").mkdir()
    os.mkfifo(records / "table-0000eeeb.json")
    (records / "table-0000eeec.json").write_text(json.dumps({**good, "players": [
        {"name": "<script>alert(1)</script>", "kind": "human"}, {"name": "b", "kind": "greedy"}]}))
    page = client.get("/")
    assert page.status_code == 200 and "<b>x</b>" not in page.text and "<script>alert" not in page.text
    listed = re.findall(r'href="/table/([0-9a-f]+)"', page.text)
    assert sorted(listed) == sorted([table, "0000eeec"])  # the rest are not records of a table
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text


def _edited(client: TestClient, records: Path, edit) -> tuple[str, Path, dict]:
    """A table played one move, its saved record changed by ``edit``: (id, record path, record)."""
    table = _open(client, seed=9)
    _one_move(client, table)
    path = records / f"table-{table}.json"
    record = json.loads(path.read_text())
    edit(record)
    path.write_text(json.dumps(record, indent=1))
    return table, path, record


def _restarted(records: Path) -> TestClient:
    """A new server on the same records folder: nothing in memory."""
    return TestClient(create_app(Tables(records)), raise_server_exceptions=False, base_url="http://127.0.0.1:8000")


def test_resuming_a_table_leaves_its_record_as_it_was(client: TestClient, records: Path) -> None:
    """Found by the newcomer try: a read of a resumed table wrote its record again (moving it up the
    start page) and named its seats afresh; the version of a resumed table is not the old one."""
    table, path, record = _edited(client, records, lambda r: r["players"][0].update(name="Ada"))
    os.utime(path, (1_000_000_000, 1_000_000_000))
    before_version = client.get(f"/api/tables/{table}").json()["version"]
    state = _restarted(records).get(f"/api/tables/{table}").json()
    assert state["players"][0]["name"] == "Ada" and state["version"] != before_version
    assert path.stat().st_mtime == 1_000_000_000 and json.loads(path.read_text()) == record


def test_a_seat_this_version_cannot_seat_is_located_in_the_record(client: TestClient, records: Path) -> None:
    table, _, _ = _edited(client, records, lambda r: r["players"][1].update(kind="mcts:99999s"))
    message = _error(_restarted(records).get(f"/api/tables/{table}"), 410)
    assert f"table-{table}.json:" in message and "mcts:99999s" in message


def test_picking_a_tile_of_the_hand_through_the_api(client: TestClient) -> None:
    """Hand-of-two: a pick names a tile of the hand by id; a tile not held, or no id, is a 400
    saying so, a pick when there is no choice a 409; the record waits for the end of the game."""
    table = _open(client, ruleset="basic+hand-of-two")
    state = _answered(client, table)
    assert state["hand"]["picking"] and "tile" not in state
    assert 'src="/static/hands.js"' in client.get(f"/table/{table}").text
    held = [t["id"] for t in state["hand"]["tiles"]]
    other = next(t.id for t in load_ruleset("basic").tiles if t.id not in held)
    assert f"holds no {other}" in _error(_play(client, table, 0, {"kind": "pick", "tile": other}), 400)
    assert "'tile' must be the id" in _error(_play(client, table, 0, {"kind": "pick", "tile": 3}), 400)
    assert "'tile' must be the id" in _error(_play(client, table, 0, {"kind": "pick"}), 400)
    assert "'turn' must be" in _error(client.post(f"/api/tables/{table}/play",
                                                  json={"move": {"kind": "pick", "tile": held[1]}}), 400)
    assert "choose which tile" in _error(_play(client, table, 0, {"kind": "place", "map": 0, "x": 0, "y": 1,
                                                                  "rotation": 0, "follower": None}), 409)
    picked = _play(client, table, 0, {"kind": "pick", "tile": held[1]})
    assert picked.status_code == 200 and picked.json()["tile"]["id"] == held[1]
    assert "the tile to place is chosen" in _error(_play(client, table, 0, {"kind": "pick", "tile": held[0]}), 409)
    assert "once the game is over" in _error(client.get(f"/api/tables/{table}/record"), 409)


def test_a_listed_record_says_how_its_game_stands() -> None:
    from engine.web.tables import _Facts

    def facts(scores, finished=True, turns=71):
        return _Facts("basic", 1, ("A", "B", "C"), turns, finished, scores, 0.0)

    assert facts((40, 40, 30)).result() == "A and B tied at 40"
    assert facts((10, 52, 30)).result() == "B won, 52 to 30"
    assert facts(None, finished=False, turns=12).result() == "unfinished, turn 12"
    assert facts(None).result() == "over"
