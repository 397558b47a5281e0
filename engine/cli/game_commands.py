"""``carcassonne replay``, ``render`` and ``scenario check``: one game at a time (``play`` is
:mod:`engine.cli.play_command`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from ..core.standings import ranking, standing, winners
from . import play_command  # noqa: F401  (registered here, first: play leads the game commands)
from .app import Failed, app, check_pictures, epilog, exit_check, scenario_app, write_picture
from .output import JsonOption, Output


@app.command(epilog=epilog([
    "carcassonne replay game.json",
    "carcassonne replay game.json --html game.html",
    "carcassonne replay game.json --json - | jq .agrees",
], exit_check("a replayed score differs from the record")))
def replay(
    record: Annotated[Path, typer.Argument(metavar="RECORD",
                                           help="A game record written by 'carcassonne play --record'.")],
    html_path: Annotated[Optional[Path], typer.Option("--html", metavar="FILE",
                                                      help="Also write a self-contained HTML replay viewer "
                                                           "to FILE.")] = None,
    json_target: JsonOption = None,
) -> None:
    """Replay a game record and check every score against it."""
    from ..files.output import check_writable, write_text
    from ..files.record import load_record
    from ..files.record import replay as replay_record

    output = Output(json_target, outputs={"--html": html_path}, inputs={"the record": record})
    if html_path is not None:
        check_writable(html_path)
    doc = load_record(record)
    game, problems = replay_record(doc)
    finished = doc.data.get("finished", True) is not False
    if html_path is not None:
        from ..view.viewer import replay_html

        write_text(html_path, replay_html(doc))
        output.echo(f"Replay viewer written to {html_path} (open it in a browser; arrow keys step through turns)")
    for problem in problems:
        output.echo(f"{record}: mismatch: {problem}", err=True)
    output.json("replay", {"record": str(record), "ruleset": doc.data["ruleset"], "turns": len(doc.data["turns"]),
                           "scores": list(game.scores), "ranking": ranking(game.scores),
                           "winners": winners(game.scores, finished), "agrees": not problems, "mismatches": problems})
    if problems:
        raise Failed()
    names = [player["name"] for player in doc.data["players"]]
    output.echo(f"{record}: {len(doc.data['turns'])} turns replayed; scores {game.scores} agree with the record. "
                + standing(game.scores, names, finished))


@app.command(epilog=epilog([
    "carcassonne render game.json --svg board.svg",
    "carcassonne render game.json --turn 20 --png board.png --coordinates",
]))
def render(
    record: Annotated[Path, typer.Argument(metavar="RECORD", help="A game record.")],
    turn: Annotated[Optional[int], typer.Option("--turn", metavar="N", min=0, max=10**9,
                                                help="The board after N turns, at most the record's (default: "
                                                     "the end, after final scoring).")] = None,
    svg: Annotated[Optional[Path], typer.Option("--svg", metavar="FILE",
                                                help="Write the board as SVG to FILE.")] = None,
    png: Annotated[Optional[Path], typer.Option("--png", metavar="FILE",
                                                help="Write the board as PNG to FILE (needs the render "
                                                     "extra).")] = None,
    coordinates: Annotated[bool, typer.Option("--coordinates", help="Label the columns with x and the rows with y, "
                                                                    "as the turn log names positions.")] = False,
) -> None:
    """Draw a recorded game's board: tiles, followers, scores.

    The tile placed last has a thick outline.
    """
    from ..errors import UserError
    from ..files.output import check_distinct
    from ..files.record import load_record
    from ..view.render import board_after, board_svg

    if svg is None and png is None:
        raise UserError("say where to write the picture: --svg FILE and/or --png FILE", code="usage")
    check_distinct({"--svg": svg, "--png": png}, {"the record": record})
    check_pictures(svg, png)  # a bad picture path fails before the record is replayed
    doc = load_record(record)
    if turn is not None and turn > len(doc.data["turns"]):  # a usage error, like --turn -1
        raise typer.BadParameter(f"{turn} is more than the {len(doc.data['turns'])} turns of {record}",
                                 param_hint="'--turn'")
    game = board_after(doc, turn=turn)
    names = [p["name"] for p in doc.data["players"]]
    when = f"after turn {turn}" if turn is not None else (
        "final" if doc.data.get("finished", True) else f"stopped after turn {len(doc.data['turns'])}")
    write_picture(board_svg(game, names, title=f"{doc.data['ruleset']}, {when}", coordinates=coordinates), svg, png)


@scenario_app.command("check", epilog=epilog([
    "carcassonne scenario check tests/scenarios/*.yaml",
    "carcassonne scenario check my-ruling.yaml --json - | jq '.files[].outcomes'",
], exit_check("an expected score does not hold")))
def scenario_check(
    files: Annotated[list[Path], typer.Argument(metavar="FILE", help="Scenario YAML files.")],
    json_target: JsonOption = None,
) -> None:
    """Run scenario files and check their expected scores."""
    from ..errors import UserError
    from ..files.scenario import load_scenario, run_scenario
    from .output import diagnostics_json

    output = Output(json_target, inputs={f"the scenario {file}": file for file in files})
    failed = bad = 0
    results = []
    for file in files:
        try:
            outcomes = run_scenario(load_scenario(file))
        except UserError as error:
            output.echo(error.render(), err=True)
            bad += 1
            results.append({"file": str(file), "outcomes": [], "errors": diagnostics_json(error)})
            continue
        results.append({"file": str(file), "errors": [], "outcomes": [
            {"ruleset": o.ruleset, "holds": not o.failures, "in_game": o.in_game, "final": o.final,
             "failures": o.failures} for o in outcomes]})
        for outcome in outcomes:
            if outcome.failures:
                failed += 1
                output.echo(f"FAIL {file} [{outcome.ruleset}]")
                for failure in outcome.failures:
                    output.echo(f"  {failure}")
            else:
                scores = ", ".join(f"{name} {points}" for name, points in outcome.final.items())
                output.echo(f"ok   {file} [{outcome.ruleset}]  final: {scores}")
    output.json("scenario-check", {"files": results, "failed": failed, "bad": bad})
    if bad:
        raise typer.Exit(2)
    if failed:
        raise Failed()
