"""Pieces on a tile's corner that score others when deployed and pay their owner (``spot: corner``,
``join``, ``keeps_out``, ``pays: owner``, ``effect: score`` triggers; the barn).  Scenarios 88
and 89 pin the rule values; these tests pin the corner data and notation by hand and hold whole
games to the mechanism."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots.random_player import RandomPlayer
from engine.core.deployment import corner_meets
from engine.core.followers import count_of
from engine.core.game import Game
from engine.files.notation import format_follower, parse_deployment, place_name
from engine.files.record import build_record, replay
from engine.geometry import SIDE_STEP
from engine.rules.ruleset import load_ruleset
from engine.rules.source import load_yaml

BARNS = Path(__file__).parents[1] / "scenarios" / "rulesets" / "barn.yaml"
RULESET = load_ruleset(str(BARNS))
BARN = 1
FIELD = RULESET.kind("field").index


def test_a_corner_is_a_segment_holding_both_half_sides_that_meet_there() -> None:
    ids = RULESET.tile_ids
    tiles = RULESET.tiles
    # D (RULES.md §1.1): city N over the whole side, so its north corners are not field; south
    # field {ER, SL, SR, WL} (segment 3) holds both south corners.
    assert tiles[ids["D"]].corners == (-1, 3, 3, -1)
    # F: city W-E through the middle: every corner touches the city.
    assert tiles[ids["F"]].corners == (-1, -1, -1, -1)
    # B: the cloister's field all round (segment 1); C: the city all round (segment 0).
    assert tiles[ids["B"]].corners == (1, 1, 1, 1) and tiles[ids["C"]].corners == (0, 0, 0, 0)
    # X: four roads; its four fields each hold one corner: {NR, EL}, {ER, SL}, {SR, WL}, {WR, NL}.
    x = tiles[ids["X"]]
    assert [sorted(x.segments[j].ports) for j in x.corners] == [[2, 3], [5, 6], [8, 9], [0, 11]]


def test_a_corner_spot_is_named_by_its_board_corner_and_parsed_back() -> None:
    d = RULESET.tile_ids["D"]
    n = len(RULESET.tiles[d].segments)
    # Canonical SE (spot n + 1) turned once clockwise is the board's SW corner.
    assert format_follower(RULESET, d, 1, n + 1, BARN) == "barn:field@SW"
    assert place_name(RULESET, d, 1, n + 1) == "field (south-west corner)"
    for rotation in range(4):
        for corner in (1, 2):  # D's field corners
            text = format_follower(RULESET, d, rotation, n + corner, BARN)
            assert parse_deployment(RULESET, d, rotation, text) == (n + corner, BARN)
    try:
        parse_deployment(RULESET, d, 0, "barn:field@NE")
    except ValueError as error:
        assert "the NE corner of tile D (rotation 0) is not field all round" in str(error)
    else:
        raise AssertionError("D's NE corner touches its city: no field corner there")


def _barn_spots_are_junctions(game: Game) -> None:
    """Every barn stands on a field corner where four placed tiles meet, each with its corner
    there on a field, and a field holding a barn holds nothing else."""
    for segment, _, kind, corner in game.on_board:
        pos = game.seg_pos[segment]
        orientation, base, tile_index = game.board[pos]
        tile = game.tiles[tile_index]
        if kind != BARN:
            assert corner == -1
            continue
        local = (corner - orientation.rotation) % 4
        assert tile.corners[local] == segment - base and tile.segments[segment - base].kind == FIELD
        assert corner_meets(game, tile, pos, orientation.rotation, local)
        steps = (SIDE_STEP[corner], SIDE_STEP[(corner + 1) % 4])
        assert all(pos + s in game.board for s in (*steps, sum(steps)))
        packed = game.fol[game.find(segment)]
        others = [count_of(packed, p, 0, game.players) for p in range(game.players)]
        assert not any(others), f"a field holding a barn holds farmers after turn {game.turn}"


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5))
def test_whole_games_keep_pieces_and_barns_stand_on_junctions_alone(seed: int, players: int) -> None:
    game = Game(RULESET, players, seed)
    bots = [RandomPlayer(f"{seed}:{p}") for p in range(players)]
    before = list(game.scores)
    while game.tile is not None:
        game.play(bots[game.player].choose(game))
        assert all(a <= b for a, b in zip(before, game.scores))
        before = list(game.scores)
        _barn_spots_are_junctions(game)
        for p in range(players):
            on_board = [kind for _, owner, kind, _ in game.on_board if owner == p]
            assert on_board.count(0) + game.reserve[p][0] == RULESET.followers
            assert on_board.count(BARN) + game.reserve[p][BARN] == 1
    in_game = list(game.scores)
    game.finish()
    record = build_record(game, str(BARNS), [{"name": f"p{p}", "kind": "random"} for p in range(players)], in_game)
    replayed, problems = replay(load_yaml("game.json", text=json.dumps(record)))
    assert problems == [] and replayed.scores == game.scores


def test_random_games_place_barns_and_their_triggers_fire() -> None:
    """Across seeded games, barns are placed, on fields with farmers and without, so the
    invariants above are tested on boards that have them (not vacuously)."""
    placed = fired = 0
    for seed in range(12):
        game = Game(RULESET, 3, seed)
        bots = [RandomPlayer(f"{seed}:{p}") for p in range(3)]
        while game.tile is not None:
            game.play(bots[game.player].choose(game))
        placed += sum(1 for _, _, kind, _ in game.on_board if kind == BARN)
        fired += sum(1 for e in game.events if e.rule in ("barn-scores-farmers", "farmers-join-a-barn"))
    assert placed >= 6 and fired >= 1, (placed, fired)



def test_a_score_trigger_leaves_pieces_that_pay_their_owner(tmp_path: Path) -> None:
    """A barn placed on a field holding only another piece that pays its owner scores nobody and
    sends nothing home: such a piece is not a farmer (a newcomer's ruleset had the barn's
    trigger send a 'spy' home, 88 points "for nobody")."""
    from engine.core.moves import Move
    from engine.geometry import pack

    spies = tmp_path / "spies.yaml"
    spies.write_text(BARNS.read_text().replace("triggers:", "  spy: {count: 1, kinds: [field], join: true, "
                                                                  "pays: owner, score: tiles}\ntriggers:", 1))
    ruleset = load_ruleset(str(spies))
    ids, spy = ruleset.tile_ids, 2
    game = Game(ruleset, 2, draw_order=[ids["E"], ids["E"], ids["U"], ids["B"]])
    game.play(Move(pack(0, 1), 2, *parse_deployment(ruleset, ids["E"], 2, "spy:field@N")))  # A's spy
    game.play(Move(pack(0, 2), 0))
    game.play(Move(pack(1, 0), 1))
    game.play(Move(pack(1, 1), 0, *parse_deployment(ruleset, ids["B"], 0, "barn:field@NW")))  # B's barn joins it
    assert game.scores == [0, 0] and not game.events
    assert sorted(kind for _, _, kind, _ in game.on_board) == [BARN, spy]
    game.finish()  # each pays its owner on the one field: tiles 4 for A's spy, 4 x 1 city for B's barn
    assert game.scores == [4, 4]



def test_score_events_in_words() -> None:
    """Scenario 88's first four turns, then the end, in words as the web table lists them: the
    barn's trigger and its pay at the end name the rule; the facts in words, singular for one."""
    from engine.core.moves import Move
    from engine.geometry import pack

    ids = RULESET.tile_ids
    game = Game(RULESET, 2, draw_order=[ids["E"], ids["E"], ids["U"], ids["B"]])
    game.play(Move(pack(0, 1), 2, *parse_deployment(RULESET, ids["E"], 2, "field@N")))
    game.play(Move(pack(0, 2), 0))
    game.play(Move(pack(1, 0), 1))
    game.play(Move(pack(1, 1), 0, *parse_deployment(RULESET, ids["B"], 0, "barn:field@NW")))
    game.finish()
    assert [e.words(["A", "B"]) for e in game.events] == [
        "A +3: field, barn-scores-farmers (4 tiles, 1 completed city)",
        "B +4: field at the end, barn (4 tiles, 1 completed city)"]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_sides_holding_a_tile_read_from_the_edge_constraint_are_the_boards(seed: int) -> None:
    """Which sides of a cell hold a tile (the barn's corner check reads it from the cell's edge
    constraint): the board's answer at every frontier cell, and at cells off the frontier."""
    from engine.core.deployment import _sides_beside

    game = Game(load_ruleset("basic+abbey-and-mayor"), 2, seed)
    bots = [RandomPlayer(f"{seed}:{p}") for p in range(2)]
    while game.tile is not None:
        for pos in [*game.frontier, *list(game.board)[:3], 10**6]:
            expected = sum(1 << side for side in range(4) if pos + SIDE_STEP[side] in game.board)
            assert _sides_beside(game, pos) == expected, (game.turn, pos)
        game.play(bots[game.player].choose(game))
