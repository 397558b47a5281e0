"""The confidence intervals need no extra and do not depend on which are installed:
Student's t quantile against table values, percentiles, and the bootstrap giving the
very same numbers with and without numpy."""

from __future__ import annotations

import builtins
import random
from array import array
from statistics import NormalDist

import pytest

from engine.sim import intervals
from engine.sim.intervals import bootstrap_means, percentile, t_quantile
from engine.sim.stats import Pairing, Summary

#: (p, df, quantile): standard tables to 10+ digits (R's qt / scipy.stats.t.ppf).
TABLE = [
    (0.975, 1, 12.706204736174698), (0.975, 2, 4.302652729749462), (0.975, 3, 3.182446305284263),
    (0.975, 4, 2.776445105197793), (0.975, 5, 2.570581835636314), (0.975, 10, 2.228138851986274),
    (0.975, 30, 2.042272456301238), (0.975, 100, 1.983971518523552), (0.975, 999, 1.962341461133449),
    (0.975, 1000, 1.962339080826408), (0.975, 1001, 1.962336705280880), (0.975, 10**6, 1.959966356814107),
    (0.95, 1, 6.313751514675037), (0.995, 2, 9.924843200918287), (0.9995, 5, 6.868826625881276),
    (0.9, 7, 1.414923927650509), (0.6, 3, 0.276670662332690), (0.999999, 1, 318309.88617359026),
]


@pytest.mark.parametrize("p, df, expected", TABLE)
def test_t_quantile_matches_the_tables(p: float, df: int, expected: float) -> None:
    assert t_quantile(p, df) == pytest.approx(expected, rel=1e-10)
    assert t_quantile(1 - p, df) == pytest.approx(-expected, rel=1e-10)


def test_t_quantile_is_zero_at_the_median_and_refuses_nonsense() -> None:
    assert t_quantile(0.5, 3) == 0.0
    for p, df in ((0, 3), (1, 3), (0.5, 0), (1.5, 2)):
        with pytest.raises(ValueError):
            t_quantile(p, df)


def test_t_quantile_falls_towards_the_normal_quantile_with_df() -> None:
    values = [t_quantile(0.975, df) for df in (1, 2, 5, 50, 999, 1000, 10**4, 10**9)]
    assert values == sorted(values, reverse=True)
    assert values[-1] == pytest.approx(NormalDist().inv_cdf(0.975), abs=1e-8)  # 1.95996…


def test_percentile_interpolates_between_ranks() -> None:
    ordered = [1.0, 2.0, 4.0, 8.0, 16.0]
    assert [percentile(ordered, q) for q in (0, 25, 50, 62.5, 100)] == [1.0, 2.0, 4.0, 6.0, 16.0]
    assert percentile([3.0], 97.5) == 3.0


def without_numpy(monkeypatch) -> None:
    real_import = builtins.__import__

    def no_numpy(name, *args, **kwargs):
        if name == "numpy" or name.startswith("numpy."):
            raise ImportError("numpy is not installed (test)")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_numpy)


def columns(games: int, seed: int = 1) -> list[array]:
    rng = random.Random(seed)
    return [array("i", (rng.randrange(-30, 31) for _ in range(games))) for _ in range(4)]


@pytest.mark.parametrize("games", [1, 2, 37, 500])
def test_bootstrap_is_the_same_with_and_without_numpy(games: int, monkeypatch) -> None:
    pytest.importorskip("numpy")
    data = columns(games)
    with_numpy = bootstrap_means(data, 300, 7)
    without_numpy(monkeypatch)
    assert bootstrap_means(data, 300, 7) == with_numpy  # equal floats, not merely close


def test_bootstrap_resamples_the_same_games_for_every_column(monkeypatch) -> None:
    without_numpy(monkeypatch)
    data = columns(50)
    doubled = [array("i", (2 * v for v in column)) for column in data]
    means = bootstrap_means(data + doubled, 200, 3)
    assert means[4:] == [[2 * m for m in row] for row in means[:4]]
    assert bootstrap_means(data, 200, 3) == means[:4]  # and the draws depend only on the seed


def test_the_plain_bootstrap_draws_python_random_choices(monkeypatch) -> None:
    without_numpy(monkeypatch)
    data = columns(20)
    rng = random.Random(11)
    expected = [[0.0] * 5 for _ in data]
    for b in range(5):
        picked = rng.choices(range(20), k=20)
        for c, column in enumerate(data):
            expected[c][b] = sum(column[i] for i in picked) / 20
    assert bootstrap_means(data, 5, 11) == expected
    assert intervals._plain_means(data, 20, 5, random.Random(11)) == expected


def pairing(games: int) -> Pairing:
    rng = random.Random(5)
    kinds = ["city", "road"]
    pair = Pairing(["a", "b"], 2, kinds)
    for _ in range(games):
        rows = []
        for _ in "ab":
            scores = [rng.randrange(60), rng.randrange(60)]
            rows.append({"scores": scores, "winners": [scores.index(max(scores))],
                         "by_kind": [{k: rng.randrange(20) for k in kinds} for _ in scores]})
        pair.add(rows)
    return pair


def test_compare_differences_do_not_depend_on_numpy(monkeypatch) -> None:
    pytest.importorskip("numpy")
    found = pairing(300).differences()
    without_numpy(monkeypatch)
    assert pairing(300).differences() == found
    (difference,) = found
    for measure in [*difference["mean_score_difference"], *difference["points_by_kind_difference"].values()]:
        assert measure["ci95"][0] <= measure["mean"] <= measure["ci95"][1]


def test_summary_interval_is_mean_plus_minus_t_times_standard_error() -> None:
    summary = Summary(1)
    for score in (1, 2, 3, 4):
        summary.add({"scores": [score], "by_kind": [{}], "winners": [0], "margin": score, "discarded": 0})
    (seat,) = summary.to_json()["mean_score"]
    half = 3.182446305284263 * (5 / 3) ** 0.5 / 2  # t(0.975, 3) × s / √n, s² = 5/3
    assert seat == {"seat": 0, "mean": 2.5, "ci95": [round(2.5 - half, 4), round(2.5 + half, 4)]}


@pytest.mark.parametrize("successes, n, low, high", [
    (18, 40, 0.3071, 0.6017),  # worked out by hand from Wilson's formula, z = 1.96
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (1, 2, 0.0945, 0.9055),
])
def test_a_rate_has_its_wilson_interval(successes: int, n: int, low: float, high: float) -> None:
    """Issue 50: the win, draw and winner-changed rates were printed without an interval."""
    from engine.sim.intervals import wilson

    found = wilson(successes, n)
    assert found == pytest.approx((low, high), abs=1e-4)
