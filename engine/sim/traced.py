"""Traced games for ``carcassonne analyse``: one game played with the measures a designer's
report reads (the lead turn by turn, the choices each turn offered, the followers out), the
same deal played again with other bot seeds, and a stronger player against a weaker one.

A **unit** is what the report compares: a ruleset reference, maybe with constants set
(``--sweep farm_points=1..5``), and the players.  :func:`analyse_chunk` runs in the worker
processes of :func:`engine.sim.simulate.run` and returns, per seed, a row per unit
(:func:`game_row`); :mod:`engine.sim.analysis` sums them up.
"""

from __future__ import annotations

import copy
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots.players import make_player
from ..core import burial
from ..core.game import Game
from ..core.moves import PLACE
from ..core.standings import winners
from ..errors import UserError
from ..rules.ruleset import Ruleset
from ..rules.source import Document
from .play import play_out
from .tension import comeback, decided_turn, lead_changes


@dataclass(frozen=True)
class Unit:
    """A ruleset reference with constants set (``{}``: as written), the players of its games,
    and for the skill measure a ``ladder`` of players, weakest first (``--weak W --strong S`` is
    the ladder ``(W, S)``; empty: skill is not measured): each rung is played against the one
    below it."""

    ref: str
    players: tuple[str, ...]
    constants: dict[str, int] = field(default_factory=dict)
    ladder: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """How the report names it: ``basic``, ``basic farm_points=4``."""
        return " ".join([self.ref, *(f"{k}={v}" for k, v in sorted(self.constants.items()))])

    def key(self) -> str:
        """The unit as a JSON string (what travels to the workers in a job's ``refs``)."""
        return json.dumps({"ref": self.ref, "players": list(self.players), "constants": self.constants,
                           "ladder": list(self.ladder)}, sort_keys=True)

    @staticmethod
    def from_key(key: str) -> "Unit":
        data = json.loads(key)
        return Unit(data["ref"], tuple(data["players"]), data["constants"], tuple(data["ladder"]))


_LOADED: dict[tuple[str, str, str | None], Ruleset] = {}


def load_unit_ruleset(ref: str, constants: dict[str, int], base: Path | None = None) -> Ruleset:
    """The ruleset ``ref`` with each of ``constants`` set to its value: a sweep's point.
    :class:`UserError` (``sweep``) for a constant the ruleset does not declare, or a value its
    formulas refuse (as loading refuses a ruleset)."""
    from ..rules.compose import compose
    from ..rules.ruleset import compile_ruleset, load_ruleset
    from ..rules.validate import check

    if not constants:
        return load_ruleset(ref, base)
    key = (ref, json.dumps(constants, sort_keys=True), str(base) if base else None)
    if key not in _LOADED:
        composed, _ = compose(ref, base)
        check(composed, "ruleset")
        # A copy: the composed document may be shared (composing caches), and other loads of ``ref``
        # must keep the ruleset's own values.
        doc = Document(copy.deepcopy(composed.data), composed.file, composed.marks, composed.key_marks)
        declared = doc.data.get("constants", {})
        for name, value in constants.items():
            if name not in declared:
                known = ", ".join(sorted(declared)) or "none"
                raise UserError(f"{ref} has no constant '{name}' to sweep (its constants: {known})", code="sweep")
            declared[name] = value
        _LOADED[key] = compile_ruleset(doc, Unit(ref, (), constants).label)
    return _LOADED[key]


class Trace:
    """A turn hook (:data:`engine.sim.play.TurnHook`) keeping, after each placement, every seat's
    potential score and the followers on the board, and for each placement decision the number of
    legal placements (with their follower choices) it offered."""

    def __init__(self, game: Game) -> None:
        self.trajectory: list[list[int]] = []
        self.choices: list[int] = []
        self.out: list[int] = []
        self._count(game)

    def _count(self, game: Game) -> None:
        """The placements (with their follower choices) the coming decision offers, if it is one: a
        pick from a hand, a personal tile declined or a follower moving on is not counted."""
        if game.tile is not None:
            placements = sum(1 for move in game.legal_moves() if move.kind == PLACE)
            if placements:
                self.choices.append(placements)

    def __call__(self, game: Game, seat: int, tile: int, move: Any, events: list) -> None:
        if move.kind == PLACE:  # a placement (not a pick from a hand, a decline or a follower moving on)
            self.trajectory.append(game.potential_scores())
            self.out.append(len(game.on_board))
        self._count(game)


def traced_game(ruleset: Ruleset, players: list[str], seed: int, replay: int = 0) -> dict:
    """Play one game (bots seeded afresh for ``replay`` > 0: the same deal, other choices) and
    return its row: final and in-game scores, winners, margin, turns, discarded and buried
    tiles, points by kind and the tension and shape measures (docs/analyse.md)."""
    bots = [make_player(kind, seed, seat, replay=replay) for seat, kind in enumerate(players)]
    began = time.perf_counter()
    game = Game(ruleset, len(bots), seed, explain=False)
    trace = Trace(game)
    play_out(game, bots, trace)
    seconds = time.perf_counter() - began
    in_game = list(game.scores)
    game.finish()
    scores = list(game.scores)
    ranked = sorted(scores, reverse=True)
    won = winners(scores)
    trajectory = trace.trajectory or [scores]
    return {
        "scores": scores, "in_game": in_game, "winners": won,
        "margin": ranked[0] - ranked[1] if len(ranked) > 1 else ranked[0],
        "turns": game.turn, "milliseconds": round(1000 * seconds),
        "discarded": sum(1 for _, move in game.history if move is None) - game.returned,
        "buried": len(burial.of(game).buried),
        "by_kind": {k: sum(per.get(k, 0) for per in game.kind_points) for k in ruleset.categories},
        "lead_changes": lead_changes(trajectory),
        "decided": (decided_turn(trajectory) - 1) / max(len(trajectory) - 1, 1),
        "comeback": comeback(trajectory, won),
        "branching": sum(trace.choices) / len(trace.choices) if trace.choices else 0.0,
        "followers_out": sum(trace.out) / len(trace.out) if trace.out else 0.0,
    }


def analyse_chunk(keys: tuple[str, ...], players: tuple[str, ...], seeds: tuple[int, ...],
                  base: str | None = None) -> list[list[dict]]:
    """A :class:`~engine.sim.simulate.Job` task: per seed, a row per unit (``keys``:
    :meth:`Unit.key`), each ``{"seed", "game", "replay", "skill"}``: the game with the unit's
    players, the same deal replayed with the bots seeded afresh (luck), and per rung of the
    unit's ladder the deal played twice by it and the rung below, seats swapped, as
    ``[stronger's score, weaker's score]`` per play (skill: a list per rung; empty without a
    ladder).  ``players`` is unused (each unit has its own).  A game's ``milliseconds`` is its
    wall time (the one measure that depends on the machine)."""
    units = [Unit.from_key(key) for key in keys]
    rulesets = [load_unit_ruleset(u.ref, u.constants, Path(base) if base else None) for u in units]
    rows = []
    for seed in seeds:
        rows.append([_unit_row(unit, ruleset, seed) for unit, ruleset in zip(units, rulesets)])
    return rows


def _unit_row(unit: Unit, ruleset: Ruleset, seed: int) -> dict:
    game = traced_game(ruleset, list(unit.players), seed)
    again = traced_game(ruleset, list(unit.players), seed, replay=1)
    skill = []
    for weak, strong in zip(unit.ladder, unit.ladder[1:]):
        first = traced_game(ruleset, [strong, weak], seed)["scores"]
        second = traced_game(ruleset, [weak, strong], seed)["scores"]
        skill.append([[first[0], first[1]], [second[1], second[0]]])
    return {"seed": seed, "unit": unit.label, "game": game, "replay": again["scores"], "skill": skill}
