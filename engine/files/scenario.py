"""Scenario files: a forced sequence of turns and the scores it must give.

A scenario (format: README "Scenario files", schema
``rulesets/schema/scenario.schema.json``) names one or more rulesets, the
players, an optional start tile, the turns, and the expected in-game and
final scores per ruleset.  A turn marked ``illegal: placement|follower`` is a
probe the engine must refuse for that reason; ``discarded: true`` asserts the
tile fits nowhere.  This is how every rule of the engine is tested.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..core import moving
from ..core.game import Game
from ..core.moves import IllegalMove
from ..errors import UserError
from ..rules.ruleset import load_ruleset_for
from ..rules.source import Document, Shape, load_yaml
from ..rules.validate import check
from .turn_entries import (
    decision_move,
    enter_turn_map,
    extra_turn_mismatch,
    force_burial,
    nothing_moving,
    take_tile,
    tile_index,
    titles_mismatch,
    turn_move,
)


@dataclass
class Outcome:
    """What one ruleset gave for a scenario: the scores, each player's final points by score
    category (``start``, each feature kind, each bonus) and every failed expectation."""

    ruleset: str
    in_game: dict[str, int] = field(default_factory=dict)
    final: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    categories: dict[str, dict[str, int]] = field(default_factory=dict)


#: A scenario is a YAML mapping with (at least) these keys; anything else is refused unquoted.
SCENARIO_SHAPE = Shape("scenario", frozenset({"rulesets", "players", "turns", "expect"}),
                       "of a scenario (rulesets, players, turns, expect)",
                       foreign=(("format", "a game record or a command's --json output"),))


def load_scenario(path: str | Path) -> Document:
    """Read and schema-check a scenario file; :class:`UserError` on bad input (a file
    that is not a regular one of at most 16 MiB, or not shaped like a scenario:
    :data:`SCENARIO_SHAPE`, is refused before any of its lines is shown)."""
    doc = load_yaml(path, shape=SCENARIO_SHAPE)
    check(doc, "scenario")
    return doc


def run_scenario(doc: Document) -> list[Outcome]:
    """Play the scenario under each of its rulesets and compare with ``expect``.

    Raises :class:`UserError` for bad input (unknown ruleset or tile, bad
    follower notation, more copies of a tile than the ruleset has, players
    the ruleset does not allow); rule outcomes that differ from the file are
    failures in the returned outcomes.
    """
    data = doc.data
    expect = data.get("expect", {})
    for ref in expect:
        if ref not in data["rulesets"]:
            raise UserError(f"expect names ruleset '{ref}', which is not in rulesets",
                            code="scenario", **doc.where(("expect", ref)))
    outcomes = []
    for r_index, ref in enumerate(data["rulesets"]):
        ruleset = load_ruleset_for(doc, ("rulesets", r_index))
        outcomes.append(_run_one(doc, ref, ruleset, expect.get(ref)))
    return outcomes


def _run_one(doc: Document, ref: str, ruleset, expected: dict | None) -> Outcome:
    data = doc.data
    names = data["players"]
    if not ruleset.min_players <= len(names) <= ruleset.max_players:
        raise UserError(f"{ruleset.ref} is for {ruleset.min_players}–{ruleset.max_players} players, "
                        f"not {len(names)}", code="scenario", **doc.where(("players",)))
    start_spec = data.get("start")
    if start_spec is not None:
        start = (tile_index(ruleset, start_spec["tile"], doc, ("start", "tile")), start_spec.get("rotation", 0))
    else:
        start = (ruleset.start, 0) if ruleset.start >= 0 else None
    _check_supply(doc, ruleset, start)
    game = Game(ruleset, len(names), 0, draw_order=[], start=start)
    outcome = Outcome(ref)
    for i, turn in enumerate(data["turns"]):
        path = ("turns", i)
        if "move" in turn:
            seat = turn.get("player", game.player)
            who = names[seat] if 0 <= seat < len(names) else f"seat {seat}"
            if not _decide(doc, game, turn, path, f"turn {i + 1} ({who}: {turn['move']} "
                           f"{'home' if turn.get('home') else 'to ' + str(turn['to']) + ' ' + turn['follower']})",
                           outcome):
                return outcome
            continue
        if "titles" in turn and "illegal" in turn:
            raise UserError("a probe (illegal) is not played, so there are no titles to check after it: "
                            "say who holds them on the turn played instead", code="scenario",
                            **doc.where(path + ("titles",)))
        if "buried" in turn and "illegal" in turn:
            raise UserError("a probe (illegal) is not played, so nothing is buried under it: name the buried tile "
                            "on the turn played instead", code="scenario", **doc.where(path + ("buried",)))
        try:
            take_tile(game, turn, doc, path)
            refused = None
        except IllegalMove as error:
            refused = error
        seat = turn.get("player", game.player) if refused is not None else game.player  # whom the refusal concerns
        who = names[seat] if 0 <= seat < len(names) else f"seat {seat}"
        label = f"turn {i + 1} ({who}: {turn['tile']}{' from their own supply' * bool(turn.get('personal'))}"
        label += ")" if turn.get("discarded") else f" at {turn['at']} r{turn['rotation']})"
        if refused is not None:  # a personal tile the player may not place now
            if not _refusal_expected(outcome, label, turn.get("illegal"), refused):
                return outcome
            continue
        if turn.get("player", game.player) != game.player:
            outcome.failures.append(f"{label}: recorded for seat {turn['player']}, but seat {game.player} plays it")
            return outcome
        mismatch = extra_turn_mismatch(game, turn) if "extra_turn" in turn else None  # checked when given
        if mismatch:
            outcome.failures.append(f"{label}: {mismatch}")
            return outcome
        if turn.get("discarded"):
            enter_turn_map(game, turn, doc, path)  # the map it fits nowhere on
            if game.placements():
                outcome.failures.append(f"{label}: expected no legal placement, but the tile fits "
                                        f"({len(game.placements())} placements)")
                return outcome
            game.discard()
            continue
        move = turn_move(game, turn, doc, path)
        probe = turn.get("illegal")
        try:
            game.check(move)
        except IllegalMove as error:
            if not _refusal_expected(outcome, label, probe, error):
                return outcome
            continue
        if probe is not None:
            outcome.failures.append(f"{label}: expected an illegal {probe}, but the engine allows it")
            continue
        force_burial(game, turn, doc, path)
        game.play(move, checked=True)
        mismatch = titles_mismatch(doc, game, turn.get("titles", {}), path, names)
        if mismatch:
            outcome.failures.append(f"{label}: {mismatch}")
    outcome.in_game = dict(zip(names, game.scores))
    game.finish()
    outcome.final = dict(zip(names, game.scores))
    outcome.categories = {name: dict(points) for name, points in zip(names, game.kind_points)}
    if expected:
        _compare_scores(doc, ref, expected, outcome, game, names)
    return outcome


def _compare_scores(doc: Document, ref: str, expected: dict, outcome: Outcome, game: Game, names: list[str]) -> None:
    """Note in ``outcome`` each expected score (``expect.REF``) the finished ``game`` disagrees with,
    followed by the score events that make the engine's total (issue 50: a rules lawyer looks for
    the disagreement there): for the in-game score those of the game, for the final one all."""
    for when in ("in_game", "final"):
        want = expected.get(when)
        if want is None:
            continue
        got = getattr(outcome, when)
        for name, points in want.items():
            if name not in got:
                raise UserError(f"unknown player '{name}' (players: {', '.join(names)})",
                                code="scenario", **doc.where(("expect", ref, when, name)))
            if got[name] != points:
                seat = names.index(name)
                behind = [f"    turn {e.turn}{' (final)' if e.phase == 'final' else ''}: {e.explain(names)}"
                          for e in game.events if seat in e.players and e.points
                          and (when == "final" or e.phase == "in_game")]
                made = "\n".join(behind) if behind else "    (no score event paid them)"
                outcome.failures.append(f"{when} score of {name}: expected {points}, got {got[name]}, from:\n{made}")


def _decide(doc: Document, game: Game, turn: dict, path: tuple, label: str, outcome: Outcome) -> bool:
    """Play the choice for a follower moving on that ``turn`` states, or note how the engine
    disagrees (a probe ``illegal: follower`` expects a refusal); False if the rest cannot follow."""
    probe = turn.get("illegal")
    if not moving.of(game).movers:
        error = IllegalMove("follower", nothing_moving(game, turn["move"]))
        return _refusal_expected(outcome, label, probe, error)
    if turn.get("player", game.player) != game.player:
        outcome.failures.append(f"{label}: recorded for seat {turn['player']}, but seat {game.player} chooses")
        return False
    move = decision_move(game, turn, doc, path)
    try:
        game.check(move)
    except IllegalMove as error:
        return _refusal_expected(outcome, label, probe, error)
    if probe is not None:
        outcome.failures.append(f"{label}: expected an illegal {probe}, but the engine allows it")
        return True
    game.play(move, checked=True)
    return True


def _refusal_expected(outcome: Outcome, label: str, probe: str | None, error: IllegalMove) -> bool:
    """Note in ``outcome`` how a refused turn differs from the scenario's ``illegal`` ``probe``;
    False if the scenario meant to play it (the rest of it cannot follow)."""
    if probe is None:
        outcome.failures.append(f"{label}: refused ({error.reason}: {error}) but the scenario plays it")
        return False
    if probe != error.reason:
        outcome.failures.append(f"{label}: expected an illegal {probe}, got an illegal {error.reason} ({error})")
    return True


def _check_supply(doc: Document, ruleset, start: tuple[int, int] | None) -> None:
    """A scenario takes its tiles from the ruleset's supply: no more copies than exist (less
    those ``deck.set_aside`` puts back in the box), and no more tiles than ``deck.size`` deals."""
    used: Counter[str] = Counter()
    if start is not None:
        used[ruleset.tiles[start[0]].id] += ruleset.maps  # each map has its own start tile
    returned = ruleset.unplaceable == "reshuffle"  # a discarded tile goes back into the stack
    drawn = 0
    for i, turn in enumerate(doc.data["turns"]):
        if turn.get("illegal") or turn.get("personal") or "move" in turn or (returned and turn.get("discarded")):
            continue
        for key in ("tile", "buried") if "buried" in turn else ("tile",):  # a buried tile comes from the stack too
            drawn += 1
            if ruleset.deck_size and drawn > ruleset.deck_size:
                raise UserError(f"turn {i + 1}{'s buried tile' * (key == 'buried')} is one more than the "
                                f"{ruleset.deck_size} tiles deck.size deals in {ruleset.ref}", code="scenario-supply",
                                **doc.where(("turns", i, key)))
            used[turn[key]] += 1
            index = ruleset.tile_ids.get(turn[key])
            if index is None:
                continue
            boxed = ruleset.set_aside.count(index)  # deck.set_aside: back in the box, never played
            if used[turn[key]] > ruleset.tiles[index].count - boxed:
                aside = f" ({ruleset.tiles[index].count}, {boxed} set aside)" if boxed else ""
                raise UserError(f"more {turn[key]} tiles than the {ruleset.tiles[index].count - boxed}{aside} "
                                f"ruleset {ruleset.ref} has", code="scenario-supply", **doc.where(("turns", i, key)))
