"""The registry of mechanisms, and the handlers a ruleset's games run at each moment.

:data:`REGISTRY` lists every mechanism (:class:`~engine.core.mechanism.Mechanism`) once, in the
order the rules run them at a moment they share: a tile buried under an abbey-like tile is
taken before the hand notes the placement; the score triggers go off before titles pass, and
titles pass before followers that scored move on.  Adding a mechanism is a module with its
entry and one line here (docs/architecture.md, "Adding a mechanism").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import burial, extra_turns, hands, moving, personal, tallies, titles, triggered
from .mechanism import (
    Completed,
    DecisionKind,
    Deployed,
    Draw,
    DrawOne,
    FeatureScored,
    Holds,
    Mechanism,
    Options,
    Placed,
    Play,
    Scoring,
    State,
    Step,
    TurnStart,
)

if TYPE_CHECKING:
    from ..rules.ruleset import Ruleset

#: Every mechanism, in the rules' order at a shared moment (module docstring).
REGISTRY: tuple[Mechanism, ...] = (burial.MECHANISM, hands.MECHANISM, personal.MECHANISM, extra_turns.MECHANISM,
                                   triggered.MECHANISM, tallies.MECHANISM, titles.MECHANISM, moving.MECHANISM)


class Moments:
    """The handlers one ruleset's games run, per moment, in registry order (what
    :class:`~engine.core.game.Game` keeps as ``moments``).  At most one mechanism replaces the draw
    (``draw``, ``draw_one``: None for the stack's own); ``plays`` maps each move kind but
    placement to its handler; ``refusals`` each move kind of these mechanisms to ``(reason,
    message)``, for a move of that kind when nothing asks for it."""

    __slots__ = ("mechanisms", "states", "turn_start", "draw", "draw_one", "drawn", "forced", "placed", "deployed",
                 "completed", "feature_scored", "scored", "holds", "turn_end", "decisions", "plays", "options",
                 "refusals")

    def __init__(self, mechanisms: tuple[Mechanism, ...]) -> None:
        self.mechanisms = mechanisms
        self.states: tuple[tuple[str, State], ...] = tuple((m.name, m.state) for m in mechanisms if m.state)
        self.turn_start: tuple[TurnStart, ...] = tuple(m.turn_start for m in mechanisms if m.turn_start)
        draws = [m for m in mechanisms if m.draw is not None or m.draw_one is not None]
        if len(draws) > 1:
            raise ValueError(f"two mechanisms replace the draw: {', '.join(m.name for m in draws)}")
        self.draw: Draw | None = draws[0].draw if draws else None
        self.draw_one: DrawOne | None = draws[0].draw_one if draws else None
        self.drawn: tuple[Step, ...] = tuple(m.drawn for m in mechanisms if m.drawn)
        self.forced: tuple[Step, ...] = tuple(m.forced for m in mechanisms if m.forced)
        self.placed: tuple[Placed, ...] = tuple(m.placed for m in mechanisms if m.placed)
        self.deployed: tuple[Deployed, ...] = tuple(m.deployed for m in mechanisms if m.deployed)
        self.completed: tuple[Completed, ...] = tuple(m.completed for m in mechanisms if m.completed)
        self.feature_scored: tuple[FeatureScored, ...] = tuple(m.feature_scored for m in mechanisms
                                                                if m.feature_scored)
        self.scored: tuple[Scoring, ...] = tuple(m.scored for m in mechanisms if m.scored)
        self.holds: tuple[Holds, ...] = tuple(m.holds for m in mechanisms if m.holds)
        self.turn_end: tuple[Step, ...] = tuple(m.turn_end for m in mechanisms if m.turn_end)
        self.decisions: tuple[DecisionKind, ...] = tuple(d for m in mechanisms for d in m.decisions)
        self.plays: dict[int, Play] = {kind: play for m in mechanisms for kind, play in m.plays.items()}
        self.options: tuple[Options, ...] = tuple(m.options for m in mechanisms if m.options)
        self.refusals: dict[int, tuple[str, str]] = {kind: why for m in mechanisms for kind, why in m.refusals.items()}


def moments_for(ruleset: "Ruleset", registry: tuple[Mechanism, ...] | None = None) -> Moments:
    """The handlers of the mechanisms ``ruleset`` uses, of ``registry`` (default :data:`REGISTRY`:
    a test or a researcher may try a mechanism on a game, ``game.moments = moments_for(...)``,
    before it goes into the registry)."""
    mechanisms = REGISTRY if registry is None else registry
    return Moments(tuple(m for m in mechanisms if m.uses(ruleset)))
