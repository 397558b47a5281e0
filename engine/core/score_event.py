"""A score event: points a feature (or a bonus, a title, a reward) paid, and why; and the
points-only :class:`Paid` that simulations and searches make instead.

What a game's ``events`` hold, records write (:meth:`ScoreEvent.to_json`) and screens
explain (:meth:`ScoreEvent.explain`, :meth:`ScoreEvent.words`).
"""

from __future__ import annotations

from typing import Final, NamedTuple, Union

from ..geometry import PORTS, SIDES

#: The attributes of a :class:`ScoreEvent`, in the order its ``repr`` and :meth:`ScoreEvent.fields` give them.
FIELDS: Final = ("phase", "turn", "kind", "rule", "formula", "points", "players", "followers", "inputs", "terms",
                 "tiles", "map", "target", "constants", "tokens", "values", "holder")


class ScoreEvent:
    """Points a feature paid, and why.

    ``players`` are the seats with the majority (each gets ``points``);
    ``followers`` the follower count of every seat on the feature;
    ``rule`` is which formula scored it (``complete``, ``incomplete`` or
    ``final``); ``inputs`` the formula's inputs; ``terms`` its top-level
    terms with their values (``[("2 * tiles", 6), ("2 * pennants", 2)]``);
    ``tiles`` the feature's positions, sorted (on ``map``, in a game of several maps); ``phase`` is ``in_game`` or
    ``final``; ``turn`` the turn it was scored in (turns count the tiles
    placed after the start tile, from 1; final scoring carries the last turn).
    ``target``: for a score paid per adjacent feature (1st-edition farms), that feature's kind
    (``tiles`` and the inputs are then the adjacent feature's); ``constants``: the names among
    ``inputs`` that are ruleset constants (left out of explanations); ``tokens``: for a reward
    (``rule`` ``reward``), the tokens each of ``players`` took (``{"wine": 2}``); ``values``: for
    a game-end bonus (``rule`` ``bonus``, ``kind`` the bonus's name) or a title passed (``rule``
    ``title``), every seat's value; ``holder``: for a title passed (``players`` the new holder),
    who held it (-1: nobody).  ``anchor``: the board ports (0–11, N L first, after turning) of
    the feature's segment on its first tile, so that two features of a kind on one tile are told
    apart (``field@NL at (-3,-2)``, named as a follower's notation names a segment; issue 50); not
    written to records and not compared (a record's events have none: named by their first tile alone).

    Keyword arguments only; never changed once made (the attributes are ``Final``).  A plain
    class, not a frozen dataclass: compiled, its ``__init__`` is native, where a frozen
    dataclass's sets each field through ``object.__setattr__`` in interpreted code (five times
    the cost of making one, and a game makes one per score).
    """

    def __init__(self, *, phase: str, turn: int, kind: str, rule: str, formula: str, points: int,
                 players: tuple[int, ...], followers: tuple[int, ...], inputs: dict[str, int | bool] | None = None,
                 terms: tuple[tuple[str, int], ...] = (), tiles: tuple[tuple[int, int], ...] = (),
                 map: int | None = None, target: str | None = None, constants: tuple[str, ...] = (),
                 tokens: dict[str, int] | None = None, values: tuple[int, ...] = (), holder: int = -1,
                 anchor: tuple[int, ...] = ()) -> None:
        self.phase: Final = phase
        self.turn: Final = turn
        self.kind: Final = kind
        self.rule: Final = rule
        self.formula: Final = formula
        self.points: Final = points
        self.players: Final = players
        self.followers: Final = followers
        self.inputs: Final[dict[str, int | bool]] = {} if inputs is None else inputs
        self.terms: Final = terms
        self.tiles: Final = tiles
        self.map: Final = map
        self.target: Final = target
        self.constants: Final = constants
        self.tokens: Final[dict[str, int]] = {} if tokens is None else tokens
        self.values: Final = values
        self.holder: Final = holder
        self.anchor: Final = anchor

    def fields(self) -> tuple:
        """Every attribute's value, in :data:`FIELDS` order (what equality compares)."""
        return (self.phase, self.turn, self.kind, self.rule, self.formula, self.points, self.players, self.followers,
                self.inputs, self.terms, self.tiles, self.map, self.target, self.constants, self.tokens, self.values,
                self.holder)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScoreEvent):
            return NotImplemented  # as a dataclass does: the other side may answer (mock.ANY)
        return self.fields() == other.fields()

    def __repr__(self) -> str:
        return "ScoreEvent(" + ", ".join(f"{name}={value!r}" for name, value in zip(FIELDS, self.fields())) + ")"

    def __reduce__(self) -> tuple:
        # Keyword arguments only: pickle's default would call __init__ with none.
        return _remade, (self.fields(), self.anchor)

    def explain(self, names: list[str] | None = None) -> str:
        """One line: ``city@E at (1,0) (complete; tiles 3, pennants 1): 2 * tiles = 6,
        2 * pennants = 2 → 8 for A`` (the feature named by its first tile, and by its segment there
        when the event has its :attr:`anchor`); a reward ``city at (1,0) (complete; tiles 3):
        wine 2 → to A``; a bonus ``wine bonus (values 3 v 1): 10 → 10 for A``; a title passed
        ``king title (values 2 v 3): largest_closed_city → to B, from A``."""
        who = ", ".join(names[p] if names else str(p) for p in self.players) or "nobody"
        if self.rule == "bonus":
            values = " v ".join(map(str, self.values))
            parts = _terms(self.terms) or self.formula
            return f"{self.kind} bonus (values {values}): {parts} → {self.points} for {who}"
        if self.rule == "title":
            was = f", from {names[self.holder] if names else self.holder}" if self.holder >= 0 else ""
            return f"{self.kind} title (values {' v '.join(map(str, self.values))}): {self.formula} → to {who}{was}"
        parts = _terms(self.terms) or self.formula
        facts = ", ".join(f"{k} {v}" for k, v in self.inputs.items()
                          if k != "segments" and k not in self.constants and not isinstance(v, bool))
        if sum(1 for n in self.followers if n) > 1 or not self.players:  # a tie, or why nobody is paid
            facts += ", followers " + " v ".join(str(n) for n in self.followers)
        where = f"{'map %d ' % self.map if self.map is not None else ''}({self.tiles[0][0]},{self.tiles[0][1]})" \
            if self.tiles else ""
        spot = f"@{_spot(self.anchor)}" if self.anchor else ""
        subject = f"{self.kind}, for the {self.target}{spot} at {where}" if self.target else \
            f"{self.kind}{spot} at {where}"
        if self.rule == "reward":
            given = ", ".join(f"{name} {count}" for name, count in self.tokens.items())
            return f"{subject} (complete; tiles {len(self.tiles)}): {given} → to {who}"
        return f"{subject} ({self.rule}; {facts}): {parts} → {self.points} for {who}"

    def words(self, names: list[str] | None = None) -> str:
        """The score in words, for a person following the game (the formula is :meth:`explain`'s):
        ``A +14: completed city (6 tiles, 1 pennant)``, ``B +4: field at the end, barn (9 tiles,
        1 completed city)``, ``nobody: unfinished road (3 tiles)``, an input of 0 left out; a bonus
        ``A +5: longest-road bonus (value 7)``; a title ``B took the king title from A (value 3)``."""
        who = ", ".join(names[p] if names else str(p) for p in self.players)
        paid = f"{who} {self.points:+d}" if who else "nobody"
        if self.rule == "bonus":
            mine = self.values[self.players[0]] if self.players and self.values else 0
            return f"{paid}: {self.kind} bonus (value {mine})"
        if self.rule == "title":
            was = f" from {names[self.holder] if names else self.holder}" if self.holder >= 0 else ""
            return f"{who} took the {self.kind} title{was} (value {self.inputs.get('value', 0)})"
        if self.rule == "reward":
            return f"{who or 'nobody'} took {', '.join(f'{n} {name}' for name, n in self.tokens.items())} " \
                   f"for completing the {self.kind}"
        moment, _, rest = self.rule.partition(", ")
        said = {"complete": f"completed {self.kind}", "incomplete": f"unfinished {self.kind}",
                "final": f"{self.kind} at the end"}.get(moment, f"{self.kind}, {moment}")
        if self.target:  # paid per adjacent feature (1st-edition farms): the facts are that feature's
            said += f", for a completed {self.target}"
        elif rest:
            said += f", {rest}"
        facts = [_counted(n, name) for name, n in self.inputs.items()
                 if name != "segments" and name not in self.constants and not isinstance(n, bool)
                 and not name.startswith("own_") and (n or name == "tiles")]
        return f"{paid}: {said}" + (f" ({', '.join(facts)})" if facts else "")

    def to_json(self) -> dict:
        """The event as a JSON-ready dict (the game record's ``events`` items)."""
        return {
            "phase": self.phase, "turn": self.turn, "kind": self.kind, "rule": self.rule,
            "formula": self.formula, "points": self.points, "players": list(self.players),
            "followers": list(self.followers), "inputs": dict(self.inputs),
            "terms": [[t, v] for t, v in self.terms], "tiles": [list(t) for t in self.tiles],
        } | ({"map": self.map} if self.map is not None else {}) | (
            {"target": self.target} if self.target else {}) | (
            {"tokens": dict(self.tokens)} if self.tokens else {}) | (
            {"values": list(self.values)} if self.values else {}) | (
            {"from": self.holder if self.holder >= 0 else None} if self.rule == "title" else {})


def _remade(fields: tuple, anchor: tuple[int, ...] = ()) -> ScoreEvent:
    """The :class:`ScoreEvent` whose :meth:`~ScoreEvent.fields` are ``fields`` and ``anchor`` its anchor
    (what unpickling calls)."""
    return ScoreEvent(**dict(zip(FIELDS, fields)), anchor=anchor)


def _terms(terms: tuple[tuple[str, int], ...]) -> str:
    """``2 * tiles = 6, 2 * pennants = 2``; a constant term is itself (``1``, not ``1 = 1``)."""
    return ", ".join(text if text == str(value) else f"{text} = {value}" for text, value in terms)


def _spot(ports: tuple[int, ...]) -> str:
    """Ports as a follower's notation names a segment (engine/files/notation.py): the side of its
    first side-centre port (a road, a city: ``E``), else its first half-side port (a field: ``NR``)."""
    for port in ports:
        if port % 3 == 1:
            return SIDES[port // 3]
    return PORTS[ports[0]]


def _counted(n: int, name: str) -> str:
    """``6 tiles``, ``1 pennant``, ``2 completed cities``, ``1 completed city``: an input's value
    and its name in words, singular for 1 (names are plural English: ``cities``, ``pennants``)."""
    words = name.replace("_", " ")
    if n == 1:
        words = words[:-3] + "y" if words.endswith("ies") else words[:-1] if words.endswith("s") else words
    return f"{n} {words}"


class Paid(NamedTuple):
    """Points a feature paid, without the explanation (simulation and search need no more):
    ``kind`` the scoring kind's name, ``rule`` as in :class:`ScoreEvent`, each of
    ``players`` gets ``points``."""

    kind: str
    rule: str
    points: int
    players: tuple[int, ...]


#: What a scoring function returns: explained for records and screens, or points only.
Scored = Union[ScoreEvent, Paid]
