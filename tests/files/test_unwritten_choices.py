"""Choices a record does not write (a personal tile declined or passed, a follower sent home
instead of moving on) still happen when a record is resumed, after its last entry too.

Found by review: a finished Abbey & Mayor record whose last round ended with a seat passing
replayed but was refused by ``resume`` ("its seed leaves tiles to draw"), since the pass left
the abbey offered.  The kind: any unwritten choice pending after a finished record's last entry.
"""

from __future__ import annotations

import json

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


class Refuser:
    """Random, except that it makes every unwritten choice when it may: it declines (or, in the
    last round, passes with) its abbey and sends home every follower that could move on."""

    def __init__(self, seed: str) -> None:
        self.random = RandomPlayer(seed)

    def choose(self, game: Game) -> Move:
        legal = game.legal_moves()
        for unwritten in (HOME, DRAW):
            if unwritten in legal:
                return unwritten
        return self.random.choose(game)


def finished_record(seed: int, players: int) -> tuple[dict, Game, int]:
    """A finished game of Refusers on ``REF``: its record, the game, and how many unwritten choices
    were pending after the last placement (what resume must make itself)."""
    game = Game(RULESET, players, seed)
    bots = [Refuser(f"{seed}:{seat}") for seat in range(players)]
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
    return build_record(game, REF, players_json, in_game), game, pending


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


def test_every_seat_passing_in_the_last_round_resumes() -> None:
    """Four seats all keep their abbeys: the last round is four passes, none of them written."""
    record, game, _ = finished_record(7, 4)
    assert personal.of(game).held == [1, 1, 1, 1]
    _, resumed, _ = resume(record_from_text(json.dumps(record), "game.json"))
    assert resumed.scores == game.scores and resumed.finished
