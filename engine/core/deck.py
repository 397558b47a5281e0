"""Building the shuffled stacks a game draws from.

The ruleset's ``deck`` says which tiles start the game or are set aside, and
in which **phases** the rest are drawn: each phase is a group of tile types
(a tile's ``group``, default ``base``) shuffled on its own, optionally with a
tile pinned first or last (the River: river tiles first with the lake last,
then the land tiles; RULES.md §2.2).  With several maps every phase is dealt
out evenly between them.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .snapshot import own_rng

if TYPE_CHECKING:
    from ..rules.ruleset import Ruleset
    from .game import Game

#: A stack: its phases in draw order, each a list popped from the end.
Stack = list[list[int]]

#: Per phase still in a stack: whether its top (the tile drawn next) is the phase's pinned
#: ``first`` tile and whether its bottom is its pinned ``last`` tile.  Public knowledge, kept
#: beside the stack so that a search can reshuffle everything else (engine/core/chance.py)
#: without telling a pinned tile from a copy of its type that lies there by chance.
Pins = list[list[bool]]


def dealt(ruleset: "Ruleset") -> int:
    """How many tiles a game of ``ruleset`` deals in all, its start and set-aside tiles included: every
    tile, or under ``deck.size`` the set-aside ones, the fixed start tiles and ``deck.size`` more (a
    drawn start tile is one of those: :func:`_cut`)."""
    total = sum(t.count for t in ruleset.tiles)
    if not ruleset.deck_size:
        return total
    fixed_starts = ruleset.maps if ruleset.start >= 0 and not ruleset.start_drawn else 0
    return min(total, len(ruleset.set_aside) + fixed_starts + ruleset.deck_size)


def build_stacks(ruleset: "Ruleset", rng: random.Random,
                 starts: list[int]) -> tuple[list[Stack], list[Pins], list[list[int]]]:
    """One stack per map, phases in order (each phase list is drawn by ``pop()``),
    each stack's :data:`Pins`, and per phase the tiles left in the box.

    ``starts`` are the start tiles taken out first (one copy each); the
    ruleset's ``set_aside`` tiles are removed too.  With no phases the whole
    deck is shuffled once with ``rng``.  Under ``deck.size`` only that many
    tiles are dealt (:func:`_cut`); the rest stay in the box, unseen.
    """
    pool = [t.index for t in ruleset.tiles for _ in range(t.count)]
    for tile in (*starts, *ruleset.set_aside):
        pool.remove(tile)
    if not ruleset.phases:
        rng.shuffle(pool)
        phases = [pool]
        ends = [(False, False)]
    else:
        phases = []
        ends = []
        for phase in ruleset.phases:
            tiles = [t for t in pool if ruleset.tiles[t].group == phase.group]
            # Only a copy still in the pool is pinned: a tile used as the start tile,
            # set aside or pinned at both ends with one copy is not drawn twice.
            pins: list[list[int]] = []
            for pinned in (phase.first, phase.last):
                if pinned is not None and pinned in tiles:
                    tiles.remove(pinned)
                    pins.append([pinned])
                else:
                    pins.append([])
            rng.shuffle(tiles)
            order = pins[0] + tiles + pins[1]
            phases.append(order[::-1])  # drawn with pop(): the first to draw goes last
            ends.append((bool(pins[0]), bool(pins[1])))
    box = _cut(phases, ends, ruleset.deck_size) if ruleset.deck_size else [[] for _ in phases]
    maps = ruleset.maps
    if maps == 1:
        return [phases], [[[first, last] for first, last in ends]], box
    # Dealt in draw order, the first card goes to map 0 and the last to map (size - 1) % maps.
    pin_lists = [[[first and m == 0, last and m == (len(phase) - 1) % maps]
                  for phase, (first, last) in zip(phases, ends)] for m in range(maps)]
    return [[_deal(phase, m, maps) for phase in phases] for m in range(maps)], pin_lists, box


def _cut(phases: list[list[int]], ends: list[tuple[bool, bool]], size: int) -> list[list[int]]:
    """Cut shuffled ``phases`` (in place) to ``size`` tiles for ``deck.size``: every pinned
    tile stays, and the unpinned ones are kept in draw order, earlier phases first, while
    the deck has room.  Returns per phase the tiles cut out (they go back to the box).
    The phases are already shuffled, so the kept tiles are a uniform random subset."""
    room = size - sum(first + last for first, last in ends)
    box = []
    for phase, (first, last) in zip(phases, ends):
        lo, hi = int(last), len(phase) - int(first)  # phase lists are drawn from the end
        keep = max(0, min(room, hi - lo))
        room -= keep
        box.append(phase[lo:hi - keep])
        del phase[lo:hi - keep]
    return box


def _deal(phase: list[int], m: int, maps: int) -> list[int]:
    """Map ``m``'s share of a phase, dealt in draw order (first card to map 0)."""
    draw_order = phase[::-1]
    return draw_order[m::maps][::-1]


def put_back(game: "Game") -> bool:
    """Put ``game``'s current tile, which fits nowhere, back into what is left of its
    own phase and shuffle that (``unplaceable: reshuffle``, seed 001), if the rules let it
    go back; True if it went back, False if it is to leave the game.

    It goes back (a tile pinned last stays last) if a tile of another type that can be
    drawn before it (so not the pinned last one) fits now and no tile of its type went
    back since the last placement (the board is the same, so it would fit nowhere
    again).  Hence, with N tiles in the stacks, K tile types and P placements, a game
    draws at most N + P·(K − 1) ≤ N·K tiles: a draw places, discards or returns a tile;
    at most N are placed or discarded; a return needs a fitting tile waiting in the
    phase, which is placed before the phase runs out, so returns fall between
    placements, at most K − 1 types each time (docs/rulesets.md, "Unplaceable tiles").
    """
    tile, turn = game.tile, game.turn
    assert tile is not None, "put_back needs a drawn tile"
    when, back = game.went_back
    back = back if when == turn else frozenset()  # a placement since: every type may go back again
    phase = game.deck
    last = phase_last(game.ruleset, game.stacks[game.map])
    # The pinned last tile, still at the bottom, is drawn after the returned tile whatever the shuffle.
    ahead = phase[1:] if last is not None and phase and phase[0] == last else phase
    if tile in back or not any(game.fits_somewhere(t) for t in set(ahead) if t != tile):
        return False
    phase.append(tile)
    reshuffle(phase, last, own_rng(game))
    game.went_back = (turn, back | {tile})
    return True


def reshuffle(phase: list[int], last: int | None, rng: random.Random) -> None:
    """Shuffle a phase in place after a tile went back into it, keeping its pinned
    last tile (if still there) at the bottom."""
    rng.shuffle(phase)
    if last is not None and last in phase:
        phase.remove(last)
        phase.insert(0, last)


def take(stack: Stack, pins: Pins) -> int | None:
    """Draw from a stack: its current phase, moving on when a phase is used up (and
    dropping its :data:`Pins` with it); None when empty.  A pinned first tile is drawn
    first, so after any draw the phase's top is no longer pinned."""
    while stack and not stack[0]:
        stack.pop(0)
        pins.pop(0)
    if not stack:
        return None
    pins[0][0] = False
    return stack[0].pop()


def phase_last(ruleset: "Ruleset", stack: Stack) -> int | None:
    """The tile pinned last in the phase ``stack`` is drawing (kept last when it is reshuffled)."""
    phases = ruleset.phases
    return phases[len(phases) - len(stack)].last if phases and stack else None


def drawn(tile: int | None) -> int:
    """``tile``, which the caller knows was drawn (not None: the stacks were not empty)."""
    assert tile is not None, "no tile was drawn"
    return tile
