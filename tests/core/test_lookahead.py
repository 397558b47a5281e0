"""The look-ahead's value of every candidate move equals copying the game and playing it,
under every farm rule (per farm, per city, each city once per player), with farms that
count cities alone or cities and cloisters."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots.random_player import RandomPlayer
from engine.core.choices import PLACE_DECISION, decision_kind
from engine.core.game import Game
from engine.core.lookahead import Lookahead
from engine.core.moves import Move
from engine.core.trial import BonusLookahead, PiecewiseLookahead, TrialLookahead, look_ahead
from engine.rules.ruleset import load_ruleset

BASIC = load_ruleset("basic")


def oracle(game: Game, move: Move, keep: int = 0) -> list[int]:
    """Each seat's potential after playing ``move`` on a copy, plus ``keep`` points for each follower
    in its supply up to its turns left (written out here: one a tile to draw, dealt round from the
    seat after the mover)."""
    turns = [0] * game.players
    for k in range(game.remaining):
        turns[(game.player + 1 + k) % game.players] += 1
    trial = game.copy()
    trial.apply(move)
    return [points + keep * min(n, t) for points, n, t in zip(trial.potential_scores(), trial.supply, turns)]


RULESETS = [BASIC, load_ruleset("first-edition"), load_ruleset("second-edition"),
            load_ruleset("basic+river+own-follower-may-join"),
            # Farms that count two kinds (cities and cloisters) under each farm rule.
            load_ruleset("basic+farms-pay-cloisters"), load_ruleset("first-edition+farms-pay-cloisters"),
            load_ruleset("second-edition+river+farms-pay-cloisters")]


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), stop=st.integers(1, 80),
       which=st.integers(0, len(RULESETS) - 1), keep=st.sampled_from([0, 0, 2, 3]))
def test_lookahead_matches_playing_each_move(seed: int, players: int, stop: int, which: int, keep: int) -> None:
    """Every value, with or without ``keep`` points a follower in the supply (followers deployed,
    and those back from the features the tile completes, counted as playing the move counts them)."""
    game = Game(RULESETS[which], players, seed)
    bots = [RandomPlayer(f"{seed}:{p}") for p in range(players)]
    checked = 0
    while game.tile is not None and game.turn < stop:
        if game.turn % 3 == 0 or game.turn + 1 == stop:
            found = dict(Lookahead(game, keep).moves())
            assert set(found) == set(game.legal_moves())
            for move, vector in found.items():
                assert vector == oracle(game, move, keep), (game.turn, move)
                checked += 1
        game.play(bots[game.player].choose(game))
    assert checked > 0


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), stop=st.integers(1, 60), which=st.integers(0, len(RULESETS) - 1))
def test_playing_each_move_on_a_copy_agrees_with_the_look_ahead(seed: int, stop: int, which: int) -> None:
    """The trial look-ahead that rulesets with game-end bonuses use gives, where both apply,
    the look-ahead's values: move for move, seat for seat."""
    game = Game(RULESETS[which], 3, seed)
    bots = [RandomPlayer(f"{seed}:{p}") for p in range(3)]
    while game.tile is not None and game.turn < stop:
        game.play(bots[game.player].choose(game))
    if game.tile is not None:
        assert dict(TrialLookahead(game).moves()) == dict(Lookahead(game).moves())
        assert dict(TrialLookahead(game, 2).moves()) == dict(Lookahead(game, 2).moves())


def test_a_ruleset_with_bonuses_looks_ahead_by_features_and_by_trial() -> None:
    ruleset = load_ruleset("basic+longest-road-bonus")
    game = Game(ruleset, 2, 1, draw_order=[ruleset.tile_ids["U"]] * 2)
    assert isinstance(look_ahead(game), BonusLookahead)
    # Special follower types and wild sides piecewise; beside bonuses or pooled farms, by trial.
    assert isinstance(look_ahead(Game(load_ruleset("basic+abbey-and-mayor"), 2, 1)), PiecewiseLookahead)
    assert isinstance(look_ahead(Game(load_ruleset("basic+abbey-and-mayor+longest-road-bonus"), 2, 1)), TrialLookahead)
    assert isinstance(look_ahead(Game(load_ruleset("first-edition+abbey-and-mayor"), 2, 1)), TrialLookahead)
    assert isinstance(look_ahead(Game(load_ruleset("basic+inns-and-cathedrals"), 2, 1)), Lookahead)
    assert isinstance(look_ahead(Game(BASIC, 2, 1)), Lookahead)
    # A straight road U joining D's road, with a thief: 2 tiles unfinished (2 points) and the
    # only road held, so the bonus too (5): 7 if the game ended now.
    moves = dict(look_ahead(game).moves())
    road = ruleset.kind("road").index
    values = [vector[0] for move, vector in moves.items()
              if move.follower is not None and game.tiles[game.tile].segments[move.follower].kind == road]
    assert max(values) == 7


ORDERED = [load_ruleset("basic+inns-and-cathedrals+traders-and-builders"), load_ruleset("basic+abbey-and-mayor")]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), stop=st.integers(1, 70), which=st.integers(0, len(ORDERED) - 1))
def test_the_look_ahead_lists_each_placements_options_in_the_games_order(seed: int, stop: int, which: int) -> None:
    """The look-ahead takes its deploy choices from the groups it forms (deployment.choices_given),
    not from the game: per placement, no follower first, then exactly the game's deploy choices in
    the game's order, with several follower types (the large one, builder, pig; the mayor, wagon,
    barn on a corner) and wild sides (the abbey, whose placements the piecewise look-ahead plays
    on a copy)."""
    game = Game(ORDERED[which], 2, seed)
    bots = [RandomPlayer(f"{seed}:{p}") for p in range(2)]
    while game.tile is not None and game.turn < stop:
        game.play(bots[game.player].choose(game))
    if game.tile is None or decision_kind(game) is not PLACE_DECISION:  # the game over, or a wagon to move on
        return
    look = look_ahead(game)
    for pos, rotation in game.placements():
        listed = [(j, t) for j, t, _ in look.potentials(pos, rotation)]
        assert listed == [(None, 0), *game.deploy_choices(pos, rotation)], (pos, rotation)
