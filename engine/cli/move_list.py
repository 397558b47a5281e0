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
#: Where the lines of an entry broken between moves start, after its first.
_INDENT = "      "


def move_list(game: Game, choices: list[Choice], limit: int | None, width: int) -> Text:
    """The numbered moves of ``choices`` (:meth:`~engine.cli.human.HumanPlayer.choices`) as entries,
    one per cell and rotation, in their order, flowing into lines of at most ``width`` characters
    (an entry wider than that takes lines of its own, broken between moves); at most ``limit``
    lines of them (None: all), then a line saying how many more there are."""
    entries = _entries(game, choices)
    cells = {game.local(choice.move.pos) for choice in choices}
    out = Text()
    out.append(f"Legal moves ({len(choices)} in {len(cells)} cells; — is no follower):", style="bold")
    lines: list[Text] = []
    line = Text("  ")
    for shown, (head, moves) in enumerate(entries):
        entry = Text.assemble(head, *moves)
        if len(line) > 2 and len(line) + len(GAP) + len(entry) <= width:
            line.append(GAP)
            line.append_text(entry)
            continue
        done = [line] if len(line) > 2 else []
        broken = _broken(head, moves, width)
        if limit is not None and len(lines) + len(done) + len(broken) > limit:
            left = sum(len(moves) for _, moves in entries[shown:])
            lines += done
            lines.append(Text(f"  … {len(entries) - shown} more placements ({left} moves): ? lists all",
                              style="yellow"))
            break
        if len(broken) > 1:  # nothing flows after a broken entry: its moves would read as the next one's
            lines += done + broken
            line = Text("  ")
        else:
            lines += done
            line = broken[0]
    else:
        if len(line) > 2:
            lines.append(line)
    for text in lines:
        out.append("\n")
        out.append_text(text)
    return out


def _broken(head: Text, moves: list[Text], width: int) -> list[Text]:
    """An entry as lines of at most ``width`` characters, broken between moves (a move wider
    than a line alone keeps a line of its own): the first starts with ``head``, the others are
    indented under it."""
    lines = [Text("  ").append_text(head)]
    for move in moves:
        if len(lines[-1]) + len(move) > width and len(lines[-1]) > len(_INDENT):
            lines.append(Text(_INDENT))
        lines[-1].append_text(move)
    return lines


def _entries(game: Game, choices: list[Choice]) -> list[tuple[Text, list[Text]]]:
    """Per cell and rotation, in order: its head (``-2,-9 r1:``) and its moves (`` 1) —``,
    `` 2) +road@E``)."""
    ruleset, tile = game.ruleset, game.tile
    number_w = len(str(len(choices)))
    several = ruleset.maps > 1
    found: dict[tuple[int, int], tuple[Text, list[Text]]] = {}
    for choice in choices:
        move = choice.move
        key = (move.pos, move.rotation)
        if key not in found:
            m, x, y = game.local(move.pos)
            found[key] = (Text.assemble((f"{f'm{m} ' if several else ''}{x},{y} r{move.rotation}:", "bold")), [])
        text = Text(f" {choice.number:>{number_w}}) ", style="bold cyan" if move.follower is None else "cyan")
        if move.follower is None:
            text.append("—")
        else:
            spot = choice.text.split(" ", 2)[2]
            held = ruleset.tiles[tile].spot_segment(move.follower)
            kind = ruleset.tiles[tile].segments[held].kind
            where = place_name(ruleset, tile, move.rotation, move.follower).partition(" ")[2]
            if ruleset.kinds[kind].ports == "half" and where:  # a half-side port alone is hard to picture
                spot += " " + where  # (a field with no port, inside a city, is named alone: field#1)
            text.append(f"+{spot}", style=kind_style(ruleset, kind))
        found[key][1].append(text)
    return list(found.values())
