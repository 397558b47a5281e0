"""The look-aheads keep what a move leaves as it was: the trial keeps each untouched feature's end
score between candidates (engine/core/known_ends.py), and under bonuses the features' look-ahead
adds the bonuses as they stand where a move leaves their inputs alone (engine/core/trial.py,
BonusLookahead).  Every candidate's value must still equal scoring the whole board after playing
the move on a copy, under every shipped ruleset and option, the test rulesets with follower types,
wild sides, hills and vineyards, and every expansion at once."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots.random_player import RandomPlayer
from engine.core import moving
from engine.core.game import Game
from engine.core.hands import of as hands_of
from engine.core.known_ends import RULES, KnownEnds
from engine.core.moves import Move
from engine.core.trial import TrialLookahead, look_ahead
from engine.rules.inspect import shipped_games
from engine.rules.ruleset import load_ruleset

TEST_RULESETS = Path(__file__).parents[1] / "scenarios" / "rulesets"
EVERY = "+".join(["inns-and-cathedrals", "traders-and-builders", "abbey-and-mayor", "king-and-robber-baron",
                  "hills", "vineyards", "longest-road-bonus", "farms-pay-cloisters"])
REFS = [*shipped_games(), f"basic+{EVERY}", f"first-edition+{EVERY}", f"second-edition+river+{EVERY}",
        *(str(TEST_RULESETS / name) for name in ("mayor.yaml", "wagon.yaml", "barn.yaml", "abbey-tiles.yaml",
                                                 "goods.yaml", "short-roads.yaml", "small-cloisters.yaml",
                                                 "hills.yaml", "vineyards.yaml", "large-follower.yaml",
                                                 "helper-follower.yaml", "zero-strength-own.yaml"))]
#: The rulesets whose bots weigh moves by features since issue 48 (follower types of a fixed strength,
#: bonuses and titles, tie-breaks, around inputs; special types and wild sides piecewise): checked more often.
BY_FEATURES = ["basic+abbey-and-mayor", "basic+hills+vineyards", "basic+inns-and-cathedrals+traders-and-builders",
               "basic+king-and-robber-baron", "basic+longest-road-bonus",
               "basic+inns-and-cathedrals+hills+vineyards+longest-road-bonus",
               *(str(TEST_RULESETS / name) for name in ("hills.yaml", "zero-strength-own.yaml",
                                                        "title-from-the-start.yaml", "never-complete-around.yaml",
                                                        "mayor.yaml", "wagon.yaml", "barn.yaml", "abbey-tiles.yaml"))]


def whole_board(game: Game, move: Move, keep: int) -> list[int]:
    """Each seat's score if the game ended after ``move``, the whole board scored on a copy, plus
    ``keep`` points for each follower in its supply up to its turns left (one a tile to draw, dealt
    round from the seat after the mover)."""
    turns = [0] * game.players
    for k in range(game.remaining):
        turns[(game.player + 1 + k) % game.players] += 1
    trial = game.copy()
    trial.explain = False
    trial.apply(move)
    return [points + keep * min(n, t) for points, n, t in zip(trial.potential_scores(), trial.supply, turns)]


def check_candidates(ref: str, seed: int, players: int, stop: int, every: tuple[int, ...] = (1,)) -> None:
    """Every candidate's value by each look-ahead equals the whole board's, on the turns whose
    remainder by 4 is in ``every`` (default every fourth turn, from turn 1) of a random game until
    turn ``stop``."""
    ruleset = load_ruleset(ref)
    players = min(max(players, ruleset.min_players), ruleset.max_players)
    game = Game(ruleset, players, seed)
    bots = [RandomPlayer(f"{seed}:{p}") for p in range(players)]
    checked = 0
    while game.tile is not None and game.turn < stop:
        if (not moving.of(game).movers and not (hands_of(game) is not None and hands_of(game).picking)
                and game.turn % 4 in every):
            keep = 2 if game.turn % 8 == 1 else 0
            for looking in (TrialLookahead(game, keep), look_ahead(game, keep)):
                for move, vector in looking.moves():
                    assert vector == whole_board(game, move, keep), (ref, game.turn, move, type(looking))
                    checked += 1
        game.play(bots[game.player].choose(game))
    assert checked > 0 or game.turn < 2


@settings(max_examples=150, deadline=None)
@given(which=st.integers(0, len(REFS) - 1), seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4),
       stop=st.integers(2, 90))
def test_every_candidate_is_worth_what_scoring_the_whole_board_gives(which: int, seed: int, players: int,
                                                                     stop: int) -> None:
    check_candidates(REFS[which], seed, players, stop)


@settings(max_examples=60, deadline=None)
@given(which=st.integers(0, len(BY_FEATURES) - 1), seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5),
       stop=st.integers(20, 90))
def test_the_rulesets_weighed_by_features_agree_with_the_whole_board(which: int, seed: int, players: int,
                                                                     stop: int) -> None:
    check_candidates(BY_FEATURES[which], seed, players, stop)


def test_a_feature_the_move_changes_far_away_is_scored_again() -> None:
    """A follower sent home far from the tile (here by hand, as a trigger might) changes the feature's
    packed followers: its kept score is not used, though no tile was placed near it."""
    game = Game(load_ruleset("basic"), 2, 3)
    bots = [RandomPlayer(f"3:{p}") for p in range(2)]
    while not game.occupied_roots():
        game.play(bots[game.player].choose(game))
    known = KnownEnds(game)
    root = game.occupied_roots()[0]
    known.near(max(game.board) + 10 ** 6)  # no tile anywhere near
    trial = game.copy()
    known.watch(trial)
    assert any(known.get(root, rule) is not None for rule in RULES)
    trial.fol[root] = 0
    assert all(known.get(root, rule) is None for rule in RULES)


def test_a_title_passed_by_a_move_that_completes_nothing_is_weighed() -> None:
    """The review's case: at turn 0 a title worth 4 to the latest seat passes with the first
    placement, whatever it completes (seed 1, 2 players: the second seat takes it)."""
    check_candidates(str(TEST_RULESETS / "title-from-the-start.yaml"), 1, 2, 1, every=(0,))


def test_a_tile_beside_a_cloister_that_never_completes_changes_its_around_count() -> None:
    """The review's case: seed 4, 2 players, a tile placed at turn 9 beside an occupied cloister
    that never completes and counts the cities around it."""
    check_candidates(str(TEST_RULESETS / "never-complete-around.yaml"), 4, 2, 12, every=(0, 1, 2, 3))
