"""``carcassonne play``, ``replay``, ``render`` and ``scenario check``: one game at a time."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..core import burial, personal, tallies
from ..core.hands import of as hands_of
from ..core.standings import ranking, standing
from .app import Failed, app, check_pictures, epilog, exit_check, scenario_app, write_picture
from .completion import complete_player_list, complete_ref
from .output import JsonOption, Output, ref_inputs


@app.command(epilog=epilog([
    "carcassonne play --seed 7",
    "carcassonne play -r first-edition+river -p greedy,greedy,random -s 3 --record game.json",
    "carcassonne play -p human,greedy",
    "carcassonne play -p mcts,greedy -s 7 --record game.json",
    "carcassonne play -s 7 --json - | jq .scores",
]))
def play(
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", metavar="REF", autocompletion=complete_ref,
                                         help="A ruleset reference, NAME_OR_PATH[+OPTION]…")] = "basic",
    players: Annotated[str, typer.Option("--players", "-p", metavar="LIST", autocompletion=complete_player_list,
                                         help="Comma-separated players in seat order: random, greedy, "
                                              "mcts (mcts:2000, mcts:1.5s, mcts:800:roots=2; more "
                                              "name=value settings in the README) or human.")] = "random,greedy",
    seed: Annotated[Optional[int], typer.Option("--seed", "-s", metavar="N", min=0, max=2**63 - 1,
                                                help="Seed for the deck and the bots (0 to 2⁶³ − 1); random if "
                                                     "left out (and printed).")] = None,
    record: Annotated[Optional[Path], typer.Option("--record", metavar="FILE",
                                                   help="Write the game record (JSON) to FILE.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the final table, no turn log.")] = False,
    json_target: JsonOption = None,
) -> None:
    """Play one game and print every turn, its points and the scores."""
    from rich.text import Text

    from ..bots.players import check_seats
    from ..core.scoring import points_by_kind
    from ..core.titles import holders
    from ..errors import UserError
    from ..files.output import check_writable, write_json
    from ..rules.references import portable_ref
    from ..rules.ruleset import load_ruleset
    from ..sim.play import play_game
    from .turn_log import score_table, tile_progress, turn_logger

    output = Output(json_target, outputs={"--record": record}, inputs=ref_inputs(ruleset))
    console = output.console
    kinds = [k.strip() for k in players.split(",") if k.strip()]
    if record is not None:
        check_writable(record)  # before the ruleset is loaded: a bad path fails at once
    loaded = load_ruleset(ruleset)
    for warning in loaded.warnings:  # the game is played all the same
        output.echo(warning.render(), err=True)
    check_seats(kinds, loaded.min_players, loaded.max_players, loaded.ref)
    if "human" in kinds and output.to_stdout:
        raise UserError("a human plays on the terminal, so the JSON cannot go there too: give --json a file",
                        code="usage")
    ref = ruleset
    if record is not None:
        # The record names its ruleset relative to itself, so replay works from anywhere.
        ref = portable_ref(ruleset, check_writable(record).parent)
    if seed is None:
        seed = random.SystemRandom().randrange(10**9)
    names = [f"{kind}-{i + 1}" for i, kind in enumerate(kinds)]
    console.print(Text.assemble("Playing ", (ruleset, "bold"), f" with {', '.join(names)} — seed {seed}"))
    hook = None if quiet or output.to_stdout else turn_logger(console, loaded, names)
    seats = None
    if "human" in kinds:
        from ..bots.players import make_player
        from .human import HumanPlayer

        seats = [HumanPlayer(names[i], console=console, seat_names=names) if kind == "human"
                 else make_player(kind, seed, i)
                 for i, kind in enumerate(kinds)]
        hook = None  # the human's screen shows every turn already
    if hook is None and seats is None and console.is_terminal and not output.to_stdout:
        with tile_progress(console) as progress:
            played = play_game(loaded, kinds, seed, ref=ref, on_turn=progress)
    else:
        played = play_game(loaded, kinds, seed, ref=ref, on_turn=hook, players=seats)
    game = played.game
    placed = len(game.board)
    discarded = sum(1 for _, move in game.history if move is None) - game.returned
    saved = record
    if played.quit:
        from .human import HumanPlayer

        # Only a file the player asked for: --record, or a name given when asked now.
        human = next(seat for seat in seats or () if isinstance(seat, HumanPlayer))
        if saved is None:
            saved = human.ask_save(f"carcassonne-{seed}.json")
            if saved is not None:
                played.record["ruleset"] = portable_ref(ruleset, check_writable(saved).parent)
        if saved is not None:
            write_json(saved, played.record)
            console.print(f"Game stopped after {game.turn} turns; the record so far is in {saved} "
                          f"(replay it with: carcassonne replay {saved})")
        else:
            why = "Ctrl-C, so " if human.interrupted else "the input ended, so " if human.input_ended else ""
            console.print(f"Game stopped after {game.turn} turns; {why}nothing was saved "
                          f"(--record FILE saves a game however it ends)")
    else:
        if not quiet:
            for event in game.events:
                if event.phase == "final":
                    console.print(f"  final  {event.explain(names)}")
        score_table(output, game, names, played.in_game)
        console.print(standing(game.scores, names))
        back = f" ({game.returned} unplaceable draw{'s' * (game.returned != 1)} went back into the stack)" \
            if game.returned else ""
        held = hands_of(game)
        if held is not None and held.out:  # deck.hand return: box
            back += f", {len(held.out)} returned to the box unplaced"
        if burial.of(game).buried:  # deck.bury
            back += (f", {len(burial.of(game).buried)} buried under "
                     f"{game.ruleset.kinds[game.ruleset.bury_kind].name} tiles")
        starts = {0: "no start tile", 1: "start tile included"}.get(len(game.starts), "start tiles included")
        console.print(f"{placed} tiles placed ({starts}), {discarded} discarded{back}.")
        if record is not None:
            write_json(record, played.record)
            console.print(f"Record written to {record}")
    output.json("play", {
        "ruleset": ruleset, "seed": seed,
        "players": [{"name": name, "kind": kind} for name, kind in zip(names, kinds)],
        "finished": not played.quit, "turns": game.turn, "extra_turns": list(game.extra_turns),
        "personal_turns": list(personal.of(game).turns),
        "scores": {"in_game": played.in_game, "final": list(game.scores)},
        "ranking": ranking(game.scores), "winners": ranking(game.scores)[0],
        "points_by_kind": points_by_kind(game),
        "tokens": [dict(zip(game.ruleset.tokens, held)) for held in tallies.of(game).tokens], "titles": holders(game),
        "tiles_placed": placed, "tiles_discarded": discarded, "tiles_returned": game.returned,
        "tiles_buried": len(burial.of(game).buried),
        "events": [event.to_json() for event in game.events],
        "record": None if saved is None else str(saved),
    })
    if played.quit and human.interrupted:
        raise typer.Exit(130)  # Ctrl-C, as every command ends on it (what was saved is said above)


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
    if html_path is not None:
        from ..view.viewer import replay_html

        write_text(html_path, replay_html(doc))
        output.echo(f"Replay viewer written to {html_path} (open it in a browser; arrow keys step through turns)")
    for problem in problems:
        output.echo(f"{record}: mismatch: {problem}", err=True)
    output.json("replay", {"record": str(record), "ruleset": doc.data["ruleset"], "turns": len(doc.data["turns"]),
                           "scores": list(game.scores), "ranking": ranking(game.scores),
                           "winners": ranking(game.scores)[0], "agrees": not problems, "mismatches": problems})
    if problems:
        raise Failed()
    names = [player["name"] for player in doc.data["players"]]
    output.echo(f"{record}: {len(doc.data['turns'])} turns replayed; scores {game.scores} agree with the record. "
                + standing(game.scores, names))


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
