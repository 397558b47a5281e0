"""A Carcassonne engine whose rules are data.

>>> from engine import load_ruleset, play_game
>>> played = play_game(load_ruleset("basic"), ["random", "greedy"], seed=7)
>>> len(played.game.board) + sum(1 for _, m in played.game.history if m is None)
72

The pieces: :func:`load_ruleset` turns a ruleset reference into a compiled
:class:`Ruleset`; :class:`Game` plays it turn by turn (``legal_moves``,
``play``, ``finish``); :mod:`engine.players` has the bots; :func:`play_game`
runs a whole game and builds its record.  Bad input raises :class:`UserError`.
"""

from .errors import UserError
from .game import Game, IllegalMove, Move
from .play import PlayedGame, play_game
from .ruleset import Ruleset, load_ruleset

__all__ = ["Game", "IllegalMove", "Move", "PlayedGame", "Ruleset", "UserError", "load_ruleset", "play_game"]
