"""Summaries of many games, and paired comparisons between rulesets.

Results arrive one game at a time (:func:`engine.sim.simulate.run`); a
:class:`Summary` keeps running sums, so its memory does not grow with the
number of games, and :class:`Pairing` keeps one small integer array per
ruleset and seat (4 bytes a game) for the paired bootstrap.  The intervals
need no extra (:mod:`engine.sim.intervals`) and come out the same with or
without numpy; only :func:`plot` needs the ``stats`` extra (matplotlib).
"""

from __future__ import annotations

import math
from array import array
from dataclasses import dataclass, field
from operator import ne, sub

from .intervals import bootstrap_means, percentile, t_quantile, wilson

#: Bootstrap resamples for the confidence intervals of paired differences.
RESAMPLES = 2000
#: Seed of the bootstrap's own RNG: identical runs give identical intervals.
BOOTSTRAP_SEED = 20_240_601


def _round(x: float) -> float:
    return round(float(x), 4)


@dataclass
class Summary:
    """Running totals for one ruleset: scores per seat, points per feature kind,
    wins, draws, margins and discards."""

    players: int
    games: int = 0
    score_sum: list[float] = field(default_factory=list)
    score_sq: list[float] = field(default_factory=list)
    kind_sum: dict[str, float] = field(default_factory=dict)
    first_seat_wins: int = 0
    draws: int = 0
    margin_sum: float = 0
    discarded_sum: float = 0

    def __post_init__(self) -> None:
        self.score_sum = [0.0] * self.players
        self.score_sq = [0.0] * self.players

    def add(self, row: dict) -> None:
        """Count one game's result row (see :func:`engine.sim.simulate.result_row`)."""
        self.games += 1
        for p, score in enumerate(row["scores"]):
            self.score_sum[p] += score
            self.score_sq[p] += score * score
        for per_player in row["by_kind"]:
            for kind, points in per_player.items():
                self.kind_sum[kind] = self.kind_sum.get(kind, 0) + points
        if row["winners"] == [0]:
            self.first_seat_wins += 1
        if len(row["winners"]) > 1:
            self.draws += 1
        self.margin_sum += row["margin"]
        self.discarded_sum += row["discarded"]

    def to_json(self) -> dict:
        """Means with 95% confidence intervals (Student t), rates with theirs (Wilson) and per-kind means."""
        n = self.games
        seats = []
        for p in range(self.players):
            mean = self.score_sum[p] / n
            var = (self.score_sq[p] - n * mean * mean) / (n - 1) if n > 1 else 0.0
            half = _t95(n) * math.sqrt(max(var, 0.0) / n) if n > 1 else 0.0
            seats.append({"seat": p, "mean": _round(mean), "ci95": [_round(mean - half), _round(mean + half)]})
        return {
            "games": n,
            "mean_score": seats,
            "points_by_kind": {k: _round(v / (n * self.players)) for k, v in self.kind_sum.items()},
            "first_seat_win_rate": _round(self.first_seat_wins / n),
            "first_seat_win_rate_ci95": [_round(x) for x in wilson(self.first_seat_wins, n)],
            "draw_rate": _round(self.draws / n),
            "draw_rate_ci95": [_round(x) for x in wilson(self.draws, n)],
            "mean_winning_margin": _round(self.margin_sum / n),
            "mean_tiles_discarded": _round(self.discarded_sum / n),
        }


class Pairing:
    """Per-game values of each ruleset, kept compactly for paired differences."""

    def __init__(self, refs: list[str], players: int, kinds: list[str]) -> None:
        self.refs, self.players, self.kinds = refs, players, kinds
        self.scores = {ref: [array("i") for _ in range(players)] for ref in refs}
        self.kind_points = {ref: {k: array("i") for k in kinds} for ref in refs}
        self.winners = {ref: array("i") for ref in refs}

    def add(self, rows: list[dict]) -> None:
        """One seed's rows, one per ruleset in ``refs`` order."""
        for ref, row in zip(self.refs, rows):
            for p, score in enumerate(row["scores"]):
                self.scores[ref][p].append(score)
            for kind in self.kinds:
                self.kind_points[ref][kind].append(sum(per.get(kind, 0) for per in row["by_kind"]))
            self.winners[ref].append(sum(1 << p for p in row["winners"]))

    def differences(self) -> list[dict]:
        """For each ruleset after the first: paired differences from the first, with
        bootstrap 95% intervals (percentiles of :data:`RESAMPLES` resamples of the games,
        the same resamples for every measure), and how often the winner changes."""
        base = self.refs[0]
        columns: list[array] = []
        for ref in self.refs[1:]:
            columns += [array("i", map(sub, self.scores[ref][p], self.scores[base][p])) for p in range(self.players)]
            columns += [array("i", map(sub, self.kind_points[ref][k], self.kind_points[base][k])) for k in self.kinds]
        means = iter(bootstrap_means(columns, RESAMPLES, BOOTSTRAP_SEED))
        intervals = iter([_paired(values, next(means)) for values in columns])
        out = []
        for ref in self.refs[1:]:
            seats = [next(intervals) | {"seat": p} for p in range(self.players)]
            kinds = {k: next(intervals) for k in self.kinds}
            games = len(self.winners[ref])
            changed = sum(map(ne, self.winners[ref], self.winners[base]))
            out.append({"from": base, "to": ref, "mean_score_difference": seats,
                        "points_by_kind_difference": kinds,
                        "winner_changed_rate": _round(changed / games) if games else 0.0,
                        "winner_changed_rate_ci95": [_round(x) for x in wilson(changed, games)]})
        return out


def _paired(diff: array, means: list[float]) -> dict:
    """Mean of a paired difference and its percentile bootstrap 95% interval (``means``:
    the means of its resamples)."""
    ordered = sorted(means)
    mean = sum(diff) / len(diff) if len(diff) else 0.0
    if not ordered:
        return {"mean": _round(mean), "ci95": [_round(mean), _round(mean)]}
    return {"mean": _round(mean), "ci95": [_round(percentile(ordered, 2.5)), _round(percentile(ordered, 97.5))]}


def _t95(n: int) -> float:
    """Two-sided 95% Student t quantile for n observations."""
    return t_quantile(0.975, n - 1)


def plot(path: str, differences: list[dict], caption: str = "") -> None:
    """The paired differences of :meth:`Pairing.differences` to ``path`` (its suffix picks the
    format): per later ruleset, a row per measure (each seat's score, each kind's points, all
    players together) with its mean difference from the first ruleset and its 95 % interval, a
    line at 0; an interval that crosses it is drawn hollow (these games cannot tell it from no
    difference).  ``caption`` says what was played."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [(f"seat {seat['seat'] + 1} score", seat) for seat in differences[0]["mean_score_difference"]]
    rows += [(f"{kind} points", figure) for kind, figure in differences[0]["points_by_kind_difference"].items()]
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.45 * len(rows) * len(differences)))
    labels, y = [], 0
    for n, d in enumerate(differences):
        figures = [seat for seat in d["mean_score_difference"]] + list(d["points_by_kind_difference"].values())
        colour = f"C{n}"
        for (name, _), figure in zip(rows, figures):
            low, high = figure["ci95"]
            crosses = low <= 0 <= high
            ax.errorbar(figure["mean"], y, xerr=[[figure["mean"] - low], [high - figure["mean"]]], fmt="o",
                        color=colour, mfc="white" if crosses else colour, capsize=3)
            labels.append(f"{name} ({d['to']})" if len(differences) > 1 else name)
            y += 1
        y += 0.5
    ax.axvline(0, color="grey", linewidth=1)
    ticks = [i + 0.5 * (i // len(rows)) for i in range(len(labels))]
    ax.set_yticks(ticks, labels)
    ax.invert_yaxis()
    ax.set_xlabel(f"mean paired difference from {differences[0]['from']}, points a game (95 % interval)")
    ax.set_title("; ".join(f"{d['to']} minus {d['from']}" for d in differences))
    if caption:
        fig.suptitle(caption, fontsize=9)
    fig.tight_layout()
    with plt.rc_context({"svg.fonttype": "none"}):  # an SVG keeps its words as text (searchable, selectable)
        fig.savefig(path, dpi=110)
    plt.close(fig)
