"""The designer's report in numbers: balance, skill, luck, tension and shape of each unit
(a ruleset, maybe with a constant swept), with intervals, and how each unit differs from the
first.  Rows come from :func:`engine.sim.traced.analyse_chunk`; docs/analyse.md defines every
measure and cites where it comes from.

Per unit each measure is a column of one integer per deal (scaled where it is a fraction:
per mille), so that every interval is a percentile bootstrap of the deals with one set of
resamples for every column of every unit (:func:`engine.sim.intervals.bootstrap_means`):
differences between units are paired deal by deal, as the games are (the same seeds).
"""

from __future__ import annotations

from array import array
from typing import Any, Iterable

from .intervals import bootstrap_means, percentile

#: Bootstrap resamples and the bootstrap's seed: identical runs give identical intervals.
RESAMPLES = 1000
BOOTSTRAP_SEED = 20_261_204

#: Per-mille columns (a rate or a fraction of the game) and hundredths (a mean over turns).
MILLE, HUNDREDTHS = 1000, 100

#: The per-game measures: name → (row key, scale).  Rates are per mille of games.
GAME_MEASURES = {
    "lead_changes": ("lead_changes", 1), "decided_at": ("decided", MILLE), "comeback_rate": ("comeback", MILLE),
    "winning_margin": ("margin", 1), "turns": ("turns", 1), "branching": ("branching", HUNDREDTHS),
    "followers_out": ("followers_out", HUNDREDTHS), "tiles_discarded": ("discarded", 1), "tiles_buried": ("buried", 1),
}


def _relative(scores: list[int]) -> int:
    """Seat 0's score against the others': (P − 1)·s₀ − Σ others (the margin, for two players)."""
    return (len(scores) - 1) * scores[0] - sum(scores[1:])


def _share(winners: list[int], seat: int) -> int:
    """Seat ``seat``'s share of the win, per mille: 1000 alone, split evenly in a tie."""
    return round(MILLE / len(winners)) if seat in winners else 0


class UnitColumns:
    """Every measure of one unit, a column of integers, one per deal."""

    def __init__(self, label: str, players: int, kinds: list[str], ref: str = "",
                 constants: dict[str, int] | None = None) -> None:
        self.label, self.players, self.kinds = label, players, kinds
        self.ref, self.constants = ref or label, constants or {}
        self.columns: dict[str, array] = {}
        self.skilled = False

    def column(self, name: str) -> array:
        return self.columns.setdefault(name, array("i"))

    def add(self, row: dict) -> None:
        """One deal's row (:func:`engine.sim.traced.analyse_chunk`)."""
        game = row["game"]
        for p in range(self.players):
            self.column(f"win_{p}").append(_share(game["winners"], p))
            self.column(f"score_{p}").append(game["scores"][p])
        for name, (key, scale) in GAME_MEASURES.items():
            self.column(name).append(round(scale * game[key]))
        self.column("points_in_game").append(sum(game["in_game"]))
        self.column("points_at_end").append(sum(game["scores"]) - sum(game["in_game"]))
        for kind in self.kinds:
            self.column(f"kind_{kind}").append(game["by_kind"].get(kind, 0))
        # Luck: the deal played twice; a = y + y', d = y − y' of seat 0's relative score y.
        y, y2 = _relative(game["scores"]), _relative(row["replay"])
        self.column("luck_a").append(y + y2)
        self.column("luck_a2").append((y + y2) ** 2)
        self.column("luck_d2").append((y - y2) ** 2)
        if row["skill"] is not None:  # [strong, weak] per play, seats swapped between plays
            self.skilled = True
            shares = [MILLE if s > w else MILLE // 2 if s == w else 0 for s, w in row["skill"]]
            self.column("skill_win").append(sum(shares) // 2)
            self.column("skill_margin").append(sum(s - w for s, w in row["skill"]))

    @property
    def games(self) -> int:
        return len(self.columns.get("score_0", ()))


def luck_share(a: float, a2: float, d2: float) -> float:
    """The share of the variance of seat 0's relative score that the deal explains (the
    intraclass correlation of two plays of each deal): with a = y + y′ and d = y − y′ over
    deals, Var(a) = 4σ²_deal + 2σ²_play and E[d²] = 2σ²_play, so the share is
    σ²_deal / (σ²_deal + σ²_play) = (Var(a) − E[d²]) / (Var(a) + E[d²]).  ``a``, ``a2`` and
    ``d2`` are the means of a, a² and d².  0 when nothing varies.  An estimate below 0 (the
    plays of a deal differ more than deals do: sampling noise, the true share being at least 0)
    counts as 0, so a share and its differences stay within [0, 1] and [−1, 1].

    >>> luck_share(0.0, 4.0, 0.0)   # the two plays of a deal always agree: the deal is all
    1.0
    >>> luck_share(0.0, 2.0, 2.0)   # they disagree as much as deals differ: the deal is nothing
    0.0
    >>> luck_share(0.0, 1.0, 3.0)   # they disagree more: noise, read as nothing
    0.0
    """
    var_a = a2 - a * a
    total = var_a + d2
    return min(max((var_a - d2) / total, 0.0), 1.0) if total > 0 else 0.0


def _figure(mean: float, resampled: list[float], games: int, scale: float = 1) -> dict[str, Any]:
    ordered = sorted(resampled)
    low, high = (percentile(ordered, 2.5), percentile(ordered, 97.5)) if ordered else (mean, mean)
    return {"mean": round(mean / scale, 4), "ci95": [round(low / scale, 4), round(high / scale, 4)], "games": games}


def summarise(units: list[UnitColumns], pairs: list[tuple[int, int]] | None = None) -> tuple[list[dict], list[dict]]:
    """Per unit its measures (each ``{mean, ci95, games}``), and for each pair ``(i, j)`` of
    ``pairs`` (default: the first unit with each other) the paired differences of unit ``j`` from
    unit ``i`` (the headline measures).  One bootstrap for everything."""
    names = [(u, name) for u in units for name in u.columns]
    resampled = bootstrap_means([u.columns[name] for u, name in names], RESAMPLES, BOOTSTRAP_SEED)
    means = {(u.label, name): r for (u, name), r in zip(names, resampled)}
    reports = [_report(u, means) for u in units]
    pairs = [(0, j) for j in range(1, len(units))] if pairs is None else pairs
    return reports, [_difference(units[i], units[j], means) for i, j in pairs]


def sweep_pairs(rulesets: int, values: int) -> list[tuple[int, int]]:
    """The comparisons of a sweep whose units are ruleset by ruleset, value by value: along the
    values within each ruleset (each value against the first), and across the rulesets at each
    value (each ruleset against the first)."""
    along = [(r * values, r * values + v) for r in range(rulesets) for v in range(1, values)]
    across = [(v, r * values + v) for v in range(values) for r in range(1, rulesets)]
    return along + across


def _mean(column: array) -> float:
    return sum(column) / len(column) if column else 0.0


def _luck(u: UnitColumns, means: dict) -> tuple[float, list[float]]:
    c = u.columns
    estimate = luck_share(_mean(c["luck_a"]), _mean(c["luck_a2"]), _mean(c["luck_d2"]))
    boot = [luck_share(a, a2, d2) for a, a2, d2 in zip(means[(u.label, "luck_a")], means[(u.label, "luck_a2")],
                                                        means[(u.label, "luck_d2")])]
    return estimate, boot


def _report(u: UnitColumns, means: dict) -> dict[str, Any]:
    n, c = u.games, u.columns

    def fig(name: str, scale: float = 1) -> dict[str, Any]:
        return _figure(_mean(c[name]), means[(u.label, name)], n, scale)

    fair = MILLE / u.players
    advantage = _figure(_mean(c["win_0"]) - fair, [m - fair for m in means[(u.label, "win_0")]], n, MILLE)
    luck, boot = _luck(u, means)
    margins = sorted(c["winning_margin"])
    skill = None
    if u.skilled:
        skill = {"win_rate": fig("skill_win", MILLE), "mean_margin": fig("skill_margin", 2)}
    return {
        "unit": u.label, "ref": u.ref, "constants": u.constants, "games": n,
        "balance": {"win_rate_by_seat": [fig(f"win_{p}", MILLE) | {"seat": p} for p in range(u.players)],
                    "mean_score_by_seat": [fig(f"score_{p}") | {"seat": p} for p in range(u.players)],
                    "first_seat_advantage": advantage},
        "skill": skill,
        "luck": {"deal_share": _figure(luck, boot, n)},
        "tension": {"lead_changes": fig("lead_changes"), "decided_at": fig("decided_at", MILLE),
                    "comeback_rate": fig("comeback_rate", MILLE),
                    "winning_margin": fig("winning_margin") | {
                        "quantiles": {f"p{q}": percentile(margins, q) for q in (10, 50, 90)}}},
        "shape": {"turns": fig("turns"), "branching": fig("branching", HUNDREDTHS),
                  "followers_out": fig("followers_out", HUNDREDTHS), "tiles_discarded": fig("tiles_discarded"),
                  "tiles_buried": fig("tiles_buried"), "points_in_game": fig("points_in_game"),
                  "points_at_end": fig("points_at_end"),
                  "points_by_kind": {k: fig(f"kind_{k}") for k in u.kinds}},
    }


#: The measures compared between units: name → (column, scale).
HEADLINES = {"first_seat_win_rate": ("win_0", MILLE), "lead_changes": ("lead_changes", 1),
             "decided_at": ("decided_at", MILLE), "comeback_rate": ("comeback_rate", MILLE),
             "winning_margin": ("winning_margin", 1), "branching": ("branching", HUNDREDTHS)}


def _difference(first: UnitColumns, other: UnitColumns, means: dict) -> dict[str, Any]:
    """``other`` minus ``first``, measure by measure, paired by deal; an interval that holds 0
    marks a difference these games cannot tell from none (``separated: false``)."""
    out: dict[str, Any] = {"from": first.label, "to": other.label}
    measures = dict(HEADLINES)
    if first.skilled and other.skilled:
        measures["skill_win_rate"] = ("skill_win", MILLE)
    for name, (column, scale) in measures.items():
        diff = _mean(other.columns[column]) - _mean(first.columns[column])
        boot = [b - a for a, b in zip(means[(first.label, column)], means[(other.label, column)])]
        out[name] = _separated(_figure(diff, boot, other.games, scale))
    luck_a, boot_a = _luck(first, means)
    luck_b, boot_b = _luck(other, means)
    out["luck_deal_share"] = _separated(_figure(luck_b - luck_a, [b - a for a, b in zip(boot_a, boot_b)], other.games))
    return out


def _separated(figure: dict[str, Any]) -> dict[str, Any]:
    low, high = figure["ci95"]
    return figure | {"separated": not low <= 0 <= high}


def findings(reports: list[dict], differences: list[dict], strong: str | None, weak: str | None) -> list[str]:
    """The report's summary: a sentence per finding, in plain words, with its 95 % interval; a
    difference whose interval holds 0 says that these games cannot tell the units apart."""
    lines = []
    for r in reports:
        players = len(r["balance"]["win_rate_by_seat"])
        win, luck, tension = r["balance"]["win_rate_by_seat"][0], r["luck"]["deal_share"], r["tension"]
        margin = "the first seat's margin" if players == 2 else "the first seat's score against the others'"
        lines.append(f"Under {r['unit']} ({r['games']} deals) the first seat wins {_pct(win['mean'])} % of games "
                     f"{_interval(win, 100)} against an even share of {100 / players:.1f} %; the deal alone accounts "
                     f"for {_pct(luck['mean'])} % of the variation in {margin} {_interval(luck, 100)}; the lead "
                     f"changes {tension['lead_changes']['mean']:.1f} times a game "
                     f"{_interval(tension['lead_changes'], 1)}, "
                     f"and the winner was behind two thirds of the way through in "
                     f"{_pct(tension['comeback_rate']['mean'])} % of games {_interval(tension['comeback_rate'], 100)}.")
        if r["skill"] is not None:
            lines.append(f"Under {r['unit']} {strong} beats {weak} in {_pct(r['skill']['win_rate']['mean'])} % of "
                         f"games {_interval(r['skill']['win_rate'], 100)} (seats swapped on every deal), by "
                         f"{r['skill']['mean_margin']['mean']:.1f} points on average "
                         f"{_interval(r['skill']['mean_margin'], 1)}.")
    words = {"first_seat_win_rate": ("the first seat wins", "percentage points more often",
                                     "percentage points less often", 100),
             "skill_win_rate": (f"{strong} beats {weak}", "percentage points more often",
                                "percentage points less often", 100),
             "luck_deal_share": ("the deal accounts for", "percentage points more of the margin",
                                 "percentage points less of the margin", 100),
             "lead_changes": ("the lead changes", "more times a game", "fewer times a game", 1),
             "comeback_rate": ("the winner comes from behind", "percentage points more often",
                               "percentage points less often", 100)}
    for d in differences:
        for name, (what, more, less, scale) in words.items():
            if name not in d:
                continue
            f = d[name]
            verdict = "" if f["separated"] else f" — the interval holds 0: {f['games']} deals cannot tell them apart"
            amount = f["mean"] * scale
            lines.append(f"Under {d['to']} {what} {abs(amount):.1f} {more if amount >= 0 else less} than under "
                         f"{d['from']} {_interval(f, scale)}{verdict}.")
    return lines


def _pct(x: float) -> str:
    return f"{x * 100:.1f}"


def _interval(figure: dict, scale: float) -> str:
    low, high = figure["ci95"]
    return f"[{low * scale:.1f}, {high * scale:.1f}]"


def collect(rows: Iterable[list[dict]], units: list[UnitColumns]) -> list[UnitColumns]:
    """Sum up the rows of a run (per seed, a row per unit, in ``units`` order) into ``units``."""
    for seed_rows in rows:
        for unit, row in zip(units, seed_rows):
            unit.add(row)
    return units
