"""Personal tiles: tiles each player holds outside the stacks and may place instead of drawing.

``deck.personal`` gives every player copies of one tile type (Abbey & Mayor's
abbey).  The rule, as Wikicarpedia restates the Abbey & Mayor rulebook
(https://wikicarpedia.com/car/Abbey_and_the_Mayor): instead of drawing a tile,
a player may place their abbey; once the last tile of the stacks has been
placed, each player still holding one may place it, in turn order starting
with the player after the one who placed that last tile; then the game ends.

The engine offers it as the turn's tile: when the player to move holds one
that fits somewhere, :attr:`~engine.core.game.Game.tile` is that tile
(:attr:`PersonalTiles.offered` is True) and the legal moves are
its placements plus :data:`~engine.core.moves.DRAW`, which declines it: the
player then draws from the stacks (which is when the stacks' next tile is
drawn, so nobody sees it before choosing) or, in that last round, passes.
The mechanism's state (:class:`PersonalTiles`) is ``game.states["personal tiles"]``;
:func:`of` reads it, an empty one under a ruleset without personal tiles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .mechanism import Mechanism
from .moves import DECLINE, DRAW, Move

if TYPE_CHECKING:
    from ..rules.ruleset import Ruleset
    from .game import Game
    from .scoring import Scored

#: The mechanism's name, its state's key in ``game.states`` (a constant: a native string, looked up
#: on every turn).
NAME: Final = "personal tiles"


class PersonalTiles:
    """The personal tiles of one game: per seat, how many it still holds (``held``); whether
    :attr:`~engine.core.game.Game.tile` is one offered instead of a draw (``offered``); the turns
    that placed one (``turns``: what records mark); once the stacks are used up, the seats still
    to be offered theirs (``last_round``; None before)."""

    __slots__ = ("held", "offered", "turns", "last_round")

    def __init__(self, held: list[int], offered: bool = False, turns: tuple[int, ...] = (),
                 last_round: list[int] | None = None) -> None:
        self.held = held
        self.offered = offered
        self.turns = turns
        self.last_round = last_round

    def copy(self) -> "PersonalTiles":
        return PersonalTiles(self.held.copy(), self.offered, self.turns,
                             None if self.last_round is None else self.last_round.copy())


def _start(game: "Game") -> PersonalTiles:
    return PersonalTiles([game.ruleset.personal_count] * game.players)


def of(game: "Game") -> PersonalTiles:
    """The game's :class:`PersonalTiles`; under a ruleset without personal tiles, a new empty one
    (nobody holds any, none offered: what a screen or a record reads there)."""
    found = game.states.get(NAME)
    if found is None:
        return PersonalTiles([0] * game.players)
    assert isinstance(found, PersonalTiles)
    return found


def turn_start(game: "Game", draw: bool) -> bool:
    """Start the current player's turn: offer their personal tile if they hold one that fits (in
    the last round, the next seat's; ``draw`` unused: nothing is drawn here).  False when the
    turn's tile is to be drawn instead."""
    state = of(game)
    if state.last_round is not None:
        offer_last_round(game)
        return True
    if not game.forced and not game.remaining:
        start_last_round(game)  # nothing is left to draw instead: the last round, where keeping it passes
        return True
    return _offer(game, state)


def played(game: "Game", tile: int, base: int) -> None:
    """A tile was placed (type ``tile``, segments from ``base``: unused): if it was the personal
    tile offered, one fewer for the player, and the turn noted."""
    state = of(game)
    if not state.offered:
        return
    state.offered = False
    state.held[game.player] = state.held[game.player] - 1
    state.turns += (game.turn,)


def decline(game: "Game", move: Move, draw: bool) -> "list[Scored]":
    """:data:`~engine.core.moves.DRAW` (``move``): the same player draws instead (``draw=False``: the
    draw is left due), or in the last round the next seat is offered theirs.  Scores nothing."""
    state = of(game)
    state.offered = False
    if state.last_round is not None:
        offer_last_round(game)
    else:
        game.draw_or_wait(draw)
    return []


def declining(game: "Game") -> list[Move]:
    """What the placement decision offers beside the placements: :data:`~engine.core.moves.DRAW`
    while the tile is a personal one offered."""
    return [DRAW] if of(game).offered else []


def stacks_out(game: "Game") -> None:
    """After a draw: if it found the stacks used up, the last round begins (not in a forced game,
    whose caller says when: :func:`start_last_round`)."""
    if game.tile is None and not game.forced and not game.remaining:
        start_last_round(game)


def _offer(game: "Game", state: PersonalTiles) -> bool:
    """At the start of a turn: make the current player's personal tile the tile to place, if
    they hold one that fits now (``state``: the game's :class:`PersonalTiles`, read once a turn).
    False (and nothing changed) otherwise."""
    tile = game.ruleset.personal_tile
    if tile < 0 or not state.held[game.player]:
        return False
    previous = game.tile
    game.tile, game.placement_cache = tile, None
    if game.fits_somewhere(tile):
        state.offered = True
        return True
    game.tile, game.placement_cache = previous, None
    return False


def start_last_round(game: "Game") -> None:
    """The stacks are used up: offer each seat its personal tile once, starting with the seat
    after the one that placed the last tile (the first seat if nobody placed one).  Nothing
    under a ruleset without personal tiles, or once the round has begun."""
    state = of(game)
    if game.ruleset.personal_tile < 0 or state.last_round is not None:
        return
    last = next((seat for (_, move), seat in zip(reversed(game.history), reversed(game.seats)) if move is not None),
                game.players - 1)
    state.last_round = [(last + i) % game.players for i in range(1, game.players + 1)]
    offer_last_round(game)


def offer_last_round(game: "Game") -> None:
    """Offer the next seat of the last round that holds a personal tile that fits; when no seat
    is left, :attr:`~engine.core.game.Game.tile` is None: the game is over."""
    state = of(game)
    seats = state.last_round
    assert seats is not None, "the last round has not begun"
    state.offered = False
    while seats:
        game.player = seats.pop(0)
        if _offer(game, state):
            return
    game.tile, game.placement_cache = None, None


def forced(game: "Game") -> None:
    """A replay set the turn's tile (:meth:`~engine.core.game.Game.force_tile`): a personal tile
    offered was declined."""
    of(game).offered = False


def _uses(ruleset: "Ruleset") -> bool:
    return ruleset.personal_tile >= 0


MECHANISM: Mechanism = Mechanism(NAME, _uses, state=_start, turn_start=turn_start, drawn=stacks_out,
                      forced=forced, placed=played,
                      plays={DECLINE: decline}, options=declining,
                      refusals={DECLINE: ("placement", "only a personal tile may be declined (the tile to place "
                                                       "was drawn)")})
