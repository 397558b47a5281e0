"""The web table under hands of tiles (``deck.hand``): the human picks a tile of their hand and
places it, bots pick as they do elsewhere, and no seat's hand but the human's reaches the page."""

from __future__ import annotations

import json
import random
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from engine.core.chance import determinise
from engine.core.hands import of as hands_of
from engine.files.record import replay
from engine.rules.ruleset import load_ruleset
from engine.rules.source import Document
from engine.sim.play import play_game
from engine.web.table import Refused, Table
from engine.web.table_state import build_state

TWO, THREE = "basic+hand-of-two", "basic+draw-three-keep-one"


def _settled(table: Table) -> dict:
    assert table.settle(60), "the bots did not answer within a minute"
    return table.state()


def _place_first(table: Table, state: dict) -> None:
    cell = state["options"][0]
    table.play(state["turn"], {"kind": "place", "map": cell["map"], "x": cell["x"], "y": cell["y"],
                               "rotation": int(min(cell["rotations"], key=int))})


def _pick(table: Table, turn: int, tile: str) -> None:
    table.play(turn, {"kind": "pick", "tile": tile})


def _play(table: Table, turns: int, choose=lambda tiles: len(tiles) - 1) -> list[str]:
    """Play the human's ``turns`` turns (or to the end): pick the tile at index ``choose(tiles)``
    of the hand when there is a choice, place it on the first legal cell.  The tiles placed."""
    placed = []
    for _ in range(turns):
        state = _settled(table)
        if state["finished"]:
            break
        hand = state["hand"]
        if hand["picking"]:
            _pick(table, state["turn"], hand["tiles"][choose(hand["tiles"])]["id"])
            state = table.state()
        placed.append(state["tile"]["id"])
        _place_first(table, state)
    table.settle(60)
    return placed


def _table(ref: str, specs: list[str], seed: int, **kw) -> Table:
    return Table(load_ruleset(ref), ref, specs, seed, **kw)


def test_the_human_picks_the_second_tile_of_the_hand_and_places_it(tmp_path: Path) -> None:
    table = _table(TWO, ["human", "greedy"], 7, save=tmp_path / "table.json")
    state = _settled(table)
    hand = state["hand"]
    assert hand["seat"] == 0 and hand["picking"] and hand["chosen"] is None
    assert [p["holds"] for p in state["players"]] == [2, 0]
    first, second = (t["id"] for t in hand["tiles"])
    assert first != second and all(t["cells"] and t["svg"].startswith("<g") for t in hand["tiles"])
    assert "tile" not in state and "options" not in state
    assert 'class="spot"' not in state["board"]  # no cell is offered before a tile is chosen
    version = state["version"]
    _pick(table, 0, second)
    state = table.state()
    assert state["version"] != version  # the page redraws
    assert state["tile"]["id"] == second and state["hand"]["chosen"] == second and not state["hand"]["picking"]
    assert {(o["map"], o["x"], o["y"]) for o in state["options"]} == \
        {tuple(c) for c in hand["tiles"][1]["cells"]}  # the cells shown while choosing
    _place_first(table, state)
    state = _settled(table)
    assert state["log"][0].startswith(f"turn 1: human-1 placed {second} at ")
    assert table.record()["turns"][0] | {"at": None} == {"player": 0, "tile": second, "at": None, "rotation": 0,
                                                        "hand": [first, second]}
    assert [t["id"] for t in state["hand"]["tiles"]][0] == first  # kept for the next turn, then a draw
    assert state["hand"]["picking"]  # a pick is not saved: the record holds placements, and is as it was
    saved = (tmp_path / "table.json").read_text()
    _pick(table, state["turn"], state["hand"]["tiles"][0]["id"])
    assert (tmp_path / "table.json").read_text() == saved and table.state()["hand"]["chosen"] == first


def test_a_whole_game_of_picks_replays_and_resumes(tmp_path: Path) -> None:
    """Draw-three-keep-one: the human takes the last of the three drawn each time; the saved
    record replays, and a table resumed from it mid-game shows what the table showed."""
    save = tmp_path / "table-0000abcd.json"
    table = _table(THREE, ["human", "random"], 11, save=save)
    _play(table, 8)
    resumed = Table.resume(save)
    assert {k: v for k, v in build_state(resumed).items() if k != "version"} == \
        {k: v for k, v in build_state(table).items() if k != "version"}
    placed = _play(table, 100)
    state = table.state()
    assert state["finished"] and placed
    game, problems = replay(Document(json.loads(save.read_text()), "<record>", {}))
    assert problems == [] and game.scores == [p["score"] for p in state["players"]]


@pytest.mark.parametrize("ref", [TWO, THREE])
def test_no_state_holds_another_seats_hand(ref: str) -> None:
    """Two games that differ only in what seat 1 holds or returned (and the stack's order) show
    the page the same state; the hand in it is always seat 0's."""
    table = _table(ref, ["human", "greedy"], 5)
    for _ in range(4):
        _play(table, 1)
        before, theirs = build_state(table), list(hands_of(table.game).held[1])
        assert before["hand"]["seat"] == 0
        real, changed = table.game, 0
        for seed in range(20):
            table.game = determinise(real, random.Random(seed), seat=0)
            changed += hands_of(table.game).held[1] != theirs
            assert build_state(table) == before
        table.game = real
        assert changed or ref == THREE  # under keep: false seat 1 holds nothing between its turns


def test_a_table_of_bots_shows_no_hand_and_plays_the_game_play_plays() -> None:
    ruleset = load_ruleset(TWO)
    table = Table(ruleset, TWO, ["greedy", "random"], 12)
    assert "hand" not in table.state()
    played = play_game(ruleset, ["greedy", "random"], 12)
    state = _settled(table)
    assert state["finished"] and "hand" not in state
    assert table.record()["turns"] == played.record["turns"]
    assert table.record()["scores"] == played.record["scores"]


@pytest.mark.parametrize("specs, shown", [(["human", "random"], 0), (["human", "random", "human"], None)])
def test_while_a_bot_plays_only_a_lone_humans_hand_is_shown(specs: list[str], shown: int | None) -> None:
    """A lone human sees the tile they kept while the bot thinks; humans who share the page see
    a hand only on its holder's turn."""
    table = _table(TWO, specs, 3)
    go_on = threading.Event()
    # The seat is frozen and a compiled bot's methods cannot be patched: the seat list takes a
    # seat whose bot waits for the test before it thinks.
    table.seats[1] = replace(table.seats[1], bot=_Waiting(table.seats[1].bot, go_on))
    state = table.state()
    _pick(table, 0, state["hand"]["tiles"][0]["id"])
    _place_first(table, table.state())
    deadline = time.monotonic() + 30
    while (state := table.state())["thinking"] is None:  # the bots' thread takes up the turn
        assert time.monotonic() < deadline, "the bot did not start thinking"
        time.sleep(0.01)
    assert state["to_play"] == 1 and state["thinking"]["seat"] == 1
    if shown is None:
        assert "hand" not in state
    else:
        hand = state["hand"]
        assert (hand["seat"], hand["picking"], hand["chosen"]) == (0, False, None)
        assert len(hand["tiles"]) == 1 == state["players"][0]["holds"] and "cells" not in hand["tiles"][0]
    go_on.set()
    state = _settled(table)
    after = 2 % len(specs)  # the next human
    assert state["hand"]["seat"] == after == state["to_play"]


class _Waiting:
    """A bot that waits for ``go_on`` before each choice, then chooses as ``bot`` does."""

    def __init__(self, bot, go_on: threading.Event) -> None:
        self.bot, self.go_on, self.name = bot, go_on, bot.name

    def choose(self, game):
        self.go_on.wait(30)
        return self.bot.choose(game)

    def choose_start(self, game) -> int:
        return self.bot.choose_start(game)


def test_a_bad_pick_is_refused_with_a_message() -> None:
    table = _table(TWO, ["human", "greedy"], 7)
    state = _settled(table)
    held = {t["id"] for t in state["hand"]["tiles"]}
    other = next(t.id for t in table.ruleset.tiles if t.id not in held)
    for tile, says in [(other, f"holds no {other}"), ("no such tile", 'no tile "no such tile"'),
                       (3, "'tile' must be the id of a tile in your hand"), (None, "'tile' must be the id")]:
        with pytest.raises(Refused) as refused:
            _pick(table, 0, tile)
        assert refused.value.status == 400 and says in str(refused.value)
    for move in ({"kind": "place", "map": 0, "x": 0, "y": 1, "rotation": 0}, {"kind": "decline"}):
        with pytest.raises(Refused, match="choose which tile of the hand") as refused:
            table.play(0, move)
        assert refused.value.status == 409
    _pick(table, 0, state["hand"]["tiles"][0]["id"])
    with pytest.raises(Refused, match="the tile to place is chosen: place it") as refused:
        _pick(table, 0, state["hand"]["tiles"][1]["id"])
    assert refused.value.status == 409 and table.game.turn == 0


def test_the_log_names_the_tile_placed_never_those_returned() -> None:
    table = _table(THREE, ["human", "greedy"], 9)
    _play(table, 6, choose=lambda tiles: 0)
    log, record = table.state()["log"], table.record()
    placed = [line for line in log if " placed " in line]
    turns = [t for t in record["turns"] if "at" in t]
    assert len(placed) == len(turns) and all(f" placed {t['tile']} at " in line for line, t in zip(placed, turns))
    assert all(" placed " in line or " fits nowhere" in line for line in log)
    assert not any("hand" in line or "return" in line for line in log)


def test_the_record_is_downloadable_only_once_the_game_is_over() -> None:
    """It names each turn's hand: mid-game it would tell what every seat kept."""
    table = _table(TWO, ["human", "random"], 4)
    _play(table, 2)
    with pytest.raises(Refused, match="once the game is over") as refused:
        table.download()
    assert refused.value.status == 409
    _play(table, 100)
    assert table.state()["finished"] and table.download() == table.record()


@pytest.mark.parametrize("ref", [TWO, THREE])
def test_a_pick_is_taken_back_until_the_tile_is_placed(ref: str, tmp_path: Path) -> None:
    """Issue 50: "a hand pick that can be undone until confirmed".  A pick taken back leaves the
    game as it was before it (the same state but for its version, nothing saved), another tile
    is picked and placed, and the record replays to the game played."""
    table = _table(ref, ["human", "greedy"], 7, save=tmp_path / "table.json")
    before = _settled(table)
    first, second = (t["id"] for t in before["hand"]["tiles"][:2])
    _pick(table, 0, second)
    assert table.state()["hand"]["chosen"] == second
    table.play(0, {"kind": "take-back"})
    after = table.state()
    assert after["version"] != before["version"]  # the page redraws
    assert after | {"version": None} == before | {"version": None}
    assert not (tmp_path / "table.json").exists()  # nothing placed yet: nothing saved
    _pick(table, 0, first)
    _place_first(table, table.state())
    _play(table, 100)
    record = table.record()
    assert record["turns"][0]["tile"] == first and table.state()["finished"]
    game, problems = replay(Document(json.loads(json.dumps(record)), "<record>", {}))
    assert not problems and game.scores == table.game.scores


def test_only_a_pick_not_yet_placed_is_taken_back() -> None:
    table = _table(TWO, ["human", "greedy"], 7)
    state = _settled(table)
    with pytest.raises(Refused, match="no answer to take back") as refused:  # nothing picked yet
        table.play(0, {"kind": "take-back"})
    assert refused.value.status == 409
    _pick(table, 0, state["hand"]["tiles"][0]["id"])
    with pytest.raises(Refused, match="takes no other field") as refused:
        table.play(0, {"kind": "take-back", "tile": "A"})
    assert refused.value.status == 400
    _place_first(table, table.state())
    state = _settled(table)
    with pytest.raises(Refused, match="no answer to take back"):  # placed: the turn is the bot's, then over
        table.play(state["turn"], {"kind": "take-back"})
    with pytest.raises(Refused, match="turn 1 is being played|that move was for turn"):
        table.play(0, {"kind": "take-back"})
