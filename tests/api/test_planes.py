"""The compact observation (engine/api/planes.py): at most 25,000 values for the basic game at
the default crop, every value in its declared bounds, seats relative to the observer, and no two
positions alike (issue 52 item 1)."""

from __future__ import annotations

import random

import pytest

from engine.api.actions import DEFAULT_CROP
from engine.api.planes import FIXED_PLANES, POINTS_SCALE, CompactLayout
from engine.api.turns import ChanceGame
from engine.geometry import pack
from engine.rules.ruleset import load_ruleset
from tests.api.test_observation import RULESETS, _key, deal, positions

numpy = pytest.importorskip("numpy", reason="the observation needs numpy")


def _filled(layout: CompactLayout, state: ChanceGame, seat: int):
    tensor = numpy.zeros(layout.size, numpy.float32)
    views = layout.views(tensor)
    layout.fill(views, state, seat)
    return tensor, views


def test_the_basic_game_at_the_default_crop_takes_at_most_25000_values() -> None:
    layout = CompactLayout(load_ruleset("basic"), 2, DEFAULT_CROP)
    assert layout.board_shape == (len(FIXED_PLANES) + 2, 35, 35) == (15, 35, 35)
    assert layout.size == 15 * 35 * 35 + 2 + 2 + 2 + 2 + 24 + 24 == 18_431 <= 25_000


@pytest.mark.parametrize("ref", RULESETS)
def test_no_two_positions_look_alike_and_every_value_is_in_bounds(ref: str) -> None:
    """As the full observation's test: random games, and at every tenth position every legal
    action tried; each tensor within [0, 1] but the points, which are points / 100."""
    ruleset = load_ruleset(ref)
    layout = CompactLayout(ruleset, 2, 35)
    low, high = numpy.array(layout.low, numpy.float32), numpy.array(layout.high, numpy.float32)
    board_size = layout.board_size
    by_tensor: dict[bytes, tuple] = {}
    seen = 0

    def check(state: ChanceGame) -> None:
        nonlocal seen
        key = _key(state)
        tensor, views = _filled(layout, state, 0)
        assert by_tensor.setdefault(tensor.tobytes(), key) == key, "two positions give one observation"
        assert tensor[:board_size].min() >= 0 and tensor[:board_size].max() <= 1
        assert (tensor[board_size:] >= low).all() and (tensor[board_size:] <= high).all()
        assert views["scores"].tolist() == pytest.approx([points / POINTS_SCALE for points in state.game.scores])
        seen += 1

    for state in positions(ruleset, random.Random(ref)):
        check(state)
    assert seen > 300


def test_seats_are_relative_to_the_observer() -> None:
    """Seat 1 observes its own follower in the first follower plane and itself to move first; seat
    0 sees the same follower in the second plane."""
    ruleset = load_ruleset("basic")
    state = ChanceGame(ruleset, 2)
    state.apply(ruleset.tile_ids["V"])
    state.apply(state.codec.place_action(pack(1, 0), 0, state.window))
    spots = [a for a in state.legal_actions() if state.codec.follower(a)[0] is not None]
    spot, _ = state.codec.follower(spots[0])
    state.apply(spots[0])  # seat 0's follower on V
    state.apply(ruleset.tile_ids["U"])  # seat 1 to move
    layout = CompactLayout(ruleset, 2, state.codec.crop)
    x0, y0 = state.window[0]
    first = len(FIXED_PLANES)
    (_, mine), (_, theirs) = _filled(layout, state, 1), _filled(layout, state, 0)
    cell = (slice(None), -y0, 1 - x0)
    at_spot = 2 ** spot / 2 ** max(len(t.segments) for t in ruleset.tiles)  # basic: no corner spots
    assert mine["board"][cell][first] == 0 and mine["board"][cell][first + 1] == at_spot
    assert theirs["board"][cell][first] == at_spot and theirs["board"][cell][first + 1] == 0
    assert mine["to_move"].tolist() == [1, 0] and theirs["to_move"].tolist() == [0, 1]
    assert mine["pieces"].tolist() == pytest.approx([1, 6 / 7])
    assert theirs["pieces"].tolist() == pytest.approx([6 / 7, 1])
    assert mine["board"][cell][6] == pytest.approx((ruleset.tile_ids["V"] + 1) / 24) and mine["board"][cell][7] == 1 / 4


def test_a_network_built_from_the_declared_spaces_trains_a_step() -> None:
    """A small policy sized from the Gymnasium environment's declared spaces alone (a 1×1
    convolution over the board planes, pooled, beside the scalars, into one logit per action),
    fed real observations: one gradient step on the masked cross-entropy of the actions played
    lowers the loss.  numpy only, so it runs wherever the pettingzoo extra is installed."""
    pytest.importorskip("gymnasium", reason="the pettingzoo extra is not installed")
    from engine.api.single_agent import CarcassonneGym

    env = CarcassonneGym("basic", opponent="random")
    board_space, scalar_space = env.observation_space["board"], env.observation_space["scalars"]
    channels, actions = board_space.shape[0], env.action_space.n
    rng = numpy.random.default_rng(0)
    conv = rng.normal(0, 0.1, (8, channels))
    head = rng.normal(0, 0.01, (8 + scalar_space.shape[0], actions))
    batch = []
    observation, info = env.reset(seed=1)
    while len(batch) < 32:
        action = int(rng.choice(numpy.flatnonzero(info["action_mask"])))
        batch.append((observation, info["action_mask"], action))
        observation, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            observation, info = env.reset(seed=len(batch))

    def loss_and_grad(conv, head):
        loss, g_conv, g_head = 0.0, numpy.zeros_like(conv), numpy.zeros_like(head)
        for seen, mask, action in batch:
            assert board_space.contains(seen["board"]) and scalar_space.contains(seen["scalars"])
            planes = seen["board"].reshape(channels, -1)
            hidden = numpy.maximum(conv @ planes, 0).mean(axis=1)
            features = numpy.concatenate([hidden, numpy.clip(seen["scalars"], -10, 10)])
            logits = numpy.where(mask, features @ head, -1e9)
            probs = numpy.exp(logits - logits.max())
            probs /= probs.sum()
            loss -= numpy.log(probs[action])
            d_logits = probs.copy()
            d_logits[action] -= 1
            g_head += numpy.outer(features, d_logits)
            d_hidden = head[:8] @ d_logits
            active = (conv @ planes > 0) / planes.shape[1]
            g_conv += (d_hidden[:, None] * active) @ planes.T
        return loss / len(batch), g_conv / len(batch), g_head / len(batch)

    before, g_conv, g_head = loss_and_grad(conv, head)
    after, _, _ = loss_and_grad(conv - 0.5 * g_conv, head - 0.5 * g_head)
    assert numpy.isfinite(before) and after < before


@pytest.mark.parametrize("ref", ["basic+river", "basic+two-maps", "basic+abbey-and-mayor"])
def test_the_planes_kept_between_observations_are_those_written_afresh(ref: str) -> None:
    """One layout observing a game move after move (its placed tiles' planes kept and added to)
    gives what a new layout gives at every position, window moves and copies included."""
    ruleset = load_ruleset(ref)
    state, rng = ChanceGame(ruleset, 2, crop=35), random.Random(ref)
    kept = CompactLayout(ruleset, 2, 35)
    checked = 0
    while True:
        deal(state, rng)
        if state.over:
            break
        for observed in (state, state.copy()) if checked % 7 == 0 else (state,):
            seat = checked % 2
            mine, _ = _filled(kept, observed, seat)
            fresh, _ = _filled(CompactLayout(ruleset, 2, 35), observed, seat)
            assert numpy.array_equal(mine, fresh)
        checked += 1
        state.apply(rng.choice(state.legal_actions()))
    assert checked > 80
