"""Score triggers as they go off (``triggers`` with ``effect: score``; :mod:`engine.rules.triggers`).

``when: deployed``: the piece just deployed is of the trigger's type; ``when:
placed``: after the tile's deployment, each feature the placed tile is part of.
Either way, a feature that holds a piece of the trigger's type and pieces of
other types is scored now with the trigger's ``score`` for the majority of those
other pieces (each counted at its strength), and they go home; the trigger's
pieces stay, and so do pieces that pay their owner (``pays: owner``).
Abbey & Mayor's barn (Wikicarpedia, Abbey_and_the_Mayor;
papageek.com car/Barn.htm): a barn placed on a field with farmers scores them 3
points a completed city "just as it would be at the end of the game"; a tile
that joins a field with farmers to a barn's scores them 1 point a completed city;
either way the farmers go home.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..rules.seats import pieces_at_start
from .completion import pay
from .followers import types_mask
from .mechanism import Mechanism
from .scoring import Scored, ScoreEvent, check_totals, explained, feature_inputs, majority_in, own_env, paid_only

if TYPE_CHECKING:
    from ..rules.ruleset import Ruleset
    from .game import Game

#: The mechanism's name, its state's key in ``game.states`` (a constant: a native string, looked up
#: on every turn).
NAME: Final = "score triggers"


def on_deployed(game: "Game", segment: int, kind: int) -> list[Scored]:
    """Set off the ``when: deployed`` triggers of follower type ``kind``, just deployed on placed
    segment ``segment``; returns the score events (applied)."""
    found: list[Scored] = []
    for i in _pieces(game).on_deploy[kind]:
        found.extend(score_others(game, game.find(segment), i))
    return found


def on_placed(game: "Game", tile_index: int, base: int) -> list[Scored]:
    """Set off the ``when: placed`` triggers on each feature of the tile just placed (tile type
    ``tile_index``, segments from ``base``), in segment order; returns the score events (applied).
    A trigger none of whose pieces is on the board is not looked for (most turns of a game)."""
    pieces, fol = _pieces(game), game.fol
    found: list[Scored] = []
    roots: list[int] | None = None  # worked out for the first live trigger: most turns none is live
    for i in pieces.on_place:
        if not pieces.deployed(game, i):
            continue
        if roots is None:
            roots = _occupied(game, tile_index, base)
        own, others = pieces.own[i], pieces.others[i]
        for root in roots:  # still roots: a trigger merges nothing
            if fol[root] & own and fol[root] & others:  # its piece and one it scores: most features not
                found.extend(score_others(game, root, i))
    return found


def _occupied(game: "Game", tile_index: int, base: int) -> list[int]:
    """The roots of the features the tile just placed (type ``tile_index``, segments from ``base``)
    is part of that hold a piece, in segment order: a feature holding nobody sets off nothing."""
    fol = game.fol
    roots: list[int] = []
    for j in range(len(game.tiles[tile_index].segments)):
        root = game.find(base + j)
        if fol[root] and root not in roots:
            roots.append(root)
    return roots


class Pieces:
    """The score triggers' settings in one game (``game.states["score triggers"]``), per trigger
    in ``ruleset.scorers`` order: the packed-followers mask of its own type and of the other
    types it scores (owner-paid types aside), the strengths it counts them at (its own type at 0),
    and each seat's count of its type at the start (:meth:`deployed`); the ``when: placed``
    triggers, and per follower type its ``when: deployed`` ones.  Worked out once a game, as
    they depend on the seats; never changed."""

    __slots__ = ("on_deploy", "on_place", "others", "own", "start", "types", "weights")

    def __init__(self, game: "Game") -> None:
        ruleset = game.ruleset
        self.on_place = [i for i, trigger in enumerate(ruleset.scorers) if trigger.when == "placed"]
        self.on_deploy = [[i for i, trigger in enumerate(ruleset.scorers) if trigger.when == "deployed"
                           and trigger.follower == t.index] for t in ruleset.follower_types]
        self.types = [trigger.follower for trigger in ruleset.scorers]
        self.start = [[pieces_at_start(ruleset, p)[trigger.follower] for p in range(game.players)]
                      for trigger in ruleset.scorers]
        self.own = [types_mask([trigger.follower], game.players) for trigger in ruleset.scorers]
        self.others = [types_mask([t.index for t in ruleset.follower_types
                                   if t.index != trigger.follower and not t.pays_owner], game.players)
                       for trigger in ruleset.scorers]
        self.weights = [tuple(0 if t.index == trigger.follower else t.strength for t in ruleset.follower_types)
                        for trigger in ruleset.scorers]

    def copy(self) -> "Pieces":
        return self  # never changed

    def deployed(self, game: "Game", i: int) -> bool:
        """Whether a piece of trigger ``i``'s type is on the board: some seat has fewer left than
        it started with (pieces leave the supply only to be deployed)."""
        start, t, reserve = self.start[i], self.types[i], game.reserve
        for p in range(game.players):
            if reserve[p][t] < start[p]:
                return True
        return False


def score_others(game: "Game", root: int, i: int) -> list[Scored]:
    """If the feature at ``root`` holds a piece of the type of trigger ``i`` (``ruleset.scorers``) and pieces
    of other types (those that pay their owner aside: another barn-like piece is not a farmer): score it for
    the majority of the others with the trigger's ``score`` (rule: the trigger's name), pay it,
    and send the others home.  Returns the events (none when it does not apply)."""
    packed, ruleset = game.fol[root], game.ruleset
    if not packed:  # most features a tile is part of hold nobody
        return []
    pieces = _pieces(game)
    trigger = ruleset.scorers[i]
    if not packed & pieces.own[i] or not packed & pieces.others[i]:
        return []
    kind = ruleset.kinds[game.seg_kind[root]]
    followers = game.weighed(root, pieces.weights[i])
    env, players = feature_inputs(game, root, kind), majority_in(game, [root], followers)
    # A score reading per-player inputs (own_pig) scores each majority player on their own pieces.
    groups = [(p,) for p in players] if trigger.own and players else [players]
    events: list[Scored] = []
    for group in groups:
        mine = own_env(game, trigger.own, env, [packed], group[0]) if trigger.own and group else env
        if game.explain:  # each called by name, not through a variable: a native call
            events.append(explained(game, kind, trigger.name, trigger.score, mine, followers, group, root, "in_game"))
        else:
            events.append(paid_only(game, kind, trigger.name, trigger.score, mine, followers, group, root, "in_game"))
    check_totals(game, events, list(game.scores))
    pay(game, events)
    game.events.extend(event for event in events if isinstance(event, ScoreEvent))
    game.return_others(root, [trigger.follower, *ruleset.owner_types])
    return events


def _pieces(game: "Game") -> Pieces:
    pieces = game.states[NAME]
    assert isinstance(pieces, Pieces)
    return pieces


def _uses(ruleset: "Ruleset") -> bool:
    return bool(ruleset.scorers)


MECHANISM: Mechanism = Mechanism(NAME, _uses, deployed=on_deployed, scored=on_placed, state=Pieces)
