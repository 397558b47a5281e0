"""The random bot: uniform over legal placements, then over that placement's follower options."""

from __future__ import annotations

import random

from ..core.choices import PLACE_DECISION, decision_kind, offered
from ..core.game import Game
from ..core.moves import Move


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
        if decision_kind(game) is not PLACE_DECISION:  # a follower's choice, a held tile, …
            choices = game.legal_moves()
            return choices[rng.randrange(len(choices))]
        count = game.placement_count()
        extra = offered(game)  # the personal tile's decline, …: one more choice each
        n = rng.randrange(count + len(extra))
        if n >= count:
            return extra[n - count]
        pos, rotation = game.placement(n)
        options = game.deploy_choices(pos, rotation)
        pick = rng.randrange(len(options) + 1)
        return Move(pos, rotation, *options[pick]) if pick < len(options) else Move(pos, rotation)
