"""Personal tiles (``deck.personal``, engine/core/personal.py): a tile each player holds outside
the stacks and may place instead of drawing; declining it (DRAW) draws, and only then; once the
stacks are used up each seat is offered its own once, starting after the last placer.  Scenarios
84 and 85 pin the rule values; these tests pin the turn structure over whole games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots.random_player import RandomPlayer
from engine.core import personal
from engine.core.game import Game
from engine.core.moves import DRAW, IllegalMove, Move
from engine.files.record import build_record, replay
from engine.geometry import SIDE_STEP
from engine.rules.ruleset import load_ruleset
from engine.rules.source import load_yaml
from engine.sim.play import play_game

ABBEYS = Path(__file__).parents[1] / "scenarios" / "rulesets" / "abbey-supply.yaml"
RULESET = load_ruleset(str(ABBEYS))
AB = RULESET.tile_ids["AB"]


class Hoarder:
    """Keeps its personal tile while there is anything to draw, then places it where it can:
    a player who reaches the last round (random otherwise)."""

    def __init__(self, seed: str) -> None:
        self.random = RandomPlayer(seed)

    def choose(self, game: Game) -> Move:
        if personal.of(game).offered and personal.of(game).last_round is None:
            return DRAW
        move = self.random.choose(game)
        return self.random.choose(game) if move == DRAW else move  # place it, most times


def play(players: int, seed: int, hoarders: set[int]) -> Game:
    game = Game(RULESET, players, seed)
    bots = [Hoarder(f"{seed}:{p}") if p in hoarders else RandomPlayer(f"{seed}:{p}") for p in range(players)]
    for _ in range(10_000):  # a bound, not a hang: each decline draws a tile or moves the last round on
        if game.tile is None:
            break
        move = bots[game.player].choose(game)
        if move == DRAW and personal.of(game).last_round is None:
            assert game.remaining, "keeping a personal tile draws: something must be left to draw"
        game.play(move)
    else:
        raise AssertionError("the game did not end")
    return game


def test_the_abbey_is_offered_only_into_a_hole_and_declining_is_the_last_legal_move() -> None:
    game = Game(RULESET, 2, seed=1)
    assert not personal.of(game).offered and game.tile != AB  # no hole beside the lone start tile
    with pytest.raises(IllegalMove, match="only a personal tile may be declined"):
        game.play(DRAW)
    game = play_until_offered(2, seed=1)
    moves = game.legal_moves()
    assert game.tile == AB and moves[-1] == DRAW and DRAW not in moves[:-1]
    for move in moves[:-1]:  # every placement is into a hole
        assert all(move.pos + step in game.board for step in SIDE_STEP)


def play_until_offered(players: int, seed: int) -> Game:
    game = Game(RULESET, players, seed)
    bot = Hoarder(str(seed))
    while not personal.of(game).offered:
        move = bot.choose(game)
        game.play(move)
        assert game.tile is not None, "no abbey was offered in the whole game"
    return game


def test_declining_draws_then_and_the_same_player_places_the_drawn_tile() -> None:
    game = play_until_offered(2, seed=4)
    seat, remaining, turn = game.player, game.remaining, game.turn
    # The offer drew nothing: the top of the stack is still face down.
    assert game.remaining == remaining and game.tile == AB
    game.play(DRAW)
    assert game.player == seat and game.turn == turn and not personal.of(game).offered
    assert game.tile != AB and game.remaining < remaining and personal.of(game).held[seat] == 1


def test_placing_it_spends_it_and_marks_the_turn() -> None:
    game = play_until_offered(3, seed=2)
    seat = game.player
    move = next(m for m in game.legal_moves() if not m == DRAW)
    game.play(move)
    assert personal.of(game).held[seat] == 0 and personal.of(game).turns == (game.turn,)
    assert game.history[-1] == (AB, move)


def test_the_last_round_starts_after_the_last_placer_and_offers_each_seat_once() -> None:
    game = Game(RULESET, 3, seed=11)
    bots = [Hoarder(f"11:{p}") for p in range(3)]
    offered: list[int] = []
    last_placer = -1
    while game.tile is not None:
        seat = game.player
        if personal.of(game).last_round is not None:
            offered.append(seat)
        move = bots[seat].choose(game)
        game.play(move)
        if personal.of(game).last_round is None or (not offered and not move == DRAW):
            last_placer = seat  # the placement that used the stacks up opened the round
    assert offered, "nobody reached the last round with a hole on the board"
    order = [(last_placer + i) % 3 for i in range(1, 4)]
    assert offered == [seat for seat in order if seat in offered]  # in turn order, each at most once
    assert game.remaining == 0 and sum(personal.of(game).held) + len(personal.of(game).turns) == 3


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5), hoarders=st.sets(st.integers(0, 4)))
def test_whole_games_keep_the_invariants_and_replay_from_their_records(seed: int, players: int,
                                                                      hoarders: set[int]) -> None:
    game = play(players, seed, hoarders)
    in_game = list(game.scores)
    game.finish()
    # Every abbey placed went into a hole; each seat placed at most its one.
    for turn in personal.of(game).turns:
        assert game.history[[i for i, (_, m) in enumerate(game.history) if m is not None][turn - 1]][0] == AB
    assert all(0 <= held <= 1 for held in personal.of(game).held)
    assert sum(personal.of(game).held) + len(personal.of(game).turns) == players
    for p in range(players):
        on_board = sum(1 for _, owner, _, _ in game.on_board if owner == p)
        assert on_board + game.supply[p] == RULESET.followers
    wild = RULESET.edge_wild
    for pos, (orientation, _, tile) in game.board.items():
        if tile == AB:
            assert all(pos + step in game.board for step in SIDE_STEP)
        for side in range(4):
            neighbour = game.board.get(pos + SIDE_STEP[side])
            if neighbour is not None:
                mine, theirs = orientation.side_codes[side], neighbour[0].side_codes[(side + 2) % 4]
                assert wild in (mine, theirs) or theirs == RULESET.edge_mirror[mine]
    record = build_record(game, str(ABBEYS), [{"name": f"p{p}", "kind": "random"} for p in range(players)],
                          in_game)
    doc = load_yaml("game.json", text=json.dumps(record))
    replayed, problems = replay(doc)
    assert problems == [] and replayed.scores == game.scores


def test_the_same_seed_plays_the_same_game_with_every_bot() -> None:
    personal_turns = 0
    for players, seed in ((["random", "greedy"], 5), (["greedy", "random"], 6), (["greedy", "mcts:20"], 5)):
        first = play_game(RULESET, players, seed, ref=str(ABBEYS))
        second = play_game(RULESET, players, seed, ref=str(ABBEYS))
        assert json.dumps(first.record) == json.dumps(second.record)
        personal_turns += sum(1 for t in first.record["turns"] if t.get("personal"))
    assert personal_turns


def test_the_greedy_bot_places_its_abbey_when_that_gains_and_keeps_it_otherwise() -> None:
    from engine.bots.greedy import GreedyPlayer

    game = play_until_offered(2, seed=4)
    me = game.player
    margin = [a - b for a, b in [game.potential_scores()[me:me + 1] + [max(game.potential_scores()[:me] +
                                                                          game.potential_scores()[me + 1:])]]][0]
    chosen = GreedyPlayer(1).choose(game)
    if chosen == DRAW:  # no placement of the abbey gains anything
        trial_margins = []
        for move in game.legal_moves()[:-1]:
            trial = game.copy()
            trial.apply(move)
            scores = trial.potential_scores()
            trial_margins.append(scores[me] - max(scores[:me] + scores[me + 1:]))
        assert max(trial_margins) <= margin
    else:
        trial = game.copy()
        trial.apply(chosen)
        scores = trial.potential_scores()
        assert scores[me] - max(scores[:me] + scores[me + 1:]) >= margin


def test_a_ruleset_names_its_personal_tile(tmp_path: Path) -> None:
    from engine.errors import UserError

    path = tmp_path / "bad.yaml"
    path.write_text(f"extends: {ABBEYS}\nname: bad\ndeck:\n  personal: {{AB: ~, ZZ: 1}}\n")
    with pytest.raises(UserError, match="personal tile 'ZZ' is not a tile type") as raised:
        load_ruleset(str(path))
    assert (raised.value.diagnostics[0].line, raised.value.diagnostics[0].col) == (4, 21)
    path.write_text(f"extends: {ABBEYS}\nname: bad\ndeck:\n  personal: {{AB: 1, B: 1}}\n")
    with pytest.raises(UserError, match="one personal tile type"):
        load_ruleset(str(path))
    assert load_ruleset("basic").personal_tile == -1
