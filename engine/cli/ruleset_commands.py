"""``carcassonne rulesets list|show|validate|diff`` and ``carcassonne tiles``: looking at rulesets."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from .app import app, rulesets_app, write_picture


@rulesets_app.command("list")
def rulesets_list() -> None:
    """The shipped rulesets and options, each with what it is and where it comes from."""
    from ..rules.inspect import shipped

    items = shipped()
    width = max(len(item.name) for item in items) + 2
    for kind, title in (("ruleset", "Rulesets"), ("option", "Options (add to any ruleset as +NAME)")):
        typer.echo(f"{title}:")
        for item in (i for i in items if i.kind == kind):
            typer.echo(f"  {item.name:<{width}}{item.description}")
            typer.echo(f"  {'':<{width}}source: {item.source}")
        typer.echo("")


@rulesets_app.command("show")
def rulesets_show(
    ref: Annotated[str, typer.Argument(metavar="REF", help="Ruleset reference: NAME_OR_PATH[+OPTION]….")],
    origins: Annotated[bool, typer.Option("--origins", help="Note after each value the file and line that set it.")] = False,
) -> None:
    """The merged ruleset as YAML (after extends and options)."""
    from ..rules.inspect import show

    typer.echo(show(ref, origins=origins), nl=False)


@rulesets_app.command("validate")
def rulesets_validate(
    paths: Annotated[list[Path], typer.Argument(metavar="PATH...", help="Ruleset or option files.")],
    base: Annotated[str, typer.Option("--base", help="Ruleset an option file is checked on (after the options it requires).")] = "basic",
) -> None:
    """Check ruleset and option files; every problem as file:line:col (exit 0 all valid, 2 otherwise)."""
    from ..errors import UserError
    from ..rules.inspect import validate_file

    bad = 0
    for path in paths:
        try:
            ruleset = validate_file(path, base)
        except UserError as error:
            typer.echo(error.render(), err=True)
            bad += 1
            continue
        on = f", checked as {ruleset.ref}" if "+" in ruleset.ref else ""
        typer.echo(f"ok   {path} ({len(ruleset.tiles)} tile types, {sum(t.count for t in ruleset.tiles)} tiles{on})")
    if bad:
        raise typer.Exit(2)


@rulesets_app.command("diff")
def rulesets_diff(
    first: Annotated[str, typer.Argument(metavar="REF", help="A ruleset reference.")],
    second: Annotated[str, typer.Argument(metavar="OTHER", help="Another ruleset reference.")],
) -> None:
    """What two rulesets set differently, value by value, with where each side sets it."""
    from ..rules.inspect import diff, yaml_text

    found = diff(first, second)
    if not found:
        typer.echo(f"{first} and {second} set the same rules.")
        return
    for path, a, b, where_a, where_b in found:
        typer.echo(path)
        for ref, value, where in ((first, a, where_a), (second, b, where_b)):
            shown = "(not set)" if value is None else yaml_text(value)
            typer.echo(f"  {ref}: {shown}" + (f"    [{where}]" if where else ""))


@app.command()
def tiles(
    ref: Annotated[str, typer.Argument(metavar="REF", help="Ruleset reference.")] = "basic",
    svg: Annotated[Optional[Path], typer.Option("--svg", help="Write a picture of every tile type (SVG) here.")] = None,
    png: Annotated[Optional[Path], typer.Option("--png", help="Write the picture as PNG here (needs the render extra).")] = None,
) -> None:
    """Each tile type of a ruleset: count, edges, segments and a small drawing of its ports (or a picture)."""
    from ..rules.inspect import tile_drawings
    from ..rules.ruleset import load_ruleset

    ruleset = load_ruleset(ref)
    if svg is not None or png is not None:
        from ..view.render import atlas_svg

        write_picture(atlas_svg(ruleset), svg, png)
        return
    aside = (f" ({sum(t.count for t in ruleset.tiles) - len(ruleset.set_aside)} in play: "
             f"{', '.join(ruleset.tiles[t].id for t in ruleset.set_aside)} set aside)") if ruleset.set_aside else ""
    typer.echo(f"{ruleset.ref}: {len(ruleset.tiles)} tile types, {sum(t.count for t in ruleset.tiles)} tiles{aside}. "
               "Each port shows the segment covering it; the centre a port-less one.\n")
    typer.echo("\n\n".join(tile_drawings(ruleset)))
