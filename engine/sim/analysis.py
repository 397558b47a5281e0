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

import math
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
    "winning_margin": ("margin", 1), "turns": ("turns", 1), "milliseconds": ("milliseconds", 1),
    "branching": ("branching", HUNDREDTHS),
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
                 constants: dict[str, int] | None = None, ladder: tuple[str, ...] = ()) -> None:
        self.label, self.players, self.kinds = label, players, kinds
        self.ref, self.constants, self.ladder = ref or label, constants or {}, ladder
        self.columns: dict[str, array] = {}

    @property
    def skilled(self) -> bool:
        """Whether skill was measured: a ladder of at least two players."""
        return len(self.ladder) > 1

    def column(self, name: str) -> array:
        return self.columns.setdefault(name, array("i"))

    def add(self, row: dict) -> None:
        """One deal's row (:func:`engine.sim.traced.analyse_chunk`)."""
        game = row["game"]
        for p in range(self.players):
            self.column(f"win_{p}").append(_share(game["winners"], p))
            self.column(f"score_{p}").append(game["scores"][p])
        self.column("draw").append(MILLE if len(game["winners"]) > 1 else 0)
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
        for rung, plays in enumerate(row["skill"]):  # [stronger, weaker] per play, seats swapped between plays
            shares = [MILLE if s > w else MILLE // 2 if s == w else 0 for s, w in plays]
            self.column(f"skill_win_{rung}").append(sum(shares) // 2)
            self.column(f"skill_margin_{rung}").append(sum(s - w for s, w in plays))

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
    ladder = [{"weak": weak, "strong": strong, "win_rate": fig(f"skill_win_{rung}", MILLE),
               "mean_margin": fig(f"skill_margin_{rung}", 2)}
              for rung, (weak, strong) in enumerate(zip(u.ladder, u.ladder[1:]))]
    return {
        "unit": u.label, "ref": u.ref, "constants": u.constants, "games": n,
        "balance": {"win_rate_by_seat": [fig(f"win_{p}", MILLE) | {"seat": p} for p in range(u.players)],
                    "mean_score_by_seat": [fig(f"score_{p}") | {"seat": p} for p in range(u.players)],
                    "first_seat_advantage": advantage, "draw_rate": fig("draw", MILLE)},
        "skill": {k: ladder[0][k] for k in ("win_rate", "mean_margin")} if ladder else None,
        "ladder": ladder,
        "luck": {"deal_share": _figure(luck, boot, n)},
        "tension": {"lead_changes": fig("lead_changes"), "decided_at": fig("decided_at", MILLE),
                    "comeback_rate": fig("comeback_rate", MILLE),
                    "winning_margin": fig("winning_margin") | {
                        "quantiles": {f"p{q}": percentile(margins, q) for q in (10, 50, 90)}}},
        "shape": {"turns": fig("turns"), "seconds": fig("milliseconds", 1000),
                  "branching": fig("branching", HUNDREDTHS),
                  "followers_out": fig("followers_out", HUNDREDTHS), "tiles_discarded": fig("tiles_discarded"),
                  "tiles_buried": fig("tiles_buried"), "points_in_game": fig("points_in_game"),
                  "points_at_end": fig("points_at_end"),
                  "points_by_kind": {k: fig(f"kind_{k}") for k in u.kinds}},
    }


#: The measures compared between units: name → (column, scale).
HEADLINES = {"first_seat_win_rate": ("win_0", MILLE), "draw_rate": ("draw", MILLE), "lead_changes": ("lead_changes", 1),
             "decided_at": ("decided_at", MILLE), "comeback_rate": ("comeback_rate", MILLE),
             "winning_margin": ("winning_margin", 1), "branching": ("branching", HUNDREDTHS)}


def _difference(first: UnitColumns, other: UnitColumns, means: dict) -> dict[str, Any]:
    """``other`` minus ``first``, measure by measure, paired by deal: the headline measures, and
    the points each feature kind pays a game (all players together: the score mix) for the kinds
    both have; an interval that holds 0 marks a difference these games cannot tell from none
    (``separated: false``), with the deals a difference of the size seen would need."""
    out: dict[str, Any] = {"from": first.label, "to": other.label}
    measures = dict(HEADLINES)
    if first.skilled and other.skilled:
        measures["skill_win_rate"] = ("skill_win_0", MILLE)
    for name, (column, scale) in measures.items():
        out[name] = _paired(first, other, column, scale, means)
    luck_a, boot_a = _luck(first, means)
    luck_b, boot_b = _luck(other, means)
    out["luck_deal_share"] = _separated(_figure(luck_b - luck_a, [b - a for a, b in zip(boot_a, boot_b)], other.games))
    out["points_by_kind"] = {k: _paired(first, other, f"kind_{k}", 1, means) for k in first.kinds if k in other.kinds}
    return out


def _paired(first: UnitColumns, other: UnitColumns, column: str, scale: float, means: dict) -> dict[str, Any]:
    """``other``'s mean of ``column`` less ``first``'s, with the bootstrap of the difference."""
    diff = _mean(other.columns[column]) - _mean(first.columns[column])
    boot = [b - a for a, b in zip(means[(first.label, column)], means[(other.label, column)])]
    return _separated(_figure(diff, boot, other.games, scale))


def _separated(figure: dict[str, Any]) -> dict[str, Any]:
    """``figure`` with ``separated`` (its interval excludes 0) and ``deals_needed``: for one that
    is not, about how many deals would make an interval of a difference this size exclude 0 (the
    interval narrows as one over the square root of the deals), None for one that is, or for no
    difference at all."""
    low, high = figure["ci95"]
    separated = not low <= 0 <= high
    mean, half = abs(figure["mean"]), (high - low) / 2
    needed = None if separated or mean == 0 else math.ceil(round(figure["games"] * (half / mean) ** 2, 6))
    return figure | {"separated": separated, "deals_needed": needed}


def findings(reports: list[dict], differences: list[dict]) -> list[str]:
    """The report's summary: a sentence per finding, in plain words, with its 95 % interval; a
    difference whose interval holds 0 says that these games cannot tell the units apart, and about
    how many deals a difference of the size seen would need; a measure not taken says why."""
    lines = []
    for r in reports:
        lines += _unit_findings(r)
    if all(not r["ladder"] for r in reports):
        lines.append("Skill was not measured: give --strong BOT --weak BOT (or --ladder random,greedy,mcts) to play "
                     "a stronger player against a weaker one on every deal.")
    for d in differences:
        lines += _difference_findings(d)
    return lines


def _unit_findings(r: dict) -> list[str]:
    """One unit's sentences: balance, luck, tension and length; then its skill ladder."""
    players = len(r["balance"]["win_rate_by_seat"])
    win, luck, tension = r["balance"]["win_rate_by_seat"][0], r["luck"]["deal_share"], r["tension"]
    draws, turns, seconds = r["balance"]["draw_rate"], r["shape"]["turns"], r["shape"]["seconds"]
    margin = "the first seat's margin" if players == 2 else "the first seat's score against the others'"
    lines = [f"Under {r['unit']} ({r['games']} deals) the first seat wins {_pct(win['mean'])} % of games "
             f"{_interval(win, 100)} against an even share of {100 / players:.1f} %, and {_pct(draws['mean'])} % "
             f"end in a tie {_interval(draws, 100)}; the deal alone accounts for {_pct(luck['mean'])} % of the "
             f"variation in {margin} {_interval(luck, 100)}; the lead changes "
             f"{tension['lead_changes']['mean']:.1f} times a game {_interval(tension['lead_changes'], 1)}, and the "
             f"winner was behind two thirds of the way through in {_pct(tension['comeback_rate']['mean'])} % of "
             f"games {_interval(tension['comeback_rate'], 100)}; a game lasts {turns['mean']:.1f} turns "
             f"{_interval(turns, 1)} and {seconds['mean']:.2f} s {_interval(seconds, 1, 2)} on this machine."]
    for rung in r["ladder"]:
        lines.append(f"Under {r['unit']} {rung['strong']} beats {rung['weak']} in {_pct(rung['win_rate']['mean'])} % "
                     f"of games {_interval(rung['win_rate'], 100)} (seats swapped on every deal), by "
                     f"{rung['mean_margin']['mean']:.1f} points on average {_interval(rung['mean_margin'], 1)}.")
    if len(r["ladder"]) > 1:
        ladder = " < ".join([r["ladder"][0]["weak"], *(rung["strong"] for rung in r["ladder"])])
        loose = [f"{rung['weak']} < {rung['strong']}" for rung in r["ladder"] if rung["win_rate"]["ci95"][0] <= 0.5]
        lines.append(f"Under {r['unit']} the ladder {ladder} " + (
            "holds: each player beats the one below it more often than not (each interval above 50 %)." if not loose
            else f"is not shown to hold at {', '.join(loose)}: the interval reaches 50 %."))
    return lines


#: The paired differences in words: name → (what, more, less, scale to the unit said).
_WORDS = {"first_seat_win_rate": ("the first seat wins", "percentage points more often", "percentage points less often",
                                  100),
          "draw_rate": ("games end in a tie", "percentage points more often", "percentage points less often", 100),
          "skill_win_rate": ("the stronger player wins", "percentage points more often",
                             "percentage points less often", 100),
          "luck_deal_share": ("the deal accounts for", "percentage points more of the margin",
                              "percentage points less of the margin", 100),
          "lead_changes": ("the lead changes", "more times a game", "fewer times a game", 1),
          "comeback_rate": ("the winner comes from behind", "percentage points more often",
                            "percentage points less often", 100)}


def _difference_findings(d: dict) -> list[str]:
    """The sentences of one paired difference: the headline measures, then the score mix."""
    said = [(what, more, less, scale, d[name]) for name, (what, more, less, scale) in _WORDS.items() if name in d]
    said += [(f"{kind} pays", "points a game more (all players together)",
              "points a game less (all players together)", 1, figure)
             for kind, figure in d.get("points_by_kind", {}).items() if any(figure["ci95"])]  # [0, 0]: the same
    lines = []
    for what, more, less, scale, f in said:
        if f["ci95"] == [0, 0]:  # every deal alike: no difference at all
            lines.append(f"Under {d['to']} {what} exactly as under {d['from']}, deal for deal.")
            continue
        verdict = ""
        if not f["separated"]:
            verdict = f" — the interval holds 0: {f['games']} deals cannot tell them apart"
            if f["deals_needed"] is not None:
                verdict += f"; a difference this size needs about {f['deals_needed']:,} deals"
        amount = f["mean"] * scale
        lines.append(f"Under {d['to']} {what} {abs(amount):.1f} {more if amount >= 0 else less} than under "
                     f"{d['from']} {_interval(f, scale)}{verdict}.")
    return lines


def _pct(x: float) -> str:
    return f"{x * 100:.1f}"


def _interval(figure: dict, scale: float, digits: int = 1) -> str:
    low, high = figure["ci95"]
    return f"[{low * scale:.{digits}f}, {high * scale:.{digits}f}]"


def collect(rows: Iterable[list[dict]], units: list[UnitColumns]) -> list[UnitColumns]:
    """Sum up the rows of a run (per seed, a row per unit, in ``units`` order) into ``units``."""
    for seed_rows in rows:
        for unit, row in zip(units, seed_rows):
            unit.add(row)
    return units
