"""What a follower counts for in a majority when its strength reads the feature it stands on.

Most follower types have one strength for the whole game (the large follower 2, a builder
0), kept in :attr:`~engine.core.board.Board.weights`.  A type whose ``strength`` is a formula
over the feature (the mayor: its city's ``pennants``) is weighed anew on each feature, here
(docs/rulesets.md, "Follower types").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import UserError
from ..rules.follower_types import MAX_STRENGTH
from .followers import count_of
from .scoring import feature_inputs, kind_of

if TYPE_CHECKING:
    from ..rules.kinds import FeatureKind
    from .game import Game


def feature_weights(game: "Game", root: int, weights: tuple[int, ...]) -> tuple[int, ...]:
    """``weights`` (each follower type's strength, the normal type first) with the strength of
    each type whose strength reads the feature (the mayor: its city's ``pennants``; Abbey &
    Mayor, as restated by Wikicarpedia's Abbey_and_the_Mayor page) worked out on the feature
    at ``root``, for the types that have a follower there.

    Raises :class:`UserError` ``strength-range`` for a strength outside 0-255, at the formula."""
    kind = game.ruleset.kinds[kind_of(game, root)]
    packed = game.fol[root]
    for index, _ in game.ruleset.feature_strengths:  # a loop, not any(…): no generator object a feature
        if present(packed, index, game.players):
            return weights_on(game, kind, feature_inputs(game, root, kind), packed, weights)
    return weights


def weights_on(game: "Game", kind: "FeatureKind", env: dict, packed: int, weights: tuple[int, ...],
               ahead: bool = False) -> tuple[int, ...]:
    """``weights`` with the strength of each type whose strength reads the feature worked out on a
    feature of ``kind`` with inputs ``env`` and followers ``packed``, for the types that have a
    follower there (:func:`feature_weights`; the look-ahead passes a feature as a move leaves it,
    ``ahead``).

    Raises :class:`UserError` ``strength-range`` for a strength outside 0-255, at the formula,
    naming the turn (``turn 12: …``, or for a move weighed ahead ``turn 13, looking ahead: …``)."""
    found = list(weights)
    for index, score in game.ruleset.feature_strengths:
        if not present(packed, index, game.players):
            continue
        # Each part on its own, not Score's call: a strength has its own range, 0 to MAX_STRENGTH.
        strength = sum(int(formula.fn(env)) for _, formula in score.items)
        if not 0 <= strength <= MAX_STRENGTH:
            formula = score.items[0][1]
            facts = ", ".join(f"{name} {env[name]}" for name in sorted(formula.names)) or "no inputs"
            bits = abs(strength).bit_length()  # str() of a huge number is slow, and refused past 4300 digits
            shown = str(strength) if bits <= 40 else f"a number of about {int(bits * 0.30103) + 1} digits"
            turn = f"turn {game.turn + 1}, looking ahead" if ahead else f"turn {game.turn}"
            raise UserError(f"{turn}: the strength of a {score.kind} on a {kind.name} is {shown} "
                            f"({facts}), outside 0-{MAX_STRENGTH}, what a follower may count for in a majority",
                            code="strength-range", **formula.where)
        found[index] = strength
    return tuple(found)


def present(packed: int, index: int, players: int) -> bool:
    """Whether any seat has a follower of type ``index`` among followers ``packed``."""
    for p in range(players):
        if count_of(packed, p, index, players):
            return True
    return False
