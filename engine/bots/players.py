"""Bots: one protocol, ``choose(game) -> Move``.

Each bot owns a ``random.Random`` seeded from the game seed and its seat, so
the same seed and the same line-up always give the same game (DESIGN.md,
"Determinism").
"""

from __future__ import annotations

import random
from typing import Callable, Protocol

from ..core.game import Game, Move
from ..core.lookahead import Lookahead


class Player(Protocol):
    """Anything that picks a move for the current tile of a game."""

    name: str

    def choose(self, game: Game) -> Move:
        """A legal :class:`~engine.core.game.Move` for ``game.tile`` and ``game.player``."""
        ...

    def choose_start(self, game: Game) -> int:
        """Rotation (quarter turns) of a start tile drawn from the stack (``game.start_tile``)."""
        ...


class RandomPlayer:
    """Uniform over legal placements, then uniform over that placement's follower
    options (deploying nothing included).  Counts placements instead of listing
    them, since random play is what simulations spend their time on."""

    name = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def choose_start(self, game: Game) -> int:
        return self.rng.randrange(4)

    def choose(self, game: Game) -> Move:
        rng = self.rng
        pos, rotation = game.placement(rng.randrange(game.placement_count()))
        options = game.deploy_options(pos, rotation)
        pick = rng.randrange(len(options) + 1)
        return Move(pos, rotation, options[pick] if pick < len(options) else None)


class GreedyPlayer:
    """Maximises its own score-if-the-game-ended-now minus the best opponent's,
    computed with the ruleset's own formulas (so it plays any variant's scoring)
    from the features each move touches (:class:`~engine.core.lookahead.Lookahead`).
    Ties between equally good moves are broken at random."""

    name = "greedy"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def choose_start(self, game: Game) -> int:
        # On an empty board every rotation scores alike: pick one at random.
        return self.rng.randrange(4)

    def choose(self, game: Game) -> Move:
        me = game.player
        best: list[Move] = []
        best_value = None
        for move, totals in Lookahead(game).moves():
            value = totals[me] - max(totals[:me] + totals[me + 1:], default=0)
            if best_value is None or value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return best[self.rng.randrange(len(best))]


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
