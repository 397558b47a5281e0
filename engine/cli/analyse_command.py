"""``carcassonne analyse``: the designer's report — what a rule does to balance, skill, luck,
tension and the shape of play, over many paired games (docs/analyse.md)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Annotated, Optional

import typer

from .app import app, epilog
from .completion import complete_bots, complete_ref
from .output import JsonOption, Output, ref_inputs
from .sim_commands import MAX_GAMES, Players, Scheduler, Seed, Workers

#: The most values one sweep may take (each is a full set of games per ruleset).
MAX_SWEEP = 25


@app.command(epilog=epilog([
    "carcassonne analyse basic first-edition second-edition -n 200 -p greedy,greedy --html report.html",
    "carcassonne analyse basic --deals 100 --strong mcts:100 --weak greedy",
    "carcassonne analyse basic --deals 60 --ladder random,greedy,mcts:100",
    "carcassonne analyse basic first-edition --sweep farm_points=1..5 -n 100 --json sweep.json",
]))
def analyse(
    refs: Annotated[list[str], typer.Argument(metavar="REF", autocompletion=complete_ref,
                                              help="One or more ruleset references.")],
    games: Annotated[int, typer.Option("--deals", "-n", "--games", metavar="N", min=1, max=MAX_GAMES,
                                       help="Deals to play (1 to 10⁹): each unit plays every deal, twice for the luck "
                                            "measure and twice more per rung of the skill ladder.")] = 100,
    players: Players = "greedy,greedy",
    strong: Annotated[Optional[str], typer.Option("--strong", metavar="BOT", autocompletion=complete_bots,
                                                  help="With --weak: the stronger player of the skill measure "
                                                       "(two seats, seats swapped on each deal).")] = None,
    weak: Annotated[Optional[str], typer.Option("--weak", metavar="BOT", autocompletion=complete_bots,
                                                help="The weaker player of the skill measure.")] = None,
    ladder: Annotated[Optional[str], typer.Option("--ladder", metavar="LIST", autocompletion=complete_bots,
                                                  help="Skill as a ladder of bots, weakest first "
                                                       "(random,greedy,mcts:100): each plays the one below it "
                                                       "(--weak W --strong S is the ladder W,S).")] = None,
    sweep: Annotated[Optional[str], typer.Option("--sweep", metavar="NAME=LOW..HIGH[:STEP]",
                                                 help="Analyse each ruleset with its constant NAME set to each "
                                                      "value from LOW to HIGH (integers).")] = None,
    seed: Seed = 0,
    workers: Workers = None,
    scheduler: Scheduler = None,
    html_path: Annotated[Optional[Path], typer.Option("--html", metavar="FILE",
                                                      help="Write the report as one HTML page (needs the "
                                                           "stats extra).")] = None,
    json_target: JsonOption = None,
) -> None:
    """Measure balance, skill, luck and tension under rulesets."""
    import sys
    from contextlib import closing

    from ..errors import UserError
    from ..sim.analysis import UnitColumns, collect, findings, summarise, sweep_pairs
    from ..sim.simulate import CHUNK, Job
    from ..sim.traced import Unit, analyse_chunk, load_unit_ruleset
    from .sim_commands import _check_scheduler, _job, _run_with_progress

    if len(set(refs)) < len(refs):
        raise UserError("a ruleset reference is given twice", code="usage")
    if (strong is None) != (weak is None):
        raise UserError("--strong and --weak go together: the skill measure plays one against the other",
                        code="usage")
    rungs = _ladder(ladder, strong, weak)
    if rungs and len([k for k in players.split(",") if k.strip()]) != 2:
        raise UserError("the skill measure plays two-player games: give --players two bots as well, so that every "
                        "measure is of two-player games", code="usage")
    if html_path is not None and str(html_path) == "-":
        raise UserError("--html writes a file: give its path (--json - prints to standard output)", code="usage")
    _check_html(html_path, json_target)
    output = Output(json_target, outputs={"--html": html_path}, inputs=ref_inputs(*refs))
    _check_scheduler(scheduler)
    _, kinds = _job(list(refs), players, seed, games)  # checks the players against every ruleset
    for low, high in zip(rungs, rungs[1:]):
        _job(list(refs), f"{high},{low}", seed, games)  # each rung's bots (two seats, as --players has)
    swept = _parse_sweep(sweep) if sweep else None
    values: list[int | None] = list(swept[1]) if swept else [None]
    units = [Unit(ref, tuple(kinds), {} if value is None or swept is None else {swept[0]: value}, rungs)
             for ref in refs for value in values]
    rulesets = [load_unit_ruleset(u.ref, u.constants) for u in units]  # a bad sweep fails before any game
    columns = [UnitColumns(u.label, len(kinds), list(r.categories), u.ref, u.constants, rungs)
               for u, r in zip(units, rulesets)]
    spread = max(1, games // (4 * (workers or 2)))  # slow players: every worker busy from the start
    job = Job(tuple(u.key() for u in units), tuple(kinds), seed, games, task=analyse_chunk, chunk=min(CHUNK, spread))
    per_deal = 2 + 2 * max(len(rungs) - 1, 0)  # the game and its replay (luck), and a pair per rung
    with closing(_run_with_progress(output.console, job, workers, scheduler, games, per_deal,
                                    words=("deals", "units"))) as results:
        collect(results, columns)
    reports, differences = summarise(columns, sweep_pairs(len(refs), len(values)) if swept else None)
    result = {"rulesets": list(refs), "games": games, "seed": seed, "players": kinds, "strong": strong, "weak": weak,
              "ladder": list(rungs),
              "sweep": None if swept is None else {"constant": swept[0], "values": swept[1], "rulesets": list(refs)},
              "units": reports, "differences": differences, "findings": findings(reports, differences),
              "not_measured": {} if rungs else {"skill": "no --strong/--weak or --ladder was given"}}
    for line in result["findings"]:
        output.echo(f"• {line}")
    output.json("analyse", result)
    if html_path is not None:
        _write_html(html_path, result, shlex.join(["carcassonne", "analyse", *sys.argv[2:]]), rulesets)
        output.echo(f"Report written to {html_path}")


def _ladder(ladder: str | None, strong: str | None, weak: str | None) -> tuple[str, ...]:
    """The skill ladder, weakest first: ``--ladder``'s bots, or ``(weak, strong)``; () for none.
    :class:`UserError` for both given, or a ladder of fewer than two bots."""
    from ..errors import UserError

    if ladder is None:
        return (weak, strong) if strong is not None and weak is not None else ()
    if strong is not None:
        raise UserError("give --ladder or --strong/--weak, not both (--weak W --strong S is --ladder W,S)",
                        code="usage")
    rungs = tuple(k.strip() for k in ladder.split(",") if k.strip())
    if len(rungs) < 2:
        raise UserError(f"--ladder {ladder}: name at least two bots, weakest first (random,greedy)", code="usage")
    return rungs


def _parse_sweep(text: str) -> tuple[str, list[int]]:
    """``farm_points=1..5:2`` → ``("farm_points", [1, 3, 5])``; :class:`UserError` ``usage`` otherwise."""
    from ..errors import UserError

    found = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)=(-?\d{1,18})\.\.(-?\d{1,18})(?::(\d{1,18}))?", text.strip())
    if found is None:
        raise UserError(f"--sweep wants NAME=LOW..HIGH or NAME=LOW..HIGH:STEP with integers (farm_points=1..5), "
                        f"not '{text}'", code="usage")
    name, low, high, step = found.group(1), int(found.group(2)), int(found.group(3)), int(found.group(4) or 1)
    if step < 1 or high < low:
        raise UserError(f"--sweep {text}: LOW must not be above HIGH, and STEP must be at least 1", code="usage")
    count = (high - low) // step + 1
    if count > MAX_SWEEP:
        raise UserError(f"--sweep {text} takes {count} values; at most {MAX_SWEEP} (use a STEP)", code="usage")
    return name, list(range(low, high + 1, step))


def _check_html(path: Path | None, json_target: str | None) -> None:
    from importlib.util import find_spec

    from ..errors import UserError
    from ..files.output import check_writable

    if path is None:
        return
    if find_spec("matplotlib") is None:  # said before the games, not after them
        raise UserError("--html needs matplotlib, from the stats extra: pip install 'carcassonne-rules[stats]'",
                        code="dependency")
    target = check_writable(path)
    if json_target not in (None, "-") and target == check_writable(json_target):
        raise UserError("--html and --json name the same file", code="usage")


def _write_html(path: Path, result: dict, command: str, rulesets: list) -> None:
    import platform
    from importlib.metadata import version

    from ..build_info import engine_build
    from ..errors import UserError
    from ..files.output import write_text
    from ..sim.report_page import charts_svg, page

    versions = {"carcassonne-rules": f"{version('carcassonne-rules')} ({engine_build()} build)",
                "python": platform.python_version(), "matplotlib": version("matplotlib"),
                **{f"ruleset {r.ref}": f"sha256 {r.sha256}" for r in rulesets}}
    text = page(result, command, versions, charts_svg(result["units"], result["sweep"]))
    try:
        write_text(path, text)
    except OSError as error:
        raise UserError(f"cannot write the report {path}: {error.strerror or error}", code="io") from None
