"""``carcassonne simulate``, ``compare`` and ``rescore``: many games, and one game under many rulesets.

Registered on the main app by :mod:`engine.cli`.  Results go to stdout and to
the files asked for; timings (games/s) only to the terminal, so identical
runs write byte-identical JSON.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from .app import RefArgument, app, epilog
from .completion import complete_bots, complete_ref
from .output import JsonOption, Output, ref_inputs

# Bounds checked by click before any work (exit 2): more games than anyone waits for, a seed
# that fits 64 bits (other tools' integers), more workers than any machine has cores.
MAX_GAMES, MAX_SEED, MAX_WORKERS = 10**9, 2**63 - 1, 512
Games = Annotated[int, typer.Option("--games", "-n", metavar="N", min=1, max=MAX_GAMES,
                                    help="Number of games (1 to 10⁹).")]
Players = Annotated[str, typer.Option("--players", "-p", metavar="LIST", autocompletion=complete_bots,
                                      help="Comma-separated bots in seat order: random, greedy, "
                                           "mcts (mcts:2000 iterations, mcts:1.5s a move, "
                                           "name=value settings such as mcts:500:depth=4: see the README), "
                                           "policy:FILE (a trained network: the rl extra).")]
Seed = Annotated[int, typer.Option("--seed", "-s", metavar="N", min=0, max=MAX_SEED,
                                   help="Master seed (0 to 2⁶³ − 1): game i's seed is derived from it.")]
Workers = Annotated[Optional[int], typer.Option("--workers", "-w", metavar="N", min=1, max=MAX_WORKERS,
                                                help="Local worker processes (1 to 512; default: one per core).")]
Scheduler = Annotated[Optional[str], typer.Option("--scheduler", metavar="ADDRESS",
                                                  help="Run on a Dask cluster at tcp://host:port instead.")]


@app.command(epilog=epilog([
    "carcassonne simulate basic --games 1000",
    "carcassonne simulate basic+river -n 500 -p greedy,random --out games.jsonl",
    "carcassonne simulate first-edition -n 200 --json - | jq '.rulesets[].mean_score'",
    "carcassonne simulate basic -n 20 -p mcts:100,greedy",
]))
def simulate(
    ref: RefArgument,
    games: Games = 100,
    players: Players = "random,random",
    seed: Seed = 0,
    workers: Workers = None,
    scheduler: Scheduler = None,
    out: Annotated[Optional[Path], typer.Option("--out", metavar="FILE",
                                                help="Write one JSON line per game to FILE.")] = None,
    json_target: JsonOption = None,
) -> None:
    """Play many seeded games under one ruleset and summarise them."""
    import json
    from contextlib import closing, nullcontext

    from ..files.output import atomic_file, check_writable
    from ..sim.stats import Summary

    output = Output(json_target, outputs={"--out": out}, inputs=ref_inputs(ref))
    if out is not None:
        check_writable(out)  # before the ruleset is loaded: a bad path fails at once
    _check_scheduler(scheduler)
    job, kinds = _job([ref], players, seed, games, workers)
    summary = Summary(len(kinds))
    # Lines stream to the file as games finish: memory stays flat however many games.  The
    # first write that fails (a full disk) ends the run there, and `closing` stops the
    # workers at once rather than after every game, as it does on Ctrl-C.
    with atomic_file(out) if out is not None else nullcontext() as stream, \
            closing(_run_with_progress(output.console, job, workers, scheduler, games)) as results:
        for rows in results:
            summary.add(rows[0])
            if stream is not None:
                stream.write(json.dumps(rows[0], sort_keys=True) + "\n")
    summaries = {ref: summary.to_json()}
    _print_summaries(output, summaries, kinds)
    output.json("simulate", {"games": games, "seed": seed, "players": kinds, "rulesets": summaries})


@app.command(epilog=epilog([
    "carcassonne compare basic first-edition second-edition -n 2000 -p greedy,greedy --plot farms.png",
    "carcassonne compare basic basic+tiny-city -n 500 --json results.json",
    "carcassonne compare basic first-edition -n 300 --scheduler tcp://10.0.0.5:8786",
    "carcassonne compare basic first-edition -n 40 -p mcts:100,mcts:100",
]))
def compare(
    refs: Annotated[list[str], typer.Argument(metavar="REF", autocompletion=complete_ref,
                                              help="Two or more ruleset references.")],
    games: Games = 100,
    players: Players = "random,random",
    seed: Seed = 0,
    workers: Workers = None,
    scheduler: Scheduler = None,
    json_target: JsonOption = None,
    plot_path: Annotated[Optional[Path], typer.Option("--plot", metavar="FILE",
                                                      help="Write a figure (PNG, SVG, PDF) to FILE.")] = None,
) -> None:
    """Play the same games under several rulesets and compare them."""
    from contextlib import closing

    from ..errors import UserError
    from ..sim.stats import Pairing, Summary, plot

    if len(refs) < 2:
        raise UserError("compare needs at least two ruleset references", code="usage")
    if len(set(refs)) < len(refs):
        raise UserError("a ruleset reference is given twice", code="usage")
    _check_plot(plot_path, json_target)
    output = Output(json_target, outputs={"--plot": plot_path}, inputs=ref_inputs(*refs))
    _check_scheduler(scheduler)
    job, kinds = _job(refs, players, seed, games, workers)
    feature_kinds = _kinds(refs)
    summaries = {ref: Summary(len(kinds)) for ref in refs}
    pairing = Pairing(list(refs), len(kinds), feature_kinds)
    with closing(_run_with_progress(output.console, job, workers, scheduler, games)) as results:
        for rows in results:
            for ref, row in zip(refs, rows):
                summaries[ref].add(row)
            pairing.add(rows)
    result = {
        "games": games, "seed": seed, "players": kinds,
        "rulesets": {ref: s.to_json() for ref, s in summaries.items()},
        "differences": pairing.differences(),
    }
    _print_summaries(output, result["rulesets"], kinds)
    _print_differences(output, result["differences"])
    output.json("compare", result)
    if plot_path is not None:
        try:
            plot(str(plot_path), result["differences"], caption=f"{games} games, players {players}, seed {seed}")
        except (OSError, ValueError) as error:
            raise UserError(f"cannot write the figure {plot_path}: {error}", code="io") from None
        output.echo(f"Figure written to {plot_path}")


@app.command(epilog=epilog([
    "carcassonne rescore game.json --ruleset first-edition",
    "carcassonne rescore game.json -r first-edition -r second-edition --json - | jq '.columns[].scores'",
]))
def rescore(
    record: Annotated[Path, typer.Argument(metavar="RECORD", help="A game record.")],
    rulesets: Annotated[list[str], typer.Option("--ruleset", "-r", metavar="REF", autocompletion=complete_ref,
                                                help="Ruleset to rescore under (repeatable).")],
    json_target: JsonOption = None,
) -> None:
    """Score a recorded game's moves under other rulesets."""
    from rich.text import Text

    from ..files.record import load_record
    from ..rules.ruleset import load_ruleset
    from ..rules.seats import START
    from ..sim.rescore import differing_events
    from ..sim.rescore import rescore as rescore_columns

    output = Output(json_target, inputs={"the record": record, **ref_inputs(*rulesets)})
    doc = load_record(record)
    columns = rescore_columns(doc, rulesets)
    names = [p["name"] for p in doc.data["players"]]
    console = output.console
    table = output.table(f"{record}: the same moves under {len(columns)} ruleset{'s' * (len(columns) != 1)}")
    table.add_column("player")
    for column in columns:  # a game that stopped early is marked: its totals are of fewer turns (issue 50)
        table.add_column(column.ref + ("*" if column.stopped else ""), justify="right")
    stopped = [f"* {c.ref} stops at turn {c.stopped[0]} (its totals are the turns before, unscored at the end)"
               for c in columns if c.stopped]
    if stopped:
        table.caption = "; ".join(stopped)
    for p, name in enumerate(names):
        table.add_row(name, *[str(c.scores[p]) for c in columns])
        order = [k for c in columns for k in c.kinds]
        kinds = sorted(set(order), key=lambda k: (k != START, order.index(k)))  # start first, as in every table
        for kind in kinds:
            table.add_row(f"  {kind}", *[str(c.by_kind[p].get(kind, "–")) for c in columns], style="dim")
    console.print(table)
    base = columns[0]
    own_start = doc.data.get("start") or {}
    found = [{"ruleset": base.ref, "scores": base.scores, "points_by_kind": base.by_kind, "stopped": None,
              "start_tile": own_start.get("tile"), "differences": []}]
    for column in columns[1:]:
        theirs_ruleset = load_ruleset(column.ref, record.parent)
        start = theirs_ruleset.start
        theirs = theirs_ruleset.tiles[start].id if start >= 0 else None
        if theirs != own_start.get("tile"):
            console.print(f"note: {column.ref} would start with {theirs or 'no start tile'}; the recorded moves "
                          f"are replayed from the record's own start ({own_start.get('tile')})")
        if column.stopped:
            turn, why = column.stopped
            console.print(Text.assemble((column.ref, "bold"), f": stops at turn {turn}: {why}"))
        changes = differing_events(base, column)
        console.print(Text.assemble((column.ref, "bold"), f": {len(changes)} score event(s) differ from {base.ref}"))
        for before, after in changes:
            console.print(f"  {_event_text(before, names)}  →  {_event_text(after, names)}")
        found.append({"ruleset": column.ref, "scores": column.scores, "points_by_kind": column.by_kind,
                      "stopped": None if column.stopped is None else
                      {"turn": column.stopped[0], "reason": column.stopped[1]},
                      "start_tile": theirs,
                      "differences": [{"before": before, "after": after} for before, after in changes]})
    output.json("rescore", {"record": str(record), "players": names, "columns": found})


def _check_scheduler(address: str | None) -> None:
    import re

    from ..errors import UserError

    if address is None:
        return
    # A host name (labels of 1–63 letters, digits and inner hyphens; 253 characters at most),
    # an IPv4 address or a bracketed IPv6 address, and a port.
    label = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    found = re.fullmatch(rf"(tcp|tls|ucx)://({label}(?:\.{label})*|\[[0-9A-Fa-f:.]+\]):(\d{{1,5}})", address)
    if found is None or len(found.group(2)) > 253 or not 0 < int(found.group(3)) < 65536:
        raise UserError(f"--scheduler wants a Dask scheduler address like tcp://host:8786 (a port from 1 to "
                        f"65535), not '{address}'", code="scheduler")


def _check_plot(path: Path | None, json_target: str | None) -> None:
    from importlib.util import find_spec

    from ..errors import UserError
    from ..files.output import check_writable

    if path is None:
        return
    if path.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise UserError(f"--plot writes .png, .svg or .pdf files, not '{path.name}'", code="usage")
    if find_spec("matplotlib") is None:  # said before the games, not after them
        raise UserError("--plot needs matplotlib, from the stats extra: pip install 'carcassonne-rules[stats]'",
                        code="dependency")
    target = check_writable(path)  # also says what is wrong with a symlink loop, before comparing
    if json_target not in (None, "-") and target == check_writable(json_target):
        raise UserError("--plot and --json name the same file", code="usage")


def _event_text(event: dict | None, names: list[str]) -> str:
    if event is None:
        return "(none)"
    who = ", ".join(names[p] for p in event["players"]) or "nobody"
    if event["rule"] == "bonus":  # a game-end bonus belongs to no feature
        return f"turn {event['turn']} {event['kind']} bonus: {event['points']} for {who}"
    if event["rule"] == "title":  # a title passed: it belongs to no feature either
        was = f" from {names[event['from']]}" if event.get("from") is not None else ""
        return f"turn {event['turn']} {event['kind']} title: to {who}{was}"
    x, y = event["tiles"][0] if event["tiles"] else ("?", "?")
    where = f"for the {event['target']} at ({x},{y})" if event.get("target") else f"at ({x},{y})"
    return f"turn {event['turn']} {event['kind']} {where} {event['rule']}: {event['points']} for {who}"


def _job(refs: list[str], players: str, seed: int, games: int, workers: int | None = None):
    """The :class:`~engine.sim.simulate.Job` of a run, and its bot kinds; :class:`UserError` for a bot
    or a seat count a ruleset refuses.  A search player's games take seconds each, so they go to
    the workers a few at a time (every worker busy from the first game); a fast player's by
    :data:`~engine.sim.simulate.CHUNK`."""
    import os

    from ..bots.players import parse_spec
    from ..errors import UserError
    from ..rules.ruleset import load_ruleset
    from ..sim.simulate import CHUNK, Job

    kinds = [k.strip() for k in players.split(",") if k.strip()]
    for kind in kinds:
        try:
            parse_spec(kind)
        except ValueError as error:
            raise UserError(str(error), code="players") from None
    for ref in refs:
        ruleset = load_ruleset(ref)
        if not ruleset.min_players <= len(kinds) <= ruleset.max_players:
            raise UserError(f"{ref} is for {ruleset.min_players}–{ruleset.max_players} players, not {len(kinds)}",
                            code="players")
    slow = any(parse_spec(kind)[0] == "mcts" for kind in kinds)
    share = games // (4 * (workers or os.cpu_count() or 1))
    return Job(tuple(refs), tuple(kinds), seed, games, chunk=max(1, min(CHUNK, share)) if slow else CHUNK), kinds


def _kinds(refs: list[str]) -> list[str]:
    from ..rules.ruleset import load_ruleset
    from ..rules.seats import START

    names: list[str] = []
    for ref in refs:
        ruleset = load_ruleset(ref)
        names += [name for name in ruleset.categories if name not in names]
    return sorted(names, key=lambda name: name != START)  # the points a seat started with first, as everywhere


def _run_with_progress(console, job, workers, scheduler, games, per_deal: int = 1,
                       words: tuple[str, str] = ("games", "rulesets")):
    """Run ``job`` with a progress bar on a terminal, then say how long it took (``per_deal``:
    games played per seed and ruleset, for the rate; ``words``: what a seed and a ruleset are)."""
    from ..sim.simulate import run

    start = time.perf_counter()
    if console.is_terminal:
        yield from _with_bar(console, games, start, lambda advance: run(job, workers=workers, scheduler=scheduler,
                                                                        on_chunk=advance))
    else:  # in a pipe or file a bar would leave a blank line and nothing else (and rich.progress costs start-up)
        yield from run(job, workers=workers, scheduler=scheduler)
    elapsed = time.perf_counter() - start
    plays = games * len(job.refs) * per_deal
    each = f" × {len(job.refs)} {words[1]}" if len(job.refs) > 1 else ""
    each += f" × {per_deal} games" if per_deal > 1 else ""
    each += f" = {plays} plays" if each else ""
    console.print(f"{games} {words[0]}{each} in {elapsed:.1f} s ({_rate(plays / elapsed)} plays/s)")


def _with_bar(console, games: int, start: float, play):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[rate]} games/s"), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("playing", total=games, rate="–")

        def advance(n: int) -> None:
            done = progress.tasks[0].completed + n
            progress.update(task, advance=n, rate=f"{done / max(time.perf_counter() - start, 1e-9):.0f}")

        yield from play(advance)


def _print_summaries(output: Output, summaries: dict, players: list[str]) -> None:
    from ..rules.seats import START

    table = output.table("Per ruleset: means over games, [95% confidence interval]")
    table.add_column("measure")
    for ref in summaries:
        table.add_column(ref, justify="right")
    values = list(summaries.values())
    for p, kind in enumerate(players):
        table.add_row(f"seat {p + 1} ({kind}) score",
                      *[f"{s['mean_score'][p]['mean']:.1f} [{s['mean_score'][p]['ci95'][0]:.1f}, "
                        f"{s['mean_score'][p]['ci95'][1]:.1f}]" for s in values])
    kinds = [k for s in values for k in s["points_by_kind"]]
    for kind in sorted(dict.fromkeys(kinds), key=lambda k: k != START):  # start first, as in every table
        table.add_row(f"{kind} points per player", *[f"{s['points_by_kind'].get(kind, 0):.2f}" for s in values])
    table.add_row("seat 1 wins", *[_rate_text(s['first_seat_win_rate'], s['first_seat_win_rate_ci95'])
                                   for s in values])
    table.add_row("draws", *[_rate_text(s['draw_rate'], s['draw_rate_ci95']) for s in values])
    table.add_row("winning margin", *[f"{s['mean_winning_margin']:.1f}" for s in values])
    table.add_row("tiles discarded", *[f"{s['mean_tiles_discarded']:.2f}" for s in values])
    output.console.print(table)


def _rate_text(rate: float, interval: list[float]) -> str:
    """``45.0% [30.7%, 60.2%]``: a rate of games and its 95% interval."""
    return f"{rate:.1%} [{interval[0]:.1%}, {interval[1]:.1%}]"


def _signed(x: float) -> str:
    """``+1.25``, ``-0.40``, and ``+0.00`` for anything that rounds to 0 (never ``-0.00``)."""
    return f"{round(x, 2) + 0.0:+.2f}"


def _print_differences(output: Output, differences: list[dict]) -> None:
    for d in differences:
        table = output.table(f"{d['to']} minus {d['from']}, paired game by game (bootstrap 95% CI); the winner "
                             f"changes in {_rate_text(d['winner_changed_rate'], d['winner_changed_rate_ci95'])} "
                             "of games")
        table.add_column("measure")
        table.add_column("mean difference", justify="right")
        table.add_column("95% CI", justify="right")
        for seat in d["mean_score_difference"]:
            table.add_row(f"seat {seat['seat'] + 1} score", _signed(seat["mean"]),
                          f"[{_signed(seat['ci95'][0])}, {_signed(seat['ci95'][1])}]")
        for kind, x in d["points_by_kind_difference"].items():
            table.add_row(f"{kind} points (all players)", _signed(x["mean"]),
                          f"[{_signed(x['ci95'][0])}, {_signed(x['ci95'][1])}]")
        output.console.print(table)


def _rate(per_second: float) -> str:
    """A rate with two significant figures below 10 (search players play a game in seconds)."""
    return f"{per_second:.0f}" if per_second >= 10 else f"{per_second:.2g}"
