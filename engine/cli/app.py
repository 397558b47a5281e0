"""The typer application every ``carcassonne`` command registers on, its root options, and output helpers.

The command modules import ``app`` (and the ``rulesets``/``scenario`` sub-apps)
from here and add their commands; :func:`engine.cli.main` imports them all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

_CONTEXT = {"help_option_names": ["-h", "--help"]}
app = typer.Typer(
    help="Play, check and compare Carcassonne games under rulesets written as data.",
    no_args_is_help=False,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings=_CONTEXT,
)
rulesets_app = typer.Typer(help="List, show, check and compare rulesets and options.", add_completion=False,
                           context_settings=_CONTEXT)
scenario_app = typer.Typer(help="Scenario files: forced turns with expected scores.", add_completion=False,
                           context_settings=_CONTEXT)
app.add_typer(scenario_app, name="scenario")
app.add_typer(rulesets_app, name="rulesets")


class Failed(Exception):
    """A check the user asked for did not hold (exit 1)."""


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"carcassonne {version('carcassonne-rules')}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Play, check and compare Carcassonne games under rulesets written as data.

    Run with no command to play one game of the basic ruleset between a random
    and a greedy bot (the seed is printed, so the game can be played again).
    """
    if ctx.invoked_subcommand is None:
        # Looked up by name: the command modules register on this app, so importing them here would loop.
        ctx.invoke(ctx.command.get_command(ctx, "play"))


def write_picture(svg_text: str, svg: Path | None, png: Path | None) -> None:
    """Write ``svg_text`` to ``svg`` and/or as PNG to ``png``; both paths are checked before either is written."""
    from ..files.output import check_writable, write_text
    from ..view.render import to_png

    for path in (svg, png):
        if path is not None:
            check_writable(path)
    if svg is not None:
        write_text(svg, svg_text)
        typer.echo(f"Picture written to {svg}")
    if png is not None:
        to_png(svg_text, png)
        typer.echo(f"Picture written to {png}")
