"""Mechanisms at named moments (engine/core/mechanisms.py) and decisions (Game.decision).

The turn loop names no mechanism: game.py's turn methods read no ruleset setting and call no
mechanism module.  A mechanism added beside the registry runs at its moments in the written
order, and a decision kind it adds is played by every bot without a line of bot code.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.bots.greedy import GreedyPlayer
from engine.bots.mcts import MctsPlayer
from engine.bots.random_player import RandomPlayer
from engine.core.game import Game
from engine.core.mechanism import DecisionKind, Mechanism
from engine.core.mechanisms import REGISTRY, moments_for
from engine.core.moves import IllegalMove, Move
from engine.geometry import RING8
from engine.rules.ruleset import load_ruleset

#: The methods that make up the turn loop.
TURN_LOOP = ("play", "pass_turn", "open_turn", "draw_one", "apply", "draw_or_wait", "discard", "_draw")
#: Every module of engine/core that holds a mechanism's registry entry (read from the files, so a new one is covered).
MECHANISM_MODULES = {path.stem for path in (Path(__file__).parents[2] / "engine" / "core").glob("*.py")
                     if "\nMECHANISM: Mechanism = " in path.read_text()}


#: The turn loop's source (read from the file: the compiled build's module has none to inspect).
GAME_SOURCE = Path(__file__).parents[2] / "engine" / "core" / "game.py"


def _turn_loop_nodes() -> list[ast.FunctionDef]:
    tree = ast.parse(GAME_SOURCE.read_text())
    game_class = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Game")
    return [n for n in game_class.body if isinstance(n, ast.FunctionDef) and n.name in TURN_LOOP]


def test_the_turn_loop_names_no_mechanism() -> None:
    assert {"burial", "hands", "personal", "extra_turns", "triggered", "titles", "moving"} <= MECHANISM_MODULES
    assert len(MECHANISM_MODULES) == len(REGISTRY)
    methods = _turn_loop_nodes()
    assert {m.name for m in methods} == set(TURN_LOOP)
    for method in methods:
        for node in ast.walk(method):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute):
                assert node.value.attr != "ruleset", f"{method.name} reads ruleset.{node.attr}"
            if isinstance(node, ast.Name):
                assert node.id not in MECHANISM_MODULES, f"{method.name} calls {node.id}"
            if isinstance(node, ast.Attribute):
                assert node.attr not in ("hands", "movers", "personal_turn", "last_round", "tokens", "held", "closed",
                                         "titles"), \
                    f"{method.name} reads a mechanism's state ({node.attr})"
    imported = {alias.name for node in ast.walk(ast.parse(GAME_SOURCE.read_text()))
                if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert not imported & MECHANISM_MODULES


def test_a_ruleset_runs_only_the_mechanisms_it_uses() -> None:
    assert load_ruleset("basic") is not None
    assert Game(load_ruleset("basic"), 2, seed=1).moments.mechanisms == ()
    names = {m.name for m in Game(load_ruleset("basic+abbey-and-mayor"), 2, seed=1).moments.mechanisms}
    assert names == {"personal tiles", "score triggers", "followers that move on"}
    names = {m.name for m in Game(load_ruleset("basic+king-and-robber-baron+hills"), 2, seed=1).moments.mechanisms}
    assert names == {"titles", "tallies", "burial"}  # the titles read what the tallies gather


def _journal(seen: list[str]) -> Mechanism:
    """A toy mechanism that notes every moment it is called at."""
    def note(name: str, result: object = None):
        def handler(*args: object) -> object:
            seen.append(name)
            return [] if result == "events" else result
        return handler
    return Mechanism("journal", lambda ruleset: True, turn_start=note("turn start", False),
                     drawn=note("tile drawn"), placed=note("tile placed"), deployed=note("deployed", "events"),
                     completed=note("completed", "events"), feature_scored=note("feature scored"),
                     scored=note("scored", "events"),
                     holds=note("holds", False), turn_end=note("turn end"))


def test_a_mechanism_runs_at_its_moments_in_the_turns_order() -> None:
    ruleset = load_ruleset("basic")
    ids = ruleset.tile_ids
    seen: list[str] = []
    game = Game(ruleset, 2, draw_order=[ids["U"], ids["U"]], start=(ids["U"], 0),
                mechanisms=REGISTRY + (_journal(seen),))
    assert seen == ["turn start", "tile drawn"]
    road = next(j for j, s in enumerate(ruleset.tiles[ids["U"]].segments) if ruleset.kinds[s.kind].name == "road")
    pos, rotation = next((p, r) for p, r in game.placements() if game.local(p)[1:] == (0, 1))
    game.play(Move(pos, rotation, road))  # a road north–south below the start tile's: nothing completes
    assert seen[2:] == ["tile placed", "deployed", "scored", "holds", "turn end", "turn start", "tile drawn"]


def test_a_completed_feature_is_told_to_the_completed_moment_occupied_or_not() -> None:
    """A city of two tiles closed with nobody on it: the ``completed`` handlers hear of it (a
    mechanism listening to completions makes unoccupied ones count), ``feature scored`` does not
    (no followers go home); with a follower on it, both, ``completed`` first."""
    ruleset = load_ruleset("basic")
    ids = ruleset.tile_ids
    plain = Game(ruleset, 2, draw_order=[ids["E"], ids["E"]], start=(ids["E"], 0))
    closing = next((p, r) for p, r in plain.placements() if _closes_a_city(plain, p, r))
    city = next(j for j, s in enumerate(ruleset.tiles[ids["E"]].segments) if ruleset.kinds[s.kind].name == "city")
    for follower in (False, True):
        seen: list[str] = []
        game = Game(ruleset, 2, draw_order=[ids["E"], ids["E"]], start=(ids["E"], 0),
                    mechanisms=REGISTRY + (_journal(seen),))
        game.play(Move(*closing, city) if follower else Move(*closing))
        moments = seen[2:seen.index("scored") + 1]
        assert moments == ["tile placed", *(["deployed"] if follower else []), "completed",
                           *(["feature scored"] if follower else []), "scored"], follower


def _closes_a_city(game: Game, pos: int, rotation: int) -> bool:
    """Whether placing the current tile at ``pos``, ``rotation`` closes a city (on a copy)."""
    after = game.copy()
    after.play(Move(pos, rotation))
    _, base, tile = after.board[pos]
    return any(after.ruleset.kinds[s.kind].name == "city" and after.open[after.find(base + j)] == 0
               for j, s in enumerate(after.tiles[tile].segments))


TOY = 7  # a move kind no shipped mechanism uses


class Asked:
    """The toy decision's state: whether the player is to confirm, and how often they did."""

    def __init__(self, asked: bool = False, confirmed: int = 0) -> None:
        self.asked, self.confirmed = asked, confirmed

    def copy(self) -> "Asked":
        return Asked(self.asked, self.confirmed)


def _confirm() -> Mechanism:
    """A toy decision: after each placement the player confirms it (one option), then the turn passes."""
    def holds(game: Game) -> bool:
        game.states["confirm"].asked = True
        return True

    def play(game: Game, move: Move, draw: bool) -> list:
        state = game.states["confirm"]
        state.asked, state.confirmed = False, state.confirmed + 1
        game.pass_turn(draw)
        return []

    def check(game: Game, move: Move) -> None:
        if move.kind != TOY:
            raise IllegalMove("placement", "confirm first")

    kind = DecisionKind("confirm", lambda game: game.states["confirm"].asked, lambda game: [Move(0, 0, kind=TOY)],
                        check, (TOY,))
    return Mechanism("confirm", lambda ruleset: True, state=lambda game: Asked(), holds=holds, decisions=(kind,),
                     plays={TOY: play})


@pytest.mark.parametrize("player", [RandomPlayer(1), GreedyPlayer(1), MctsPlayer(1, iterations=8)],
                         ids=["random", "greedy", "mcts"])
def test_a_new_decision_kind_is_played_by_every_bot_without_bot_code(player) -> None:
    game = Game(load_ruleset("basic+short-game"), 2, seed=3, mechanisms=REGISTRY + (_confirm(),))
    placed = 0
    while game.tile is not None:
        decision = game.decision()
        assert decision is not None and decision.player == game.player
        if decision.name == "confirm":
            assert decision.options() == [Move(0, 0, kind=TOY)]
            with pytest.raises(IllegalMove, match="confirm first"):
                game.check(Move(0, 0))
        move = player.choose(game)
        placed += decision.name == "place"
        before, copy = game.states["confirm"].confirmed, game.copy()
        game.play(move)
        assert copy.states["confirm"].confirmed == before  # the copy owns its state: playing on leaves it
    assert game.states["confirm"].confirmed == placed > 0


def test_two_mechanisms_may_not_both_replace_the_draw() -> None:
    other = Mechanism("another hand", lambda ruleset: True, draw=lambda game, draw: None)
    with pytest.raises(ValueError, match="two mechanisms replace the draw: hands of tiles, another hand"):
        moments_for(load_ruleset("basic+hand-of-two"), REGISTRY + (other,))


@pytest.mark.parametrize("ref, expected", [("basic", "place"), ("basic+hand-of-two", "pick"),
                                           ("basic+abbey-and-mayor", "place")])
def test_the_first_decision_of_a_game(ref: str, expected: str) -> None:
    game = Game(load_ruleset(ref), 2, seed=5)
    decision = game.decision()
    assert decision is not None and decision.name == expected and decision.player == 0
    assert decision.options() == game.legal_moves()


def test_no_decision_once_the_game_is_over() -> None:
    game = Game(load_ruleset("basic+short-game"), 2, seed=2)
    bot = RandomPlayer(2)
    while game.tile is not None:
        game.play(bot.choose(game))
    assert game.decision() is None


def _start_bonus() -> Mechanism:
    """The worked example of docs/architecture.md: a tile around the start tile earns one more turn."""
    def placed(game: Game, tile: int, base: int) -> None:
        pos = game.history[-1][1].pos
        if not game.extra_turn and pos - game.origin(game.map) in RING8:
            game.earned_turn = True
    return Mechanism("start bonus", lambda ruleset: True, placed=placed)


def test_a_turn_earned_by_any_mechanism_is_played_and_noted_whatever_the_registry_order() -> None:
    """Before the builder's mechanism in the registry, the toy's turn survives it; the core plays
    the extra turn at once (same seat), notes it for records, and it earns no third."""
    ruleset = load_ruleset("basic+traders-and-builders")
    game = Game(ruleset, 2, seed=4, mechanisms=(_start_bonus(),) + REGISTRY)
    game.play(Move(*game.placements()[0]))  # every first placement touches the start tile
    assert (game.player, game.extra_turn, game.extra_turns, game.seats) == (0, True, (), [0])
    game.play(Move(*game.placements()[0]))  # around the start tile again: an extra turn earns none
    assert (game.player, game.extra_turn, game.extra_turns, game.seats) == (1, False, (2,), [0, 0])
