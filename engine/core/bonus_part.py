"""What the game-end bonuses would pay after a candidate move, without playing it.

A bonus compares the players on aggregates (:mod:`engine.core.tallies`) that a move
changes in a few ways: each feature it completes is closed by the seat placing the
tile and held by its majority, hands out its tokens (to the placer or the majority),
and counts on the board; titles pass when a value beats their record
(:mod:`engine.core.titles`); and the largest feature a seat holds may grow, merge or
gain a follower.  :class:`BonusPart` works these out from the features' look-ahead's
groups (:class:`~engine.core.lookahead.Lookahead`, ``placed`` and ``deployed``) and the
position's own tallies, then pays the bonuses as the game end would
(:func:`engine.core.game_end.bonus_scores`).  It is usable where the look-ahead by
features is exact and nothing else feeds the aggregates: no ``points_K`` input (every
score changes it), no tie-break.  tests/core/test_known_ends.py compares every value
with playing the move and scoring the whole board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules.bonuses import read_by
from .game_end import bonus_scores
from .scoring import is_complete, kind_of, majority_in
from .tallies import Tallies, kinds_read, of, wanted_aggregates
from .titles import of as titles_of
from .titles import passing
from .totals import totals

if TYPE_CHECKING:
    from .after_move import Group
    from .game import Game
    from .lookahead import Lookahead


class BonusPart:
    """The bonuses' points per seat after the options of ``look`` (a features' look-ahead of
    ``game`` with ``watched`` set); ``usable`` is False where this cannot say (see the module)."""

    def __init__(self, game: "Game", look: "Lookahead") -> None:
        self.game, self.look = game, look
        ruleset = game.ruleset
        reads = self._reads = read_by(ruleset.bonuses)
        self._wanted = wanted_aggregates(ruleset, reads)  # the aggregates read, named once
        self.usable = ruleset.tie_kind < 0 and not any(name.startswith("points_") for name in reads)
        self.index = {name: i for i, name in enumerate(ruleset.tokens)}
        self.largest = kinds_read(ruleset, "largest_", reads)
        #: Whether the aggregates read are the same for every option of a placement: none reads who
        #: holds a feature (``completed_K``, ``largest_K``) and every token goes to the placer.
        self.by_placement = not any(self.largest) and not any(kinds_read(ruleset, "completed_", reads)) \
            and all(kind.reward_to == "placer" for kind in ruleset.kinds if kind.tokens)
        self._last: tuple[object, list[int]] = ((), [])  # the groups of the placement weighed last, its bonuses
        #: ``(root, kind index, tiles, majority)`` of each incomplete occupied feature of a ``largest_K`` kind.
        self.occupied: list[tuple[int, int, int, tuple[int, ...]]] = []
        if any(self.largest):
            for root in game.occupied_roots():
                k = kind_of(game, root)
                if self.largest[k] and not is_complete(game, root):
                    players = majority_in(game, [root], game.followers_by_player(root))
                    self.occupied.append((root, k, len(totals(game, root).positions), players))

    def vector(self, option: int) -> list[int]:
        """Per seat, what the bonuses pay at the game end after option ``option`` of the placement
        ``look`` weighed last (an index into its ``deployed``)."""
        game, look = self.game, self.look
        live, gained, pos = look.placed
        if self.by_placement and self._last[0] is live:  # another option of the same placement
            return self._last[1]
        joined, bit = look.deployed[option]
        gathered = of(game).copy()  # the look-ahead's own lists, changed below
        tallies = Tallies(gathered.held, gathered.closed, gathered.tokens, game.kind_points)
        absorbed: set[int] = set()
        for group in live:
            absorbed.update(group.roots)
            if group.complete:
                packed = group.fol + (bit if group is joined else 0)
                tiles, attrs = self._group_totals(group, pos)
                self._complete(tallies, group.kind, tiles, attrs, tuple(look.majority(packed, None)) if packed else ())
        for s, complete in gained.items():
            if complete:
                absorbed.add(s)
                found = totals(game, s)
                packed = game.fol[s]
                self._complete(tallies, kind_of(game, s), len(found.positions), found.attrs,
                               tuple(look.majority(packed, None)) if packed else ())
        inputs = tallies.inputs(game.ruleset, self._occupied_after(live, pos, joined, bit, absorbed),
                                [{} for _ in range(game.players)], self._reads, self._wanted)
        paid = bonuses_paid(game, inputs)
        self._last = (live, paid)  # the groups' list, made anew for each placement (a tuple is not kept whole)
        return paid

    def _complete(self, tallies: Tallies, k: int, tiles: int, attrs: list[int], players: tuple[int, ...]) -> None:
        """Note a feature of kind ``k`` the move completes (as the game's tallies do at the
        ``completed`` moment, engine/core/tallies.py): closed by the placer, held by ``players``, its
        tokens handed out."""
        game = self.game
        kind = game.ruleset.kinds[k]
        tallies.closed[game.player].append((k, tiles))
        for p in players:
            tallies.held[p].append((k, tiles))
        takers = (game.player,) if kind.reward_to == "placer" else players
        for i in kind.tokens:
            if attrs[i]:
                j = self.index[kind.attributes[i]]
                for p in takers:
                    mine = tallies.tokens[p]
                    mine[j] = mine[j] + attrs[i]

    def _group_totals(self, group: "Group", pos: int) -> tuple[int, list[int]]:
        """The tiles and attribute sums of a feature as the move leaves it."""
        game = self.game
        assert game.tile is not None, "a look-ahead needs a tile to place"
        tile = game.tiles[game.tile]
        attrs = [0] * len(game.ruleset.kinds[group.kind].attributes)
        for j in group.locals:
            for i, value in enumerate(tile.segments[j].attrs):
                attrs[i] = attrs[i] + value
        positions = {pos}
        for root in group.roots:
            found = totals(game, root)
            positions |= found.positions
            for i, value in enumerate(found.attrs):
                attrs[i] = attrs[i] + value
        return len(positions), attrs

    def _occupied_after(self, live: list["Group"], pos: int, joined: "Group | None", bit: int,
                        absorbed: set[int]) -> list[list[tuple[int, int]]]:
        """Per seat, the incomplete features of ``largest_K`` kinds it holds after the move: those
        the move leaves alone, and the features its groups form."""
        found: list[list[tuple[int, int]]] = [[] for _ in range(self.game.players)]
        for root, k, tiles, players in self.occupied:
            if root not in absorbed:
                for p in players:
                    found[p].append((k, tiles))
        for group in live:
            packed = group.fol + (bit if group is joined else 0)
            if packed and not group.complete and self.largest[group.kind]:
                tiles, _ = self._group_totals(group, pos)
                for p in self.look.majority(packed, None):
                    found[p].append((group.kind, tiles))
        return found


#: The most entries :attr:`~engine.core.board.Board.bonuses_memo` keeps before it is emptied.
MEMO_LIMIT = 4096


def bonuses_paid(game: "Game", inputs: list[dict[str, int]]) -> list[int]:
    """Per seat, what the bonuses pay at the game end on the aggregates ``inputs``, the titles first
    passed as a placement by the seat playing would pass them on those values (a title's value may be
    above its record before the first placement)."""
    # Each position and each move weighed asks again, but a game meets few distinct aggregates: kept.
    held = titles_of(game).holders
    key = (tuple([tuple(env.items()) for env in inputs]), tuple(held), game.player)
    memo = game.bonuses_memo
    found = memo.get(key)
    if found is None:
        titles = [after for _, _, after in passing(game.ruleset.titles, inputs, held, game.player)]
        vector = [0] * game.players
        for bonus in game.ruleset.bonuses:
            for event in bonus_scores(game, bonus, inputs, False, titles):
                for p in event.players:
                    vector[p] = vector[p] + event.points
        if len(memo) >= MEMO_LIMIT:  # a long search meets more: start afresh rather than grow
            memo.clear()
        found = memo[key] = tuple(vector)
    return list(found)
