"""Hands of tiles as data: ``deck.hand`` (docs/rulesets.md, "Hands of tiles").

``{size: 2}`` (hand-of-two): each player holds two tiles, places one and
keeps the other; ``{size: 3, keep: false, return: bottom}``
(draw-three-keep-one): each player draws three, places one and returns the
other two.  :mod:`engine.core.hands` plays it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .problems import Problems

#: Where the tiles a player did not place go under ``keep: false``.
RETURNS = ("bottom", "reshuffle", "box")


@dataclass(frozen=True)
class Hand:
    """``deck.hand``: a turn's choice among ``size`` tiles (1 is the ordinary single draw).

    ``keep``: the tiles not placed stay in the hand for the player's next turn
    (refilled to ``size`` then); else they go back at the end of the turn, as
    ``return_to`` says: ``bottom`` of the stack (under the unseen tiles, above a
    tile pinned last), ``reshuffle`` (back into the stack, shuffled), or
    ``box`` (out of the game)."""

    size: int
    keep: bool = True
    return_to: str = "bottom"


def compile_hand(deck: dict, personal: bool, problems: Problems) -> Hand | None:
    """The ``deck.hand`` of a schema-valid deck, None if there is none or it is the single draw
    (``{size: 1}``).  Problems (``deck-hand``): ``return`` with ``keep: true`` (nothing is returned); a
    hand beside ``deck.personal`` (a personal tile is offered instead of a draw, and a hand has no
    single draw to replace); a hand beside ``deck.phases`` (the River: a tile held or returned at
    the end of a phase would be placed after the next phase's, and the tile pinned last, the lake,
    before tiles of its phase still held)."""
    spec = deck.get("hand")
    if spec is None:
        return None
    keep = spec.get("keep", True)
    if keep and "return" in spec:
        problems.at(("deck", "hand", "return"), "'return' says where the tiles not placed go under 'keep: false'; "
                    "with 'keep: true' they stay in the hand", "deck-hand", key=True)
    if personal:
        problems.at(("deck", "hand"), "a hand of tiles does not combine with personal tiles (deck.personal), which "
                    "a player places instead of drawing", "deck-hand", key=True)
    if len(deck.get("phases", ())) > 1:
        problems.at(("deck", "hand"), "a hand of tiles does not combine with deck phases (the River): tiles held at "
                    "the end of a phase would be placed after the next phase's, and its tile pinned last before "
                    "tiles of its phase still held", "deck-hand", key=True)
    if spec["size"] == 1 and keep:
        return None
    return Hand(spec["size"], keep, spec.get("return", "bottom"))
