"""``carcassonne rulesets list|show|validate|diff`` and ``carcassonne tiles``: looking at rulesets."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from ..core.deck import dealt
from .app import EXIT_PLAIN, RefArgument, app, check_pictures, epilog, rulesets_app, write_picture
from .completion import complete_ref
from .output import JsonOption, Output, ref_inputs

if TYPE_CHECKING:
    from ..rules.ruleset import Ruleset


def dealt_of_stack(ruleset: Ruleset) -> int | None:
    """``deck.size``, the tiles dealt from the stack, when it leaves some of the stack in the box
    (:func:`~engine.core.deck.dealt`); None when every tile is dealt."""
    return ruleset.deck_size if dealt(ruleset) < sum(t.count for t in ruleset.tiles) else None


@rulesets_app.command("list", epilog=epilog([
    "carcassonne rulesets list",
    "carcassonne rulesets list --json - | jq -r '.options[].name'",
]))
def rulesets_list(json_target: JsonOption = None) -> None:
    """The shipped rulesets and options: what each is, its source."""
    from ..rules.inspect import shipped

    output = Output(json_target)
    items = shipped()
    width = max(len(item.name) for item in items) + 2
    for kind, title in (("ruleset", "Rulesets"), ("option", "Options (add to any ruleset as +NAME)")):
        output.echo(f"{title}:")
        for item in (i for i in items if i.kind == kind):
            output.echo(f"  {item.name:<{width}}{item.description}")
            output.echo(f"  {'':<{width}}source: {item.source}")
        output.echo("")
    output.json("rulesets-list", {
        f"{kind}s": [{"name": i.name, "description": i.description, "source": i.source}
                     for i in items if i.kind == kind]
        for kind in ("ruleset", "option")})


@rulesets_app.command("show", epilog=epilog([
    "carcassonne rulesets show basic+river",
    "carcassonne rulesets show first-edition --origins",
    "carcassonne rulesets show basic --json - | jq '.ruleset.tiles.D'",
]))
def rulesets_show(
    ref: RefArgument,
    origins: Annotated[bool, typer.Option("--origins", help="After each value, the file and line that set it, and "
                                                           "what it built on or replaced.")] = False,
    json_target: JsonOption = None,
) -> None:
    """The merged ruleset as YAML, after extends and options."""
    from ..rules.inspect import leaf_chains, leaf_origins, merged, show
    from ..rules.resolve import resolved
    from ..rules.ruleset import load_ruleset

    output = Output(json_target, inputs=ref_inputs(ref))
    doc = merged(ref)
    for warning in load_ruleset(ref).warnings:  # shown as validate and play show them
        output.echo(warning.render(), err=True)
    if not output.to_stdout:
        typer.echo(show(ref, origins=origins), nl=False)
    output.json("rulesets-show", {"ref": ref, "ruleset": resolved(doc),
                                  "origins": leaf_origins(doc) if origins else None,
                                  "chains": leaf_chains(doc) if origins else None})


@rulesets_app.command("validate", epilog=epilog([
    "carcassonne rulesets validate my-variant.yaml",
    "carcassonne rulesets validate my-house-rule.yaml --base first-edition",
], "0 every file is valid (warnings, file:line:col: warning: …, do not change it); 2 a file is not (each "
   "problem as file:line:col: error: … on standard error) or bad usage."))
def rulesets_validate(
    paths: Annotated[list[Path], typer.Argument(metavar="PATH", help="Ruleset or option files.")],
    base: Annotated[str, typer.Option("--base", metavar="REF", autocompletion=complete_ref,
                                      help="Ruleset an option file is checked on (after the options it "
                                           "requires).")] = "basic",
    json_target: JsonOption = None,
) -> None:
    """Check ruleset and option files; every problem as file:line:col."""
    from ..errors import UserError
    from ..rules.inspect import validate_file
    from .output import diagnostic_list, diagnostics_json

    output = Output(json_target, inputs={f"the checked file {path}": path for path in paths})
    bad = 0
    results = []
    for path in paths:
        try:
            ruleset = validate_file(path, base)
        except UserError as error:
            output.echo(error.render(), err=True)
            bad += 1
            results.append({"file": str(path), "valid": False, "errors": diagnostics_json(error)})
            continue
        for warning in ruleset.warnings:  # valid all the same: the exit status stays 0
            output.echo(warning.render(), err=True)
        tiles = sum(t.count for t in ruleset.tiles)
        results.append({"file": str(path), "valid": True, "checked_as": ruleset.ref,
                        "tile_types": len(ruleset.tiles), "tiles": tiles, "errors": [],
                        "warnings": diagnostic_list(ruleset.warnings)})
        on = f", checked as {ruleset.ref}" if "+" in ruleset.ref else ""
        cut = dealt_of_stack(ruleset)
        output.echo(f"ok   {path} ({len(ruleset.tiles)} tile types, {tiles} tiles"
                    f"{f', {cut} dealt' if cut is not None else ''}{on})")
    output.json("rulesets-validate", {"files": results, "bad": bad})
    if bad:
        raise typer.Exit(2)


@rulesets_app.command("diff", epilog=epilog([
    "carcassonne rulesets diff basic first-edition",
    "carcassonne rulesets diff basic basic+river --json - | jq -r '.differences[].path'",
]))
def rulesets_diff(
    first: RefArgument,
    second: Annotated[str, typer.Argument(metavar="OTHER", autocompletion=complete_ref,
                                          help="Another ruleset reference.")],
    json_target: JsonOption = None,
) -> None:
    """What two rulesets set differently, with where each sets it."""
    from ..rules.inspect import diff, yaml_text

    output = Output(json_target, inputs=ref_inputs(first, second))
    found = diff(first, second)
    output.json("rulesets-diff", {"first": first, "second": second, "differences": [
        {"path": path, "first": a, "second": b, "first_origin": where_a or None, "second_origin": where_b or None}
        for path, a, b, where_a, where_b in found]})
    if not found:
        output.echo(f"{first} and {second} set the same rules.")
        return
    for path, a, b, where_a, where_b in found:
        output.echo(path)
        for ref, value, where in ((first, a, where_a), (second, b, where_b)):
            shown = "(not set)" if value is None else yaml_text(value)
            output.echo(f"  {ref}: {shown}" + (f"    [{where}]" if where else ""))


@app.command(epilog=epilog([
    "carcassonne tiles basic+river",
    "carcassonne tiles basic --svg atlas.svg",
    "carcassonne tiles examples/garden-variant.yaml --json - | jq '.tiles[0]'",
], EXIT_PLAIN))
def tiles(
    ref: RefArgument = "basic",
    svg: Annotated[Optional[Path], typer.Option("--svg", metavar="FILE",
                                                help="Write a picture of every tile type (SVG) to FILE.")] = None,
    png: Annotated[Optional[Path], typer.Option("--png", metavar="FILE",
                                                help="Write the picture as PNG to FILE (needs the render "
                                                     "extra).")] = None,
    json_target: JsonOption = None,
) -> None:
    """Each tile type: count, edges, segments and a small drawing."""
    from ..rules.inspect import tile_data, tile_drawings
    from ..rules.ruleset import load_ruleset

    output = Output(json_target, outputs={"--svg": svg, "--png": png}, inputs=ref_inputs(ref))
    check_pictures(svg, png)  # before the ruleset is loaded and drawn: a bad path fails at once
    ruleset = load_ruleset(ref)
    if svg is not None or png is not None:
        from ..view.render import atlas_svg

        write_picture(atlas_svg(ruleset), svg, png)
    else:
        cut = dealt_of_stack(ruleset)
        aside_ids = ", ".join(ruleset.tiles[t].id for t in ruleset.set_aside)
        if cut is not None:  # deck.size deals only `cut` of the stack; the rest stay in the box
            aside = f", {cut} dealt" + (f" ({aside_ids} set aside)" if ruleset.set_aside else "")
        else:
            aside = (f" ({sum(t.count for t in ruleset.tiles) - len(ruleset.set_aside)} in play: "
                     f"{aside_ids} set aside)") if ruleset.set_aside else ""
        own = (f"; each player also holds {ruleset.personal_count} {ruleset.tiles[ruleset.personal_tile].id} of "
               "their own (deck.personal)") if ruleset.personal_tile >= 0 else ""
        output.echo(f"{ruleset.ref}: {len(ruleset.tiles)} tile types, {sum(t.count for t in ruleset.tiles)} tiles"
                    f"{aside}{own}. Each port shows the segment covering it; the centre a port-less one.\n")
        output.echo("\n\n".join(tile_drawings(ruleset)))
    output.json("tiles", {"ref": ref, **tile_data(ruleset)})
