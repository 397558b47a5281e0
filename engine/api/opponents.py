"""The engine's bots as opponents through the game APIs: ``random``, ``greedy`` and ``mcts`` by name.

A :class:`BotActor` plays the actions of a :class:`~engine.api.turns.ChanceGame` (the state
behind the OpenSpiel game, the PettingZoo environment and the Gymnasium wrapper) as one of
:mod:`engine.bots` would play the game: it asks the bot for a whole move and hands it out
one action at a time (a placement, then its follower spot).  The bot reads the game as its
seat may: the order of the stack is not there to read, since every draw of a
:class:`ChanceGame` is a chance outcome chosen outside it.
"""

from __future__ import annotations

from ..bots.players import make_player
from .turns import ChanceGame


class BotActor:
    """``BotActor(spec="greedy", seed=None, seat=0)``: an engine bot choosing actions.

    ``spec`` is what ``carcassonne play --players`` takes for one seat (``random``, ``greedy``,
    ``mcts``, ``mcts:200``, …; :func:`~engine.bots.players.parse_spec`); ``seed`` and
    ``seat`` seed it as the command line does, so the same seed plays the same way, and ``seat``
    is the seat it plays.  Raises ``ValueError`` for a spec that names no bot or a wrong
    setting, and a seat that is not a seat number.
    """

    def __init__(self, spec: str = "greedy", seed: int | None = None, seat: int = 0) -> None:
        if type(seat) is not int or seat < 0:
            raise ValueError(f"seat is a seat number (0 for the first), not {seat!r}")
        self.spec, self.seat = spec, seat
        self.player = make_player(spec, seed, seat)
        #: The actions still to play of the move chosen, and the step they are due at.
        self._pending: list[int] = []
        self._due = -1

    def act(self, state: ChanceGame) -> int:
        """The action the bot plays now in ``state`` (its seat is to move).  ``ValueError`` at a
        chance step, once the game is over, or when another seat is to move."""
        if state.over or state.chance:
            raise ValueError("the bot acts when a seat is to move, not at a draw or after the end")
        if state.player != self.seat:
            raise ValueError(f"the bot plays seat {self.seat}, and seat {state.player} is to move")
        if self._pending and self._due == len(state.actions):
            self._due += 1
            return self._pending.pop(0)
        game = state.game
        if game.pending_starts:
            return state.codec.start_action(self.player.choose_start(game))
        first, *rest = state.actions_for(self.player.choose(game))
        self._pending, self._due = rest, len(state.actions) + 1
        return first

    def restart(self) -> None:
        """Forget a move half played (a new game, or a game taken back)."""
        self._pending, self._due = [], -1
