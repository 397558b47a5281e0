"""Burial (``deck.bury``, engine/rules/burial.py): a placed tile of the named kind takes the next
tile of its map's stack under it, face down and out of the game.

The buried tile joins the box of its phase, where nobody sees it: a bot's view of what is still
to come (:mod:`engine.core.chance`) already pools the box with the stacks, so it learns only that
one tile fewer is left, as players at the table do.  A replay or a scenario names the tile
(``buried``), which :func:`force` puts where the next burial takes it.  The mechanism's state
(:class:`Burial`: which tile went under which turn's tile) is ``game.states["burial"]``; :func:`of`
reads it, an empty one under a ruleset without burial.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .deck import take
from .mechanism import Mechanism

if TYPE_CHECKING:
    from ..rules.ruleset import Ruleset
    from .game import Game

#: The mechanism's name, its state's key in ``game.states`` (a constant: a native string, looked up
#: on every turn).
NAME: Final = "burial"


class Burial:
    """The tiles buried in one game: ``(turn, tile type)`` of each, in order (``buried``: what records
    mark and screens count, never which tile but to a replay)."""

    __slots__ = ("buried",)

    def __init__(self, buried: tuple[tuple[int, int], ...] = ()) -> None:
        self.buried = buried

    def copy(self) -> "Burial":
        return Burial(self.buried)


def _start(game: "Game") -> Burial:
    return Burial()


def of(game: "Game") -> Burial:
    """The game's :class:`Burial`; under a ruleset without burial, a new empty one."""
    found = game.states.get(NAME)
    if found is None:
        return Burial()
    assert isinstance(found, Burial)
    return found


def bury(game: "Game", tile: int, base: int) -> None:
    """After ``tile`` was placed (turn :attr:`~engine.core.game.Game.turn`; its segments from ``base``,
    unused): if it has a segment of
    the ``deck.bury`` kind, the next tile of the current map's stack goes under it, into the box
    of its phase, and ``(turn, tile type)`` into :attr:`Burial.buried`.  Nothing is
    taken from a used-up stack, nor a tile pinned first or last in its phase (the River's spring
    side tile and lake keep their places)."""
    if game.ruleset.bury_kind not in game.tiles[tile].kinds:
        return
    m = game.map
    stack, pins = game.stacks[m], game.pins[m]
    a = next((i for i, phase in enumerate(stack) if phase), -1)
    if a < 0 or pins[a][0] or (pins[a][1] and len(stack[a]) == 1):
        return
    number = (len(game.ruleset.phases) or 1) - len(stack) + a
    under = take(stack, pins)
    assert under is not None, "a phase with tiles gives one"
    game.box[number].append(under)
    state = of(game)
    state.buried += ((game.turn, under),)
    game.deck = stack[0] if stack else []


def force(game: "Game", tile: int) -> None:
    """In a forced game (a replay, a scenario): make ``tile`` the next tile of the current map's
    stack, the one the turn about to be played buries (a turn entry's ``buried``)."""
    m = game.map
    game.stacks[m], game.pins[m] = [[tile]], [[False, False]]


def _uses(ruleset: "Ruleset") -> bool:
    return ruleset.bury_kind >= 0


MECHANISM: Mechanism = Mechanism(NAME, _uses, state=_start, placed=bury)
