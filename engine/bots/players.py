"""The player protocol, ``choose(game) -> Move``, and the bot kinds by name.

Each bot owns a ``random.Random`` seeded from the game seed and its seat, so
the same seed and the same line-up always give the same game (DESIGN.md,
"Determinism").
"""

from __future__ import annotations

from typing import Callable, Protocol

from ..core.game import Game
from ..core.moves import Move
from .greedy import GreedyPlayer
from .random_player import RandomPlayer


class Player(Protocol):
    """Anything that picks a move for the current tile of a game."""

    name: str

    def choose(self, game: Game) -> Move:
        """A legal :class:`~engine.core.moves.Move` for ``game.tile`` and ``game.player``."""
        ...

    def choose_start(self, game: Game) -> int:
        """Rotation (quarter turns) of a start tile drawn from the stack (``game.start_tile``)."""
        ...


#: Bot kinds by the name the CLI and records use.
PLAYER_KINDS: dict[str, Callable[[int | str | None], Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
}


def make_player(kind: str, seed: int | None, seat: int) -> Player:
    """A bot of ``kind`` for ``seat``, seeded from the game seed; ``ValueError`` if unknown."""
    try:
        factory = PLAYER_KINDS[kind]
    except KeyError:
        raise ValueError(f"unknown player '{kind}' (known: {', '.join(PLAYER_KINDS)})") from None
    return factory(f"{seed}:{seat}")
