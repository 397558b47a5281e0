"""Options compose: every shipped option's rule still holds in every combination with it.

For each shipped ruleset with each option, each pair and each largest set of options that
combine (the references of test_combinations.py), every included option's witnesses
(tests/rules/witnesses.yaml) are checked: a scenario is played under the whole combination
and must give the scores its file works out for that option, or, where another option of
the combination changes the same feature on purpose (``interacts``), for the two together.
A scenario played under a ruleset of several maps is played on map 0 (a turn may name
its map); the other map holds only its start tile, with nobody on it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from engine.core import burial as core_burial
from engine.core import personal
from engine.core.game import Game
from engine.errors import UserError
from engine.files.scenario import load_scenario, run_scenario
from engine.rules.compose import split_ref
from engine.rules.ruleset import Ruleset, load_ruleset
from engine.rules.source import Document
from engine.sim.play import play_game
from tests.rules.test_combinations import OPTIONS, REFS, RULESETS

SCENARIOS = Path(__file__).parents[1] / "scenarios"
WITNESSES: dict[str, list[dict]] = yaml.safe_load(Path(__file__).with_name("witnesses.yaml").read_text())


def start_tile_drawn(ruleset: Ruleset) -> str | None:
    """random-start: the start tile is drawn from the shuffled stack, so seeded games start
    with different tile types (with a fixed start tile, always the same one)."""
    starts = {play_game(ruleset, ["random", "random"], seed).game.starts[0][0] for seed in range(8)}
    return None if len(starts) > 1 else f"8 seeded games all started with tile type {starts}"


def dealt(game: Game) -> int:
    """The tiles ``game`` took from its stacks: placed (a fixed start tile and a tile of a player's own,
    deck.personal, are not dealt), discarded for good, and buried under a placed one (deck.bury)."""
    ruleset = game.ruleset
    placed = sum(1 for _, move in game.history if move is not None) + len(game.starts) - len(personal.of(game).turns)
    discarded = sum(1 for _, move in game.history if move is None) - game.returned
    return placed + discarded + len(core_burial.of(game).buried) - (0 if ruleset.start_drawn else ruleset.maps)


def deck_size(ruleset: Ruleset) -> str | None:
    """short-game: a game deals 40 tiles from the stack, the rest stay in the box."""
    n = dealt(play_game(ruleset, ["random", "random"], 5).game)
    return None if n == 40 else f"{n} tiles dealt, not 40"


def burial(ruleset: Ruleset) -> str | None:
    """hills: each hill tile placed while the stack still holds tiles takes the next one under it,
    out of the game; the game still deals every tile (placed, discarded or buried)."""
    game = play_game(ruleset, ["random", "random"], 3).game
    kind = ruleset.bury_kind
    hills = [turn + 1 for turn, (tile, _) in enumerate(t for t in game.history if t[1] is not None)
             if kind in ruleset.tiles[tile].kinds]
    unburied = sorted(set(hills) - {turn for turn, _ in core_burial.of(game).buried})
    if unburied and unburied != [game.turn]:  # only a hill placed when the stack was used up buries nothing
        return f"hill tiles placed on turns {unburied} buried nothing, with tiles left to draw"
    total = sum(t.count for t in ruleset.tiles) - len(ruleset.set_aside) - (0 if ruleset.start_drawn else ruleset.maps)
    want = min(total, ruleset.deck_size) if ruleset.deck_size else total
    n = dealt(game)
    return (None if n == want and core_burial.of(game).buried
            else f"{n} tiles dealt of {want}, {len(core_burial.of(game).buried)} buried")


CHECKS: dict[str, Callable[[Ruleset], str | None]] = {"start-tile-drawn": start_tile_drawn,
                                                      "deck-size": deck_size, "burial": burial}


def row_for(doc: Document, base: str, options: set[str]) -> str:
    """The scenario's ruleset reference for ``base`` with exactly ``options`` (any order)."""
    for ref in doc.data["rulesets"]:
        name, given = split_ref(ref)
        if name == base and set(given) == options:
            return ref
    raise AssertionError(f"{Path(doc.file).name} has no row for {base} with {sorted(options)}")


def witness_failures(ref: str, option: str, witness: dict) -> list[str]:
    """What of ``option``'s ``witness`` does not hold under ``ref`` (empty: it holds)."""
    ruleset = load_ruleset(ref)
    if "check" in witness:
        found = CHECKS[witness["check"]](ruleset)
        return [f"{option} ({witness['check']}): {found}"] if found else []
    base, given = split_ref(ref)
    chosen = set(given)
    wanted = {option, *OPTIONS[option].get("requires", ())} | (chosen & set(witness.get("interacts", ())))
    scenario = witness["scenario"]
    for other, replacement in witness.get("instead", {}).items():
        if other in chosen:
            scenario, wanted = replacement, wanted | {other}
    doc = load_scenario(SCENARIOS / scenario)
    row = row_for(doc, base, wanted)
    data = copy.deepcopy(doc.data)
    moment = witness["moment"]
    data["rulesets"] = [ref]
    data["expect"] = {ref: {moment: doc.data["expect"][row][moment]}}
    if ruleset.maps > 1:
        for turn in data["turns"]:
            turn.setdefault("map", 0)
    # A bonus of another option of the combination (a title, a longest-road bonus) pays in a
    # score column of its own at game end: it adds to the option's rule, so its column is left
    # out of the final scores compared (a scenario with a completed city would otherwise need a
    # row for every option that pays for one).
    foreign = {b.name for b in ruleset.bonuses} - {b.name for b in load_ruleset(row).bonuses}
    if foreign and moment == "final":
        data["expect"] = {}
    try:
        (outcome,) = run_scenario(Document(data, doc.file, doc.marks, doc.key_marks))
    except UserError as error:
        return [f"{option} ({scenario} as {row}): {error.render()}"]
    failures = list(outcome.failures)
    if foreign and moment == "final":
        for name, points in doc.data["expect"][row]["final"].items():
            got = outcome.final[name] - sum(outcome.categories[name].get(b, 0) for b in foreign)
            if got != points:
                failures.append(f"final score of {name} without {', '.join(sorted(foreign))}: "
                                f"expected {points}, got {got}")
    return [f"{option} ({scenario} as {row}): {failure}" for failure in failures]


def test_every_shipped_option_has_a_witness() -> None:
    assert sorted(WITNESSES) == sorted(OPTIONS)
    for option, witnesses in WITNESSES.items():
        for witness in witnesses:
            assert ("check" in witness) != ("scenario" in witness), option
            assert witness.get("check", "deck-size") in CHECKS, option
            assert witness.get("base", "basic") in RULESETS, option
            for other in [*witness.get("interacts", ()), *witness.get("instead", {})]:
                assert other in OPTIONS and other != option, (option, other)


@pytest.mark.parametrize("ref", REFS)
def test_every_option_witness_holds_in_the_combination(ref: str) -> None:
    failures = [failure for option in split_ref(ref)[1] for witness in WITNESSES[option]
                for failure in witness_failures(ref, option, witness)]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("option", sorted(o for o, ws in WITNESSES.items() if any("scenario" in w for w in ws)))
def test_a_witness_fails_without_its_option(option: str) -> None:
    """Each witness scenario tells the option's rule apart: under the ruleset without the
    option (and with the options it requires) it does not give its scores.  The ruleset is
    basic, or the witness's ``base`` for an option that changes nothing under basic
    (barn-pays-farm-points: basic's farms pay the barn's own 3)."""
    for witness in WITNESSES[option]:
        if "scenario" not in witness:
            continue
        required = list(OPTIONS[option].get("requires", ()))
        base = witness.get("base", "basic")
        without = "+".join([base, *required])
        with_it = "+".join([without, option])
        doc = load_scenario(SCENARIOS / witness["scenario"])
        row = row_for(doc, base, {option, *required})
        data = copy.deepcopy(doc.data)
        data["rulesets"] = [without]
        data["expect"] = {without: {witness["moment"]: doc.data["expect"][row][witness["moment"]]}}
        try:
            (outcome,) = run_scenario(Document(data, doc.file, doc.marks, doc.key_marks))
        except UserError:
            continue  # the scenario cannot even be played without the option (a tile or a count it adds)
        assert outcome.failures, f"{witness['scenario']} holds under {without} as under {with_it}"


@pytest.mark.parametrize("check", sorted(CHECKS))
def test_a_check_fails_without_its_option(check: str) -> None:
    assert CHECKS[check](load_ruleset("basic")) is not None


def test_the_river_refuses_a_fourth_start_tile_it_boxed() -> None:
    """Under basic+river one D goes back to the box (deck.set_aside), so a scenario may
    play only three: the fourth is a supply error (the bug: set-aside tiles were counted
    as playable)."""
    doc = load_scenario(SCENARIOS / "77_option_river_start_tile_shuffled.yaml")
    data = copy.deepcopy(doc.data)
    data["rulesets"], data["expect"] = ["basic+river"], {}
    with pytest.raises(UserError) as caught:
        run_scenario(Document(data, doc.file, doc.marks, doc.key_marks))
    assert caught.value.diagnostics[0].code == "scenario-supply"
    assert "more D tiles than the 3" in caught.value.diagnostics[0].message
