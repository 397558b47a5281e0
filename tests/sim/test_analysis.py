"""The designer's report's figures (engine/sim/analysis.py) on constructed rows whose values are
worked out by hand, a sweep whose effect is known, and the same report on any number of workers."""

from __future__ import annotations

import pytest

from engine.errors import UserError
from engine.rules.ruleset import load_ruleset
from engine.sim.analysis import UnitColumns, collect, summarise
from engine.sim.simulate import Job, run
from engine.sim.traced import Unit, analyse_chunk, load_unit_ruleset, traced_game


def row(scores, replay, winners=None, skill=None, **game) -> dict:
    """A constructed deal: the game's final scores (nothing in game), its replay's, the skill plays
    (of the ladder's one rung)."""
    top = max(scores)
    ranked = sorted(scores, reverse=True)
    base = {"scores": scores, "in_game": [0] * len(scores), "winners": winners or [p for p, s in enumerate(scores)
                                                                                   if s == top],
            "margin": ranked[0] - ranked[1], "turns": 10, "milliseconds": 40, "discarded": 0, "buried": 0,
            "by_kind": {"road": sum(scores)},
            "lead_changes": 1, "decided": 0.5, "comeback": False, "branching": 20.0, "followers_out": 3.0}
    return {"seed": 0, "unit": "u", "game": base | game, "replay": replay, "skill": [skill] if skill else []}


def report_of(rows: list[dict]) -> dict:
    skilled = any(r["skill"] for r in rows)
    unit = UnitColumns("u", 2, ["road"], ladder=("weak", "strong") if skilled else ())
    collect(([r] for r in rows), [unit])
    (report,), _ = summarise([unit])
    return report


def test_balance_counts_a_tie_as_half_a_win() -> None:
    # Seat 0 wins deals 1 and 2, seat 1 deal 3, deal 4 is a tie: seat 0 has 2.5 of 4 = 62.5 %.
    report = report_of([row([10, 5], [10, 5]), row([8, 2], [8, 2]), row([3, 9], [3, 9]), row([6, 6], [6, 6])])
    balance = report["balance"]
    assert [s["mean"] for s in balance["win_rate_by_seat"]] == [0.625, 0.375]
    assert balance["first_seat_advantage"]["mean"] == 0.125
    assert [s["mean"] for s in balance["mean_score_by_seat"]] == [6.75, 5.5]
    assert report["tension"]["winning_margin"]["mean"] == (5 + 6 + 6 + 0) / 4


def test_luck_is_all_the_deal_when_its_replay_always_agrees() -> None:
    rows = [row([10 + k, 5], [10 + k, 5]) for k in range(8)]  # margins 5…12, each deal played alike twice
    assert report_of(rows)["luck"]["deal_share"]["mean"] == 1.0


def test_luck_is_none_of_the_deal_when_the_replays_disagree_as_much_as_deals_differ() -> None:
    # Margins of the two plays: (+5, −5) and (−5, +5): each deal's mean is 0, everything is the play.
    rows = [row([10, 5], [5, 10]), row([5, 10], [10, 5])] * 4
    assert report_of(rows)["luck"]["deal_share"]["mean"] == 0.0  # an estimate of −1, read as none
    rows = [row([10, 5], [10, 5]), row([10, 5], [5, 10]), row([5, 10], [10, 5]), row([5, 10], [5, 10])]
    # Deal means +5, 0, 0, −5 (Var(a) = 50); within-deal differences 0, 10, −10, 0 (E[d²] = 50): 0 / 100.
    assert report_of(rows)["luck"]["deal_share"]["mean"] == 0.0


def test_skill_is_the_strong_players_share_over_seat_swapped_plays() -> None:
    # Deal 1: the strong player wins both plays; deal 2: wins one, loses one; deal 3: a tie and a win.
    rows = [row([1, 0], [1, 0], skill=[[30, 20], [25, 10]]), row([1, 0], [1, 0], skill=[[30, 20], [10, 25]]),
            row([1, 0], [1, 0], skill=[[20, 20], [21, 20]])]
    report = report_of(rows)
    skill = report["skill"]
    assert report["ladder"] == [{"weak": "weak", "strong": "strong"} | skill]
    assert skill["win_rate"]["mean"] == pytest.approx((1000 + 500 + 750) / 3 / 1000, abs=1e-4)
    assert skill["mean_margin"]["mean"] == pytest.approx((10 + 15 + 10 - 15 + 0 + 1) / 6, abs=1e-4)  # per play


def test_differences_are_paired_and_say_when_they_cannot_separate() -> None:
    a, b = UnitColumns("a", 2, ["road"]), UnitColumns("b", 2, ["road"])
    same = [row([10, 5], [10, 5]), row([3, 9], [3, 9])] * 5
    collect(([x, x] for x in same), [a, b])
    _, (difference,) = summarise([a, b])
    assert difference["first_seat_win_rate"] == {"mean": 0.0, "ci95": [0.0, 0.0], "games": 10, "separated": False,
                                                 "deals_needed": None}


def test_a_sweep_of_the_farm_points_scales_the_field_points_exactly() -> None:
    """Random bots never read the scores, so the games under farm_points 1, 2 and 3 are the same
    games, and the fields pay exactly 1, 2 and 3 times as much (RULES.md §3.1: farm_points per
    completed city)."""
    units = [Unit("basic", ("random", "random"), {"farm_points": v}) for v in (1, 2, 3)]
    rows = analyse_chunk(tuple(u.key() for u in units), (), (11, 12, 13))
    for per_seed in rows:
        fields = [r["game"]["by_kind"]["field"] for r in per_seed]
        assert fields == [fields[0], 2 * fields[0], 3 * fields[0]]
        assert len({r["game"]["turns"] for r in per_seed}) == 1
    assert any(per_seed[0]["game"]["by_kind"]["field"] for per_seed in rows)  # a farm paid somewhere: not 0 = 0


def test_a_sweep_of_a_constant_the_ruleset_lacks_is_refused() -> None:
    with pytest.raises(UserError, match="basic has no constant 'farm_pts' to sweep \\(its constants: farm_points\\)"):
        load_unit_ruleset("basic", {"farm_pts": 2})


def test_a_traced_game_measures_what_it_played() -> None:
    game = traced_game(load_ruleset("basic"), ["greedy", "random"], 7)
    assert sum(game["by_kind"].values()) == sum(game["scores"])
    assert 0 <= game["decided"] <= 1 and game["lead_changes"] >= 0 and game["turns"] == 71
    assert game["branching"] > 1 and 0 < game["followers_out"] <= 14


def test_the_report_is_the_same_on_one_worker_or_two() -> None:
    units = (Unit("basic", ("random", "greedy"), {}, ("random", "greedy")).key(),)
    job = Job(units, ("random", "greedy"), 5, 6, task=analyse_chunk, chunk=2)
    one = [r for r in run(job, workers=1)]
    two = [r for r in run(job, workers=2)]
    for rows in (one, two):  # the games' wall time is the machine's, not the game's
        for per_seed in rows:
            for r in per_seed:
                assert r["game"].pop("milliseconds") >= 0
    assert one == two and len(one) == 6


def test_a_sweep_compares_along_the_values_and_across_the_rulesets() -> None:
    from engine.sim.analysis import sweep_pairs

    # Units: basic v1, basic v2, basic v3, first-edition v1, v2, v3.
    assert sweep_pairs(2, 3) == [(0, 1), (0, 2), (3, 4), (3, 5), (0, 3), (1, 4), (2, 5)]


def test_a_swept_value_does_not_leak_into_the_ruleset_itself() -> None:
    """Setting a constant for a sweep copies the composed ruleset: loading it afresh afterwards gives
    its own value (a shared document once kept the last swept value)."""
    load_unit_ruleset("basic", {"farm_points": 9})
    assert load_ruleset("basic", cache=False).data["constants"]["farm_points"] == 3


def test_the_trace_counts_a_decision_worked_out_by_hand() -> None:
    """basic, start tile D, drawn tile E (a city cap): E fits at (0,-1) with its city on D's (one
    rotation) and at (0,1) with a field side on D's field (three rotations, the city not north), and
    nowhere beside D's road ends: 4 placements, each with no follower, a knight or a farmer (nothing
    it joins is held): 12 choices.  Placed with a farmer, one follower is out and nobody would score
    (the farm touches no completed city)."""
    from engine.core.game import Game
    from engine.sim.traced import Trace

    ruleset = load_ruleset("basic")
    game = Game(ruleset, 2, seed=0, draw=False)
    game.stacks, game.pins, game.box = [[[ruleset.tile_ids["E"]]]], [[[False, False]]], [[]]
    game.draw_one()
    trace = Trace(game)
    assert trace.choices == [12] and len(game.placements()) == 4
    farmer = next(m for m in game.legal_moves() if m.follower is not None and m.rotation == 2
                  and ruleset.kinds[ruleset.tiles[game.tile].segments[m.follower].kind].name == "field"
                  and game.local(m.pos)[1:] == (0, 1))
    game.play(farmer, draw=False)
    trace(game, 0, ruleset.tile_ids["E"], farmer, [])
    assert trace.out == [1] and trace.trajectory == [[0, 0]] and trace.choices == [12]


def test_deals_needed_scale_with_the_square_of_the_interval_against_the_difference() -> None:
    """Issue 50: nothing said how many deals a difference of a given size needs.  The interval
    narrows as 1/√deals, so a difference of 0.1 whose interval is ±0.2 at 40 deals needs 4 times
    the deals (160) for ±0.1."""
    from engine.sim.analysis import _separated

    assert _separated({"mean": 0.1, "ci95": [-0.1, 0.3], "games": 40})["deals_needed"] == 160
    assert _separated({"mean": -0.05, "ci95": [-0.2, 0.1], "games": 30})["deals_needed"] == 270
    assert _separated({"mean": 0.2, "ci95": [0.1, 0.3], "games": 40})["deals_needed"] is None  # told apart already
    assert _separated({"mean": 0.0, "ci95": [-0.1, 0.1], "games": 40})["deals_needed"] is None  # nothing to resolve


def test_a_ladder_of_three_bots_reports_each_rung_and_whether_it_holds() -> None:
    from engine.sim.analysis import findings

    unit = UnitColumns("u", 2, ["road"], ladder=("random", "greedy", "mcts"))
    plays = [[[30, 20], [25, 10]], [[20, 30], [30, 10]]]  # greedy beats random always; mcts wins half
    collect(([row([1, 0], [1, 0]) | {"skill": plays}] for _ in range(6)), [unit])
    (report,), _ = summarise([unit])
    assert [(r["weak"], r["strong"], r["win_rate"]["mean"]) for r in report["ladder"]] == [
        ("random", "greedy", 1.0), ("greedy", "mcts", 0.5)]
    said = findings([report], [])
    assert "Under u the ladder random < greedy < mcts is not shown to hold at greedy < mcts: the interval reaches " \
           "50 %." in said
    assert not any(line.startswith("Skill was not measured") for line in said)


def test_the_findings_say_skill_was_not_measured_and_pair_the_score_mix() -> None:
    """Issue 50: without --strong/--weak the report had "skill": null and no sentence; and the
    points each kind pays (the first edition's change) were not among the paired findings."""
    from engine.sim.analysis import findings

    a, b = UnitColumns("a", 2, ["road", "field"]), UnitColumns("b", 2, ["road", "field"])
    for k in range(10):
        collect([[row([10 + k, 5], [10, 5], by_kind={"road": 15, "field": k}),
                  row([10 + k, 5], [10, 5], by_kind={"road": 15, "field": 2 * k + 3})]], [a, b])
    reports, differences = summarise([a, b])
    said = findings(reports, differences)
    assert "Skill was not measured: give --strong BOT --weak BOT (or --ladder random,greedy,mcts) to play a stronger " \
           "player against a weaker one on every deal." in said
    field = differences[0]["points_by_kind"]["field"]
    assert field["mean"] == 7.5 and field["separated"]  # k + 3 more each deal: 3 … 12, mean 7.5
    assert any(line.startswith("Under b field pays 7.5 points a game more (all players together) than under a")
               for line in said)
    assert "Under b road pays exactly as under a, deal for deal." not in said  # the same in every deal: not said
