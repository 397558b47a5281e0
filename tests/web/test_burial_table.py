"""The web table under burial (``deck.bury``, the ``hills`` option): the log says a tile went under each
hill but never which, and a table resumed from its saved record shows what the table showed."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core import burial
from engine.rules.ruleset import load_ruleset
from engine.web.table import Refused, Table
from engine.web.table_state import build_state

REF = "basic+hills"


def test_the_log_tells_of_each_burial_but_not_the_tile(tmp_path: Path) -> None:
    save = tmp_path / "table-0000beef.json"
    table = Table(load_ruleset(REF), REF, ["random", "greedy"], 3, save=save)
    assert table.settle(120), "the bots did not finish within two minutes"
    state = table.state()
    game = table.game
    assert state["finished"] and len(burial.of(game).buried) == 8
    lines = [line for line in state["log"] if "went under the hill" in line]
    assert lines == ["a tile from the stack went under the hill, unseen"] * 8
    for when, _ in burial.of(game).buried:  # each follows the placement of its hill tile
        placed = [i for i, line in enumerate(state["log"]) if line.startswith(f"turn {when}: ")]
        assert state["log"][placed[0] + 1] == lines[0]
    resumed = Table.resume(save)
    assert {k: v for k, v in build_state(resumed).items() if k != "version"} == \
        {k: v for k, v in build_state(table).items() if k != "version"}


def test_the_record_is_offered_only_once_the_game_is_over() -> None:
    """While the game goes on the record would name the tiles under the hills: refused (409)."""
    table = Table(load_ruleset(REF), REF, ["human", "random"], 5)
    while not burial.of(table.game).buried:  # the human places the first legal move until a hill buries a tile
        state = _settled(table)
        cell = state["options"][0]
        table.play(state["turn"], {"kind": "place", "map": cell["map"], "x": cell["x"], "y": cell["y"],
                                   "rotation": int(min(cell["rotations"], key=int)), "follower": None})
    with pytest.raises(Refused) as refused:
        table.download()
    assert refused.value.status == 409 and "buried" in str(refused.value)


def _settled(table: Table) -> dict:
    assert table.settle(60), "the bots did not answer within a minute"
    return table.state()
