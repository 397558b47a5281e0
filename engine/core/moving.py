"""Followers that move on after their feature scores (``triggers``: ``when: scored, effect: move``).

When a completed feature is scored during the game, each follower on it of a
type with such a trigger goes home as every follower does, and its owner then
chooses (:attr:`MovingFollowers.movers`): put it at once on a feature
that is not complete and holds no follower, of a kind the type may go on, with
a segment on a tile within ``within`` tiles of the tile it stood on (a king's
move: the same tile or the 8 around it when ``within`` is 1), or leave it home.
Owners choose in turn order starting with the player whose placement scored,
each seeing the choices made before; a follower with nowhere to go stays home
without being asked.  This is Abbey & Mayor's wagon as Wikicarpedia restates the
new edition's rule (Abbey_and_the_Mayor: "a feature on the same tile as the
wagon or on a tile orthogonally or diagonally adjacent to it"; it "can move to
any feature except fields"); its order for several wagons is papageek.com's
(car/Wagon.htm: "in clockwise order starting with the active player").
The mechanism's state (:class:`MovingFollowers`) is ``game.states["followers that move on"]``;
:func:`of` reads it, an empty one under a ruleset where no follower moves on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..geometry import RING8, pack, unpack
from .mechanism import DecisionKind, Mechanism
from .moves import GO_HOME, HOME, MOVE_ON, IllegalMove, Move, move_on

if TYPE_CHECKING:
    from ..rules.ruleset import Ruleset
    from .game import Game
    from .scoring import Scored

#: The mechanism's name, its state's key in ``game.states`` (a constant: a native string, looked up
#: on every turn).
NAME: Final = "followers that move on"


class MovingFollowers:
    """Followers that may move on in one game: those queued, as ``(owner, type, tile it stood on)``
    in the order their owners choose (the first is :attr:`~engine.core.game.Game.player`'s to
    decide; ``movers``); the seat whose placement scored them (``active``); and every choice made,
    ``(turn, owner, type, move)`` (``decisions``: what records write)."""

    __slots__ = ("movers", "active", "decisions")

    def __init__(self, movers: "list[tuple[int, int, int]]", active: int = 0,
                 decisions: "list[tuple[int, int, int, Move]] | None" = None) -> None:
        self.movers = movers
        self.active = active
        self.decisions: list[tuple[int, int, int, Move]] = [] if decisions is None else decisions

    def copy(self) -> "MovingFollowers":
        return MovingFollowers(self.movers.copy(), self.active, self.decisions.copy())


def _start(game: "Game") -> MovingFollowers:
    return MovingFollowers([])


def of(game: "Game") -> MovingFollowers:
    """The game's :class:`MovingFollowers`; under a ruleset where no follower moves on, a new
    empty one (none queued, no choice made: what a screen or a record reads there)."""
    found = game.states.get(NAME)
    if found is None:
        return MovingFollowers([])
    assert isinstance(found, MovingFollowers)
    return found


def turn_of(game: "Game") -> int:
    """The seat whose turn it is: while followers move on, the seat whose placement scored them
    (another seat may be deciding), else :attr:`~engine.core.game.Game.player`."""
    found = game.states.get(NAME)
    if isinstance(found, MovingFollowers) and found.movers:
        return found.active
    return game.player


def note_movers(game: "Game", root: int) -> None:
    """Before the followers of the scored feature at ``root`` go home: queue each one of a type
    that may move on, as ``(owner, type, the tile it stood on)``."""
    within, movers = dict(game.ruleset.movers), of(game).movers
    for segment, owner, kind, _ in game.on_board:
        if kind in within and game.find(segment) == root:
            movers.append((owner, kind, game.seg_pos[segment]))


def settle(game: "Game", tile: int, base: int) -> "list[Scored]":
    """After a placement's scoring (tile type ``tile``, segments from ``base``: unused): owners choose
    in turn order from the placing seat; drop the queued followers with nowhere to go (they stay
    home).  Scores nothing."""
    movers = of(game).movers
    if movers:
        players, active = game.players, game.player
        movers.sort(key=lambda mover: (mover[0] - active) % players)  # stable: scoring order within a seat
        _drop_stuck(game)
    return []


def holds(game: "Game") -> bool:
    """After the placement: while followers may move on, their owners choose before the turn passes
    (the first owner is to play; :attr:`MovingFollowers.active` keeps the placing seat)."""
    state = of(game)
    if not state.movers:
        return False
    state.active, game.player = game.player, state.movers[0][0]
    return True


def destinations(game: "Game") -> list[Move]:
    """Where the first queued follower may move on: ``move_on(pos, segment, type)`` for each
    segment within reach of a feature that is not complete, holds no follower and is of a kind
    its type may go on; board order around its old tile (row by row, then segment order)."""
    owner, kind, origin = of(game).movers[0]
    within = dict(game.ruleset.movers)[kind]
    allowed = game.ruleset.follower_types[kind].kinds
    board, fol, tiles = game.board, game.fol, game.tiles
    found = []
    for dy in range(-within, within + 1):
        for dx in range(-within, within + 1):
            pos = origin + pack(dx, dy)
            placed = board.get(pos)
            if placed is None:
                continue
            _, base, tile = placed
            for j, segment in enumerate(tiles[tile].segments):
                root = game.find(base + j)
                if segment.kind in allowed and not fol[root] and not _complete(game, root):
                    found.append(move_on(pos, j, kind))
    return found


def refusal(game: "Game", move: Move) -> str:
    """Why ``move`` (a ``move-on`` move) is not one of :func:`destinations`, for the player to read."""
    owner, kind, origin = of(game).movers[0]
    name = game.ruleset.follower_types[kind].name
    within = dict(game.ruleset.movers)[kind]
    placed = game.board.get(move.pos)
    if placed is None or move.follower is None or not 0 <= move.follower < len(game.tiles[placed[2]].segments):
        return "no placed tile has that segment"
    (ox, oy), (x, y) = unpack(origin), unpack(move.pos)
    if max(abs(x - ox), abs(y - oy)) > within:
        return (f"the {name} moves on at most {within} tile{'s' * (within != 1)} from the tile it stood on "
                f"(a king's move), and that one is {max(abs(x - ox), abs(y - oy))} away")
    root = game.find(placed[1] + move.follower)
    feature = game.ruleset.kinds[game.seg_kind[root]]
    if feature.index not in game.ruleset.follower_types[kind].kinds:
        return f"a {name} does not go on a {feature.name}"
    if _complete(game, root):
        return f"that {feature.name} is complete"
    if game.fol[root]:
        return f"that {feature.name} already holds a follower"
    return f"the {name} may not move there"


def decide(game: "Game", move: Move) -> None:
    """Carry out the first queued follower's choice, :data:`~engine.core.moves.HOME` or one of
    :func:`destinations` (unchecked: :func:`engine.core.choices.check` refuses anything else);
    then drop the next ones with nowhere to go."""
    state = of(game)
    owner, kind, _ = state.movers[0]
    if move.kind != GO_HOME:
        assert move.follower is not None, "a destination names its segment"
        game.deploy(game.board[move.pos][1] + move.follower, owner, kind)
    state.decisions.append((game.turn, owner, kind, move))
    state.movers.pop(0)
    _drop_stuck(game)


def play(game: "Game", move: Move, draw: bool) -> "list[Scored]":
    """A ``move-on`` or ``home`` move: :func:`decide` it; the next owner chooses, or, the last
    follower settled, the placing seat's turn passes (``draw`` as for
    :meth:`~engine.core.game.Game.play`).  Scores nothing."""
    decide(game, move)
    state = of(game)
    game.player = state.movers[0][0] if state.movers else state.active
    if not state.movers:
        game.pass_turn(draw)
    return []


def options(game: "Game") -> list[Move]:
    """The ``move-on`` decision's options: :func:`destinations`, then :data:`~engine.core.moves.HOME`."""
    return [*destinations(game), HOME]


def check(game: "Game", move: Move) -> None:
    """:class:`~engine.core.moves.IllegalMove` (``follower``) unless ``move`` is one of :func:`options`."""
    name = game.ruleset.follower_types[of(game).movers[0][1]].name
    if move.kind not in (MOVE_ON, GO_HOME):
        raise IllegalMove("follower", f"the {name} that scored is to move on or go home first")
    if move not in options(game):
        raise IllegalMove("follower", refusal(game, move))


def _pending(game: "Game") -> bool:
    return bool(of(game).movers)


def _uses(ruleset: "Ruleset") -> bool:
    return bool(ruleset.movers)


#: What the owner of a follower that scored decides: where it moves on, or home.
MOVE_ON_DECISION: DecisionKind = DecisionKind("move-on", _pending, options, check, (MOVE_ON, GO_HOME))
_NOT_NOW = ("follower", "no follower is moving on now: a tile is to be placed")
MECHANISM: Mechanism = Mechanism(NAME, _uses, state=_start, feature_scored=note_movers,
                      scored=settle, holds=holds, decisions=(MOVE_ON_DECISION,), plays={MOVE_ON: play, GO_HOME: play},
                      refusals={MOVE_ON: _NOT_NOW, GO_HOME: _NOT_NOW})


def _drop_stuck(game: "Game") -> None:
    movers = of(game).movers
    while movers and not destinations(game):
        movers.pop(0)


def _complete(game: "Game", root: int) -> bool:
    completion = game.ruleset.kinds[game.seg_kind[root]].completion
    if completion == "closed":
        return game.open[root] == 0
    if completion == "surrounded":
        pos = game.seg_pos[root]
        return all(pos + d in game.board for d in RING8)
    return completion == "formula" and game.is_done(root)
