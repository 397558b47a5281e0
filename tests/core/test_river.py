"""The River over many random games: river tiles first with the lake last, the river
never turns back on itself, nobody stands on it, and every game ends."""

from __future__ import annotations

from engine.geometry import SIDE_STEP
from engine.rules.ruleset import load_ruleset
from engine.sim.play import play_game

RIVER = load_ruleset("basic+river")
RIVER_KIND = RIVER.kind("river").index
RIVER_TILES = {t.index for t in RIVER.tiles if t.group == "river"}
LAKE = RIVER.tile_ids["RL"]
SPRING = RIVER.tile_ids["RA"]


def river_cells(game) -> list[int]:
    """Positions of river tiles in the order they were placed (spring first)."""
    cells = [0]
    cells += [move.pos for tile, move in game.history if move is not None and tile in RIVER_TILES]
    return cells


def test_a_thousand_river_games() -> None:
    for seed in range(1000):
        game = play_game(RIVER, ["random", "random"], seed).game
        assert game.starts == [(SPRING, 0)]
        drawn = [tile for tile, _ in game.history]
        assert set(drawn[:11]) == RIVER_TILES - {SPRING}, seed  # the 11 river tiles come first …
        placed_river = [tile for tile, move in game.history[:11] if move is not None]
        if LAKE in placed_river:
            assert drawn[10] == LAKE  # … with the lake last
        assert len(game.board) + sum(1 for _, m in game.history if m is None) == 83
        assert game.finished
        # No follower ever on a river segment.
        for tile, move in game.history:
            if move is not None and move.follower is not None:
                assert RIVER.tiles[tile].segments[move.follower].kind != RIVER_KIND
        for segment, _, _, _ in game.on_board:
            assert game.tiles[game.board[game.seg_pos[segment]][2]].segments[
                segment - game.board[game.seg_pos[segment]][1]].kind != RIVER_KIND
        # The river never turns back: no river tile touches an earlier one other than its predecessor
        # (a U-turn would bring the river back beside itself).
        cells = river_cells(game)
        for i, cell in enumerate(cells):
            for earlier in cells[:max(0, i - 1)]:
                assert cell - earlier not in SIDE_STEP, (seed, i)
