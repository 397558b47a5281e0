"""Look-ahead by trial: copy the game and play each candidate move.

:class:`~engine.core.lookahead.Lookahead` works out a move's value from the
features it touches, which holds while every score depends on one feature
alone.  A game-end bonus compares the players on the whole game (tokens, the
largest road), follower types weigh majorities by strength, and a wild side
ends features of the tiles it meets, so under a ruleset with any of them
:func:`look_ahead` plays each candidate on a copy instead: slower, and exact by
construction.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from ..errors import UserError
from .after_move import add_to
from .game_end import end_totals
from .known_ends import KnownEnds
from .lookahead import Lookahead, kept_points, turns_ahead
from .moves import Move

if TYPE_CHECKING:
    from .game import Game


class TrialLookahead:
    """The :class:`~engine.core.lookahead.Lookahead` interface, by playing each move on a copy
    of ``game`` and reading :meth:`~engine.core.game.Game.potential_scores` (plus ``keep`` points
    a follower in the supply, :func:`~engine.core.lookahead.kept_points`, as the look-ahead's)."""

    def __init__(self, game: "Game", keep: int = 0) -> None:
        self.game = game
        self.keep = keep
        self.turns = turns_ahead(game, after_move=True) if keep else []
        #: The end scores of the features a move leaves as they were, worked out once a position.
        self.known = KnownEnds(game)

    def potentials(self, pos: int, rotation: int) -> list[tuple[Move, list[int]]]:
        """``(move, potential per seat)`` for each legal follower choice of placing the current
        tile at ``pos``, ``rotation`` (none, then each spot and follower type); a score beyond
        ±MAX_POINTS is a :class:`~engine.errors.UserError` naming the turn weighed."""
        game = self.game
        found = []
        known = self.known if self.known.usable else None
        if known is not None:
            known.near(pos)
        for follower, kind in ((None, 0), *game.deploy_choices(pos, rotation)):
            move = Move(pos, rotation, follower, kind)
            trial = game.copy()
            trial.explain = False
            try:
                trial.apply(move)
                if known is not None:
                    known.watch(trial)
                vector = [a + b for a, b in zip(trial.scores, end_totals(trial, known))]
                if self.keep:
                    add_to(vector, kept_points(trial.supply, self.turns, self.keep))
                found.append((move, vector))
            except UserError as error:  # a score beyond the range: say it was met weighing a move
                raise _looking_ahead(error) from None
        return found

    def moves(self) -> list[tuple[Move, list[int]]]:
        """Every legal move of the current tile with the potential per seat it leads to."""
        return [found for pos, rotation in self.game.placements() for found in self.potentials(pos, rotation)]


def _looking_ahead(error: UserError) -> UserError:
    """``turn 17: …`` (or ``turn 17, the X bonus: …``) as ``turn 17, looking ahead…``, as
    :class:`~engine.core.lookahead.Lookahead` says it."""
    first = error.diagnostics[0]
    message = re.sub(r"^(turn \d+)(?=[,:])", r"\1, looking ahead", first.message)
    return UserError.from_diagnostics([replace(first, message=message), *error.diagnostics[1:]])


def look_ahead(game: "Game", keep: int = 0) -> Lookahead | TrialLookahead:
    """The look-ahead for ``game``'s ruleset: by features, or by trial under game-end bonuses,
    several follower types (majorities weighed by strength), wild sides (which end the
    features of the tiles they meet, not only the placed tile's), ``around`` inputs (a tile
    placed changes what the features around it count), a tie-break (a tied majority reads
    where followers stand) or a completion formula (engine/rules/completes.py)."""
    ruleset = game.ruleset
    by_trial = ruleset.bonuses or len(ruleset.follower_types) > 1 or ruleset.edge_wild >= 0 \
        or any(kind.around or kind.completes for kind in ruleset.kinds) or ruleset.tie_kind >= 0
    return TrialLookahead(game, keep) if by_trial else Lookahead(game, keep)
