"""The typer application every ``carcassonne`` command registers on, its root options, and output helpers.

The command modules import ``app`` (and the ``rulesets``/``scenario`` sub-apps)
from here and add their commands; :func:`engine.cli.main` imports them all.
Help is click's plain format (no rich boxes): it reads like other Unix tools
and keeps ``carcassonne --help`` from importing rich.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperArgument, TyperCommand

from .completion import complete_ref

_CONTEXT = {"help_option_names": ["-h", "--help"]}

#: The exit status paragraph of commands that only succeed or get bad input.
EXIT_PLAIN = "0 done; 2 bad input (file:line:col: error: … on standard error) or bad usage."
#: … and of commands that check something (``what`` says what failing means).
def exit_check(what: str) -> str:
    """The exit status paragraph of a command that checks something: 1 when ``what``."""
    return f"0 everything held; 1 {what}; 2 bad input (file:line:col: error: … on standard error) or bad usage."


def epilog(examples: list[str], exit_status: str = EXIT_PLAIN) -> str:
    r"""A command's help epilog: its examples, one per line, then its exit status.

    ``\b`` keeps click from re-wrapping the example lines.
    """
    lines = "\n".join(f"  {example}" for example in examples)
    return f"Examples:\n\n\b\n{lines}\n\nExit status: {exit_status}"


def _no_type(ctx: Any) -> None:
    return None


class HelpCommand(TyperCommand):
    """A command whose help names arguments by their metavar only (``REF``, not ``REF <str>``).

    Every option that takes a value sets a metavar (``N``, ``FILE``, ``REF``);
    flags show none, so nothing looks like it wants a value that does not.
    """

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        for param in params:
            if isinstance(param, TyperArgument):
                param.display_type_rich = _no_type  # an instance attribute shadows the method
                if param.nargs != 1:
                    param.make_metavar = _many(param.make_metavar)
        return params


def _many(make_metavar: Any) -> Any:
    """``REF...`` in the usage line of an argument taking several values (typer leaves the
    dots out of a metavar it was given)."""
    def metavar(ctx: Any, *, usage: bool = False) -> str:
        text = make_metavar(ctx, usage=usage)
        return text if not usage or text.endswith("...") else text + "..."
    return metavar


class App(typer.Typer):
    """``typer.Typer`` whose commands use :class:`HelpCommand`."""

    def command(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("cls", HelpCommand)
        return super().command(*args, **kwargs)


app = App(
    help="Play, check and compare Carcassonne games under rulesets written as data.\n\n"
         "With no command, plays one game of the basic ruleset between a random and a greedy bot "
         "(the seed is printed, so the game can be played again). "
         "A ruleset reference REF is NAME_OR_PATH[+OPTION]…, e.g. basic+river; "
         "'carcassonne rulesets list' names them.",
    no_args_is_help=False,
    pretty_exceptions_enable=False,
    context_settings=_CONTEXT,
    rich_markup_mode=None,
)
rulesets_app = App(help="List, show, check and compare rulesets and options.", add_completion=False,
                   context_settings=_CONTEXT, rich_markup_mode=None)
scenario_app = App(help="Scenario files: forced turns with expected scores.", add_completion=False,
                   context_settings=_CONTEXT, rich_markup_mode=None)
app.add_typer(scenario_app, name="scenario")
app.add_typer(rulesets_app, name="rulesets")

#: A ruleset reference argument, completed from the shipped names (``basic+ri<TAB>``).
RefArgument = Annotated[str, typer.Argument(metavar="REF", autocompletion=complete_ref,
                                            help="A ruleset reference, NAME_OR_PATH[+OPTION]…")]


class Failed(Exception):
    """A check the user asked for did not hold (exit 1)."""


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        from ..build_info import engine_build

        typer.echo(f"carcassonne {version('carcassonne-rules')}, engine {engine_build()}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    if ctx.invoked_subcommand is None:
        # Looked up by name: the command modules register on this app, so importing them here would loop.
        ctx.invoke(ctx.command.get_command(ctx, "play"))


def check_pictures(svg: Path | None, png: Path | None) -> None:
    """:class:`~engine.errors.UserError` if ``svg`` or ``png`` cannot be written, or PNG needs a
    missing extra: called before the picture is drawn, so a bad path fails at once."""
    from ..files.output import check_writable

    for path in (svg, png):
        if path is not None:
            check_writable(path)
    if png is not None:
        from ..view.render import png_renderer

        png_renderer()  # a missing extra is said before the SVG is written, not after


def write_picture(svg_text: str, svg: Path | None, png: Path | None) -> None:
    """Write ``svg_text`` to ``svg`` and/or as PNG to ``png``; both paths, and the PNG extra, are checked
    before either is written."""
    from ..files.output import write_text
    from ..view.render import to_png

    check_pictures(svg, png)
    if svg is not None:
        write_text(svg, svg_text)
        typer.echo(f"Picture written to {svg}")
    if png is not None:
        to_png(svg_text, png)
        typer.echo(f"Picture written to {png}")
