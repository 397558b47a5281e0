"""``carcassonne play``: one game on the terminal, from its start or from a record saved unfinished
(``--resume FILE``: what ``q`` at the terminal saves)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from ..core import burial, personal, tallies
from ..core.hands import of as hands_of
from ..core.standings import ranking, standing, winners
from .app import app, epilog
from .completion import complete_player_list, complete_ref
from .output import JsonOption, Output, ref_inputs

if TYPE_CHECKING:
    from ..core.game import Game
    from ..rules.ruleset import Ruleset
    from ..sim.play import PlayedGame


@dataclass
class _Setup:
    """A game to play: its ruleset (loaded, and ``ref`` as typed or as its record names it), the seats'
    kinds and names, the seed, and for a resumed game the game as its record left it (else None)."""

    ruleset: Ruleset
    ref: str
    kinds: list[str]
    names: list[str]
    seed: int
    game: Game | None = None


@app.command(epilog=epilog([
    "carcassonne play --seed 7",
    "carcassonne play -r first-edition+river -p greedy,greedy,random -s 3 --record game.json",
    "carcassonne play -p human,greedy",
    "carcassonne play --resume carcassonne-7.json",
    "carcassonne play -p mcts,greedy -s 7 --record game.json",
    "carcassonne play -s 7 --json - | jq .scores",
]))
def play(
    ctx: typer.Context,
    ruleset: Annotated[str, typer.Option("--ruleset", "-r", metavar="REF", autocompletion=complete_ref,
                                         help="A ruleset reference, NAME_OR_PATH[+OPTION]…")] = "basic",
    players: Annotated[str, typer.Option("--players", "-p", metavar="LIST", autocompletion=complete_player_list,
                                         help="Comma-separated players in seat order: random, greedy, "
                                              "mcts (mcts:2000, mcts:1.5s, mcts:800:roots=2; more "
                                              "name=value settings in the README), policy:FILE (a trained "
                                              "network: the rl extra) or human.")] = "random,greedy",
    seed: Annotated[Optional[int], typer.Option("--seed", "-s", metavar="N", min=0, max=2**63 - 1,
                                                help="Seed for the deck and the bots (0 to 2⁶³ − 1); random if "
                                                     "left out (and printed).")] = None,
    record: Annotated[Optional[Path], typer.Option("--record", metavar="FILE",
                                                   help="Write the game record (JSON) to FILE.")] = None,
    resume: Annotated[Optional[Path], typer.Option(
        "--resume", metavar="FILE", help="Go on with the game a record saved unfinished (q at the terminal saves "
                                         "one): its ruleset, seed and players; the record is saved back to FILE "
                                         "(or to --record).")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the final table, no turn log.")] = False,
    json_target: JsonOption = None,
) -> None:
    """Play one game and print every turn, its points and the scores."""
    from rich.text import Text

    from ..errors import UserError
    from ..files.output import check_writable
    from ..rules.references import portable_ref

    output = Output(json_target, outputs={"--record": record},
                    inputs=ref_inputs(ruleset) if resume is None else {"the record": resume})
    if record is not None:
        check_writable(record)  # before the ruleset is loaded: a bad path fails at once
    setup = _resumed(ctx, resume) if resume is not None else _new(ruleset, players, seed)
    for warning in setup.ruleset.warnings:  # the game is played all the same
        output.echo(warning.render(), err=True)
    if "human" in setup.kinds and output.to_stdout:
        raise UserError("a human plays on the terminal, so the JSON cannot go there too: give --json a file",
                        code="usage")
    ref = setup.ref
    record = record if record is not None else resume  # a resumed game is saved back where it came from
    if record is not None:
        # The record names its ruleset relative to itself, so replay works from anywhere.
        ref = portable_ref(setup.ref, check_writable(record).parent, resume.parent if resume is not None else None)
    said = "Going on with" if setup.game is not None else "Playing"
    at = f" at turn {setup.game.turn + 1}" if setup.game is not None else ""
    output.console.print(Text.assemble(f"{said} ", (setup.ref, "bold"),
                                       f"{at} with {', '.join(setup.names)} — seed {setup.seed}"))
    played, human = _play(setup, ref, output, quiet)
    saved = _report(output, played, setup, human, record, quiet)
    _json(output, played, setup, saved)
    if played.quit and human is not None and human.interrupted:
        raise typer.Exit(130)  # Ctrl-C, as every command ends on it (what was saved is said above)


def _new(ref: str, players: str, seed: int | None) -> _Setup:
    """A game from its start: :class:`UserError` for a bad ruleset or players."""
    from ..bots.players import check_seats
    from ..rules.ruleset import load_ruleset

    kinds = [k.strip() for k in players.split(",") if k.strip()]
    loaded = load_ruleset(ref)
    check_seats(kinds, loaded.min_players, loaded.max_players, loaded.ref)
    seed = random.SystemRandom().randrange(10**9) if seed is None else seed
    return _Setup(loaded, ref, kinds, [f"{kind}-{i + 1}" for i, kind in enumerate(kinds)], seed)


def _resumed(ctx: typer.Context, path: Path) -> _Setup:
    """The game the record at ``path`` saved unfinished, as it stood (:func:`engine.files.resume.resume`:
    the seed deals the tiles still to come).  :class:`UserError` for ``--ruleset``, ``--players`` or
    ``--seed`` given beside it (the record says them), a finished game, or a record that cannot be
    resumed (located in it)."""
    from ..bots.players import check_seats
    from ..errors import UserError
    from ..files.record import load_record
    from ..files.resume import resume

    given = [name for name in ("ruleset", "players", "seed")  # by name: typer has a click of its own
             if getattr(ctx.get_parameter_source(name), "name", "") == "COMMANDLINE"]
    if given:
        raise UserError(f"--{given[0]} comes from the record with --resume: leave it out", code="usage")
    doc = load_record(path)
    if doc.data.get("finished", True):
        raise UserError(f"the game is over: carcassonne replay {path} steps through it", code="usage",
                        **doc.where(("finished",) if "finished" in doc.data else ()))
    loaded, game, _ = resume(doc)
    kinds = [p["kind"] for p in doc.data["players"]]
    try:
        check_seats(kinds, loaded.min_players, loaded.max_players, loaded.ref)
    except UserError as error:
        raise UserError(error.diagnostics[0].message, code="players", **doc.where(("players",))) from None
    return _Setup(loaded, doc.data["ruleset"], kinds, [p["name"] for p in doc.data["players"]],
                  doc.data["seed"], game)


def _play(setup: _Setup, ref: str, output: Output, quiet: bool) -> tuple[PlayedGame, Any]:
    """Play the game to its end (or a human's ``q``), with the turn log or a progress bar; the
    result, and the human player if a seat is one (else None)."""
    from ..bots.players import make_player
    from ..sim.play import play_game
    from .human import HumanPlayer
    from .turn_log import tile_progress, turn_logger

    console, kinds, names = output.console, setup.kinds, setup.names
    hook = None if quiet or output.to_stdout else turn_logger(console, setup.ruleset, names)
    seats = None
    if "human" in kinds or setup.game is not None:
        resumed_at = setup.game.turn if setup.game is not None else 0
        seats = [HumanPlayer(names[i], console=console, seat_names=names) if kind == "human"
                 else make_player(kind, setup.seed, i, resumed_at=resumed_at) for i, kind in enumerate(kinds)]
    if "human" in kinds:
        hook = None  # the human's screen shows every turn already
    human = next((seat for seat in seats or () if isinstance(seat, HumanPlayer)), None)
    if hook is None and human is None and console.is_terminal and not output.to_stdout:
        with tile_progress(console) as progress:
            return play_game(setup.ruleset, kinds, setup.seed, ref=ref, on_turn=progress, players=seats,
                             game=setup.game, names=names), human
    return play_game(setup.ruleset, kinds, setup.seed, ref=ref, on_turn=hook, players=seats, game=setup.game,
                     names=names), human


def _report(output: Output, played: PlayedGame, setup: _Setup, human: Any, record: Path | None,
            quiet: bool) -> Path | None:
    """Print how the game ended and write its record (``record``, or a file the human names after
    ``q``); the file written, if any."""
    from ..files.output import check_writable, write_json
    from ..rules.references import portable_ref
    from .turn_log import score_table

    console, game, names = output.console, played.game, setup.names
    if played.quit:
        saved = record
        if saved is None:  # only a file the player asks for now
            saved = human.ask_save(f"carcassonne-{setup.seed}.json")
            if saved is not None:
                played.record["ruleset"] = portable_ref(setup.ref, check_writable(saved).parent)
        if saved is not None:
            write_json(saved, played.record)
            console.print(f"Game stopped after {game.turn} turns; the record so far is in {saved} "
                          f"(go on with: carcassonne play --resume {saved})")
        else:
            why = "Ctrl-C, so " if human.interrupted else "the input ended, so " if human.input_ended else ""
            console.print(f"Game stopped after {game.turn} turns; {why}nothing was saved "
                          f"(--record FILE saves a game however it ends)")
        return saved
    if not quiet:
        for event in game.events:
            if event.phase == "final":
                console.print(f"  final  {event.explain(names)}")
    score_table(output, game, names, played.in_game)
    console.print(standing(game.scores, names))
    console.print(_tiles_line(game))
    if record is not None:
        write_json(record, played.record)
        console.print(f"Record written to {record}")
    return record


def _tiles_line(game: Game) -> str:
    """``72 tiles placed (start tile included), 0 discarded.``, with what went back, out or under."""
    discarded = _discarded(game)
    back = f" ({game.returned} unplaceable draw{'s' * (game.returned != 1)} went back into the stack)" \
        if game.returned else ""
    held = hands_of(game)
    if held is not None and held.out:  # deck.hand return: box
        back += f", {len(held.out)} returned to the box unplaced"
    if burial.of(game).buried:  # deck.bury
        back += (f", {len(burial.of(game).buried)} buried under "
                 f"{game.ruleset.kinds[game.ruleset.bury_kind].name} tiles")
    starts = {0: "no start tile", 1: "start tile included"}.get(len(game.starts), "start tiles included")
    return f"{len(game.board)} tiles placed ({starts}), {discarded} discarded{back}."


def _discarded(game: Game) -> int:
    """Tiles set aside as fitting nowhere (a draw that went back into the stack is not one)."""
    return sum(1 for _, move in game.history if move is None) - game.returned


def _json(output: Output, played: PlayedGame, setup: _Setup, saved: Path | None) -> None:
    """``--json``: the game's result (docs/json.md, ``play``)."""
    from ..core.scoring import points_by_kind
    from ..core.titles import holders

    game = played.game
    output.json("play", {
        "ruleset": setup.ref, "seed": setup.seed,
        "players": [{"name": name, "kind": kind} for name, kind in zip(setup.names, setup.kinds)],
        "finished": not played.quit, "turns": game.turn, "extra_turns": list(game.extra_turns),
        "personal_turns": list(personal.of(game).turns),
        "scores": {"in_game": played.in_game, "final": list(game.scores)},
        "ranking": ranking(game.scores), "winners": winners(game.scores, not played.quit),
        "points_by_kind": points_by_kind(game),
        "tokens": [dict(zip(game.ruleset.tokens, held)) for held in tallies.of(game).tokens], "titles": holders(game),
        "tiles_placed": len(game.board),
        "tiles_discarded": _discarded(game),
        "tiles_returned": game.returned, "tiles_buried": len(burial.of(game).buried),
        "events": [event.to_json() for event in game.events],
        "record": None if saved is None else str(saved),
    })
