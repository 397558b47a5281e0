"""The tiles a recorded game may draw: a record that uses more than its ruleset has, or
says it finished with tiles left, is not a game that ruleset can have produced.

A game draws the ruleset's tiles (each type's ``count``, less the copies set
aside by ``deck.set_aside``), takes its start tiles from them, and ends when
every tile has been drawn: placed, or discarded because it fits nowhere
(docs/rulesets.md, "The deck").  Under ``unplaceable: reshuffle`` a discarded
tile may go back into the stack and be drawn again, so one copy can show up in
a record as discards followed by a placement (or by a last discard); a
record is then held to the fewest copies its turns can stand for.  Under
``deck.size`` only that many tiles are dealt (the fixed start tiles besides):
a record then draws exactly that many, of any types the ruleset has.  Under
``deck.bury`` a tile buried under a placed one (a turn's ``buried``) is taken
from the stack too, never to come back.
"""

from __future__ import annotations

from collections import Counter

from ..core.deck import dealt
from ..errors import UserError
from ..rules.ruleset import Ruleset
from ..rules.source import Document


def _nth(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, … ``11th``, ``21st``."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


class TileSupply:
    """The tiles of ``ruleset`` a record's entries (start tiles, then turns) take, checked as
    they are taken.  Each check raises :class:`UserError` ``replay``, at the entry's place in
    ``doc``, naming the turn and the reason."""

    def __init__(self, ruleset: Ruleset, doc: Document) -> None:
        self.ruleset, self.doc = ruleset, doc
        self.reshuffle = ruleset.unplaceable == "reshuffle"
        aside = Counter(ruleset.set_aside)
        #: Copies of each tile type there are to draw, the start tiles included.
        self.have = [max(t.count - aside[t.index], 0) for t in ruleset.tiles]
        self.total = sum(self.have)
        #: Tiles the game draws, the start tiles included: fewer than ``total`` under ``deck.size``.
        self.dealt = dealt(ruleset) - len(ruleset.set_aside)
        self.entries = [0] * len(self.have)  # start tiles and turns of each type
        self.placed = [0] * len(self.have)
        # Reshuffle only: a copy discarded since the type's last placement, which may be back in the stack.
        self.pending = [False] * len(self.have)
        self.buried = [0] * len(self.have)  # deck.bury: copies out of the game under a placed tile
        self.used = 0  # the sum of copies() over every type

    def copies(self, tile: int) -> int:
        """The fewest copies of type ``tile`` the entries so far can stand for."""
        return self.placed[tile] + self.pending[tile] + self.buried[tile] if self.reshuffle else self.entries[tile]

    def take(self, tile: int, discarded: bool, what: str, path: tuple, *, buried: bool = False) -> None:
        """Take a copy of type ``tile`` for ``what`` (``turn 12``, ``the start tile``), the entry at ``path``:
        placed, ``discarded``, or ``buried`` (out of the game for good)."""
        before = self.copies(tile)
        if buried:
            self.buried[tile] += 1
        elif self.reshuffle and not discarded and self.pending[tile]:
            self.pending[tile] = False  # the copy that went back is this one
        elif self.reshuffle and discarded:
            self.pending[tile] = True
        if not discarded and not buried:
            self.placed[tile] += 1
        self.entries[tile] += 1
        self.used += self.copies(tile) - before
        ruleset, tile_id = self.ruleset, self.ruleset.tiles[tile].id
        if self.used > self.dealt:
            raise UserError(f"{what} comes after the end of the game: all {self.dealt} tiles of {ruleset.ref} "
                            "are drawn before it", code="replay", **self.doc.where(path))
        if self.copies(tile) > self.have[tile]:
            count = ruleset.tiles[tile].count
            aside = f" ({count} less {count - self.have[tile]} set aside)" if count != self.have[tile] else ""
            have = f"{self.have[tile]}{aside}" if self.have[tile] else "none"
            buried = f" ({self.buried[tile]} of them buried under placed tiles)" if self.buried[tile] else ""
            raise UserError(f"{what} is the {_nth(self.copies(tile))} tile {tile_id}, but {ruleset.ref} has "
                            f"{have}{buried}", code="replay", **self.doc.where(path))

    def take_turn(self, turn: dict, i: int) -> None:
        """Take the tile of record turn ``i`` (``turn``) if it was drawn: a ``personal`` one is
        a player's own, never in the stacks, and a follower moving on takes none.  An unknown tile
        is left to the caller."""
        tile = self.ruleset.tile_ids.get(turn.get("tile", ""))  # a follower moving on has none
        if tile is not None and not turn.get("personal"):
            self.take(tile, bool(turn.get("discarded")), f"turn {i + 1}", ("turns", i))
        if tile is not None and "at" in turn and "buried" not in turn and self._buries(tile) and self.used < self.dealt:
            left = self.dealt - self.used
            raise UserError(f"turn {i + 1} places {turn['tile']}, which has a "
                            f"{self.ruleset.kinds[self.ruleset.bury_kind].name}, with {left} tile{'s' * (left != 1)} "
                            "left to draw, so a tile went under it: a record names it (buried: TILE)",
                            code="replay", **self.doc.where(("turns", i)))
        buried = self.ruleset.tile_ids.get(turn.get("buried", ""))
        if buried is not None and "at" in turn:  # an unknown id is the replay's error
            self.take(buried, True, f"turn {i + 1}'s buried tile", ("turns", i, "buried"), buried=True)
        hand = self.ruleset.hand
        if tile is not None and hand is not None and hand.return_to == "box" and not hand.keep and "at" in turn:
            rest = list(turn.get("hand", ()))
            if turn["tile"] in rest:
                rest.remove(turn["tile"])
            for j, returned in enumerate(rest):  # out of the game, as a discard is (an unknown id is the replay's)
                if returned in self.ruleset.tile_ids:
                    self.take(self.ruleset.tile_ids[returned], True, f"turn {i + 1}'s hand", ("turns", i, "hand", j))

    def _buries(self, tile: int) -> bool:
        """Whether placing ``tile`` takes the next tile of the stack under it whenever one is left
        (``deck.bury``).  Checked on one map without phases only: elsewhere the next tile may lie
        on another map's stack, or be a phase's pinned last tile, which is never buried."""
        ruleset = self.ruleset
        return ruleset.bury_kind in ruleset.tiles[tile].kinds and ruleset.maps == 1 and not ruleset.phases

    def check_used_up(self, turns: int, path: tuple) -> None:
        """For a record that says it finished after ``turns`` turns: every tile was drawn
        (a game ends only then); else :class:`UserError` at ``path``."""
        left = {t.id: self.have[t.index] - self.entries[t.index] for t in self.ruleset.tiles
                if self.have[t.index] > self.entries[t.index]}
        if self.dealt < self.total and self.used < self.dealt:
            n = self.dealt - self.used  # which ones the box kept is not known
            raise UserError(f"the record says the game finished, but it stops after turn {turns} with "
                            f"{n} of its {self.dealt} tiles still to draw", code="replay", **self.doc.where(path))
        if left and self.dealt == self.total:
            shown = ", ".join(f"{n} × {tile_id}" for tile_id, n in list(left.items())[:5])
            more = ", …" if len(left) > 5 else ""
            n = sum(left.values())
            hint = "; a tile buried under a placed one is its turn's 'buried'" if self.ruleset.bury_kind >= 0 else ""
            raise UserError(f"the record says the game finished, but it stops after turn {turns} with "
                            f"{n} tile{'s' * (n != 1)} still to draw ({shown}{more}){hint}", code="replay",
                            **self.doc.where(path))


def most_entries(ruleset: Ruleset, players: int) -> int:
    """An upper bound on the turn entries of a record of a ``players``-seat game of ``ruleset``, known
    before a turn is read (a record over it is refused before it is parsed for replay).  Every draw
    places, discards or returns a tile: at most N draws of the N tiles to draw, N·K under
    ``unplaceable: reshuffle`` with K tile types (docs/rulesets.md, "Unplaceable tiles"); each seat
    may place its personal tiles besides; after a placement, each piece that moves on when its
    feature scores (``triggers``: a feature it moves onto is incomplete, so each moves once a
    placement at most) may add one entry.  Not the exact most: a bound that holds."""
    drawn = dealt(ruleset) - len(ruleset.set_aside)
    if ruleset.unplaceable == "reshuffle":
        drawn *= max(1, sum(1 for t in ruleset.tiles if t.count))
    placements = drawn + ruleset.personal_count * players
    movers = players * sum(max([ruleset.follower_types[t].count, *(row[t] for row in ruleset.seat_pieces)])
                           for t, _ in ruleset.movers)
    return placements * (1 + movers)
