"""What each mechanism adds to the observations: one class per mechanism, in one registry.

A ruleset with a mechanism's data gets its part (:data:`PARTS`, in order: ``tokens``,
``personal``, ``titles``, then ``hand`` and ``held``).  A part names its scalars in the compact
observation (:mod:`engine.api.planes`, seats relative to the observer) and its pieces in the full
one (:mod:`engine.api.observation`, seats absolute), fills them, and words them for the
observation's text; the layouts walk the parts a ruleset has, so a mechanism adds its numbers
without a branch of its own in them.  The values are as the two layouts' docstrings give.

Needs numpy (the views filled are numpy arrays).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..core import personal, tallies, titles
from ..core.hands import of as hands_of

if TYPE_CHECKING:
    import numpy

    from ..core.game import Game
    from ..rules.ruleset import Ruleset

View = dict[str, "numpy.ndarray"]


class Part:
    """One mechanism's part of the observations for a ruleset and number of seats:
    :attr:`compact` (``(name, length)`` scalars), :attr:`full` (``(name, shape)`` pieces), and
    the fills and text.  ``order`` is the seats in the compact observation's order (the
    observer, then the others in turn order)."""

    #: The part's mechanism, for messages and the registry.
    mechanism: ClassVar[str] = ""

    def __init__(self, ruleset: "Ruleset", players: int) -> None:
        self.ruleset, self.players = ruleset, players

    @staticmethod
    def present(ruleset: "Ruleset") -> bool:
        """Whether ``ruleset`` has this mechanism (and so this part)."""
        raise NotImplementedError

    @property
    def compact(self) -> list[tuple[str, int]]:
        raise NotImplementedError

    @property
    def full(self) -> list[tuple[str, tuple[int, ...]]]:
        raise NotImplementedError

    def fill_compact(self, view: View, game: "Game", seat: int, order: list[int]) -> None:
        raise NotImplementedError

    def fill_full(self, view: View, game: "Game", seat: int) -> None:
        raise NotImplementedError

    def text(self, game: "Game", seat: int) -> str:
        raise NotImplementedError


class Tokens(Part):
    """Tokens collected (``tokens``): per seat and token, / the tokens the ruleset's tiles hold."""

    mechanism = "tokens"

    def __init__(self, ruleset: "Ruleset", players: int) -> None:
        super().__init__(ruleset, players)
        self.totals = [max(_in_the_deck(ruleset, name), 1) for name in ruleset.tokens]

    @staticmethod
    def present(ruleset: "Ruleset") -> bool:
        return bool(ruleset.tokens)

    @property
    def compact(self) -> list[tuple[str, int]]:
        return [("tokens", self.players * len(self.totals))]

    @property
    def full(self) -> list[tuple[str, tuple[int, ...]]]:
        return [("tokens", (self.players, len(self.totals)))]

    def fill_compact(self, view: View, game: "Game", seat: int, order: list[int]) -> None:
        gathered, n = tallies.of(game).tokens, len(self.totals)
        for k, s in enumerate(order):
            for i, total in enumerate(self.totals):
                view["tokens"][k * n + i] = gathered[s][i] / total

    def fill_full(self, view: View, game: "Game", seat: int) -> None:
        view["tokens"][:] = tallies.of(game).tokens

    def text(self, game: "Game", seat: int) -> str:
        return f"tokens {tallies.of(game).tokens}"


class Personal(Part):
    """Personal tiles held (``deck.personal``): per seat, / the most a seat starts with."""

    mechanism = "personal"

    @staticmethod
    def present(ruleset: "Ruleset") -> bool:
        return ruleset.personal_tile >= 0

    @property
    def compact(self) -> list[tuple[str, int]]:
        return [("personal", self.players)]

    @property
    def full(self) -> list[tuple[str, tuple[int, ...]]]:
        return [("personal", (self.players,))]

    def fill_compact(self, view: View, game: "Game", seat: int, order: list[int]) -> None:
        held, most = personal.of(game).held, max(self.ruleset.personal_count, 1)
        for k, s in enumerate(order):
            view["personal"][k] = held[s] / most

    def fill_full(self, view: View, game: "Game", seat: int) -> None:
        view["personal"][:] = personal.of(game).held

    def text(self, game: "Game", seat: int) -> str:
        return f"personal {personal.of(game).held}"


class Titles(Part):
    """Titles (``award: title``): per title, its holder (compact: 1 for the holder, seats
    relative; full: the title's record for the holder)."""

    mechanism = "titles"

    @staticmethod
    def present(ruleset: "Ruleset") -> bool:
        return bool(ruleset.titles)

    @property
    def compact(self) -> list[tuple[str, int]]:
        return [("titles", len(self.ruleset.titles) * self.players)]

    @property
    def full(self) -> list[tuple[str, tuple[int, ...]]]:
        return [("titles", (len(self.ruleset.titles), self.players))]

    def fill_compact(self, view: View, game: "Game", seat: int, order: list[int]) -> None:
        for i, (holder, _record) in enumerate(titles.of(game).holders):
            if holder >= 0:
                view["titles"][i * self.players + (holder - seat) % self.players] = 1

    def fill_full(self, view: View, game: "Game", seat: int) -> None:
        for i, (holder, record) in enumerate(titles.of(game).holders):
            if holder >= 0:
                view["titles"][i, holder] = record

    def text(self, game: "Game", seat: int) -> str:
        return f"titles {titles.of(game).holders}"


class Hands(Part):
    """Hands of tiles (``deck.hand``): the observer's ``hand`` (copies of each tile type) and how
    many each seat ``held``; the tiles the others hold, and those returned unknown to the
    observer, count in ``unseen`` (which the layout fills first; the compact one divides it by
    the copies after the parts)."""

    mechanism = "hands"

    def __init__(self, ruleset: "Ruleset", players: int) -> None:
        super().__init__(ruleset, players)
        self.size = ruleset.hand.size if ruleset.hand else 1

    @staticmethod
    def present(ruleset: "Ruleset") -> bool:
        return bool(ruleset.hand)

    @property
    def compact(self) -> list[tuple[str, int]]:
        return [("hand", len(self.ruleset.tiles)), ("held", self.players)]

    @property
    def full(self) -> list[tuple[str, tuple[int, ...]]]:
        return [("hand", (len(self.ruleset.tiles),)), ("held", (self.players,))]

    def fill_compact(self, view: View, game: "Game", seat: int, order: list[int]) -> None:
        self._fill(view, game, seat, order, self.size)

    def fill_full(self, view: View, game: "Game", seat: int) -> None:
        self._fill(view, game, seat, list(range(self.players)), 1)

    def _fill(self, view: View, game: "Game", seat: int, order: list[int], size: int) -> None:
        """``held`` by the seats of ``order`` and the observer's ``hand`` (tiles, / ``size``), and
        the tiles hidden from it added to ``unseen``."""
        hands = hands_of(game)
        assert hands is not None  # the part is made only under deck.hand
        me = 1 << seat
        for k, s in enumerate(order):
            view["held"][k] = len(hands.held[s]) / size
            for tile, _, _known in hands.held[s]:
                if s == seat:
                    view["hand"][tile] += 1 / size
                else:
                    view["unseen"][tile] += 1
        for tile, _, known in hands.out:
            if not known & me:
                view["unseen"][tile] += 1

    def text(self, game: "Game", seat: int) -> str:
        hands = hands_of(game)
        assert hands is not None  # the part is made only under deck.hand
        tiles = self.ruleset.tiles
        hand = " ".join(tiles[t].id for t in sorted(t for t, _, _ in hands.held[seat])) or "-"
        return f"hand {hand}, held {[len(held) for held in hands.held]}"


#: The parts, in the order the observations lay them out.
PARTS: tuple[type[Part], ...] = (Tokens, Personal, Titles, Hands)


def parts_of(ruleset: "Ruleset", players: int) -> list[Part]:
    """The parts ``ruleset`` has, made for ``players`` seats, in :data:`PARTS`' order."""
    return [part(ruleset, players) for part in PARTS if part.present(ruleset)]


def _in_the_deck(ruleset: "Ruleset", token: str) -> int:
    """How many of ``token`` the ruleset's tiles hand out in all (each segment's attribute, per copy)."""
    total = 0
    for tile in ruleset.tiles:
        for j, segment in enumerate(tile.segments):
            attributes = ruleset.kinds[tile.kinds[j]].attributes
            if token in attributes:
                total += tile.count * segment.attrs[attributes.index(token)]
    return total
