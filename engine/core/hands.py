"""Hands of tiles (``deck.hand``, engine/rules/hands.py): each player chooses which held tile to place.

A turn starts with the player drawing until they hold ``size`` tiles.  A held
tile that fits nowhere is discarded and replaced, as a drawn one is (RULES.md
§3.2 row 4, seed 003).  The player places one tile; under ``keep: true`` the
others wait for their next turn (hand-of-two), under ``keep: false`` they go
back at the end of the turn, to the bottom of the stack, shuffled into it or
out of the game (draw-three-keep-one).  Once the stacks are used up the
players go on placing what they hold, a seat holding nothing is passed over,
and the game ends when no seat holds a tile: every turn places or discards a
tile, and each tile goes back at most once per turn, so every game ends.

The choice is a move.  While the hand holds more than one tile (even of one
type, so that a pick step tells nobody what the hand holds), :attr:`Hands.picking` is True,
:attr:`~engine.core.game.Game.tile` is the lowest-numbered type held, and the decision is
``pick``: its moves are ``pick(t)`` for each type ``t`` held (:func:`~engine.core.moves.pick`);
once one is picked its placements follow as for a drawn tile.

What each seat knows: its own hand, not the others'; the tiles it returned
to the bottom of the stack or to the box.  Every held or returned tile
carries the bitmask of the seats that know it (its holder; every seat for a
tile pinned in its phase, the River's lake), so
:func:`engine.core.chance.determinise` deals again only what the searching
seat cannot know, and keeps the returned tiles at the bottom in place.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Final

from .deck import dealt, reshuffle, take
from .mechanism import DecisionKind, Mechanism
from .moves import PICK, IllegalMove, Move, pick
from .snapshot import own_rng

if TYPE_CHECKING:
    from ..rules.ruleset import Ruleset
    from .game import Game
    from .scoring import Scored

#: The mechanism's name, its state's key in ``game.states``.
NAME: Final = "hands of tiles"

#: A held or returned tile: ``(tile type index, phase number it was drawn in, seats that know it)``.
Entry = tuple[int, int, int]


class Hands:
    """What the players hold, and what is known of the tiles they returned (module docstring).

    ``held[seat]`` lists that seat's tiles in the order drawn; ``marks[map][phase]`` the seats
    knowing each tile returned to the bottom of that phase and still there, bottom first (the
    phase's list holds them just above a tile pinned last); ``out`` the tiles returned to the box.
    """

    def __init__(self, players: int, phases: int, maps: int) -> None:
        self.held: list[list[Entry]] = [[] for _ in range(players)]
        self.picking = False
        self.marks: list[list[list[int]]] = [[[] for _ in range(phases)] for _ in range(maps)]
        self.out: list[Entry] = []
        #: Per placement so far, the tile types its player held to choose from, in draw order (records write it).
        self.shown: tuple[tuple[int, ...], ...] = ()

    def copy(self) -> Hands:
        """An independent copy."""
        other = Hands.__new__(Hands)
        other.held = [list(tiles) for tiles in self.held]
        other.picking = self.picking
        other.marks = [[list(marks) for marks in phases] for phases in self.marks]
        other.out = list(self.out)
        other.shown = self.shown
        return other

    def types(self, seat: int) -> list[int]:
        """The tile types ``seat`` holds, each once, in type order."""
        return sorted({tile for tile, _, _ in self.held[seat]})


def open_turn(game: "Game", draw: bool) -> None:
    """Start the current player's turn: draw until they hold ``size`` tiles (``draw=False``: stop
    where a draw is due, :attr:`~engine.core.game.Game.tile` None), discard what fits nowhere and
    draw again, and offer the choice.  Once the stacks are used up a seat holding nothing is passed
    over; when no seat holds a tile, :attr:`~engine.core.game.Game.tile` is None: the game is over.
    A forced game (replays, scenarios) draws nothing: each turn entry says what the player held."""
    hands = _hands(game)
    size = game.ruleset.hand.size if game.ruleset.hand else 1
    if game.forced:
        offer(game)
        return
    game.tile, game.placement_cache = None, None  # the tile placed last is no longer the one to place
    for _ in range(game.players):
        held = hands.held[game.player]
        while True:
            misfit = next((i for i, (tile, _, _) in enumerate(held) if not game.fits_somewhere(tile)), None)
            if misfit is not None:
                _discard(game, held.pop(misfit)[0])
                continue
            if len(held) < size and game.remaining:
                if not any(game.stacks[game.map]):
                    game.enter_map(next(m for m, stack in enumerate(game.stacks) if any(stack)))
                if not draw:
                    game.tile, game.placement_cache = None, None
                    return
                _draw_into(game, held)
                continue
            break
        if held:
            break
        game.player = (game.player + 1) % game.players
    offer(game)


def draw_one(game: "Game") -> bool:
    """A due draw (``draw=False``, :meth:`~engine.core.game.Game.draw_one`): the top tile of the
    current map's stack goes into the player's hand, and the turn goes on as far as it can.  True
    if a tile is now to place (or to pick), False if another draw is due or the game is over."""
    _draw_into(game, _hands(game).held[game.player])
    open_turn(game, False)
    return game.tile is not None


def offer(game: "Game") -> None:
    """Make the current player's lowest-numbered held type :attr:`~engine.core.game.Game.tile`, and
    let them pick when they hold more than one tile (None if they hold nothing)."""
    hands = _hands(game)
    types = hands.types(game.player)
    game.tile = types[0] if types else None
    game.placement_cache = None
    # By how many tiles are held (public), not how many types: a pick step must not tell the
    # others that a hand is all one type.
    hands.picking = len(hands.held[game.player]) > 1


def picked(game: "Game", move: Move, draw: bool) -> "list[Scored]":
    """``pick(tile)``: the player places ``move.tile``, one they hold, this turn (unchecked; ``draw``
    unused).  Scores nothing."""
    game.tile, game.placement_cache = move.tile, None
    _hands(game).picking = False
    return []


def options(game: "Game") -> list[Move]:
    """The ``pick`` decision's options: ``pick(t)`` for each tile type ``t`` the player holds, in type order."""
    return [pick(tile) for tile in _hands(game).types(game.player)]


def check(game: "Game", move: Move) -> None:
    """:class:`~engine.core.moves.IllegalMove` (``placement``) unless ``move`` picks a tile the player holds."""
    held = _hands(game).types(game.player)
    names = ", ".join(game.tiles[t].id for t in held)
    if move.kind != PICK:
        raise IllegalMove("placement", f"choose which tile of the hand ({names}) to place first")
    if move.tile not in held:
        name = game.tiles[move.tile].id if 0 <= move.tile < len(game.tiles) else f"type {move.tile}"
        raise IllegalMove("placement", f"the player holds no {name} (the hand: {names})")


def played(game: "Game", tile: int, base: int) -> None:
    """``tile`` was placed (segments from ``base``: unused): it leaves its player's hand, which
    :attr:`Hands.shown` notes for the record."""
    hands = _hands(game)
    hands.shown += (tuple(t for t, _, _ in hands.held[game.player]),)
    drop(game, tile)


def drop(game: "Game", tile: int) -> None:
    """One ``tile`` leaves the current player's hand (placed, or set aside in a replay)."""
    hands = _hands(game)
    held = hands.held[game.player]
    for i, entry in enumerate(held):
        if entry[0] == tile:
            del held[i]
            break
    hands.picking = False


def force(game: "Game", tiles: list[int], tile: int, given: bool = True) -> None:
    """A replay or scenario says the current player held ``tiles`` (type indices, draw order) and
    places ``tile``: make it so.  ``ValueError`` if they are more than ``deck.hand``'s size, ``tile`` is
    not among them, (``keep: true``) a tile the player kept from their last turn is missing, or the
    deck cannot deal them (:func:`_check_supply`; ``given=False``, a turn that names no hand, only
    the copies are checked)."""
    hands = _hands(game)
    names = [game.tiles[t].id for t in tiles]
    size = game.ruleset.hand.size if game.ruleset.hand else 1
    if len(tiles) > size:
        raise ValueError(f"the hand ({', '.join(names)}) holds {len(tiles)} tiles, more than deck.hand's {size}")
    if tile not in tiles:
        raise ValueError(f"{game.tiles[tile].id} is not in the hand ({', '.join(names)})")
    missing = Counter(t for t, _, _ in hands.held[game.player]) - Counter(tiles)
    if missing:
        kept = ", ".join(game.tiles[t].id for t in sorted(missing.elements()))
        raise ValueError(f"the player kept {kept} from their last turn, so their hand holds it, but the hand given "
                         f"is ({', '.join(names)})")
    _check_supply(game, tiles, size if given else 0)
    hands.held[game.player] = [(t, 0, 1 << game.player) for t in tiles]
    game.tile, game.placement_cache = tile, None
    hands.picking = False


def _gone(game: "Game", discards: bool) -> Counter[int]:
    """Per tile type, the copies a forced game has used up: placed, discarded (``discards``), start
    tiles, set aside, returned to the box, or held by a seat other than the current player."""
    ruleset, hands = game.ruleset, _hands(game)
    others = [t for seat, held in enumerate(hands.held) if seat != game.player for t, _, _ in held]
    return Counter([t for t, move in game.history if move is not None or discards]
                   + [t for t, _ in game.starts] + list(ruleset.set_aside) + others + [t for t, _, _ in hands.out])


def _check_supply(game: "Game", tiles: list[int], size: int) -> None:
    """A forced hand must be one the deck can deal: no type held beyond the copies not yet placed,
    discarded, boxed or held by another seat, and (``unplaceable: discard``) no hand short of
    ``size`` (0: not checked) while tiles were left to draw, nor any hand once every tile is drawn.
    ``ValueError`` otherwise."""
    ruleset = game.ruleset
    discards_stay = ruleset.unplaceable != "reshuffle"  # else a discarded copy may be back in the stack
    gone, total = _gone(game, discards_stay), dealt(ruleset)
    if discards_stay and not any(_hands(game).held) and sum(gone.values()) >= total:
        raise ValueError(f"this turn comes after the end of the game: all {total} tiles of {ruleset.ref} are "
                         "drawn before it")
    for tile, held in Counter(tiles).items():
        count = ruleset.tiles[tile].count
        if gone[tile] + held > count:
            raise ValueError(f"the hand holds {held} × {ruleset.tiles[tile].id}, but the ruleset has {count} "
                             f"cop{'y' if count == 1 else 'ies'} and {gone[tile]} of them "
                             f"{'is' if gone[tile] == 1 else 'are'} placed, discarded, set aside or held by "
                             "another seat")
    if len(tiles) < size and discards_stay and sum(gone.values()) + len(tiles) < total:
        raise ValueError(f"the hand holds {len(tiles)} tile{'s' * (len(tiles) != 1)}, fewer than deck.hand's {size}, "
                         f"while {total - sum(gone.values()) - len(tiles)} were left to draw")


def pass_to(game: "Game", seat: int) -> None:
    """A replay says ``seat`` plays now, the seats before it passed over: once the stacks are used up a
    seat holding nothing is (a seat of a small deck may never get a tile).  ``ValueError`` if tiles
    were left to draw, or a seat before it holds a tile kept from its last turn."""
    hands = _hands(game)
    if game.player == seat:
        return
    left = dealt(game.ruleset) - sum(_gone(game, True).values()) - len(hands.held[game.player])
    if left > 0:
        raise ValueError(f"seat {game.player} plays now, not seat {seat}: a seat is passed over only once every "
                         f"tile is drawn, and {left} were left")
    while game.player != seat:
        if hands.held[game.player]:
            raise ValueError(f"seat {game.player} plays now, not seat {seat}: it still holds a tile")
        game.player = (game.player + 1) % game.players


def end_turn(game: "Game") -> None:
    """The turn is over: under ``keep: false`` the tiles not placed go back, where ``return`` says.
    A forced game puts nothing back (its entries name every later draw)."""
    hand = game.ruleset.hand
    hands = _hands(game)
    held = hands.held[game.player]
    if hand is None or hand.keep or not held:
        return
    seat_bit = 1 << game.player
    if hand.return_to == "box":
        hands.out.extend((tile, number, known | seat_bit) for tile, number, known in held)
    elif not game.forced:
        m = game.map
        stack, pins = game.stacks[m], game.pins[m]
        if not stack:  # the stacks ran out this turn: the returned tiles are a last phase of their own
            stack.append([])
            pins.append([False, False])
        a = next((i for i, phase in enumerate(stack) if phase), 0)
        phase, bottom = stack[a], pins[a][1]
        number = (len(game.ruleset.phases) or 1) - len(stack) + a
        marks = hands.marks[m][number]
        if hand.return_to == "bottom":
            for tile, _, known in held:
                phase.insert(1 if bottom else 0, tile)
                marks.insert(0, known | seat_bit)
        else:
            phase.extend(tile for tile, _, _ in held)
            last = phase[0] if bottom else None
            reshuffle(phase, last, own_rng(game))
            marks.clear()  # shuffled: nobody knows where the tiles returned before lie now
        game.deck = stack[0]
    held.clear()


def _draw_into(game: "Game", held: list[Entry]) -> None:
    """Draw the top tile of the current map's stack into ``held``, noting who knows it: its holder,
    the seats that returned it to the bottom, or everyone for a pinned tile."""
    m = game.map
    stack, pins = game.stacks[m], game.pins[m]
    a = next(i for i, phase in enumerate(stack) if phase)
    phase, (top, bottom) = stack[a], pins[a]
    number = (len(game.ruleset.phases) or 1) - len(stack) + a
    marks = _hands(game).marks[m][number]
    public = top or (bottom and len(phase) == 1)
    tile = take(stack, pins)
    assert tile is not None, "a draw needs a tile in the stack"
    known = 1 << game.player
    if marks and len(phase) < int(bottom) + len(marks):  # one returned to the bottom
        known |= marks.pop()
    held.append((tile, number, (1 << game.players) - 1 if public else known))
    game.deck = stack[0] if stack else []


def _discard(game: "Game", tile: int) -> None:
    """A held tile fits nowhere: discarded (under ``unplaceable: reshuffle`` maybe back into the stack)."""
    game.tile, game.placement_cache = tile, None  # the table is the current tile's: never another's
    returned = game.returned
    game.set_aside()
    if game.returned != returned:  # back into its phase, shuffled: the tiles returned to its bottom are anywhere
        for marks in _hands(game).marks[game.map]:
            marks.clear()


def of(game: "Game") -> Hands | None:
    """The game's :class:`Hands` (``game.states["hands of tiles"]``); None under a ruleset
    without ``deck.hand`` (a single tile drawn a turn)."""
    found = game.states.get(NAME)
    assert found is None or isinstance(found, Hands)
    return found


def _hands(game: "Game") -> Hands:
    hands = of(game)
    assert hands is not None, "the ruleset has no hands (deck.hand)"
    return hands


def _picking(game: "Game") -> bool:
    hands = of(game)
    return hands is not None and hands.picking


def _start(game: "Game") -> Hands:
    ruleset = game.ruleset
    return Hands(game.players, len(ruleset.phases) or 1, ruleset.maps)


def _uses(ruleset: "Ruleset") -> bool:
    return ruleset.hand is not None


#: Which held tile to place this turn: revocable, since a pick draws nothing and the hand is its holder's own.
PICK_DECISION: DecisionKind = DecisionKind("pick", _picking, options, check, (PICK,), revocable=True)
MECHANISM: Mechanism = Mechanism(NAME, _uses, state=_start, draw=open_turn, draw_one=draw_one, placed=played,
                      turn_end=end_turn, decisions=(PICK_DECISION,), plays={PICK: picked},
                      refusals={PICK: ("placement", "the tile to place is chosen: place it")})
