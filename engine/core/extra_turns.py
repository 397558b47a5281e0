"""Extra turns (a follower type with ``extra_turn``: Traders & Builders' builder).

A placement that extends a feature holding one of the player's builder-like followers
(before any deployment) earns the player one more turn at once; a turn played as an extra
one earns none (RULES.md, Traders & Builders: no chaining).  The turn loop owns the rest, for any
mechanism that grants a turn: it reads :attr:`~engine.core.game.Game.earned_turn` when the turn
passes, and notes the turns that were extra ones in :attr:`~engine.core.game.Game.extra_turns`
(what records mark).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .completion import extends_own
from .mechanism import Mechanism

if TYPE_CHECKING:
    from ..rules.ruleset import Ruleset
    from .game import Game


def placed(game: "Game", tile: int, base: int) -> None:
    """Tile placed (not in an extra turn): it earns one if it extended the player's builder's feature."""
    if not game.extra_turn and extends_own(game, tile, base):
        game.earned_turn = True


def _uses(ruleset: "Ruleset") -> bool:
    return bool(ruleset.extra_turn_types)


MECHANISM: Mechanism = Mechanism("extra turns", _uses, placed=placed)
