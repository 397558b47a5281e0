"""Followers that move on after their feature scores (``triggers``: ``when: scored, effect: move``;
engine/core/moving.py).  Scenarios 86 and 87 pin the rule values (reach, what may not be a
destination, the order of several owners); these tests hold whole games to the mechanism."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots.random_player import RandomPlayer
from engine.core import moving
from engine.core.game import Game
from engine.core.moves import HOME, MOVE_ON, IllegalMove, Move
from engine.core.moving import destinations
from engine.errors import UserError
from engine.files.record import build_record, replay
from engine.geometry import unpack
from engine.rules.ruleset import load_ruleset
from engine.rules.source import load_yaml
from engine.sim.play import play_game

WAGONS = Path(__file__).parents[1] / "scenarios" / "rulesets" / "wagon.yaml"
RULESET = load_ruleset(str(WAGONS))
WAGON = 1


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5))
def test_whole_games_keep_followers_and_every_move_on_is_within_reach(seed: int, players: int) -> None:
    game = Game(RULESET, players, seed)
    bots = [RandomPlayer(f"{seed}:{p}") for p in range(players)]
    asked = 0
    while game.tile is not None:
        if moving.of(game).movers:
            asked += 1
            owner, kind, origin = moving.of(game).movers[0]
            assert game.player == owner and kind == WAGON
            options = game.legal_moves()
            assert options[-1] == HOME and len(options) > 1  # one with nowhere to go is not asked
            for move in options[:-1]:
                (x, y), (ox, oy) = unpack(move.pos), unpack(origin)
                assert max(abs(x - ox), abs(y - oy)) <= 1 and move.kind == MOVE_ON and move.type == WAGON
        game.play(bots[game.player].choose(game))
        for p in range(players):
            on_board = [kind for _, owner, kind, _ in game.on_board if owner == p]
            assert on_board.count(0) + game.reserve[p][0] == RULESET.followers
            assert on_board.count(WAGON) + game.reserve[p][WAGON] == 1
    in_game = list(game.scores)
    game.finish()
    assert len([d for d in moving.of(game).decisions]) <= asked
    record = build_record(game, str(WAGONS), [{"name": f"p{p}", "kind": "random"} for p in range(players)], in_game)
    replayed, problems = replay(load_yaml("game.json", text=json.dumps(record)))
    assert problems == [] and replayed.scores == game.scores


def scored_wagon() -> Game:
    """Scenario 86 up to the road scoring: A's wagon, which stood on W at (1,0), may move on."""
    from engine.files.notation import parse_deployment
    from engine.geometry import pack

    ids = RULESET.tile_ids
    game = Game(RULESET, 2, draw_order=[ids["W"], ids["B"], ids["A"]])
    game.play(Move(pack(1, 0), 0, *parse_deployment(RULESET, ids["W"], 0, "wagon:road@W")))
    game.play(Move(pack(0, 1), 0, *parse_deployment(RULESET, ids["B"], 0, "cloister")))
    game.play(Move(pack(-1, 0), 3))
    return game


def test_the_owner_chooses_before_the_turn_passes_and_home_keeps_it_in_supply() -> None:
    game = scored_wagon()
    assert moving.of(game).movers and game.player == 0 and game.scores == [3, 0] and game.reserve[0][WAGON] == 1
    with pytest.raises(IllegalMove, match="is to move on or go home first"):
        game.check(Move(next(iter(game.frontier)), 0))
    game.play(HOME)
    assert not moving.of(game).movers and game.player == 1 and game.reserve[0][WAGON] == 1
    assert moving.of(game).decisions == [(3, 0, WAGON, HOME)]
    with pytest.raises(IllegalMove, match="no follower is moving on now"):
        Game(RULESET, 2, seed=1).check(HOME)


def test_moving_on_deploys_it_and_a_copy_decides_alone() -> None:
    game = scored_wagon()
    copy = game.copy()
    target = destinations(game)[0]
    game.play(target)
    assert game.reserve[0][WAGON] == 0 and (game.board[target.pos][1] + target.follower, 0, WAGON, -1) in game.on_board
    assert moving.of(copy).movers and copy.reserve[0][WAGON] == 1  # the copy still has the choice to make


def test_a_record_whose_follower_moves_where_none_is_moving_is_refused(tmp_path: Path) -> None:
    played = play_game(RULESET, ["greedy", "random"], 5, ref=str(WAGONS))
    record = played.record
    turns = record["turns"]
    first = next(i for i, turn in enumerate(turns) if "move" in turn)
    turns.insert(first + 1, dict(turns[first]))  # the same choice twice: nothing is moving the second time
    with pytest.raises(UserError, match="no wagon is moving on now"):
        replay(load_yaml("game.json", text=json.dumps(record)))


def test_a_ruleset_names_a_follower_type_that_exists(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(f"extends: {WAGONS}\nname: bad\n"
                    "triggers:\n  cart: {when: scored, follower: cart, effect: move}\n")
    with pytest.raises(UserError, match="'cart' is not a follower type") as raised:
        load_ruleset(str(path))
    assert raised.value.diagnostics[0].code == "trigger"
    assert load_ruleset("basic").movers == () and RULESET.movers == ((WAGON, 1),)


@pytest.mark.parametrize("wagon, says", [
    ("{count: 0, kinds: [road]}", "no player has a wagon (count 0), so this trigger never fires"),
    ("{count: 1, kinds: [field]}", "a wagon goes only on field, which never complete during the game"),
])
def test_a_trigger_that_can_never_fire_is_warned_of(tmp_path: Path, wagon: str, says: str) -> None:
    path = tmp_path / "idle.yaml"
    path.write_text(f"extends: basic\nname: idle\nfollower_types:\n  wagon: {wagon}\n"
                    "triggers:\n  rolls: {when: scored, follower: wagon, effect: move}\n")
    warnings = load_ruleset(str(path)).warnings
    assert [(w.code, w.line) for w in warnings if says in w.message] == [("trigger-never-fires", 6)]
    assert not [w for w in RULESET.warnings if w.code == "trigger-never-fires"]


@pytest.mark.parametrize("entry, says", [
    ("{move: wagon}", "missing required key 'to' (a follower's move needs to and follower, or home: true)"),
    ("{move: wagon, home: true, to: [1, 0]}", "a follower's move goes home or to a segment, not both"),
    ("{move: wagon, to: [1, 0], follower: road@S, rotation: 1}", "'rotation' is not allowed in a follower's move"),
])
def test_a_malformed_move_entry_is_named_at_its_place(tmp_path: Path, entry: str, says: str) -> None:
    from engine.files.scenario import load_scenario

    path = tmp_path / "bad.yaml"
    path.write_text(f"rulesets: [{WAGONS}]\nplayers: [A, B]\nturns:\n"
                    f"  - {{tile: W, at: [1, 0], rotation: 0, follower: wagon:road@W}}\n  - {entry}\n")
    with pytest.raises(UserError) as raised:
        load_scenario(path)
    found = [d for d in raised.value.diagnostics if says in d.message]
    assert found and found[0].line == 5 and found[0].code == "schema"
