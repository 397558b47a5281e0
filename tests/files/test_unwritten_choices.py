"""Choices a record does not write (a personal tile declined or passed, a follower sent home
instead of moving on) still happen when a record is resumed, after its last entry too.

Found by review: a finished Abbey & Mayor record whose last round ended with a seat passing
replayed but was refused by ``resume`` ("its seed leaves tiles to draw"), since the pass left
the abbey offered.  The kind: any unwritten choice pending after a finished record's last entry.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.bots.random_player import RandomPlayer
from engine.core import moving, personal
from engine.core.game import Game
from engine.core.moves import DRAW, HOME, Move
from engine.files.record import build_record, record_from_text, replay
from engine.files.resume import resume
from engine.rules.ruleset import load_ruleset

REF = "basic+abbey-and-mayor"
RULESET = load_ruleset(REF)
#: Abbey & Mayor's abbey, and crossroads that go only into a hole: most are set aside as drawn.
UNFIT = str(Path(__file__).parents[1] / "scenarios" / "rulesets" / "abbey-unfit.yaml")


class Refuser:
    """Random, except that it makes every unwritten choice when it may: it declines (or, in the
    last round, passes with) its abbey and sends home every follower that could move on; a
    ``keeper`` places its abbey in the last round instead of passing."""

    def __init__(self, seed: str, keeper: bool = False) -> None:
        self.random = RandomPlayer(seed)
        self.keeper = keeper

    def choose(self, game: Game) -> Move:
        legal = game.legal_moves()
        if self.keeper and personal.of(game).last_round is not None and DRAW in legal:
            return legal[0]  # a placement of the abbey: the last round's moves are its placements, then DRAW
        for unwritten in (HOME, DRAW):
            if unwritten in legal:
                return unwritten
        return self.random.choose(game)


def finished_record(seed: int, players: int, ref: str = REF, keeper: bool = False) -> tuple[dict, Game, int]:
    """A finished game of Refusers (``keeper``: that place their abbey in the last round) on
    ``ref``: its record, the game, and how many unwritten choices were pending after the last
    placement (what resume must make itself)."""
    game = Game(RULESET if ref == REF else load_ruleset(ref), players, seed)
    bots = [Refuser(f"{seed}:{seat}", keeper) for seat in range(players)]
    placements = pending = 0
    while game.tile is not None or moving.of(game).movers:
        move = bots[game.player].choose(game)
        if move in (HOME, DRAW):
            pending += 1
        else:
            pending = 0
            placements += 1
        game.play(move)
    in_game = list(game.scores)
    game.finish()
    players_json = [{"name": f"p{seat}", "kind": "random"} for seat in range(players)]
    return build_record(game, ref, players_json, in_game), game, pending


@pytest.mark.parametrize("seed", range(4))
def test_a_finished_record_ending_in_passes_resumes_to_its_scores(seed: int) -> None:
    record, game, pending = finished_record(seed, 3)
    assert pending, "the game should end with a seat passing on its abbey"
    assert personal.of(game).held.count(1) >= 1  # someone kept the abbey to the end
    doc = record_from_text(json.dumps(record), "game.json")
    replayed, problems = replay(doc)
    assert problems == [] and replayed.scores == game.scores
    _, resumed, in_game = resume(doc)
    assert resumed.scores == game.scores and in_game == record["scores"]["in_game"]
    assert personal.of(resumed).held == personal.of(game).held


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_game_of_unwritten_choices_replays_and_resumes(players: int) -> None:
    """The whole kind: games in which every choice that writes no entry is taken whenever it may
    be (declines, passes, followers sent home; discards between them) replay and resume to their
    scores, whatever the seats."""
    for seed in range(12):
        record, game, _ = finished_record(seed, players)
        doc = record_from_text(json.dumps(record), "game.json")
        assert replay(doc)[1] == [], (players, seed)
        assert resume(doc)[1].scores == game.scores, (players, seed)


def test_every_seat_passing_in_the_last_round_resumes() -> None:
    """Four seats all keep their abbeys: the last round is four passes, none of them written."""
    record, game, _ = finished_record(7, 4)
    assert personal.of(game).held == [1, 1, 1, 1]
    _, resumed, _ = resume(record_from_text(json.dumps(record), "game.json"))
    assert resumed.scores == game.scores and resumed.finished


def test_a_decline_before_a_discard_resumes() -> None:
    """Found by review: a seat declined its abbey, drew a tile that fits nowhere and it was set
    aside; the record's discard entry was checked before the decline was played, so resume
    refused the record ("the record sets C aside here, but the seed's deal does not") while
    replay accepted it.  Seed 1193, two seats, is such a game."""
    record, game, _ = finished_record(1193, 2)
    assert any(turn.get("discarded") for turn in record["turns"])
    doc = record_from_text(json.dumps(record), "game.json")
    assert replay(doc)[1] == []
    _, resumed, _ = resume(doc)
    assert resumed.scores == game.scores



def test_a_record_saved_just_after_a_decline_and_a_discard_resumes() -> None:
    """The same game saved just after the discard, as the web table saves a record after every
    move: it resumes to the same position, the declining seat to place the tile drawn next."""
    game = Game(RULESET, 2, 1193)
    bots = [Refuser(f"1193:{seat}") for seat in range(2)]
    while not any(move is None for _, move in game.history):  # up to the first tile set aside
        game.play(bots[game.player].choose(game))
    players_json = [{"name": f"p{seat}", "kind": "random"} for seat in range(2)]
    record = build_record(game, REF, players_json, list(game.scores))
    assert record["finished"] is False and record["turns"][-1].get("discarded")
    _, resumed, in_game = resume(record_from_text(json.dumps(record), "game.json"))
    assert in_game is None and resumed.scores == game.scores
    assert (resumed.player, resumed.tile, resumed.remaining) == (game.player, game.tile, game.remaining)


@pytest.mark.parametrize("players", [2, 3])
def test_a_decline_whose_draw_sets_aside_the_last_tiles_resumes(players: int) -> None:
    """Found by review: a seat declined its abbey, and its draw set aside the stacks' last tiles,
    which began the last round with that seat offered its abbey again; resume declined at each
    discard entry, so it passed the seat at the second and refused the abbey the seat then
    placed.  Seed 6042, with seats that place their abbey in the last round, is such a game."""
    record, game, _ = finished_record(6042, players, UNFIT, keeper=True)
    turns = record["turns"]
    assert any(a.get("discarded") and b.get("discarded") for a, b in zip(turns, turns[1:]))
    assert turns[-1].get("personal")
    doc = record_from_text(json.dumps(record), "game.json")
    assert replay(doc)[1] == []
    assert resume(doc)[1].scores == game.scores


def test_games_that_set_aside_most_draws_replay_and_resume() -> None:
    """The kind, where discards are common: 20 games of the crossroads-only-in-holes ruleset, on
    2 and 3 seats, the seats keeping their abbeys to the last round and placing them there."""
    for seed in range(6070, 6080):
        for players in (2, 3):
            record, game, _ = finished_record(seed, players, UNFIT, keeper=True)
            doc = record_from_text(json.dumps(record), "game.json")
            assert replay(doc)[1] == [], (seed, players)
            assert resume(doc)[1].scores == game.scores, (seed, players)
