"""The web table's one route for moves, ``POST /api/tables/ID/play`` ``{"turn", "move"}``, over
HTTP: every decision kind a human meets goes through it (a placement, a personal tile declined
and a pick are in test_app.py; here a drawn start tile, a follower moving on and one sent home),
and the routes it replaced are gone."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web table needs the web extra")
try:
    from starlette.testclient import TestClient
except (ImportError, RuntimeError):
    pytest.skip("Starlette's test client needs httpx2 (the dev extra)", allow_module_level=True)

from engine.web.app import Tables, create_app
from engine.web.limits import Limits
from tests.web.test_app import _answered, _error, _play  # one copy of the HTTP helpers

#: The folder the table reads ruleset files from (engine/web/limits.py), and a ruleset there.
SCENARIO_RULESETS = Path(__file__).parents[1] / "scenarios" / "rulesets"
WAGONS = "wagon.yaml"


@pytest.fixture()
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(Tables(tmp_path), limits=Limits(SCENARIO_RULESETS)), raise_server_exceptions=False,
                      base_url="http://127.0.0.1:8000")


def _open(client: TestClient, ruleset: str, seed: int) -> str:
    answer = client.post("/api/tables", json={"ruleset": ruleset, "players": "human,random", "seed": seed})
    assert answer.status_code == 201, answer.text
    return answer.json()["id"]


def test_the_drawn_start_tile_is_turned_through_the_route(client: TestClient) -> None:
    table = _open(client, "basic+random-start", 4)
    state = _answered(client, table)
    assert "start" in state and "tile" not in state
    place = {"kind": "place", "map": 0, "x": 0, "y": 1, "rotation": 0}
    assert _error(_play(client, table, 0, place), 409) == "the start tile is to be turned first"
    assert "'rotation' must be a whole number from 0 to 3, not 4" in _error(
        _play(client, table, 0, {"kind": "start", "rotation": 4}), 400)
    assert "a start move takes 'rotation', not \"map\"" in _error(
        _play(client, table, 0, {"kind": "start", "rotation": 1, "map": 0}), 400)
    turned = _play(client, table, 0, {"kind": "start", "rotation": 2})
    assert turned.status_code == 200, turned.text
    assert "start" not in turned.json() and turned.json()["options"]  # the answer is the new state
    again = _play(client, table, turned.json()["turn"], {"kind": "start", "rotation": 2})
    assert _error(again, 409) == "there is no start tile to turn"


def _place(state: dict) -> dict:
    """The first legal placement, with the wagon on its first spot whenever it may go there."""
    cell = state["options"][0]
    rotation, spots = next((r, s) for r, s in cell["rotations"].items())
    wagon = [s for s in spots if s["type"] == 1]
    return {"kind": "place", "map": cell["map"], "x": cell["x"], "y": cell["y"], "rotation": int(rotation),
            "follower": wagon[0]["segment"] if wagon else None, "type": 1 if wagon else 0}


def test_a_wagon_moves_on_and_goes_home_through_the_route(client: TestClient) -> None:
    """The wagon ruleset, seed 3 (the game tests/web/test_table.py plays through the Table): the
    human's wagon moves on the first time its feature scores with somewhere to go, and goes home
    the next time; a move of another kind meanwhile is a 409 naming what is asked."""
    table = _open(client, WAGONS, 3)
    moved = homes = 0
    while not (state := _answered(client, table))["finished"] and not (moved and homes):
        if "moving" not in state:
            answer = _play(client, table, state["turn"], _place(state))
            assert answer.status_code == 200, answer.text
            continue
        assert "no placed tile has that segment" in _error(_play(client, table, state["turn"], {
            "kind": "move-on", "map": 0, "x": 99, "y": 99, "segment": 0}), 400)
        assert "'segment' must be a whole number" in _error(_play(client, table, state["turn"], {
            "kind": "move-on", "map": 0, "x": 0, "y": 0, "segment": None}), 400)
        assert "the wagon that scored is to move on or go home first" in _error(
            _play(client, table, state["turn"], {"kind": "decline"}), 409)
        options = state["moving"]["options"]
        if options and not moved:
            where = {k: options[0][k] for k in ("map", "x", "y", "segment")}
            answer = _play(client, table, state["turn"], {"kind": "move-on", **where})
            moved += 1
        else:
            answer = _play(client, table, state["turn"], {"kind": "home"})
            homes += 1
        assert answer.status_code == 200, answer.text
        assert "moving" not in answer.json() or answer.json()["moving"] != state["moving"]
    assert moved and homes
    log = _answered(client, table)["log"]
    assert any("'s wagon moves on to the" in line for line in log)
    assert any("'s wagon goes home" in line for line in log)


@pytest.mark.parametrize("route", ["move", "keep", "pick", "move-on", "start"])
def test_the_routes_of_one_kind_of_move_each_are_gone(client: TestClient, route: str) -> None:
    table = _open(client, "basic", 7)
    answer = client.post(f"/api/tables/{table}/{route}", json={"turn": 0})
    assert f"no page /api/tables/{table}/{route}" in _error(answer, 404)
