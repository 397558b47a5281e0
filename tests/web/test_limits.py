"""What a client of the web table may ask for (issue 50, engine/web/limits.py): bot budgets within
the server's caps, rulesets only shipped or from the server's rulesets folder (the answer the same
whether a path outside exists or not), and a record of more turns than its ruleset's deck holds
refused before it is read for replay."""

from __future__ import annotations

import html
import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web table needs the web extra")
try:
    from starlette.testclient import TestClient
except (ImportError, RuntimeError):
    pytest.skip("Starlette's test client needs httpx2 (the dev extra)", allow_module_level=True)

from engine.rules.ruleset import load_ruleset  # noqa: E402
from engine.sim.play import play_game  # noqa: E402
from engine.web.app import Tables, create_app  # noqa: E402
from engine.web.limits import MAX_ITERATIONS, Limits  # noqa: E402

JSON = {"Content-Type": "application/json"}
GARDEN = Path(__file__).parents[2] / "examples" / "garden-variant.yaml"
OUTSIDE = Path(__file__).parents[1] / "scenarios" / "rulesets" / "wagon.yaml"  # exists, outside the folder


@pytest.fixture()
def records(tmp_path: Path) -> Path:
    folder = tmp_path / "records"
    folder.mkdir()
    shutil.copy(GARDEN, folder / "garden.yaml")
    return folder


def _client(records: Path, limits: Limits | None = None) -> TestClient:
    return TestClient(create_app(Tables(records), limits=limits), raise_server_exceptions=False,
                      base_url="http://127.0.0.1:8000")


def _open(client: TestClient, ruleset: str = "basic", players: str = "human,greedy"):
    return client.post("/api/tables", json={"ruleset": ruleset, "players": players, "seed": 1})


def _refused(answer) -> str:
    assert answer.status_code == 400, answer.text
    return answer.json()["error"]


@pytest.mark.parametrize("players, says", [
    ("mcts:10000000:roots=64,human", f"at most {MAX_ITERATIONS} iterations a move"),
    ("human,mcts:3600s", "at most 10 seconds a move"),
    ("human,mcts:100:roots=64", "searches at once (roots)"),
])
def test_a_bot_over_the_servers_budget_is_refused_before_anything_starts(records: Path, players: str,
                                                                         says: str) -> None:
    client = _client(records)
    message = _refused(_open(client, players=players))
    assert says in message and "carcassonne serve --max-" in message
    assert not list(records.glob("table-*.json"))  # no table was opened


def test_bots_within_the_budget_and_raised_caps_are_seated(records: Path) -> None:
    assert _open(_client(records), players="human,mcts:100").status_code == 201
    raised = Limits(records, iterations=20_000, roots=64)
    assert _open(_client(records, raised), players="human,mcts:20000:roots=64").status_code == 201
    assert "at most 20000 iterations" in _refused(_open(_client(records, raised), players="human,mcts:20001"))


def test_a_ruleset_file_in_the_rulesets_folder_is_named_by_its_name(records: Path) -> None:
    tables = Tables(records)
    client = TestClient(create_app(tables), raise_server_exceptions=False, base_url="http://127.0.0.1:8000")
    answer = _open(client, ruleset="garden.yaml+river")
    assert answer.status_code == 201, answer.text
    assert tables.get(answer.json()["id"]).record_ref == "garden.yaml+river"  # its record lies beside it
    assert client.get("/rulesets/atlas", params={"ref": "garden.yaml"}).status_code == 200


@pytest.mark.parametrize("ref", [str(OUTSIDE), str(OUTSIDE.with_name("no-such-file.yaml")), "../records/garden.yaml",
                                 "../garden.yaml", f"basic+{OUTSIDE}", "/etc/passwd", "sub/garden.yaml",
                                 "garden.yaml/", "../outside/../records/garden.yaml",
                                 "../no-such-folder/../records/garden.yaml", "/etc/passwd/../../tmp/garden.yaml"])
def test_a_path_out_of_the_folder_is_refused_alike_whether_it_exists_or_not(records: Path, ref: str) -> None:
    """No file is read, so the answer tells a client nothing of the disk: a file is named by its
    bare name in the folder.  The newcomer's review found detours (``../x/../records/garden.yaml``)
    answered differently as the folder ``x`` existed or not, and ``/etc/passwd/..`` saying
    "not a folder"."""
    (records.parent / "outside").mkdir()
    client = _client(records)
    atlas = client.get("/rulesets/atlas", params={"ref": ref})  # a page: a link is followed to it
    assert atlas.status_code == 400 and atlas.headers["content-type"].startswith("text/html")
    for message in (_refused(_open(client, ruleset=ref)), html.unescape(atlas.text)):
        assert f"this server reads {'option' if ref.startswith('basic+') else 'ruleset'} files from {records}, by " \
               "their bare name" in message
        assert "not found" not in message and "cannot read" not in message


def test_a_bare_name_is_never_a_file_of_the_working_directory(records: Path, tmp_path: Path, monkeypatch) -> None:
    """``carcassonne play --ruleset NAME`` may read ./NAME; the web table reads shipped names only."""
    (tmp_path / "secret").write_text("features: [")
    monkeypatch.chdir(tmp_path)
    message = _refused(_open(_client(records), ruleset="secret"))
    assert "unknown ruleset 'secret' (shipped rulesets: basic" in message
    assert "unknown option 'secret'" in _refused(_open(_client(records), ruleset="basic+secret"))


def test_a_server_with_no_rulesets_folder_takes_shipped_names_only(records: Path) -> None:
    client = _client(records, Limits(None))
    assert "from no folder" in _refused(_open(client, ruleset="garden.yaml"))
    assert _open(client, ruleset="basic+river").status_code == 201


def _record(records: Path, ruleset: str) -> dict:
    """A whole record of a basic game (two random players), naming ``ruleset``."""
    return play_game(load_ruleset("basic"), ["random", "random"], 3).record | {"ruleset": ruleset}


def test_an_uploaded_record_naming_a_ruleset_out_of_the_folder_is_refused_at_its_ruleset(records: Path) -> None:
    client = _client(records)
    text = json.dumps(_record(records, str(OUTSIDE)), indent=1)
    answer = client.post("/api/replay", params={"name": "../../up.json"}, content=text, headers=JSON)
    message = _refused(answer)
    assert message.startswith(f"{records / 'up.json'}:4:") and "(at $.ruleset)" in message
    assert "this server reads ruleset files from" in message


def test_a_record_of_more_turns_than_its_deck_holds_is_refused_before_it_is_read(records: Path) -> None:
    """Issue 50: a 200,000-turn record drove the server to about 1 GB with no answer; it is refused
    at its turns, counted against the most a game of its ruleset holds (72 for basic)."""
    record = _record(records, "basic")
    record["turns"] = (record["turns"] * 3000)[:200_000]
    answer = _client(records).post("/api/replay", params={"name": "huge.json"}, content=json.dumps(record),
                                   headers=JSON)
    assert "200,000 turn entries, but a game of basic holds at most 72" in _refused(answer)
    assert "(at $.turns)" in answer.json()["error"]


@pytest.mark.parametrize("spec, refused", [("mcts:5000:depth=end,human", True), ("mcts:100:depth=9,human", True),
                                           ("mcts:100:depth=8,human", False), ("mcts:2s:depth=end,human", False)])
def test_a_search_counted_in_iterations_plays_out_only_so_deep(records: Path, spec: str, refused: bool) -> None:
    """The newcomer's review: ``mcts:5000:depth=end`` kept its iterations under the cap and thought
    230 s a move.  By the clock (``mcts:2s``) the seconds cap bounds it whatever the depth."""
    answer = _open(_client(records), players=spec)
    if refused:
        assert "play out at most 8 turns (depth=8)" in _refused(answer) and "--max-depth" in answer.json()["error"]
    else:
        assert answer.status_code == 201, answer.text
