"""``carcassonne serve``: the local web table (:mod:`engine.web`), served by uvicorn."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..web.limits import MAX_DEPTH, MAX_ITERATIONS, MAX_SECONDS
from .app import app, epilog
from .completion import complete_ref


@app.command(epilog=epilog([
    "carcassonne serve",
    "carcassonne serve --ruleset basic+river --players human,mcts:1s",
    "carcassonne serve --players human,human,greedy --port 8080 --records games/",
], "130 the server was stopped with Ctrl-C (143 with SIGTERM), as every command ends on them; 2 bad input, a "
   "missing web extra or a port in use."))
def serve(
    ctx: typer.Context,
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", metavar="REF", autocompletion=complete_ref,
                                         help="The first table's ruleset (the start page opens others).")] = "basic",
    players: Annotated[str, typer.Option("--players", "-p", metavar="LIST",
                                         help="The first table's seats: human (played in the page), random, "
                                              "greedy, mcts (mcts:2000, mcts:1.5s, mcts:800:roots=2; more name=value "
                                              "settings in the README).")] = "human,mcts",
    seed: Annotated[Optional[int], typer.Option("--seed", metavar="N", min=0, help="The first table's seed "
                                                "(default: random, shown on the page).")] = None,
    port: Annotated[int, typer.Option("--port", metavar="N", min=1, max=65535, help="The port to listen on.")] = 8000,
    records: Annotated[Path, typer.Option("--records", metavar="DIR",
                                          help="The folder each table's record is saved in, after every turn "
                                               "(created if missing).")] = Path("carcassonne-games"),
    rulesets: Annotated[Optional[Path], typer.Option(
        "--rulesets", metavar="DIR", help="The folder whose ruleset and option files the page may name, by file "
                                          "name (default: the records folder); shipped ones always.")] = None,
    max_iterations: Annotated[int, typer.Option("--max-iterations", metavar="N", min=1,
                                                help="The most iterations a move a bot the page seats may "
                                                     "think.")] = MAX_ITERATIONS,
    max_seconds: Annotated[float, typer.Option("--max-seconds", metavar="X", min=0.001,
                                               help="The most seconds a move a bot the page seats may "
                                                    "think.")] = MAX_SECONDS,
    max_depth: Annotated[int, typer.Option("--max-depth", metavar="N", min=0,
                                           help="The deepest playout (turns) of a bot the page seats that counts "
                                                "its search in iterations.")] = MAX_DEPTH,
    max_roots: Annotated[Optional[int], typer.Option("--max-roots", metavar="N", min=1,
                                                     help="The most searches at once (roots=N) a bot the page "
                                                          "seats may run (default: the machine's cores).")] = None,
) -> None:
    """Play in the browser: a local web table on 127.0.0.1.

    Opens a first table with --ruleset and --players, prints its address and serves
    until Ctrl-C; started again on a folder with unfinished games, it lists them and opens
    no new table unless --ruleset, --players or --seed is given. The page may seat bots
    within the --max-* budgets and name rulesets shipped or in the --rulesets folder (what
    is typed here is not held to them).
    Needs the web extra: pip install 'carcassonne-rules[web]'.
    """
    from ..bots.players import check_seats
    from ..errors import UserError, printable
    from ..rules.ruleset import load_ruleset

    try:
        from ..web.app import Tables, create_app
        from ..web.limits import Limits
        from ..web.server import port_taken, server
    except ImportError:
        raise UserError("serve needs the web extra: pip install 'carcassonne-rules[web]'", code="dependency") from None
    for folder, flag in ((records, "--records"), (rulesets, "--rulesets")):
        if folder is not None and folder.exists() and not folder.is_dir():
            raise UserError(f"{folder} ({flag}) is not a folder", code="usage")
    if rulesets is not None and not rulesets.is_dir():
        raise UserError(f"no folder {rulesets} (--rulesets)", code="usage")
    specs = [p.strip() for p in players.split(",") if p.strip()]
    loaded = load_ruleset(ruleset)  # the ruleset, the players and the port before anything is written
    check_seats(specs, loaded.min_players, loaded.max_players, loaded.ref)
    why = port_taken(port)
    if why is not None:
        raise UserError(f"port {port} on 127.0.0.1 cannot be used ({why}): give another with --port", code="usage")
    try:
        records.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"cannot create the records folder {records}: {error.strerror}", code="output") from None
    tables = Tables(records)
    waiting = [listed for listed in tables.listing() if listed.progress != "over"]
    typed = [name for name in ("ruleset", "players", "seed")  # by name: typer has a click of its own
             if getattr(ctx.get_parameter_source(name), "name", "") == "COMMANDLINE"]
    if waiting and not typed:  # a restart goes on with the saved games: no new empty table (issue 50)
        typer.echo(f"Open http://127.0.0.1:{port}/ in a browser to go on with a game saved in {records}/ or start "
                   "another. Ctrl-C stops the server.")
    else:
        first = tables.open(ruleset, specs, seed if seed is not None else random.SystemRandom().randrange(10**9))
        typer.echo(f"Open http://127.0.0.1:{port}/table/{first} in a browser to play "
                   f"(start page http://127.0.0.1:{port}/; records in {records}/). Ctrl-C stops the server.")
    if waiting:
        typer.echo(f"Saved in {records}/, unfinished (open one to go on; all are on the start page):")
        for listed in waiting[:5]:
            about = printable(f"{listed.ref}, {listed.progress}, {', '.join(listed.names)}")  # text from files
            typer.echo(f"  http://127.0.0.1:{port}/table/{listed.id}  {about}")
    limits = Limits(rulesets if rulesets is not None else records, max_iterations, max_seconds,
                    max_roots if max_roots is not None else Limits().roots, max_depth)
    server(create_app(tables, defaults={"ruleset": ruleset, "players": players}, limits=limits), port).run()
