"""Choosing which tile of a hand to place, at a terminal (``deck.hand``, engine/core/hands.py).

When a player holds more than one tile, the turn begins with this
choice: each tile is drawn as at r0 with how many placements it has, and the
answer is its number or its id.  The placement is then asked as for a drawn
tile (:class:`~engine.cli.human.HumanPlayer`).  Only the player's own hand is
shown; the others are told as counts.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rich.text import Text

from ..core.game import Game
from ..core.hands import of as hands_of
from ..core.moves import Move, pick
from .screen import board_text, tile_text
from .turn_screen import show_screen

if TYPE_CHECKING:
    from .human import HumanPlayer


def hand_note(game: Game) -> Text | None:
    """``Your hand: U, V`` for the player to move under ``deck.hand`` (the tile to place among
    them), or None without hands."""
    hands = hands_of(game)
    if hands is None:
        return None
    held = [game.tiles[tile].id for tile, _, _ in hands.held[game.player]]
    return Text(f"Your hand: {', '.join(held) or 'empty'}", style="bold")


def held_count(game: Game, seat: int) -> str:
    """``, 2 tiles in hand`` for ``seat`` under ``deck.hand`` (how many, not which: the others'
    hands are hidden), else an empty string: a part of the scores line."""
    hands = hands_of(game)
    if hands is None:
        return ""
    held = len(hands.held[seat])
    return f", {held} tile{'s' * (held != 1)} in hand"


def side_by_side(columns: list[list[Text]], width: int) -> Text:
    """``columns`` of lines set side by side, two spaces from the first column's edge and three
    between columns, as many to a row of columns as fit in ``width`` characters (a hand's tiles:
    one row of drawings takes the lines one tile's did)."""
    step = max(len(line) for column in columns for line in column) + 3
    per_row = max(1, (width - 2) // step)
    out = Text()
    for first in range(0, len(columns), per_row):
        group = columns[first:first + per_row]
        for i in range(max(len(column) for column in group)):
            line = Text("  ")
            for column in group:
                cell = column[i] if i < len(column) else Text()
                line.append_text(cell)
                line.append(" " * (step - len(cell)))
            line.rstrip()
            out.append_text(line)
            out.append("\n")
    out.rstrip()
    return out


def choose_tile(player: "HumanPlayer", game: Game) -> Move:
    """Show the hand and ask which tile to place: ``pick(tile)``.  A number from the list
    or a tile id; ``?`` repeats the list, ``b`` redraws the board, ``q`` quits (as at the move prompt)."""
    hands = hands_of(game)
    assert hands is not None and hands.picking, "a choice of tile needs a hand to choose from"
    types = hands.types(game.player)
    ids = [game.tiles[t].id for t in types]
    c = player.console
    listing = Text("Your hand (each tile as drawn, r0; the placement comes next):\n", style="bold")
    counts = Counter(tile for tile, _, _ in hands.held[game.player])
    columns = []
    for number, tile in enumerate(types, start=1):
        fits = len(game.placements(tile))
        copies = f" ×{counts[tile]}" if counts[tile] > 1 else ""
        drawing = tile_text(game.ruleset, tile, rotations=(0,)).split("\n")[1:]  # below its "r0"
        columns.append([Text(f"{number}) {game.tiles[tile].id}{copies}: {fits} placement{'s' * (fits != 1)}"),
                        *(line for line in drawing if line.plain)])
    listing.append_text(side_by_side(columns, c.width))
    show_screen(c, game, Text(f"Turn {game.turn + 1} · P{game.player + 1} {player.name} · choose a tile of your "
                              f"hand · {game.remaining} left to draw", style="bold"),
                player.news(game), [player.scores_line(game), listing])
    while True:
        answer = player.ask(f"Which tile do you place? (1–{len(types)} or its id, ? list, b board, q quit): ")
        typed = answer.strip().rstrip(")")
        if typed in ("?", "h", "help", "b", "board"):
            if typed in ("b", "board"):
                c.print(board_text(game, max_width=c.width), end="")
            c.print(listing)
            continue
        chosen = types[int(typed) - 1] if typed.isdigit() and 1 <= int(typed) <= len(types) else next(
            (t for t, name in zip(types, ids) if name.lower() == typed.lower()), None)
        if chosen is None:
            player.refuse(f"'{answer}' is not a tile of your hand: type a number from 1 to {len(types)} or one of "
                          f"{', '.join(ids)}")
            continue
        c.print(Text(f"→ {game.tiles[chosen].id}", style="bold green"))
        return pick(chosen)
