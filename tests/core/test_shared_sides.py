"""A side two segments share (the tile format's ``shares``; Hills & Sheep's CC!.v): the feature
graph's open-side counts, the look-ahead and the follower rule agree with a count made from the
board alone, on decks where such sides meet each other, caps, walls and cloisters."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots.random_player import RandomPlayer
from engine.core.game import Game
from engine.core.lookahead import Lookahead
from engine.core.trial import TrialLookahead
from engine.geometry import SIDE_STEP
from engine.rules.ruleset import load_ruleset
from engine.rules.tiles import SIDE

RULESET = load_ruleset("basic+vineyards")
#: Tiles that make shared sides meet often: CC!.v, city caps, the four-city tile, a corner city.
MIX = ["HS_CC_v", "HS_CC_v", "E", "C", "N", "HS_CC_v", "E", "D", "HS_Cc_v"]


def _recounted_open(game: Game) -> dict[int, int]:
    """Per root of a ``closed`` feature, its open sides counted from the board: each side a
    member segment holds or shares whose cell across is empty (no wild sides in this ruleset)."""
    counted: dict[int, int] = {}
    for pos, (orientation, base, index) in game.board.items():
        tile = game.tiles[index]
        for j in tile.closing:
            kind = game.ruleset.kinds[tile.segments[j].kind]
            held = {p // 3 for p in orientation.segment_ports[j]}
            if kind.ports != SIDE:
                held = {p // 3 for p in orientation.segment_ports[j] if p % 3 == 1}
            shared = {side for side in range(4) for k, _, _ in orientation.shared[side] if k == j}
            empty = sum(1 for side in held | shared if pos + SIDE_STEP[side] not in game.board)
            root = game.find(base + j)
            counted[root] = counted.get(root, 0) + empty
    return counted


def _game(seed: int, players: int) -> Game:
    ids = RULESET.tile_ids
    order = [ids[MIX[(seed + k) % len(MIX)]] for k in range(40)]
    return Game(RULESET, players, seed, draw_order=order)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_open_sides_match_the_board(seed: int, players: int) -> None:
    """After every placement, every city's and road's open-side count is the board's own count:
    a shared side stays open for both cities until a tile is placed across it."""
    game = _game(seed, players)
    bots = [RandomPlayer(f"{seed}:{p}") for p in range(players)]
    shared_met = 0
    while game.tile is not None:
        game.play(bots[game.player].choose(game))
        for root, count in _recounted_open(game).items():
            assert game.open[root] == count, (game.turn, root)
        shared_met += sum(1 for pos, (o, _, _) in game.board.items() for side in range(4)
                          if o.shared[side] and pos + SIDE_STEP[side] in game.board)
    assert shared_met > 0  # the deck does make shared sides meet a neighbour


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), stop=st.integers(1, 35))
def test_the_look_ahead_agrees_with_playing_each_move(seed: int, stop: int) -> None:
    """The features' look-ahead values every move as playing it on a copy does, seat for seat,
    with shared sides on the tile placed and on its neighbours."""
    game = _game(seed, 3)
    bots = [RandomPlayer(f"{seed}:{p}") for p in range(3)]
    while game.tile is not None and game.turn < stop:
        game.play(bots[game.player].choose(game))
    if game.tile is not None:
        assert dict(Lookahead(game).moves()) == dict(TrialLookahead(game).moves())
