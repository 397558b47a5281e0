"""Confidence intervals in plain Python: Student's t quantile, percentiles, and the
bootstrap resamples of paired per-game differences.

Nothing here needs an extra, and no result depends on which extras are
installed: numpy, when present, only speeds the bootstrap up — it takes the
state of the same Mersenne Twister (:class:`random.Random`), draws the same
doubles in the same order and sums the same integers, so every mean is the
same float either way.
"""

from __future__ import annotations

import math
import random
from array import array
from statistics import NormalDist

__all__ = ["t_quantile", "percentile", "bootstrap_means"]

#: From this many degrees of freedom on, the Cornish-Fisher expansion of the t
#: quantile around the normal one (Abramowitz & Stegun 26.7.5, four terms) is
#: exact to double precision (its error is of order df⁻⁵); below, the quantile
#: is solved from the incomplete beta function.
_EXPANSION_FROM = 1000


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t distribution with ``df`` ≥ 1 degrees of freedom
    (``0 < p < 1``), to about 1e-12 relative: ``t_quantile(0.975, n - 1)`` is the factor
    of a two-sided 95% interval of a mean of ``n`` values.  ``ValueError`` outside
    those ranges.

    >>> round(t_quantile(0.975, 1), 6), round(t_quantile(0.975, 30), 6)
    (12.706205, 2.042272)
    """
    if not 0 < p < 1 or df < 1:
        raise ValueError(f"t_quantile wants 0 < p < 1 and df ≥ 1, not p={p}, df={df}")
    if p < 0.5:
        return -t_quantile(1 - p, df)
    if p == 0.5:
        return 0.0
    if df >= _EXPANSION_FROM:
        return _cornish_fisher(p, df)
    tail = 2 * (1 - p)  # P(|T| > t) at the quantile
    low, high = 0.0, 1.0
    while _two_sided_tail(high, df) > tail:
        low, high = high, high * 2
    for _ in range(200):  # bisection: the tail falls monotonically in t
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if _two_sided_tail(middle, df) > tail:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def _two_sided_tail(t: float, df: int) -> float:
    """P(|T| > t) for t ≥ 0: the regularized incomplete beta I_x(df/2, 1/2), x = df/(df+t²)."""
    return _incomplete_beta(df / 2, 0.5, df / (df + t * t))


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b) (Numerical Recipes §6.4)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):  # where the continued fraction converges fast
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function, by Lentz's method."""
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100_000):  # converges in O(sqrt(max(a, b))) steps: ~25 at df = 1000
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= c * d
        if abs(c * d - 1) < 1e-16:
            break
    return h


def _cornish_fisher(p: float, df: int) -> float:
    z = NormalDist().inv_cdf(p)
    z2 = z * z
    terms = (z * (z2 + 1) / 4,
             z * ((5 * z2 + 16) * z2 + 3) / 96,
             z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / 384,
             z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) / 92160)
    return z + sum(term / df ** (i + 1) for i, term in enumerate(terms))


def wilson(successes: int, n: int) -> tuple[float, float]:
    """The Wilson score 95% interval of a rate of ``successes`` in ``n`` trials (0 to 1; ``(0, 1)`` for
    none): unlike the normal approximation it stays inside 0–1 and is fair for rates near 0 or 1
    and for a few dozen games (Wilson 1927; Brown, Cai and DasGupta 2001)."""
    if n <= 0:
        return 0.0, 1.0
    z = 1.959963984540054  # the normal distribution's 97.5th percentile
    rate = successes / n
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(ordered: list[float], q: float) -> float:
    """The ``q``-th percentile (0–100) of the sorted, non-empty list ``ordered``, linearly
    interpolated between the two nearest ranks (numpy's default method).

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50)
    2.5
    """
    h = (len(ordered) - 1) * q / 100
    low = math.floor(h)
    if low + 1 >= len(ordered):
        return ordered[-1]
    return ordered[low] + (h - low) * (ordered[low + 1] - ordered[low])


def bootstrap_means(columns: list[array], resamples: int, seed: int) -> list[list[float]]:
    """Per column, the means of ``resamples`` bootstrap resamples of its games.

    Every column has one integer per game (``n`` games, the same in each), and
    resample ``b`` draws the same ``n`` games with replacement for every column
    (paired measures stay paired): its game indices are
    ``random.Random(seed).choices(range(n), k=n)``, resample after resample.
    Returns ``means[column][b]``.
    """
    n = len(columns[0]) if columns else 0
    if n == 0:
        return [[] for _ in columns]
    rng = random.Random(seed)
    try:
        import numpy as np
    except ImportError:
        return _plain_means(columns, n, resamples, rng)
    return _numpy_means(np, columns, n, resamples, rng)


def _plain_means(columns: list[array], n: int, resamples: int, rng: random.Random) -> list[list[float]]:
    games = range(n)
    means = [[0.0] * resamples for _ in columns]
    for b in range(resamples):
        picked = rng.choices(games, k=n)  # = [floor(rng.random() * n) for each game]
        for values, out in zip(columns, means):
            out[b] = sum(map(values.__getitem__, picked)) / n
    return means


def _numpy_means(np, columns: list[array], n: int, resamples: int, rng: random.Random) -> list[list[float]]:
    """:func:`_plain_means` in numpy: the same Mersenne Twister state (so the same doubles,
    53 bits from two 32-bit draws each, in both), the same ``floor(u * n)`` indices, exact
    int64 sums of the same integers divided by ``n``."""
    state = rng.getstate()[1]  # 624 words and the position in them
    stream = np.random.RandomState()
    stream.set_state(("MT19937", np.array(state[:-1], dtype=np.uint32), state[-1]))
    matrix = np.array([np.frombuffer(values, dtype=np.int32) for values in columns], dtype=np.int64)
    means = np.empty((len(columns), resamples))
    batch = max(1, 4_000_000 // (n * len(columns)))  # resamples at a time: ~32 MB of sums' inputs
    for start in range(0, resamples, batch):
        count = min(batch, resamples - start)
        picked = (stream.random_sample((count, n)) * n).astype(np.intp)
        means[:, start:start + count] = matrix[:, picked].sum(axis=2) / n
    return means.tolist()
