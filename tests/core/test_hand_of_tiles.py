"""Hands of tiles (deck.hand, engine/core/hands.py): what is drawn, returned and known, and that a
search never learns another player's hand."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots.random_player import RandomPlayer
from engine.core.chance import determinise
from engine.core.game import Game
from engine.core.hands import of as hands_of
from engine.core.moves import IllegalMove, Move, pick
from engine.errors import UserError
from engine.files.record import record_from_text, replay
from engine.files.resume import resume
from engine.rules.ruleset import load_ruleset
from engine.sim.play import play_game

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
HAND_REFS = ["basic+hand-of-two", "basic+draw-three-keep-one", "basic+draw-three-keep-one+unplaceable-reshuffle",
             "second-edition+hand-of-two+traders-and-builders", "basic+two-maps+hand-of-two",
             "first-edition+random-start+short-game+draw-three-keep-one"]


def stacked(ref: str, order: list[str], players: int = 2) -> Game:
    """A game of ``ref`` whose stack is ``order`` (tile ids, first drawn first), every draw due."""
    ruleset = load_ruleset(ref)
    game = Game(ruleset, players, seed=0, draw=False)
    game.stacks = [[[ruleset.tile_ids[t] for t in reversed(order)]]]
    game.pins = [[[False, False]]]
    game.box = [[]]
    return game


def ids(game: Game, tiles) -> list[str]:
    return [game.tiles[t].id for t in tiles]


def held(game: Game, seat: int) -> list[str]:
    assert hands_of(game) is not None
    return [game.tiles[t].id for t, _, _ in hands_of(game).held[seat]]


def draw_turn(game: Game) -> None:
    """Resolve the due draws of the turn (chance steps: the stack's top each time)."""
    while game.tile is None and game.remaining:
        game.draw_one()


def place(game: Game, tile_id: str) -> None:
    """The player picks ``tile_id`` from the hand and places it at its first legal placement."""
    tile = game.ruleset.tile_ids[tile_id]
    if hands_of(game) is not None and hands_of(game).picking:
        game.play(pick(tile), draw=False)
    assert game.tile == tile
    game.play(Move(*game.placements()[0]), draw=False)


def test_draw_three_keep_one_returns_the_two_to_the_bottom_in_the_order_drawn() -> None:
    # U, V, E for A; A places V and returns U then E: under B, L, W, which come first.
    game = stacked("basic+draw-three-keep-one", ["U", "V", "E", "B", "L", "W", "K"])
    draw_turn(game)
    assert held(game, 0) == ["U", "V", "E"] and hands_of(game).picking
    place(game, "V")
    assert held(game, 0) == []
    assert ids(game, reversed(game.stacks[0][0])) == ["B", "L", "W", "K", "U", "E"]
    assert hands_of(game).marks[0][0] == [0b01, 0b01]  # the bottom two, E lowest: only A knows them
    draw_turn(game)
    assert held(game, 1) == ["B", "L", "W"]
    place(game, "B")
    assert ids(game, reversed(game.stacks[0][0])) == ["K", "U", "E", "L", "W"]
    draw_turn(game)
    assert held(game, 0) == ["K", "U", "E"]  # A's own returns come back to A: known to A alone
    assert [known for _, _, known in hands_of(game).held[0]] == [0b01, 0b01, 0b01]
    place(game, "U")
    draw_turn(game)
    assert held(game, 1) == ["L", "W", "K"]
    # L and W are B's own returns, K was A's: B now knows L and W (it returned them), and K
    # (drawn), and A knows K (it returned it).
    assert [known for _, _, known in hands_of(game).held[1]] == [0b10, 0b10, 0b11]


def test_a_hand_does_not_combine_with_the_rivers_phases(tmp_path: Path) -> None:
    # Tiles held when the River's phase ends would be placed among the land tiles, and its lake
    # before river tiles still held: refused, not played against the River's order.
    path = tmp_path / "river-hand.yaml"
    path.write_text(yaml.safe_dump({"name": "river-hand", "extends": "basic", "deck": {
        "hand": {"size": 2}, "phases": [{"group": "base"}, {"group": "base2"}]}}))
    with pytest.raises(UserError, match="does not combine with deck phases"):
        load_ruleset(str(path))
    with pytest.raises(UserError, match="conflicts with option 'river'"):
        load_ruleset("basic+river+hand-of-two")


def test_return_box_takes_the_tiles_out_and_reshuffle_puts_them_back(tmp_path: Path) -> None:
    for returned in ("box", "reshuffle"):
        path = tmp_path / f"{returned}.yaml"
        path.write_text(yaml.safe_dump({"name": f"three-{returned}", "extends": "basic",
                                        "deck": {"hand": {"size": 3, "keep": False, "return": returned}}}))
        ruleset = load_ruleset(str(path))
        game = Game(ruleset, 2, seed=0, draw=False)
        game.stacks = [[[ruleset.tile_ids[t] for t in reversed(["U", "V", "E", "B", "L"])]]]
        draw_turn(game)
        place(game, "V")
        left = sorted(ids(game, game.stacks[0][0]))
        if returned == "box":
            assert left == ["B", "L"] and sorted(ids(game, [t for t, _, _ in hands_of(game).out])) == ["E", "U"]
        else:
            assert left == ["B", "E", "L", "U"] and hands_of(game).out == []


def test_a_hand_of_two_keeps_the_tile_not_placed_and_refills() -> None:
    game = stacked("basic+hand-of-two", ["U", "V", "E", "B", "L"])
    draw_turn(game)
    assert held(game, 0) == ["U", "V"]
    place(game, "V")
    draw_turn(game)
    assert held(game, 1) == ["E", "B"]
    place(game, "B")
    draw_turn(game)
    assert held(game, 0) == ["U", "L"]  # U kept, L drawn


def test_a_pick_of_a_tile_not_held_is_refused() -> None:
    game = stacked("basic+hand-of-two", ["U", "V", "E"])
    draw_turn(game)
    with pytest.raises(IllegalMove, match="holds no E"):
        game.check(pick(game.ruleset.tile_ids["E"]))
    with pytest.raises(IllegalMove, match="choose which tile"):
        game.check(Move(*game.placements()[0]))


def hand_swapped(game: Game, seat: int) -> Game | None:
    """A copy of ``game`` in which one tile ``seat`` holds is swapped with a hidden stack tile of
    another type from the same phase: what another seat sees is the same in both."""
    other = game.copy()
    hands = hands_of(other)
    assert hands is not None
    stack = other.stacks[other.map]
    for i, (tile, number, known) in enumerate(hands.held[seat]):
        phase = stack[0] if stack else []
        for j, hidden in enumerate(phase):
            if hidden != tile:
                phase[j], hands.held[seat][i] = tile, (hidden, number, known)
                return other
    return None


def state(game: Game) -> tuple:
    return (game.stacks, game.box, hands_of(game).held if hands_of(game) else None,
            hands_of(game).out if hands_of(game) else None)


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, turns=st.integers(min_value=1, max_value=30), ref=st.sampled_from(HAND_REFS[:2]))
def test_determinise_never_reveals_another_players_hand(seed: int, turns: int, ref: str) -> None:
    """Two games that differ only in what seat 1 holds look the same to seat 0: determinised for
    seat 0 with the same generator, they are the same game; for seat 1, who knows, they differ."""
    game = Game(load_ruleset(ref), 2, seed)
    bots = [RandomPlayer(f"{seed}:0"), RandomPlayer(f"{seed}:1")]
    placed = 0
    while game.tile is not None and (placed < turns or game.player != 0):
        move = bots[game.player].choose(game)
        placed += move.rotation >= 0
        game.play(move, checked=True)
    if game.tile is None or not hands_of(game).held[1]:
        return  # over, or seat 1 holds nothing now (draw-three-keep-one between turns)
    swapped = hand_swapped(game, 1)
    if swapped is None:
        return
    assert state(determinise(game, random.Random(seed), 0)) == state(determinise(swapped, random.Random(seed), 0))
    mine = [hands_of(determinise(g, random.Random(seed), 1)).held[1] for g in (game, swapped)]
    assert mine[0] == hands_of(game).held[1] and mine[1] == hands_of(swapped).held[1] and mine[0] != mine[1]


def test_determinise_keeps_what_the_seat_returned_to_the_bottom_and_deals_the_rest() -> None:
    game = stacked("basic+draw-three-keep-one", ["U", "V", "E", "B", "L", "W", "K", "O", "P"])
    draw_turn(game)
    place(game, "V")  # A returns U, E to the bottom
    draw_turn(game)
    assert game.player == 1
    for seed in range(20):
        # A knows its returns lie at the bottom (E lowest, then U); B does not know them.
        mine = determinise(game, random.Random(seed), 0).stacks[0][0]
        assert ids(game, mine[:2]) == ["E", "U"]
    theirs = {tuple(ids(game, determinise(game, random.Random(seed), 1).stacks[0][0][:2])) for seed in range(40)}
    assert len(theirs) > 1


@settings(max_examples=12, deadline=None)
@given(seed=SEEDS, ref=st.sampled_from(HAND_REFS))
def test_hand_games_end_replay_and_resume(seed: int, ref: str) -> None:
    """Every offered tile fits, no hand outgrows its size, the game ends with every tile placed or
    discarded, the same seed gives the same game, and its record replays and resumes."""
    ruleset = load_ruleset(ref)
    played = play_game(ruleset, ["greedy", "random"], seed, ref=ref)
    game = played.game
    size = ruleset.hand.size
    assert all(len(shown) <= size for shown in hands_of(game).shown)
    assert game.tile is None and game.remaining == 0 and not any(hands_of(game).held)
    assert play_game(ruleset, ["greedy", "random"], seed, ref=ref).record == played.record
    doc = record_from_text(json.dumps(played.record), "game.json")
    replayed, problems = replay(doc)
    assert problems == [] and replayed.scores == game.scores
    assert resume(doc)[1].scores == game.scores


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, ref=st.sampled_from(HAND_REFS))
def test_the_tile_offered_always_fits(seed: int, ref: str) -> None:
    game = Game(load_ruleset(ref), 2, seed)
    bot = RandomPlayer(seed)
    while game.tile is not None:
        assert game.fits_somewhere(game.tile)
        assert all(game.fits_somewhere(t) for t in hands_of(game).types(game.player))
        game.play(bot.choose(game), checked=True)


def test_a_scenario_hand_that_outgrows_the_size_is_an_error(tmp_path: Path) -> None:
    from engine.files.scenario import load_scenario, run_scenario

    path = tmp_path / "s.yaml"
    path.write_text("rulesets: [basic+hand-of-two]\nplayers: [A, B]\nstart: {tile: D, rotation: 0}\n"
                    "turns:\n  - {tile: U, hand: [U, V, E], at: [1, 0], rotation: 1}\n"
                    "expect:\n  basic+hand-of-two: {in_game: {A: 0, B: 0}}\n")
    with pytest.raises(UserError, match="holds 3 tiles, more than deck.hand's 2"):
        run_scenario(load_scenario(path))


def test_a_scenario_hand_without_the_kept_tile_says_which_hand(tmp_path: Path) -> None:
    """Issue 51: the message read as if the hand given held the kept tile."""
    from engine.files.scenario import load_scenario, run_scenario

    path = tmp_path / "s.yaml"
    path.write_text("rulesets: [basic+hand-of-two]\nplayers: [A, B]\nstart: {tile: D, rotation: 0}\nturns:\n"
                    "  - {tile: U, hand: [U, V], at: [1, 0], rotation: 1}\n"
                    "  - {tile: B, hand: [B, U], at: [0, 1], rotation: 0}\n"
                    "  - {tile: W, hand: [W, X], at: [2, 0], rotation: 0}\n"
                    "expect:\n  basic+hand-of-two: {in_game: {A: 0, B: 0}}\n")
    with pytest.raises(UserError, match=r"kept V from their last turn, so their hand holds it, but the hand given "
                                        r"is \(W, X\)") as error:
        run_scenario(load_scenario(path))
    assert (error.value.diagnostics[0].line, error.value.diagnostics[0].col) == (7, 21)


def test_a_hand_record_rescores_under_rulesets_with_and_without_hands() -> None:
    from engine.sim.rescore import rescore

    played = play_game(load_ruleset("basic+hand-of-two"), ["greedy", "random"], 4, ref="basic+hand-of-two")
    doc = record_from_text(json.dumps(played.record), "game.json")
    own, plain, three = rescore(doc, ["basic", "basic+draw-three-keep-one"])
    assert own.scores == plain.scores and plain.stopped is None
    # Hands of two are not what a game of three deals: that column stops at the first turn, saying why.
    assert three.stopped == (1, "the hand holds 2 tiles, fewer than deck.hand's 3, while 69 were left to draw")


def test_a_record_of_returns_to_the_box_replays_with_every_tile_accounted_for(tmp_path: Path) -> None:
    # The tiles returned to the box never come back: the record's hands say which they were, so a
    # finished record accounts for every tile (placed, discarded or boxed).
    path = tmp_path / "three-box.yaml"
    path.write_text(yaml.safe_dump({"name": "three-box", "extends": "basic",
                                    "deck": {"hand": {"size": 3, "keep": False, "return": "box"}}}))
    played = play_game(load_ruleset(str(path)), ["greedy", "random"], 2, ref=str(path))
    placed = sum(1 for _, move in played.game.history if move is not None)
    assert placed < 71 and len(hands_of(played.game).out) > 0
    doc = record_from_text(json.dumps(played.record), str(tmp_path / "game.json"))
    replayed, problems = replay(doc)
    assert problems == [] and replayed.scores == played.game.scores


@pytest.mark.parametrize("hand, message", [
    ("[C, C]", "holds 2 × C, but the ruleset has 1 copy and 0 of them are"),
    ("[U]", "holds 1 tile, fewer than deck.hand's 2, while 70 were left to draw"),
])
def test_a_scenario_hand_the_deck_cannot_deal_is_an_error(tmp_path: Path, hand: str, message: str) -> None:
    from engine.files.scenario import load_scenario, run_scenario

    path = tmp_path / "s.yaml"
    path.write_text("rulesets: [basic+hand-of-two]\nplayers: [A, B]\nstart: {tile: D, rotation: 0}\n"
                    f"turns:\n  - {{tile: {hand[1]}, hand: {hand}, at: [0, -1], rotation: 2}}\n"
                    "expect:\n  basic+hand-of-two: {in_game: {A: 0, B: 0}}\n")
    with pytest.raises(UserError, match=message.replace("×", ".")):
        run_scenario(load_scenario(path))


@pytest.mark.parametrize("ref", ["basic+hand-of-two", "basic+draw-three-keep-one"])
def test_a_record_turn_given_to_the_wrong_seat_is_refused_by_replay_and_resume(ref: str) -> None:
    # A seat is passed over only once every tile is drawn; before that each turn is the next seat's.
    played = play_game(load_ruleset(ref), ["greedy", "random"], 5, ref=ref)
    record = json.loads(json.dumps(played.record))
    turn = [i for i, entry in enumerate(record["turns"]) if "at" in entry][15]
    record["turns"][turn]["player"] = 1 - record["turns"][turn]["player"]
    doc = record_from_text(json.dumps(record), "game.json")
    with pytest.raises(UserError, match="a seat is passed over only once every tile is drawn"):
        replay(doc)
    with pytest.raises(UserError, match="but seat . plays it"):
        resume(doc)


def test_resume_refuses_a_hand_the_seed_did_not_deal() -> None:
    played = play_game(load_ruleset("basic+hand-of-two"), ["greedy", "random"], 3, ref="basic+hand-of-two")
    record = json.loads(json.dumps(played.record))
    record["turns"][10]["hand"] = ["C", "C"]
    with pytest.raises(UserError, match="the seed deals the hand .* here, the record C, C"):
        resume(record_from_text(json.dumps(record), "game.json"))


@pytest.mark.parametrize("ref", ["basic+hand-of-two", "basic+draw-three-keep-one"])
def test_a_record_turn_after_the_end_of_the_game_says_so(ref: str) -> None:
    played = play_game(load_ruleset(ref), ["greedy", "random"], 2, ref=ref)
    record = json.loads(json.dumps(played.record))
    record["turns"].append({"player": 0, "tile": "E", "at": [50, 50], "rotation": 0, "hand": ["E"]})
    with pytest.raises(UserError, match="this turn comes after the end of the game: all 72 tiles of "
                                        + re.escape(ref) + " are drawn"):
        replay(record_from_text(json.dumps(record), "game.json"))


@pytest.mark.parametrize("version", [1, 2, 3])
def test_a_record_before_version_4_holds_no_hands(version: int) -> None:
    """Issue 51: a version-2 record holding hands replayed where a version-4 one holding buried
    tiles was refused; each key is refused in a record older than the version that added it."""
    played = play_game(load_ruleset("basic+hand-of-two"), ["random", "random"], 5, ref="basic+hand-of-two")
    record = dict(played.record, version=version)
    with pytest.raises(UserError, match=f"a version {version} record has no hands of tiles \\(version 4 added them\\)"):
        replay(record_from_text(json.dumps(record), "game.json"))
    assert replay(record_from_text(json.dumps(dict(played.record, version=4)), "game.json")) is not None


def test_a_record_before_version_3_holds_no_follower_moving_on() -> None:
    """The same for the entries of a follower moving on (version 3): a wagon's move is refused."""
    wagon = str(Path(__file__).parents[1] / "scenarios" / "rulesets" / "wagon.yaml")
    records = (play_game(load_ruleset(wagon), ["greedy", "greedy"], seed, ref=wagon).record for seed in range(60))
    record = next(r for r in records if any("move" in turn for turn in r["turns"]))
    with pytest.raises(UserError, match="a version 2 record has no entries of a follower moving on"):
        replay(record_from_text(json.dumps(dict(record, version=2)), "game.json"))
