"""The draw as a chance event: what a player may know of the stacks, and copies that know no more.

A player sees the board, the scores, the tiles already drawn and the rules,
so they know how many tiles of each type are still to come and in which
phase, and which tiles are pinned (the River's lake comes last), but not the
order.  :func:`draw_outcomes` is the next draw as that player sees it, and
:func:`determinise` gives a search a copy of the game whose hidden order is
dealt afresh from what it may know, so no search built on it can profit from
the real order (the issue's "never sees hidden information").

With several maps (``deck.maps``) the tiles of one phase were dealt face
down between the maps, so a tile still hidden may lie in any map's share of
its phase: both functions pool those shares.  Under ``deck.size`` the tiles
left in the box are hidden too: a tile not yet seen may be in the stack or in
the box, so both functions pool the box with the stacks.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

from .hands import of as hands_of

if TYPE_CHECKING:
    from .game import Game


def draw_outcomes(game: "Game") -> list[tuple[int, float]]:
    """The next draw on the current map: ``[(tile type index, probability), …]`` in tile
    type order, probabilities summing to 1.  A pinned tile due now is certain (the
    River's spring-side first tile, its lake once the other river tiles are gone).

    Call it when a draw is due (after ``play(..., draw=False)``, or a draw that was
    discarded); ``ValueError`` if the stacks are used up.
    """
    m = game.map
    stack, pins = game.stacks[m], game.pins[m]
    a = next((i for i, phase in enumerate(stack) if phase), None)
    if a is None:
        raise ValueError("no tile is left to draw on this map")
    phase, (top, bottom) = stack[a], pins[a]
    number = _phase_number(game, m, a)
    if top or len(phase) <= bottom + len(_marks(game, m, number)):  # pinned, or only known returns left
        return [(phase[-1], 1.0)]
    counts = Counter(_hidden_pool(game, number))
    total = sum(counts.values())
    return [(tile, counts[tile] / total) for tile in sorted(counts)]


def unseen(game: "Game") -> dict[int, int]:
    """Tiles not seen yet, in the stacks of every map or (``deck.size``) in the box: tile type
    index → copies (public knowledge; how many of them are still to be drawn is
    :attr:`~engine.core.game.Game.remaining`)."""
    hidden = [tile for stack in game.stacks for phase in stack for tile in phase]
    return dict(sorted(Counter(hidden + [tile for tiles in game.box for tile in tiles]).items()))


def determinise(game: "Game", rng: random.Random, seat: int | None = None) -> "Game":
    """A copy of ``game`` in which every tile hidden from ``seat`` (default: the player to move)
    has been dealt again with ``rng``: within each phase, over every map's unpinned places of
    that phase, the box, and under ``deck.hand`` the tiles the other seats hold or returned that
    ``seat`` does not know (:mod:`engine.core.hands`).  Pinned tiles stay where they are, as do
    ``seat``'s own hand and what it knows, and the copy's own random generator (the reshuffles
    of ``unplaceable: reshuffle``) is drawn from ``rng`` too, so nothing in the copy depends on
    the real order.  The copy's ``seed`` is None."""
    other = game.copy()
    other.seed = None
    other.rng, other.rng_shared = random.Random(rng.getrandbits(64)), False
    if other.forced:  # a replay's given order is the record's, not a secret
        return other
    me = 1 << (game.player if seat is None else seat)
    for number in range(len(game.ruleset.phases) or 1):
        slots: list[tuple[list, int]] = [(phase, i) for phase, lo, hi in _places(other, number) for i in range(lo, hi)]
        if hands_of(other) is not None:
            slots += _unknown_to(other, number, me)
        box = other.box[number]
        slots += [(box, i) for i in range(len(box))]
        # Sorted first: the deal then depends on what is hidden, never on where it lies.
        pool = sorted(_tile_at(where, i) for where, i in slots)
        rng.shuffle(pool)
        for (where, i), tile in zip(slots, pool):
            where[i] = tile if type(where[i]) is int else (tile, *where[i][1:])
    return other


def _tile_at(where: list, i: int) -> int:
    """The tile type at place ``i`` of a phase or box list (an int), or of a list of hand entries."""
    value = where[i]
    return value if type(value) is int else value[0]


def _unknown_to(game: "Game", number: int, me: int) -> list[tuple[list, int]]:
    """Under ``deck.hand``, the places of phase ``number``'s tiles that the seat with bit ``me``
    cannot know: those returned to a bottom by other seats, held by other seats, or returned to
    the box by them."""
    hands = hands_of(game)
    assert hands is not None, "only hands hide tiles from some seats"
    found: list[tuple[list, int]] = []
    for m, (stack, pins) in enumerate(zip(game.stacks, game.pins)):
        a = number - (len(game.ruleset.phases) or 1) + len(stack)
        if 0 <= a < len(stack):
            bottom = int(pins[a][1])
            marks = hands.marks[m][number]
            found += [(stack[a], bottom + i) for i, known in enumerate(marks) if not known & me]
    for held in hands.held:
        found += [(held, i) for i, (_, phase, known) in enumerate(held) if phase == number and not known & me]
    found += [(hands.out, i) for i, (_, phase, known) in enumerate(hands.out) if phase == number and not known & me]
    return found


def _marks(game: "Game", m: int, number: int) -> list[int]:
    """The tiles returned to the bottom of phase ``number`` on map ``m`` (``deck.hand``), bottom first."""
    hands = hands_of(game)
    return hands.marks[m][number] if hands is not None else []


def _phase_number(game: "Game", m: int, a: int) -> int:
    """The ruleset phase that entry ``a`` of map ``m``'s stack is (used-up phases are dropped)."""
    return (len(game.ruleset.phases) or 1) - len(game.stacks[m]) + a


def _places(game: "Game", number: int) -> list[tuple[list[int], int, int]]:
    """``(phase list, lo, hi)`` per map holding phase ``number``: the slice of hidden places (above a
    tile pinned last and the tiles returned to the bottom, below one pinned first)."""
    found = []
    for m, (stack, pins) in enumerate(zip(game.stacks, game.pins)):
        a = number - (len(game.ruleset.phases) or 1) + len(stack)
        if 0 <= a < len(stack) and stack[a]:
            phase, (top, bottom) = stack[a], pins[a]
            lo = (1 if bottom else 0) + len(_marks(game, m, number))  # tiles returned to the bottom are not drawn next
            hi = len(phase) - 1 if top else len(phase)
            if lo < hi:
                found.append((phase, lo, hi))
    return found


def _hidden_pool(game: "Game", number: int) -> list[int]:
    """The hidden tiles of phase ``number``: its unpinned places on every map, then its box."""
    return [tile for phase, lo, hi in _places(game, number) for tile in phase[lo:hi]] + game.box[number]


def draw(game: "Game", tile: int) -> bool:
    """Resolve a due draw as ``tile`` (one of :func:`draw_outcomes`): the tile goes to the
    top of the current map's stack (swapped with a hidden place of its phase holding that
    type, on any map) and is drawn (:meth:`~engine.core.game.Game.draw_one`).  True if it
    is the tile to place, False if it fit nowhere and was discarded (a draw is due again,
    or the stacks are used up).  Raises ``ValueError`` if ``tile`` cannot come next."""
    if tile not in dict(draw_outcomes(game)):
        raise ValueError(f"tile type {tile} cannot be drawn next")
    m = game.map
    stack = game.stacks[m]
    a = next(i for i, phase in enumerate(stack) if phase)
    top = stack[a]
    if top[-1] != tile:
        number = _phase_number(game, m, a)
        for phase, lo, hi in _places(game, number):
            if tile in phase[lo:hi]:
                i = lo + phase[lo:hi].index(tile)
                phase[i], top[-1] = top[-1], phase[i]
                break
        else:  # only the box holds one
            box = game.box[number]
            box[box.index(tile)], top[-1] = top[-1], tile
    return game.draw_one()


def start_outcomes(game: "Game") -> list[tuple[int, float]]:
    """The draw of the next start tile (``deck.start_rule: drawn``) seen as still to come:
    the tile the game drew and every hidden tile of its map's phase are equally likely.
    ``ValueError`` if no start tile is waiting."""
    if not game.pending_starts:
        raise ValueError("no start tile is waiting to be drawn")
    m, drawn = game.pending_starts[0]
    counts = Counter(_hidden_pool(game, _current_phase(game, m)) + [drawn])
    total = sum(counts.values())
    return [(tile, counts[tile] / total) for tile in sorted(counts)]


def draw_start(game: "Game", tile: int) -> None:
    """Make ``tile`` (one of :func:`start_outcomes`) the waiting start tile, swapping it
    with a hidden copy; ``ValueError`` if it cannot be."""
    m, drawn = game.pending_starts[0]
    if tile == drawn:
        return
    number = _current_phase(game, m)
    for phase, lo, hi in _places(game, number):
        if tile in phase[lo:hi]:
            i = lo + phase[lo:hi].index(tile)
            phase[i] = drawn
            game.pending_starts[0] = (m, tile)
            return
    box = game.box[number]
    if tile in box:
        box[box.index(tile)] = drawn
        game.pending_starts[0] = (m, tile)
        return
    raise ValueError(f"tile type {tile} cannot be the start tile")


def _current_phase(game: "Game", m: int) -> int:
    stack = game.stacks[m]
    a = next((i for i, phase in enumerate(stack) if phase), max(len(stack) - 1, 0))
    return _phase_number(game, m, a)
