"""What each player gathers for game-end bonuses: tokens handed out, features held and closed.

When a feature of a kind with ``rewards`` completes in play, the sums of its
token attributes go to the player who placed the completing tile, whether or
not anyone has a follower on it (``to: placer``), or to its majority (``to:
majority``): :func:`reward`.  A ruleset with bonuses also notes, per player,
every feature they held (had the majority on) when it was completed
(:func:`hold`), and every feature their tile completed, whoever held it
(:func:`note_closed`: King & Robber Baron's cards go to the player who
completes a feature).  :func:`aggregates` turns these into the per-player
inputs of bonus formulas (:mod:`engine.rules.bonuses`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..rules.bonuses import KIND_AGGREGATES
from .mechanism import Mechanism
from .scoring import Paid, Scored, ScoreEvent, is_complete, kind_of, majority_in
from .totals import totals

if TYPE_CHECKING:
    from ..rules.kinds import FeatureKind
    from ..rules.ruleset import Ruleset
    from .game import Game

#: The mechanism's name, its state's key in ``game.states``.
NAME: Final = "tallies"


class Gathered:
    """What each seat gathered in one game (``game.states["tallies"]``), per seat: ``tokens``
    collected (in ``ruleset.tokens`` order), and ``(kind index, tiles)`` of each feature it
    ``held`` when it was completed and of each its tile ``closed`` (noted under bonuses or titles)."""

    __slots__ = ("tokens", "held", "closed")

    def __init__(self, tokens: list[list[int]], held: list[list[tuple[int, int]]],
                 closed: list[list[tuple[int, int]]]) -> None:
        self.tokens = tokens
        self.held = held
        self.closed = closed

    def copy(self) -> "Gathered":
        return Gathered([list(tokens) for tokens in self.tokens], [list(notes) for notes in self.held],
                        [list(notes) for notes in self.closed])


def _start(game: "Game") -> Gathered:
    return Gathered([[0] * len(game.ruleset.tokens) for _ in range(game.players)],
                    [[] for _ in range(game.players)], [[] for _ in range(game.players)])


def of(game: "Game") -> Gathered:
    """The game's :class:`Gathered`; under a ruleset with no tokens, bonuses or titles, a new
    empty one (what a screen or an observation reads there)."""
    found = game.states.get(NAME)
    if found is None:
        return _start(game)
    assert isinstance(found, Gathered)
    return found


def reward(game: "Game", root: int, players: tuple[int, ...]) -> Scored | None:
    """Hand out the tokens of the feature at ``root``, complete now, if its kind has rewards:
    to the seat placing the tile (``placer``) or to ``players``, its majority (``majority``).
    Returns the event that says so (None when the kind has none or nobody takes them)."""
    kind = game.ruleset.kinds[kind_of(game, root)]
    if not kind.tokens:
        return None
    takers = (game.player,) if kind.reward_to == "placer" else players
    sums = totals(game, root).attrs
    given = {kind.attributes[i]: sums[i] for i in kind.tokens if sums[i]}
    if not takers or not given:
        return None
    index = {name: i for i, name in enumerate(game.ruleset.tokens)}
    tokens = of(game).tokens
    for p in takers:
        mine = tokens[p]
        for name, count in given.items():
            i = index[name]
            mine[i] = mine[i] + count
    if not game.explain:
        return Paid(kind.name, "reward", 0, takers)
    tiles = {game.local(game.seg_pos[m])[1:] for m in game.members[root]}
    return ScoreEvent(phase="in_game", turn=game.turn, kind=kind.name, rule="reward", formula="tokens", points=0,
                      players=takers, followers=tuple(game.followers_by_player(root)), tokens=given,
                      tiles=tuple(sorted(tiles)),
                      map=game.local(game.seg_pos[root])[0] if game.ruleset.maps > 1 else None)


def completed(game: "Game", root: int, players: tuple[int, ...], noted: bool) -> list[Scored]:
    """The feature at ``root`` completed and was scored (``players``: its majority, if it was
    occupied): under bonuses, note that ``players`` held it and, unless it completed before
    (``noted=False``: a done feature joined to occupied ones), that the seat playing completed
    it; then, unless it completed before, hand out its tokens.  Returns the reward's event, if
    any (:func:`reward`)."""
    if game.ruleset.bonuses:
        if noted:
            note_closed(game, root)
        hold(game, root, players)
    given = reward(game, root, players) if noted else None
    return [] if given is None else [given]


def hold(game: "Game", root: int, players: tuple[int, ...]) -> None:
    """Note that ``players`` held the feature at ``root`` when it was completed (for bonuses)."""
    held = of(game).held
    for p in players:
        held[p].append((kind_of(game, root), _tiles(game, root)))


def note_closed(game: "Game", root: int) -> None:
    """Note that the seat playing (:attr:`~engine.core.game.Game.player`) completed the feature
    at ``root`` with its tile, occupied or not (for bonuses and titles)."""
    of(game).closed[game.player].append((kind_of(game, root), _tiles(game, root)))


def aggregates(game: "Game", final_points: list[dict[str, int]],
               read: frozenset[str] | None = None) -> list[dict[str, int]]:
    """Per seat, the inputs of bonus formulas: tokens collected; ``completed_K`` (features of
    kind K held when completed), ``largest_K`` (tiles of the largest K feature held, completed
    or occupied now), ``points_K`` (points kind K paid, ``final_points`` being the final
    scoring's share, per seat and kind: empty dicts during play), ``closed_K`` and
    ``largest_closed_K`` (the K features the seat's tiles completed, held by anyone or nobody:
    how many, and the tiles of the largest), ``board_completed_K`` (K features completed on
    the whole board, the same for every seat); the constants.

    ``read`` (:func:`~engine.rules.bonuses.read_by` the bonuses or titles asking)
    limits the kinds' aggregates to those named, None giving them all: a title is weighed after
    every turn and a bonus for every move a bot weighs, and ``largest_K`` walks every occupied
    feature on the board."""
    gathered = of(game)
    tallies = Tallies(gathered.held, gathered.closed, gathered.tokens, game.kind_points)
    return tallies.inputs(game.ruleset, occupied_held(game, read), final_points, read)


def kinds_read(ruleset: "Ruleset", prefix: str, read: frozenset[str] | None) -> list[bool]:
    """Per feature kind, whether the aggregate ``prefix`` + its name (``largest_city``) is among
    the inputs ``read`` (None: every one is)."""
    return [read is None or prefix + kind.name in read for kind in ruleset.kinds]


def occupied_held(game: "Game", read: frozenset[str] | None) -> list[list[tuple[int, int]]]:
    """Per seat, ``(kind index, tiles)`` of each incomplete feature it holds the majority of, for
    the kinds whose ``largest_K`` is ``read`` (None: every kind)."""
    largest = kinds_read(game.ruleset, "largest_", read)
    found: list[list[tuple[int, int]]] = [[] for _ in range(game.players)]
    if any(largest):
        for root in game.occupied_roots():
            k = kind_of(game, root)
            if largest[k] and not is_complete(game, root):
                for p in majority_in(game, [root], game.followers_by_player(root)):
                    found[p].append((k, _tiles(game, root)))
    return found


def wanted_aggregates(ruleset: "Ruleset", read: frozenset[str] | None) -> list[tuple[str, "FeatureKind", str]]:
    """``(name, kind, prefix)`` of each kind aggregate among the inputs ``read`` (None: every one),
    kind by kind in ``ruleset.kinds`` order, then in ``KIND_AGGREGATES`` order."""
    return [(prefix + kind.name, kind, prefix) for kind in ruleset.kinds for prefix in KIND_AGGREGATES
            if read is None or prefix + kind.name in read]


class Tallies:
    """What the bonuses' aggregates are made of, per seat: ``held`` and ``closed`` (``(kind
    index, tiles)`` of each feature held when completed, and completed by the seat's tile),
    ``tokens`` (in ``ruleset.tokens`` order) and ``kind_points`` (points per kind in play): a
    game's own lists, or a look-ahead's after a move (engine/core/bonus_part.py)."""

    def __init__(self, held: list[list[tuple[int, int]]], closed: list[list[tuple[int, int]]],
                 tokens: list[list[int]], kind_points: list[dict[str, int]]) -> None:
        self.held, self.closed, self.tokens, self.kind_points = held, closed, tokens, kind_points

    def inputs(self, ruleset: "Ruleset", occupied: list[list[tuple[int, int]]],
               final_points: list[dict[str, int]], read: frozenset[str] | None,
               wanted: "list[tuple[str, FeatureKind, str]] | None" = None) -> list[dict[str, int]]:
        """The per-seat aggregates (:func:`aggregates`), ``occupied`` being each seat's incomplete
        features held (:func:`occupied_held`); ``wanted``: :func:`wanted_aggregates` of ``read``,
        if the caller keeps it."""
        kinds = ruleset.kinds
        board = [0] * len(kinds)
        for notes in self.closed:
            for k, _ in notes:
                board[k] = board[k] + 1
        if wanted is None:
            wanted = wanted_aggregates(ruleset, read)
        constants = kinds[0].constants if kinds else {}
        found = []
        for p in range(len(self.tokens)):
            mine = {"seat": p + 1, **dict(zip(ruleset.tokens, self.tokens[p]))}
            for name, kind, prefix in wanted:
                mine[name] = self._aggregate(prefix, kind, p, occupied[p], final_points[p], board)
            mine.update(constants)
            found.append(mine)
        return found

    def _aggregate(self, prefix: str, kind: "FeatureKind", p: int, occupied: list[tuple[int, int]],
                   final_points: dict[str, int], board: list[int]) -> int:
        """Seat ``p``'s aggregate ``prefix`` + ``kind.name`` (:func:`aggregates`)."""
        k = kind.index
        if prefix == "completed_":
            return sum(1 for kind_index, _ in self.held[p] if kind_index == k)
        if prefix == "largest_":
            return max((tiles for kind_index, tiles in (*self.held[p], *occupied) if kind_index == k), default=0)
        if prefix == "points_":
            return self.kind_points[p][kind.name] + final_points.get(kind.name, 0)
        if prefix == "closed_":
            return sum(1 for kind_index, _ in self.closed[p] if kind_index == k)
        if prefix == "largest_closed_":
            return max((tiles for kind_index, tiles in self.closed[p] if kind_index == k), default=0)
        return board[k]  # board_completed_


def _tiles(game: "Game", root: int) -> int:
    """Distinct tile positions of the feature at ``root`` (a feature's ``tiles``)."""
    return len({game.seg_pos[m] for m in game.members[root]})


def _uses(ruleset: "Ruleset") -> bool:
    return bool(ruleset.tokens) or bool(ruleset.bonuses)  # titles are bonuses too


MECHANISM: Mechanism = Mechanism(NAME, _uses, state=_start, completed=completed)
