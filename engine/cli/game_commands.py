"""``carcassonne play``, ``replay``, ``render`` and ``scenario check``: one game at a time."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated, Optional

import typer

from .app import Failed, app, scenario_app, write_picture


@app.command()
def play(
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", help="Ruleset name (basic) or path to a YAML file.")] = "basic",
    players: Annotated[str, typer.Option("--players", "-p", help="Comma-separated players in seat order: bot kinds (random, greedy, …) or human.")] = "random,greedy",
    seed: Annotated[Optional[int], typer.Option("--seed", "-s", min=0, help="Seed for the deck and the bots (≥ 0); random if left out (and printed).")] = None,
    record: Annotated[Optional[Path], typer.Option("--record", help="Write the game record (JSON) here.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the final table, no turn log.")] = False,
) -> None:
    """Play one game between bots and print each turn and the final scores."""
    from rich.console import Console

    from ..bots.players import PLAYER_KINDS
    from ..errors import UserError
    from ..files.output import check_writable, write_json
    from ..rules.references import portable_ref
    from ..rules.ruleset import load_ruleset
    from ..sim.play import play_game

    console = Console(highlight=False, soft_wrap=True)
    kinds = [k.strip() for k in players.split(",") if k.strip()]
    loaded = load_ruleset(ruleset)
    if not loaded.min_players <= len(kinds) <= loaded.max_players:
        raise UserError(f"{loaded.ref} is for {loaded.min_players}–{loaded.max_players} players, "
                        f"not {len(kinds)} ({players})", code="players")
    unknown = [k for k in kinds if k not in PLAYER_KINDS and k != "human"]
    if unknown:
        raise UserError(f"unknown player '{unknown[0]}' (known: {', '.join(PLAYER_KINDS)}, human)",
                        code="players")
    ref = ruleset
    if record is not None:
        # The record names its ruleset relative to itself, so replay works from anywhere.
        ref = portable_ref(ruleset, check_writable(record).parent)
    if seed is None:
        seed = random.SystemRandom().randrange(10**9)
    names = [f"{kind}-{i + 1}" for i, kind in enumerate(kinds)]
    console.print(f"Playing [bold]{ruleset}[/] with {', '.join(names)} — seed {seed}")
    hook = None if quiet else _turn_logger(console, loaded, names)
    if not quiet:
        hook = _with_start_line(console, loaded, hook)
    seats = None
    if "human" in kinds:
        from ..bots.players import make_player
        from .human import HumanPlayer

        seats = [HumanPlayer(names[i], console=console, seat_names=names) if kind == "human"
                 else make_player(kind, seed, i)
                 for i, kind in enumerate(kinds)]
        hook = None  # the human's screen shows every turn already
    played = play_game(loaded, kinds, seed, ref=ref, on_turn=hook, players=seats)
    if played.quit:
        target = record or Path(f"carcassonne-{seed}.json")
        write_json(target, played.record)
        console.print(f"Game stopped after {played.game.turn} turns; the record so far is in {target} "
                      f"(replay it with: carcassonne replay {target})")
        return
    game = played.game
    if not quiet:
        for event in game.events:
            if event.phase == "final":
                console.print(f"  final  {event.explain(names)}")
    _score_table(console, game, names, played.in_game)
    placed = len(game.board)
    discarded = sum(1 for _, move in game.history if move is None) - game.returned
    back = f" ({game.returned} unplaceable draw{'s' * (game.returned != 1)} went back into the stack)" \
        if game.returned else ""
    starts = {0: "no start tile", 1: "start tile included"}.get(len(game.starts), "start tiles included")
    console.print(f"{placed} tiles placed ({starts}), {discarded} discarded{back}.")
    if record is not None:
        write_json(record, played.record)
        console.print(f"Record written to {record}")


def _turn_logger(console, ruleset, names):
    """A turn hook printing each placement (with its points and why) and each discard."""
    from ..files.notation import format_follower

    seen = 0

    def log(game, seat, tile, move, events) -> None:
        nonlocal seen
        for tile_index, entry in game.history[seen:]:
            tile_id = ruleset.tiles[tile_index].id
            if entry is None:
                fate = ("back into the stack (or out, if no tile left fits)" if ruleset.unplaceable == "reshuffle"
                        else "discarded")
                console.print(f"    {names[game.player]:<10} {tile_id:<3} fits nowhere: {fate}; "
                              "the same player draws again")
                continue
            m, x, y = game.local(entry.pos)
            follower = ""
            if entry.follower is not None:
                kind = ruleset.kinds[ruleset.tiles[tile_index].segments[entry.follower].kind]
                follower = f"{kind.follower} on {format_follower(ruleset, tile_index, entry.rotation, entry.follower)}"
            where = f"map {m} " if ruleset.maps > 1 else ""
            line = (f"{game.turn:3d} {names[seat]:<10} {tile_id:<3} {where}({x:3d},{y:3d}) "
                    f"{entry.rotation * 90:3d}°  {follower}")
            console.print(line.rstrip())
            for event in events:
                console.print(f"      ↳ {event.explain(names)}")
        seen = len(game.history)

    return log


def _with_start_line(console, ruleset, hook):
    """Print the start tile(s) once, before the first turn's line."""
    shown = False

    def log(game, seat, tile, move, events) -> None:
        nonlocal shown
        if not shown:
            shown = True
            for m, (start, rotation) in enumerate(game.starts):
                where = f" on map {m}" if len(game.starts) > 1 else ""
                console.print(f"  0 start      {ruleset.tiles[start].id:<3} (  0,  0) {rotation * 90:3d}°{where}")
        hook(game, seat, tile, move, events)

    return log


def _score_table(console, game, names, in_game) -> None:
    from rich.table import Table

    kinds = [k.name for k in game.ruleset.kinds if k.complete or k.incomplete or k.final]  # kinds that can score
    by_kind = [[0] * len(kinds) for _ in names]
    for event in game.events:
        for p in event.players:
            by_kind[p][kinds.index(event.kind)] += event.points
    table = Table(title="Scores")
    table.add_column("player")
    for kind in kinds:
        table.add_column(kind, justify="right")
    table.add_column("in game", justify="right")
    table.add_column("final", justify="right", style="bold")
    for p, name in enumerate(names):
        table.add_row(name, *map(str, by_kind[p]), str(in_game[p]), str(game.scores[p]))
    console.print(table)


@app.command()
def replay(
    record: Annotated[Path, typer.Argument(metavar="RECORD", help="A game record written by 'carcassonne play --record'.")],
    html_path: Annotated[Optional[Path], typer.Option("--html", help="Also write a self-contained HTML replay viewer here.")] = None,
) -> None:
    """Replay a game record under its ruleset and check every score (and write a viewer)."""
    from ..files.output import check_writable, write_text
    from ..files.record import load_record
    from ..files.record import replay as replay_record

    if html_path is not None:
        check_writable(html_path)
    doc = load_record(record)
    game, problems = replay_record(doc)
    if html_path is not None:
        from ..view.viewer import replay_html

        write_text(html_path, replay_html(doc))
        typer.echo(f"Replay viewer written to {html_path} (open it in a browser; arrow keys step through turns)")
    for problem in problems:
        typer.echo(f"{record}: mismatch: {problem}", err=True)
    if problems:
        raise Failed()
    typer.echo(f"{record}: {len(doc.data['turns'])} turns replayed; scores {game.scores} agree with the record.")


@app.command()
def render(
    record: Annotated[Path, typer.Argument(metavar="RECORD", help="A game record.")],
    turn: Annotated[Optional[int], typer.Option("--turn", min=0, help="Show the board after this many turns (default: the end, after final scoring).")] = None,
    svg: Annotated[Optional[Path], typer.Option("--svg", help="Write the board as SVG here.")] = None,
    png: Annotated[Optional[Path], typer.Option("--png", help="Write the board as PNG here (needs the render extra).")] = None,
) -> None:
    """A picture of a recorded game's board: tiles, followers in player colours, scores."""
    from ..errors import UserError
    from ..files.record import load_record
    from ..view.render import board_after, board_svg

    if svg is None and png is None:
        raise UserError("say where to write the picture: --svg FILE and/or --png FILE", code="usage")
    doc = load_record(record)
    game = board_after(doc, turn=turn)
    names = [p["name"] for p in doc.data["players"]]
    when = f"after turn {turn}" if turn is not None else (
        "final" if doc.data.get("finished", True) else f"stopped after turn {len(doc.data['turns'])}")
    write_picture(board_svg(game, names, title=f"{doc.data['ruleset']}, {when}"), svg, png)


@scenario_app.command("check")
def scenario_check(
    files: Annotated[list[Path], typer.Argument(metavar="FILE...", help="Scenario YAML files.")],
) -> None:
    """Run scenario files; exit 0 if every expectation holds, 1 if any fails, 2 on bad input."""
    from ..errors import UserError
    from ..files.scenario import load_scenario, run_scenario

    failed = bad = 0
    for file in files:
        try:
            outcomes = run_scenario(load_scenario(file))
        except UserError as error:
            typer.echo(error.render(), err=True)
            bad += 1
            continue
        for outcome in outcomes:
            if outcome.failures:
                failed += 1
                typer.echo(f"FAIL {file} [{outcome.ruleset}]")
                for failure in outcome.failures:
                    typer.echo(f"  {failure}")
            else:
                scores = ", ".join(f"{name} {points}" for name, points in outcome.final.items())
                typer.echo(f"ok   {file} [{outcome.ruleset}]  final: {scores}")
    if bad:
        raise typer.Exit(2)
    if failed:
        raise Failed()
