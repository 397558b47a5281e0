"""Game-end bonuses compiled from ``bonuses:``: formulas over per-player aggregates.

A bonus compares the players on a ``value`` and pays ``points`` to the most
(or to each), or is a **title** (``award: title``) that passes during play to
whoever beats its holder's value and pays its holder at game end;
docs/rulesets.md, "Game-end bonuses" and "Titles".  Its formulas read the
per-player **aggregates** :func:`aggregate_inputs` lists — the ``seat`` (1 for
the first player), tokens collected, ``completed_K``, ``largest_K``,
``points_K``, ``closed_K``, ``largest_closed_K`` and ``board_completed_K`` for
each feature kind K whose name a formula can read, and the constants — and
``points`` reads ``value`` as well.  How they are gathered during a game is
:mod:`engine.core.tallies`; how titles pass, :mod:`engine.core.titles`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .kinds import FeatureKind, Score, compile_score
from .problems import Problems
from .source import Document

_READABLE = re.compile(r"[a-z_][a-z0-9_]*\Z")  # a NAME of grammar/scoring.lark
#: The score table's own columns, which no bonus may be named like.
TABLE_COLUMNS = ("player", "in_game", "final")
#: The aggregates every readable kind K gives bonus formulas, as ``prefix + K``.
KIND_AGGREGATES = ("completed_", "largest_", "points_", "closed_", "largest_closed_", "board_completed_")
#: What each ``award`` lets ``ties`` say, the default first.
TIES = {"most": ("all", "none"), "title": ("first",), "each": ()}


@dataclass(frozen=True)
class Bonus:
    """One game-end bonus: ``name`` (what the score table and the log call it), ``value`` (each
    player's value: a :class:`~engine.rules.kinds.Score` over the aggregates), ``points`` (what an
    awarded player scores, reading ``value`` too), ``award`` ``most``/``each``/``title`` and
    ``ties`` ``all``/``none`` (``most``) or ``first`` (``title``: the holder keeps it on a tie).
    ``reads``: every input name its two formulas read (what :func:`engine.core.tallies.aggregates`
    works out for it)."""

    name: str
    value: Score
    points: Score
    award: str = "most"
    ties: str = "all"
    reads: frozenset[str] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "reads", frozenset(name for score in (self.value, self.points)
                                                    for _, formula in score.items for name in formula.names))


def token_names(kinds: list[FeatureKind]) -> tuple[str, ...]:
    """Every token any kind hands out, in kind order, each once."""
    found: list[str] = []
    for kind in kinds:
        found += [kind.attributes[i] for i in kind.tokens if kind.attributes[i] not in found]
    return tuple(found)


def aggregate_inputs(kinds: list[FeatureKind], constants: dict[str, int]) -> dict[str, type]:
    """The per-player aggregates a bonus formula reads (all integers): besides those of the
    kinds and tokens, ``seat`` (1 for the first player: a turn-order compensation reads it)."""
    inputs: dict[str, type] = {"seat": int, **{token: int for token in token_names(kinds)}}  # no token shadows it
    for kind in kinds:
        if _READABLE.match(kind.name):
            inputs.update({prefix + kind.name: int for prefix in KIND_AGGREGATES})
    inputs.update({name: int for name in constants})
    return inputs


def compile_bonuses(doc: Document, kinds: list[FeatureKind], problems: Problems) -> tuple[Bonus, ...]:
    """The ruleset's bonuses, in document order; problems are collected (a bonus named like a
    feature kind ``bonus-name``, a token or constant named like an aggregate ``input-name``)."""
    specs = doc.data.get("bonuses", {})
    constants = doc.data.get("constants", {})
    kind_names = {kind.name for kind in kinds}
    built_in = {prefix + kind.name for kind in kinds for prefix in KIND_AGGREGATES} | {"value", "seat"}
    if specs:
        _clashing_aggregates(kinds, problems)
        for kind in kinds:
            for i in kind.tokens:
                token = kind.attributes[i]
                if token in built_in or token in constants:
                    what = "a constant" if token in constants else "an aggregate"
                    problems.at(("features", kind.name, "rewards", "tokens", kind.tokens.index(i)),
                                f"token '{token}' has the name of {what}, which bonus formulas read too",
                                "input-name")
        for name in constants:
            if name in built_in:
                problems.at(("constants", name), f"constant '{name}' has the name of an aggregate bonus "
                            "formulas read", "constant-name", key=True)
    inputs = aggregate_inputs(kinds, constants)
    bonuses = []
    for name, spec in specs.items():
        at = ("bonuses", name)
        if name in kind_names or name in TABLE_COLUMNS:
            what = "a feature kind" if name in kind_names else "a column of the score table"
            problems.at(at, f"bonus '{name}' has the name of {what}: the score table gives each bonus its "
                        "own column", "bonus-name", key=True)
        award = spec.get("award", "most")
        ties = spec.get("ties", TIES[award][0] if TIES[award] else "all")
        if "ties" in spec and ties not in TIES[award]:
            said = {"most": "a tie for the most pays all or none", "title": "a title stays with its holder on "
                    "a tie (ties: first)", "each": "award: each pays every player on their own value, so no tie"}
            problems.at(at + ("ties",), f"ties: {ties} does not go with award: {award}: {said[award]}",
                        "bonus-ties", key=True)
        value = compile_score(doc, at + ("value",), spec["value"], inputs, problems)
        points = compile_score(doc, at + ("points",), spec["points"], {**inputs, "value": int}, problems)
        if value is not None and points is not None:
            bonuses.append(Bonus(name, value, points, award, ties))
    return tuple(bonuses)


def _clashing_aggregates(kinds: list[FeatureKind], problems: Problems) -> None:
    """Refuse two kinds whose aggregates share a name (``largest_`` + ``closed_city`` is
    ``largest_closed_`` + ``city``): a formula could not say which it reads (``input-name``)."""
    seen: dict[str, str] = {}
    for kind in kinds:
        if not _READABLE.match(kind.name):
            continue
        for prefix in KIND_AGGREGATES:
            name = prefix + kind.name
            if name in seen and seen[name] != kind.name:
                problems.at(("features", kind.name), f"kind '{kind.name}' gives bonus formulas the aggregate "
                            f"'{name}', which kind '{seen[name]}' gives too: rename one of them",
                            "input-name", key=True)
                return
            seen[name] = kind.name


def read_by(bonuses: tuple[Bonus, ...]) -> frozenset[str]:
    """Every input name the ``value`` and ``points`` formulas of ``bonuses`` read: the aggregates
    (:func:`engine.core.tallies.aggregates`) worked out for them, no more."""
    return frozenset().union(*(bonus.reads for bonus in bonuses))
