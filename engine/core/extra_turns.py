"""Extra turns (a follower type with ``extra_turn``: Traders & Builders' builder).

A placement that extends a feature holding one of the player's builder-like followers
(before any deployment) earns the player one more turn at once; a turn played as an extra
one earns none (RULES.md, Traders & Builders: no chaining).  The turn loop reads
:attr:`~engine.core.game.Game.earned_turn` when the turn passes; the turns that were extra
ones are noted in :attr:`~engine.core.game.Game.extra_turns` (what records mark).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .completion import extends_own
from .mechanism import Mechanism

if TYPE_CHECKING:
    from ..rules.ruleset import Ruleset
    from .game import Game


def placed(game: "Game", tile: int, base: int) -> None:
    """Tile placed: an extra turn is noted; any other earns one if the tile extended the player's builder's feature."""
    if game.extra_turn:
        game.extra_turns += (game.turn,)
    else:
        game.earned_turn = extends_own(game, tile, base)


def _uses(ruleset: "Ruleset") -> bool:
    return bool(ruleset.extra_turn_types)


MECHANISM: Mechanism = Mechanism("extra turns", _uses, placed=placed)
