"""The designer's report as one self-contained HTML page: the findings in plain words, a table
per family of measures, the charts (inline SVG drawn by matplotlib, from the ``stats`` extra),
the command and versions that made it, and the same numbers as JSON.  Nothing on the page
loads anything from the network."""

from __future__ import annotations

import html
import io
import json
from typing import Any

#: The charts: a headline measure per panel, (title, path into a unit's report, scale to show).
PANELS = [
    ("first seat's win rate minus an even share (%)", ("balance", "first_seat_advantage"), 100),
    ("share of the margin the deal decides (%)", ("luck", "deal_share"), 100),
    ("lead changes per game", ("tension", "lead_changes"), 1),
    ("winner behind at two thirds of the game (%)", ("tension", "comeback_rate"), 100),
    ("turn the game was decided at (% of the game)", ("tension", "decided_at"), 100),
    ("legal moves per decision", ("shape", "branching"), 1),
]


def charts_svg(reports: list[dict], sweep: dict | None) -> str:
    """The headline measures of every unit as an SVG (inline): one panel a measure, a point with
    its 95 % interval a unit; under a sweep, a line per ruleset over the swept values."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = PANELS + ([("strong player's win rate (%)", ("skill", "win_rate"), 100)]
                       if reports[0]["skill"] is not None else [])
    columns = 2
    rows = -(-len(panels) // columns)
    with matplotlib.rc_context({"svg.hashsalt": "carcassonne-analyse", "svg.fonttype": "none"}):
        fig, axes = plt.subplots(rows, columns, figsize=(11, 3.2 * rows), squeeze=False)
        for ax, (title, path, scale) in zip(axes.flat, panels):
            if sweep is None:
                _points(ax, reports, path, scale)
            else:
                _curves(ax, reports, path, scale, sweep)
            ax.set_title(title, fontsize=10)
            ax.grid(alpha=0.3)
        for ax in list(axes.flat)[len(panels):]:
            ax.set_visible(False)
        fig.tight_layout()
        out = io.StringIO()
        fig.savefig(out, format="svg", metadata={"Date": None})
        plt.close(fig)
    text = out.getvalue()
    return text[text.index("<svg"):]  # the XML prologue does not belong inside a page


def _points(ax, reports: list[dict], path: tuple[str, ...], scale: float) -> None:
    labels, means, lows, highs = [], [], [], []
    for r in reports:
        figure = _lookup(r, path)
        if figure is None:
            continue
        labels.append(r["unit"])
        means.append(figure["mean"] * scale)
        lows.append((figure["mean"] - figure["ci95"][0]) * scale)
        highs.append((figure["ci95"][1] - figure["mean"]) * scale)
    x = range(len(labels))
    ax.errorbar(x, means, yerr=[lows, highs], fmt="o", capsize=4)
    ax.set_xticks(list(x), labels, rotation=15, fontsize=8)


def _curves(ax, reports: list[dict], path: tuple[str, ...], scale: float, sweep: dict) -> None:
    from matplotlib.ticker import MaxNLocator

    for ref in sweep["rulesets"]:
        points: list[tuple[int, dict]] = []
        for r in reports:
            figure = _lookup(r, path) if r["ref"] == ref else None
            if figure is not None:
                points.append((r["constants"][sweep["constant"]], figure))
        xs = [x for x, _ in points]
        ax.plot(xs, [f["mean"] * scale for _, f in points], marker="o", label=ref)
        ax.fill_between(xs, [f["ci95"][0] * scale for _, f in points], [f["ci95"][1] * scale for _, f in points],
                        alpha=0.2)
    ax.set_xlabel(sweep["constant"])
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # a constant takes whole values
    ax.legend(fontsize=8)


def _cell(figure: dict | None, scale: float = 1, digits: int = 1) -> str:
    if figure is None:
        return "–"
    low, high = figure["ci95"]
    return (f"{figure['mean'] * scale:.{digits}f} <small>[{low * scale:.{digits}f}, "
            f"{high * scale:.{digits}f}]</small>")


#: The table rows: (section title, [(row label, path, scale)]).
ROWS: list[tuple[str, list[tuple[str, tuple[Any, ...], float]]]] = [
    ("Balance", [("first seat's advantage over an even share (points of %)",
                  ("balance", "first_seat_advantage"), 100)]),
    ("Skill", [("strong player wins (%)", ("skill", "win_rate"), 100),
               ("strong player's mean margin", ("skill", "mean_margin"), 1)]),
    ("Luck", [("share of the first seat's margin the deal decides (%)", ("luck", "deal_share"), 100)]),
    ("Tension", [("lead changes per game", ("tension", "lead_changes"), 1),
                 ("decided at (% of the game)", ("tension", "decided_at"), 100),
                 ("winner behind at two thirds (%)", ("tension", "comeback_rate"), 100),
                 ("winning margin", ("tension", "winning_margin"), 1)]),
    ("Shape", [("turns", ("shape", "turns"), 1), ("legal moves per decision", ("shape", "branching"), 1),
               ("followers on the board", ("shape", "followers_out"), 1),
               ("points scored during the game", ("shape", "points_in_game"), 1),
               ("points scored at the end", ("shape", "points_at_end"), 1),
               ("tiles discarded", ("shape", "tiles_discarded"), 1), ("tiles buried", ("shape", "tiles_buried"), 1)]),
]


def _lookup(report: dict, path: tuple) -> dict | None:
    value: Any = report
    for key in path:
        if isinstance(key, int):
            value = value[key] if isinstance(value, list) and len(value) > key else None
        else:
            value = value.get(key) if isinstance(value, dict) else None
    return value


def page(result: dict, command: str, versions: dict[str, str], svg: str) -> str:
    """The whole page: ``result`` is what ``analyse --json`` writes."""
    reports = result["units"]
    head = "".join(f"<th>{html.escape(r['unit'])}</th>" for r in reports)
    body = []
    seats = max(len(r["balance"]["win_rate_by_seat"]) for r in reports)
    by_seat = [(f"seat {p + 1} wins (%)", ("balance", "win_rate_by_seat", p), 100.0) for p in range(seats)]
    by_seat += [(f"seat {p + 1}'s mean score", ("balance", "mean_score_by_seat", p), 1.0) for p in range(seats)]
    for section, rows in ROWS:
        if section == "Skill" and all(r["skill"] is None for r in reports):
            continue
        body.append(f"<tr><th colspan='{len(reports) + 1}' class='section'>{section}</th></tr>")
        for label, path, scale in (by_seat if section == "Balance" else []) + rows:
            cells = "".join(f"<td>{_cell(_lookup(r, path), scale)}</td>" for r in reports)
            body.append(f"<tr><td>{html.escape(label)}</td>{cells}</tr>")
    kinds = list(dict.fromkeys(k for r in reports for k in r["shape"]["points_by_kind"]))
    for kind in kinds:
        cells = "".join(f"<td>{_cell(r['shape']['points_by_kind'].get(kind))}</td>" for r in reports)
        body.append(f"<tr><td>{html.escape(kind)} points (all players)</td>{cells}</tr>")
    found = "".join(f"<li>{html.escape(line)}</li>" for line in result["findings"])
    made = "".join(f"<li>{html.escape(k)} {html.escape(v)}</li>" for k, v in versions.items())
    data = html.escape(json.dumps(result, indent=1, sort_keys=True))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">\
<title>Designer's report: {html.escape(', '.join(result['rulesets']))}</title>
<style>
body {{ font-family: sans-serif; max-width: 70em; margin: 1em auto; padding: 0 1em; color: #222; }}
table {{ border-collapse: collapse; margin: 1em 0; }} \
td, th {{ border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: right; }}
td:first-child {{ text-align: left; }} th.section {{ text-align: left; background: #eee; }} small {{ color: #666; }}
pre {{ background: #f6f6f6; padding: 1em; overflow-x: auto; }}
</style></head><body>
<h1>Designer's report</h1>
<p>{result['games']} deals a unit, players {html.escape(', '.join(result['players']))}, seed {result['seed']}: each
figure is a mean with its 95 % bootstrap interval over the deals (docs/analyse.md defines every measure).</p>
<h2>Findings</h2><ul>{found}</ul>
<h2>Charts</h2>{svg}
<h2>Every measure</h2>
<table><tr><th>measure</th>{head}</tr>{''.join(body)}</table>
<h2>How it was made</h2><pre>{html.escape(command)}</pre><ul>{made}</ul>
<details><summary>The same numbers as JSON</summary><pre>{data}</pre></details>
</body></html>
"""
