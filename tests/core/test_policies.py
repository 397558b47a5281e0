"""Deck and turn policies chosen by the ruleset: reshuffling unplaceable tiles,
a drawn start tile, and several maps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from engine.core.game import Game
from engine.files.output import write_json
from engine.files.record import load_record, replay
from engine.geometry import MAP_SPAN
from engine.rules.ruleset import load_ruleset
from engine.sim.play import play_game

TOTAL = 72


def counts(game: Game) -> tuple[int, int]:
    placed = sum(1 for _, move in game.history if move is not None) + len(game.starts)
    discarded = sum(1 for _, move in game.history if move is None) - game.returned
    return placed, discarded


def test_reshuffle_puts_unplaceable_tiles_back_and_the_game_still_ends() -> None:
    ruleset = load_ruleset("basic+unplaceable-reshuffle")
    games = [play_game(ruleset, ["random", "random"], seed).game for seed in range(60)]
    reshuffled = [g for g in games if g.returned]
    assert reshuffled, "some of 60 random games should draw an unplaceable tile"
    for game in games:
        placed, discarded = counts(game)
        assert placed + discarded == TOTAL and game.finished


def test_reshuffle_discards_the_rest_when_nothing_fits(tmp_path: Path) -> None:
    # A start tile that is city on every side, and a stack of tiles with no city edge:
    # nothing can ever be placed, so every tile ends discarded and the game ends.
    tiles = {t.id: None for t in load_ruleset("basic").tiles if t.id not in ("C", "B")}
    data = {"extends": "basic", "name": "stuck", "deck": {"start": "C"}, "rules": {"unplaceable": "reshuffle"},
            "tiles": {**tiles, "B": {"count": 4}}}
    path = tmp_path / "stuck.yaml"
    path.write_text(yaml.safe_dump(data))
    game = play_game(load_ruleset(str(path)), ["random", "random"], 1).game
    assert game.turn == 0 and game.returned == 0
    assert [move for _, move in game.history] == [None] * 4


def test_drawn_start_tile_is_the_first_of_the_stack_and_replays(tmp_path: Path) -> None:
    ruleset = load_ruleset("basic+random-start")
    played = play_game(ruleset, ["random", "greedy"], 8)
    game = played.game
    assert len(game.starts) == 1 and game.board[0][2] == game.starts[0][0]
    placed, discarded = counts(game)
    assert placed + discarded == TOTAL
    d_played = sum(1 for tile, move in game.history if move and ruleset.tiles[tile].id == "D")
    assert d_played + (ruleset.tiles[game.starts[0][0]].id == "D") == 4  # every D is in the stack
    record = tmp_path / "g.json"
    write_json(record, played.record)
    assert replay(load_record(record))[1] == []


def test_two_maps_split_the_tiles_and_alternate_rounds(tmp_path: Path) -> None:
    ruleset = load_ruleset("basic+two-maps")
    game = Game(ruleset, 2, 4)
    assert [sum(map(len, stack)) for stack in game.stacks] == [34, 35] and game.tile is not None  # one drawn
    assert len(game.starts) == 2
    maps_by_turn = []
    played = play_game(ruleset, ["random", "random"], 4)
    for _, move in played.game.history:
        if move is not None:
            maps_by_turn.append(played.game.local(move.pos)[0])
    assert maps_by_turn[:8] == [0, 0, 1, 1, 0, 0, 1, 1]
    assert all(abs(x) < MAP_SPAN // 2 for _, move in played.game.history if move
               for _, x, _ in [played.game.local(move.pos)])
    placed, discarded = counts(played.game)
    assert placed + discarded == TOTAL
    record = tmp_path / "g.json"
    write_json(record, played.record)
    assert json.loads(record.read_text())["turns"][2]["map"] == 1
    assert replay(load_record(record))[1] == []


def test_two_maps_needs_two_start_tiles(tmp_path: Path) -> None:
    path = tmp_path / "one_d.yaml"
    path.write_text("extends: basic\nname: one-d\ntiles:\n  D: {count: 1}\n")
    from engine.errors import UserError
    with pytest.raises(UserError, match="2 maps need 2 start tiles"):
        load_ruleset(f"{path}+two-maps")
