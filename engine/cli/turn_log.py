"""What ``carcassonne play`` shows of a game: the turn log as it is played, and the score table."""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Iterator

from ..core import burial, moving, personal, tallies

if TYPE_CHECKING:
    from rich.console import Console

    from ..core.game import Game
    from ..rules.ruleset import Ruleset


def turn_logger(console: Console, ruleset: Ruleset, names: list[str]) -> Callable[..., None]:
    """A turn hook (:data:`engine.sim.play.TurnHook`) printing the start tile(s) once, then
    each placement with its points and why, each discard, an extra turn a placement
    earned (a follower type's ``extra_turn``: Traders & Builders' builder), a personal
    tile placed instead of a draw and the last round of them (``deck.personal``), a tile
    buried under the placed one (``deck.bury``), and each follower moving on after its feature
    scored (``triggers``: the wagon)."""
    from ..core.moves import GO_HOME, MOVE_ON, PICK
    from ..files.notation import follower_phrase, moved_on_phrase

    seen = 0
    last_round_told = False
    width = max([3, *(len(t.id) for t in ruleset.tiles)])  # long ids (TB_CccR_w) keep the columns
    earners = " or ".join(ruleset.follower_types[t].name for t in ruleset.extra_turn_types)
    earned = f"the {earners}'s extra turn" if earners else "an extra turn"

    def log(game: Game, seat: int, tile: int, move: Any, events: list) -> None:
        nonlocal seen, last_round_told
        if move.kind == PICK:  # shown with the placement; which tiles were held stays hidden (deck.hand)
            return
        if move.kind in (MOVE_ON, GO_HOME):
            console.print(f"      ↳ {names[seat]}'s {moved_on_phrase(game, moving.of(game).decisions[-1][2], move)}")
            return
        if not seen:
            for m, (start, rotation) in enumerate(game.starts):
                where = f" on map {m}" if len(game.starts) > 1 else ""
                console.print(f"  0 start      {ruleset.tiles[start].id:<{width}} (  0,  0) {rotation * 90:3d}°{where}")
        for tile_index, entry in game.history[seen:]:
            tile_id = ruleset.tiles[tile_index].id
            if entry is None:
                fate = ("back into the stack (or out, if no tile left fits)" if ruleset.unplaceable == "reshuffle"
                        else "discarded")
                console.print(f"    {names[game.player]:<10} {tile_id:<{width}} fits nowhere: {fate}; "
                              "the same player draws again")
                continue
            m, x, y = game.local(entry.pos)
            follower = "" if entry.follower is None else \
                follower_phrase(ruleset, tile_index, entry.rotation, entry.follower, entry.type)
            where = f"map {m} " if ruleset.maps > 1 else ""
            line = (f"{game.turn:3d} {names[seat]:<10} {tile_id:<{width}} {where}({x:3d},{y:3d}) "
                    f"{entry.rotation * 90:3d}°  {follower}")
            own = "  (their own tile, instead of a draw)" if game.turn in personal.of(game).turns[-1:] else ""
            console.print(line.rstrip() + own)
            under = burial.of(game).buried
            if under and under[-1][0] == game.turn:  # which tile, nobody sees
                console.print(f"      ↳ a tile from the stack goes under the {ruleset.kinds[ruleset.bury_kind].name}, "
                              "unseen and out of the game")
            for event in events:
                console.print(f"      ↳ {event.explain(names)}")
        if game.extra_turn and game.tile is not None:  # earned by this placement (no chaining)
            console.print(f"      ↳ {names[game.player]} places another tile at once: {earned}")
        tiles = personal.of(game)
        if tiles.last_round is not None and tiles.offered and not last_round_told:
            last_round_told = True
            console.print("      ↳ the stacks are used up: each player may still place their own tile, in turn order")
        seen = len(game.history)

    return log


@contextmanager
def tile_progress(console: Console) -> Iterator[Callable[..., None]]:
    """A turn hook (:data:`engine.sim.play.TurnHook`) that shows, while the game lasts, a bar
    of the tiles drawn so far out of all the game will draw (``play --quiet`` on a terminal:
    a deck of thousands of tiles takes minutes).  The bar is gone when the game ends."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("tiles"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("tiles", total=None)

        def hook(game: Game, seat: int, tile: int, move: Any, events: list) -> None:
            drawn = len(game.history) + (game.tile is not None)
            progress.update(task, completed=drawn, total=drawn + game.remaining)

        yield hook


def score_table(output: Any, game: Game, names: list[str], in_game: list[int]) -> None:
    """Print the scores per seat: points per kind, in-game total, final total; a column for
    each kind that can score or has score events (one with no formula still has them), one
    per game-end bonus, and after the totals one per token (goods) with the count each seat
    holds, which bonuses such as the goods majorities read."""
    from ..core.scoring import points_by_kind
    from ..rules.seats import START

    by_kind = points_by_kind(game)
    seen = {e.kind for e in game.events}
    kinds = [START] if START in game.ruleset.categories else []  # the points a seat started with
    kinds += [k.name for k in game.ruleset.kinds if k.complete or k.incomplete or k.final or k.name in seen]
    kinds += [bonus.name for bonus in game.ruleset.bonuses]
    table = output.table("Scores")
    table.add_column("player")
    for kind in kinds:
        table.add_column(kind, justify="right")
    table.add_column("in game", justify="right")
    table.add_column("final", justify="right", style="bold")
    for token in game.ruleset.tokens:
        table.add_column(f"{token} held", justify="right")
    gathered = tallies.of(game)
    for p, name in enumerate(names):
        table.add_row(name, *(str(by_kind[p][k]) for k in kinds), str(in_game[p]), str(game.scores[p]),
                      *(str(n) for n in gathered.tokens[p]))
    output.console.print(table)
