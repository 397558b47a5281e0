"""The random bot: uniform over legal placements, then over that placement's follower options."""

from __future__ import annotations

import random

from ..core.game import Game
from ..core.moves import DRAW, Move


class RandomPlayer:
    """Uniform over legal placements, then uniform over that placement's follower
    options (deploying nothing included); a personal tile offered is declined
    (:data:`~engine.core.moves.DRAW`) as one more placement would be chosen, a follower
    that may move on goes to a destination or home, uniformly, and under ``deck.hand`` the
    tile to place is picked uniformly among the types held.  Counts
    placements instead of listing them, since random play is what simulations spend
    their time on."""

    name = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def choose_start(self, game: Game) -> int:
        return self.rng.randrange(4)

    def choose(self, game: Game) -> Move:
        rng = self.rng
        if game.movers or (game.hands is not None and game.hands.picking):  # a follower's choice, or a held tile
            choices = game.legal_moves()
            return choices[rng.randrange(len(choices))]
        count = game.placement_count()
        n = rng.randrange(count + 1) if game.personal_turn else rng.randrange(count)
        if n == count:
            return DRAW
        pos, rotation = game.placement(n)
        options = game.deploy_choices(pos, rotation)
        pick = rng.randrange(len(options) + 1)
        return Move(pos, rotation, *options[pick]) if pick < len(options) else Move(pos, rotation)
