"""Scoring a feature: formula inputs, majority, and the event that explains it.

Scoring is rare next to placing tiles, so this module favours clarity.  All
points come from the ruleset's formulas; this module only gathers their
inputs and decides who has the majority (RULES.md §3.1: the player or players
with most followers on a feature score it, every tied player in full).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .geometry import RING8, unpack

if TYPE_CHECKING:
    from .game import Game
    from .ruleset import FeatureKind


@dataclass(frozen=True)
class ScoreEvent:
    """Points a feature paid, and why.

    ``players`` are the seats with the majority (each gets ``points``);
    ``followers`` the follower count of every seat on the feature;
    ``rule`` is which formula scored it (``complete``, ``incomplete`` or
    ``final``); ``inputs`` the formula's inputs; ``terms`` its top-level
    terms with their values (``[("2 * tiles", 6), ("2 * pennants", 2)]``);
    ``tiles`` the feature's positions, sorted; ``phase`` is ``in_game`` or
    ``final``; ``turn`` the turn it was scored in (turns count the tiles
    placed after the start tile, from 1; final scoring carries the last turn).
    """

    phase: str
    turn: int
    kind: str
    rule: str
    formula: str
    points: int
    players: tuple[int, ...]
    followers: tuple[int, ...]
    inputs: dict[str, int | bool] = field(default_factory=dict)
    terms: tuple[tuple[str, int], ...] = ()
    tiles: tuple[tuple[int, int], ...] = ()

    def explain(self, names: list[str] | None = None) -> str:
        """One line: ``city (complete): 2 * tiles = 6, 2 * pennants = 2 → 8 for A``."""
        who = ", ".join(names[p] if names else str(p) for p in self.players)
        parts = ", ".join(f"{text} = {value}" for text, value in self.terms) or self.formula
        return f"{self.kind} ({self.rule}): {parts} → {self.points} for {who}"

    def to_json(self) -> dict:
        """The event as a JSON-ready dict (the game record's ``events`` items)."""
        return {
            "phase": self.phase, "turn": self.turn, "kind": self.kind, "rule": self.rule,
            "formula": self.formula, "points": self.points, "players": list(self.players),
            "followers": list(self.followers), "inputs": dict(self.inputs),
            "terms": [[t, v] for t, v in self.terms], "tiles": [list(t) for t in self.tiles],
        }


def is_complete(game: "Game", root: int) -> bool:
    """Whether the feature with root ``root`` is complete now."""
    kind = game.ruleset.kinds[_kind_of(game, root)]
    if kind.completion == "closed":
        return game.open[root] == 0
    if kind.completion == "surrounded":
        return _neighbours(game, root) == 8
    return False


def feature_inputs(game: "Game", root: int, kind: "FeatureKind") -> dict[str, int | bool]:
    """The formula inputs of a feature: ``tiles`` (distinct positions, RULES.md §3.1
    "Counting"), ``segments``, ``complete``, each attribute summed, ``neighbors``
    for surrounded kinds, and the adjacency input (completed adjacent features)."""
    members = game.members[root]
    assert members is not None, "feature_inputs needs a root"
    env: dict[str, int | bool] = {
        "tiles": len({game.seg_pos[m] for m in members}),
        "segments": len(members),
        "complete": is_complete(game, root),
    }
    if kind.attributes:
        sums = [0] * len(kind.attributes)
        for m in members:
            for i, value in enumerate(_segment_type(game, m).attrs):
                sums[i] += value
        env.update(zip(kind.attributes, sums))
    if kind.completion == "surrounded":
        env["neighbors"] = _neighbours(game, root)
    if kind.adjacency_input:
        adjacent = set()
        for m in members:
            base = game.seg_tile[m]
            for j in _segment_type(game, m).adjacent:
                other = game._find(base + j)
                if is_complete(game, other):
                    adjacent.add(other)
        env[kind.adjacency_input] = len(adjacent)
    return env


def score_feature(game: "Game", root: int, *, complete: bool, phase: str, rule: str | None = None) -> ScoreEvent:
    """Score the feature at ``root`` for its majority holders; the event, not applied."""
    kind = game.ruleset.kinds[_kind_of(game, root)]
    rule = rule or ("complete" if complete else "incomplete")
    formula = getattr(kind, rule)
    env = feature_inputs(game, root, kind)
    followers = game.followers_by_player(root)
    most = max(followers)
    players = tuple(p for p, n in enumerate(followers) if n == most) if most else ()
    points = int(formula(env)) if formula is not None else 0
    return ScoreEvent(
        phase=phase, turn=game.turn, kind=kind.name, rule=rule,
        formula=formula.text if formula is not None else "0", points=points, players=players,
        followers=tuple(followers), inputs=env,
        terms=tuple(formula.terms(env)) if formula is not None else (),
        tiles=tuple(sorted({unpack(game.seg_pos[m]) for m in game.members[root]})),  # type: ignore[union-attr]
    )


def end_scores(game: "Game") -> list[ScoreEvent]:
    """Final-scoring events, not applied (RULES.md §3.1 "Game end"): first every
    occupied incomplete feature under its ``incomplete`` formula, then every
    occupied feature of a kind with a ``final`` formula (farms)."""
    return [score_feature(game, root, complete=False, phase="final", rule=rule)
            for root, rule in _end_items(game)]


def end_totals(game: "Game") -> list[int]:
    """Points each seat would get from final scoring now (as :func:`end_scores`,
    without building events: bots call this for every candidate move)."""
    totals = [0] * game.players
    kinds = game.ruleset.kinds
    for root, rule in _end_items(game):
        kind = kinds[_kind_of(game, root)]
        points = int(getattr(kind, rule)(feature_inputs(game, root, kind)))
        followers = game.followers_by_player(root)
        most = max(followers)
        for p, n in enumerate(followers):
            if n == most:
                totals[p] += points
    return totals


def _end_items(game: "Game"):
    """``(root, rule)`` of each final-scoring item, in scoring order."""
    kinds = game.ruleset.kinds
    roots = [(root, kinds[_kind_of(game, root)]) for root in game.occupied_roots()]
    for root, kind in roots:
        if kind.incomplete is not None and not is_complete(game, root):
            yield root, "incomplete"
    for root, kind in roots:
        if kind.final is not None:
            yield root, "final"


def _segment_type(game: "Game", segment: int):
    _, base, tile_index = game.board[game.seg_pos[segment]]
    return game.tiles[tile_index].segments[segment - base]


def _kind_of(game: "Game", segment: int) -> int:
    return _segment_type(game, segment).kind


def _neighbours(game: "Game", root: int) -> int:
    pos, board = game.seg_pos[root], game.board
    return sum(1 for d in RING8 if pos + d in board)
