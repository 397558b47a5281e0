"""The terminal player's numbered move list, laid out to leave the board on screen.

Each placement (a cell and a rotation) is one entry: ``-2,-9 r1: 1) — 2) +road@E 3) +field@SR
(south)``; entries flow side by side up to the console's width, so a turn of many cells takes a
few lines, and whole entries are shown up to a number of lines (the rest are one ``?`` away).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from ..files.notation import place_name
from .screen import kind_style

if TYPE_CHECKING:
    from ..core.game import Game
    from .human import Choice

#: Between two entries on a line.
GAP = "   "


def move_list(game: Game, choices: list[Choice], limit: int | None, width: int) -> Text:
    """The numbered moves of ``choices`` (:meth:`~engine.cli.human.HumanPlayer.choices`) as entries,
    one per cell and rotation, in their order, flowing into lines of at most ``width`` characters
    (an entry wider than that has a line of its own, which the console wraps); at most ``limit``
    lines of them (None: all), then a line saying how many more there are."""
    entries = _entries(game, choices)
    cells = {game.local(choice.move.pos) for choice in choices}
    out = Text()
    out.append(f"Legal moves ({len(choices)} in {len(cells)} cells; — is no follower):\n", style="bold")
    line, lines = Text("  "), 0
    for shown, (entry, _) in enumerate(entries):
        if len(line) > 2 and len(line) + len(GAP) + len(entry) > width:
            lines += 1
            if limit is not None and lines >= limit:
                left = sum(n for _, n in entries[shown:])
                out.append_text(line)
                out.append(f"\n  … {len(entries) - shown} more placements ({left} moves): ? lists all; any legal "
                           "move may be typed", style="yellow")
                return out
            out.append_text(line)
            out.append("\n")
            line = Text("  ")
        elif len(line) > 2:
            line.append(GAP)
        line.append_text(entry)
    out.append_text(line)
    return out


def _entries(game: Game, choices: list[Choice]) -> list[tuple[Text, int]]:
    """Per cell and rotation, in order: its text (``-2,-9 r1: 1) — 2) +road@E``) and how many moves."""
    ruleset, tile = game.ruleset, game.tile
    number_w = len(str(len(choices)))
    several = ruleset.maps > 1
    found: dict[tuple[int, int], tuple[Text, int]] = {}
    for choice in choices:
        move = choice.move
        key = (move.pos, move.rotation)
        if key not in found:
            m, x, y = game.local(move.pos)
            found[key] = (Text.assemble((f"{f'm{m} ' if several else ''}{x},{y} r{move.rotation}:", "bold")), 0)
        text, count = found[key]
        text.append(f" {choice.number:>{number_w}}) ", style="bold cyan" if move.follower is None else "cyan")
        if move.follower is None:
            text.append("—")
        else:
            spot = choice.text.split(" ", 2)[2]
            held = ruleset.tiles[tile].spot_segment(move.follower)
            kind = ruleset.tiles[tile].segments[held].kind
            if ruleset.kinds[kind].ports == "half":  # a half-side port alone is hard to picture
                spot += " " + place_name(ruleset, tile, move.rotation, move.follower).split(" ", 1)[1]
            text.append(f"+{spot}", style=kind_style(ruleset, kind))
        found[key] = (text, count + 1)
    return list(found.values())
