"""Wild sides (edge letter ``*``) and the ``hole`` placement rule: a wild side fits any
neighbour, joins nothing and ends each feature crossing the side it meets, whichever of the
two tiles was placed first; a tile held to ``hole`` goes only into a cell with enough placed
neighbours, and is discarded when drawn where there is none.  Scenario 83 pins the abbey's
rule values."""

from __future__ import annotations

from pathlib import Path

from engine.core.game import Game
from engine.core.moves import IllegalMove, Move
from engine.core.trial import PiecewiseLookahead, look_ahead
from engine.geometry import SIDE_STEP, pack
from engine.rules.ruleset import load_ruleset
from engine.sim.play import play_game

ABBEYS = Path(__file__).parents[1] / "scenarios" / "rulesets" / "abbey-tiles.yaml"


def three_sided(tmp_path: Path) -> Path:
    """The abbey tiles with a hole rule of three sides, so a tile can come next to an abbey later."""
    path = tmp_path / "three.yaml"
    path.write_text(f"extends: {ABBEYS}\nname: three\nconstraints:\n"
                    "  abbey-fills-holes: {rule: hole, tiles: [AB], neighbors: 3}\n")
    return path


def test_a_wild_side_meets_any_side_and_is_its_own_mirror() -> None:
    ruleset = load_ruleset(str(ABBEYS))
    wild = ruleset.edge_wild
    assert wild > 0 and ruleset.edge_mirror[wild] == wild
    abbey = ruleset.tiles[ruleset.tile_ids["AB"]]
    assert all(code == wild for o in abbey.orientations for code in o.side_codes)
    assert load_ruleset("basic").edge_wild == -1


def test_an_abbey_drawn_with_no_hole_on_the_board_fits_nowhere() -> None:
    ruleset = load_ruleset(str(ABBEYS))
    game = Game(ruleset, 2, draw_order=[ruleset.tile_ids["AB"], ruleset.tile_ids["U"]])
    # the abbey fitted nowhere beside the lone start tile, and was discarded for the next tile
    assert game.history == [(ruleset.tile_ids["AB"], None)] and game.tile == ruleset.tile_ids["U"]


def test_a_tile_placed_against_an_abbey_ends_its_feature_there(tmp_path: Path) -> None:
    ruleset = load_ruleset(str(three_sided(tmp_path)))
    ids = ruleset.tile_ids
    # U, U either side of D, then B north-west: the cell (0,-1) touches D, and (−1,−1)/(1,−1) next.
    order = [ids[t] for t in ("U", "U", "E", "E", "AB", "E")]
    game = Game(ruleset, 2, draw_order=order)
    game.play(Move(pack(-1, 0), 1))
    game.play(Move(pack(1, 0), 1))
    game.play(Move(pack(-1, -1), 1))          # E turned: city east, toward the hole
    game.play(Move(pack(1, -1), 3))           # E turned: city west, toward the hole
    game.play(Move(pack(0, -1), 0))           # the abbey, three sides: ends D's city and both caps
    assert game.placements() and game.tile == ids["E"]
    # E turned to face the abbey from the north: its city ends at the abbey's wild side at once.
    scored = game.play(Move(pack(0, -2), 2, 0))
    assert [(e.kind, e.points, e.players) for e in scored] == [("city", 2, (1,))]
    assert game.scores == [0, 2] and game.supply == [7, 7]


def test_the_hole_rule_is_checked_and_worded(tmp_path: Path) -> None:
    ruleset = load_ruleset(str(ABBEYS))
    game = Game(ruleset, 2, draw_order=[ruleset.tile_ids["U"], ruleset.tile_ids["AB"]])
    game.play(Move(pack(1, 0), 1))
    game.force_tile(ruleset.tile_ids["AB"])
    try:
        game.check(Move(pack(1, -1), 0))
    except IllegalMove as error:
        assert (error.reason, str(error)) == (
            "placement", "the tile goes only into a cell with tiles on 4 of its sides")
    else:
        raise AssertionError("an abbey beside one tile was allowed")


def test_bots_weigh_moves_piecewise_and_play_whole_games_with_abbeys() -> None:
    ruleset = load_ruleset(str(ABBEYS))
    abbey = ruleset.tile_ids["AB"]
    assert isinstance(look_ahead(Game(ruleset, 2, 1)), PiecewiseLookahead)
    for seed in range(3):
        game = play_game(ruleset, ["greedy", "random"], seed).game
        assert game.finished and len(game.history) == 71 + 2  # every tile placed or discarded
        # Replayed, each abbey went into a cell with a tile on every side at the time.
        replay = Game(ruleset, 2, draw_order=[tile for tile, _ in game.history])
        for tile, move in game.history:
            if move is None:
                continue
            if tile == abbey:
                assert all(move.pos + step in replay.board for step in SIDE_STEP)
            replay.play(move)


def test_a_hole_is_asked_once_an_edge_constraint_and_answered_alike() -> None:
    """The abbey's ``hole`` rule reads only the cell's edge constraint, so each constraint keeps its
    answers (``Constraint.answers``): asked again, in any order, each key gets the rule's own answer,
    a cell touched on four sides is a hole and one with a side free is not."""
    ruleset = load_ruleset(str(ABBEYS))
    hole = next(c for constraints in ruleset.constraints for c in constraints if c.rule == "hole")
    base = ruleset.edge_base
    keys = [sum(code * base**side for side, code in enumerate(codes))
            for codes in ((1, 1, 1, 1), (1, 0, 1, 1), (0, 0, 0, 1), (2, 1, 2, 1), (0, 2, 2, 2))]
    first = [hole.allows_cell(key, base) for key in keys]
    assert first == [True, False, False, True, False]
    assert [hole.allows_cell(key, base) for key in reversed(keys)] == first[::-1]
    assert [hole.answers[key] for key in keys] == first  # kept (beside those of games played before)
