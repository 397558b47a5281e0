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
    from .tiles import SegmentType


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
        """One line: ``city (complete; tiles 3, pennants 1): 2 * tiles = 6,
        2 * pennants = 2 → 8 for A``."""
        who = ", ".join(names[p] if names else str(p) for p in self.players)
        parts = ", ".join(f"{text} = {value}" for text, value in self.terms) or self.formula
        facts = ", ".join(f"{k} {v}" for k, v in self.inputs.items() if k != "segments" and not isinstance(v, bool))
        return f"{self.kind} ({self.rule}; {facts}): {parts} → {self.points} for {who}"

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
    kind = game.ruleset.kinds[kind_of(game, root)]
    if kind.completion == "closed":
        return game.open[root] == 0
    if kind.completion == "surrounded":
        return _neighbours(game, root) == 8
    return False


def make_inputs(kind: "FeatureKind", tiles: int, segments: int, complete: bool, attrs: list[int],
                neighbours: int, adjacent: int) -> dict[str, int | bool]:
    """The formula inputs of a feature of ``kind`` from its totals (see :func:`feature_inputs`)."""
    env: dict[str, int | bool] = {"tiles": tiles, "segments": segments, "complete": complete}
    if kind.attributes:
        env.update(zip(kind.attributes, attrs))
    if kind.completion == "surrounded":
        env["neighbors"] = neighbours
    if kind.adjacency_input:
        env[kind.adjacency_input] = adjacent
    return env


def feature_inputs(game: "Game", root: int, kind: "FeatureKind") -> dict[str, int | bool]:
    """The formula inputs of a feature: ``tiles`` (distinct positions, RULES.md §3.1
    "Counting"), ``segments``, ``complete``, each attribute summed, ``neighbors``
    for surrounded kinds, and the adjacency input (completed adjacent features)."""
    members = game.members[root]
    assert members is not None, "feature_inputs needs a root"
    return make_inputs(
        kind,
        tiles=len({game.seg_pos[m] for m in members}),
        segments=len(members),
        complete=is_complete(game, root),
        attrs=attribute_sums(game, members, kind),
        neighbours=_neighbours(game, root) if kind.completion == "surrounded" else 0,
        adjacent=len({t for t in adjacent_roots(game, members) if is_complete(game, t)})
        if kind.adjacency_input else 0,
    )


def attribute_sums(game: "Game", members: list[int], kind: "FeatureKind") -> list[int]:
    """Each declared attribute of ``kind`` summed over the segments ``members``."""
    sums = [0] * len(kind.attributes)
    for m in members:
        for i, value in enumerate(segment_type(game, m).attrs):
            sums[i] += value
    return sums


def adjacent_roots(game: "Game", members: list[int]) -> set[int]:
    """Roots of the features of the adjacency kind that segments ``members`` touch."""
    roots = set()
    for m in members:
        base = game.seg_tile[m]
        for j in segment_type(game, m).adjacent:
            roots.add(game._find(base + j))
    return roots


def majority(followers: list[int]) -> tuple[int, ...]:
    """Seats with the most followers (all tied seats), or () when there are none (RULES.md §3.1)."""
    most = max(followers)
    return tuple(p for p, n in enumerate(followers) if n == most) if most else ()


def end_points(kind: "FeatureKind", env: dict[str, int | bool]) -> int:
    """What an occupied feature pays at game end: ``incomplete`` (unless complete) plus ``final``."""
    points = 0
    if kind.incomplete is not None and not env["complete"]:
        points += int(kind.incomplete(env))
    if kind.final is not None:
        points += int(kind.final(env))
    return points


def score_feature(game: "Game", root: int, *, complete: bool, phase: str, rule: str | None = None) -> ScoreEvent:
    """Score the feature at ``root`` for its majority holders; the event, not applied."""
    kind = game.ruleset.kinds[kind_of(game, root)]
    rule = rule or ("complete" if complete else "incomplete")
    formula = getattr(kind, rule)
    env = feature_inputs(game, root, kind)
    followers = game.followers_by_player(root)
    players = majority(followers)
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
    without building events)."""
    totals = [0] * game.players
    kinds = game.ruleset.kinds
    for root in game.occupied_roots():
        kind = kinds[kind_of(game, root)]
        points = end_points(kind, feature_inputs(game, root, kind))
        for p in majority(game.followers_by_player(root)):
            totals[p] += points
    return totals


def _end_items(game: "Game"):
    """``(root, rule)`` of each final-scoring item, in scoring order."""
    kinds = game.ruleset.kinds
    roots = [(root, kinds[kind_of(game, root)]) for root in game.occupied_roots()]
    for root, kind in roots:
        if kind.incomplete is not None and not is_complete(game, root):
            yield root, "incomplete"
    for root, kind in roots:
        if kind.final is not None:
            yield root, "final"


def segment_type(game: "Game", segment: int) -> "SegmentType":
    """The :class:`~engine.tiles.SegmentType` of placed segment ``segment``."""
    _, base, tile_index = game.board[game.seg_pos[segment]]
    return game.tiles[tile_index].segments[segment - base]


def kind_of(game: "Game", segment: int) -> int:
    """Kind index of placed segment ``segment``."""
    return segment_type(game, segment).kind


def _neighbours(game: "Game", root: int) -> int:
    pos, board = game.seg_pos[root], game.board
    return sum(1 for d in RING8 if pos + d in board)
