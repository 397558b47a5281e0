"""A Carcassonne engine whose rules are data.

>>> from engine import load_ruleset, play_game
>>> played = play_game(load_ruleset("basic"), ["random", "greedy"], seed=7)
>>> len(played.game.board) + sum(1 for _, m in played.game.history if m is None)
72

The pieces: :func:`load_ruleset` turns a ruleset reference into a compiled
:class:`Ruleset`; :class:`Game` plays it turn by turn (``legal_moves``,
``play``, ``finish``); :mod:`engine.bots.players` has the bots; :func:`play_game`
runs a whole game and builds its record.  Bad input raises :class:`UserError`.
``engine.__version__`` is the installed version (CHANGELOG.md).
"""

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .core.game import Game
    from .core.moves import IllegalMove, Move
    from .errors import UserError
    from .rules.ruleset import Ruleset, load_ruleset
    from .sim.play import PlayedGame, play_game

# Imported on first use, so that `carcassonne --help` does not load the engine.
_WHERE = {"UserError": "errors", "Game": "core.game", "IllegalMove": "core.moves", "Move": "core.moves",
          "PlayedGame": "sim.play", "play_game": "sim.play", "Ruleset": "rules.ruleset",
          "load_ruleset": "rules.ruleset"}

__all__ = ["Game", "IllegalMove", "Move", "PlayedGame", "Ruleset", "UserError", "load_ruleset", "play_game"]


def __getattr__(name: str):
    if name == "__version__":  # the installed distribution's, as ``carcassonne --version`` says it
        from importlib.metadata import version

        return version("carcassonne-rules")
    if name in _WHERE:
        return getattr(import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module 'engine' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
