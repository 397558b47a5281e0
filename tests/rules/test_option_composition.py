"""How options combine (docs/rulesets.md): ``previous``, one order of application, clashes.

The values asserted are worked out from the formulas in each test, not read back from
the engine: a formula that builds on the one it replaces keeps both rules.
"""

from __future__ import annotations

import pickle
from itertools import permutations
from pathlib import Path

import pytest

from engine.errors import UserError
from engine.rules.compose import compose
from engine.rules.inspect import leaf_chains, origin_chain, show
from engine.rules.ruleset import load_ruleset

CITY = {"tiles": 5, "pennants": 1, "segments": 5, "complete": True, "cathedrals": 0}


def option(folder: Path, name: str, patch: str, extra: str = "") -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(f"name: {name}\ndescription: d\nsource: s\n{extra}patch:\n{patch}")
    return path


def codes(ref: str, base: Path) -> list[str]:
    with pytest.raises(UserError) as caught:
        load_ruleset(ref, base)
    return [d.code for d in caught.value.diagnostics]


def test_previous_is_the_formula_replaced_with_the_same_inputs(tmp_path: Path) -> None:
    option(tmp_path, "bonus", "  features: {city: {scoring: {complete: previous + 10}}}\n")
    option(tmp_path, "double", "  features: {city: {scoring: {complete: 2 * previous}}}\n")
    city = load_ruleset("basic+bonus.yaml", tmp_path).kind("city")
    assert city.complete(CITY) == 2 * 5 + 2 * 1 + 10
    # Applied by name: bonus, then double, in either order written: 2 * (12 + 10).
    for ref in ("basic+bonus.yaml+double.yaml", "basic+double.yaml+bonus.yaml"):
        assert load_ruleset(ref, tmp_path).kind("city").complete(CITY) == 44


def test_previous_explains_itself_by_the_replaced_terms(tmp_path: Path) -> None:
    option(tmp_path, "bonus", "  features: {city: {scoring: {complete: previous + 10}}}\n")
    city = load_ruleset("basic+bonus.yaml", tmp_path).kind("city")
    assert city.complete.terms(CITY) == [("2 * tiles", 10), ("2 * pennants", 2), ("10", 10)]


def test_previous_over_named_parts_is_their_sum_and_a_part_may_build_on_a_formula(tmp_path: Path) -> None:
    farms = load_ruleset("basic+farms-pay-cloisters")
    env = {"completed_cities": 2, "completed_cloisters": 1, "farm_points": 3, "own_pig": 0,
           "tiles": 1, "segments": 1, "complete": False}
    assert farms.kind("field").final(env) == 3 * 2 + 3 * 1  # cities: previous (basic's), cloisters
    both = load_ruleset("basic+farms-pay-cloisters+traders-and-builders")
    assert both.kind("field").final({**env, "own_pig": 1, "pig_points": 1}) == 6 + 3 + 1 * 2


def test_a_formula_with_previous_pickles(tmp_path: Path) -> None:
    city = load_ruleset("basic+inns-and-cathedrals+tiny-city").kind("city")
    again = pickle.loads(pickle.dumps(city.complete))
    for env in ({**CITY, "tiles": 2, "pennants": 0}, CITY, {**CITY, "cathedrals": 1}):
        assert again(env) == city.complete(env)
    assert again({**CITY, "cathedrals": 1}) == 3 * 5 + 3 * 1


def test_previous_with_nothing_before_is_located(tmp_path: Path) -> None:
    option(tmp_path, "fresh", "  follower_types:\n    large: {count: 1, strength: previous + 1}\n")
    with pytest.raises(UserError) as caught:
        load_ruleset("basic+fresh.yaml", tmp_path)
    (first,) = caught.value.diagnostics
    assert (first.code, Path(first.file).name, first.line, first.col) == ("formula-previous", "fresh.yaml", 6, 33)


def test_a_strength_may_build_on_the_one_it_replaces(tmp_path: Path) -> None:
    option(tmp_path, "stronger", "  follower_types:\n    large: {strength: previous + 1}\n",
           "requires: [inns-and-cathedrals]\n")
    large = load_ruleset("basic+inns-and-cathedrals+stronger.yaml", tmp_path).follower_types[1]
    assert (large.name, large.strength) == ("large", 3)


def test_previous_is_no_name_for_an_attribute_or_constant(tmp_path: Path) -> None:
    option(tmp_path, "attr", "  features: {city: {attributes: {pennants: p, previous: what came before}}}\n")
    option(tmp_path, "const", "  constants: {previous: 3}\n")
    assert codes("basic+attr.yaml", tmp_path) == ["input-name"]
    assert codes("basic+const.yaml", tmp_path) == ["constant-name"]


def test_two_options_setting_one_key_clash_at_load_time(tmp_path: Path) -> None:
    option(tmp_path, "my-city", "  features:\n    city:\n      scoring:\n        complete: 3 * tiles\n")
    with pytest.raises(UserError) as caught:
        load_ruleset("basic+inns-and-cathedrals+my-city.yaml", tmp_path)
    (clash,) = caught.value.diagnostics
    assert (clash.code, Path(clash.file).name, clash.line) == ("option-clash", "my-city.yaml", 8)
    assert "'inns-and-cathedrals' and 'my-city' both set $.features.city.scoring.complete" in clash.message
    assert "inns-and-cathedrals.yaml:34" in clash.message  # where the other option set it
    # The same in the other order: options apply in one order whatever the reference says.
    assert codes("basic+my-city.yaml+inns-and-cathedrals", tmp_path) == ["option-clash"]


def test_one_error_per_clashing_key(tmp_path: Path) -> None:
    option(tmp_path, "a", "  followers: 5\n  rules: {deploy: own-or-empty}\n")
    option(tmp_path, "b", "  followers: 6\n  rules: {deploy: empty}\n")
    assert codes("basic+a.yaml+b.yaml", tmp_path) == ["option-clash", "option-clash"]


def test_no_clash_for_the_same_value_a_new_key_or_building_on(tmp_path: Path) -> None:
    option(tmp_path, "a", "  followers: 5\n  features: {city: {attributes: {pennants: p, gold: g}}}\n")
    option(tmp_path, "b", "  followers: 5\n  features: {city: {attributes: {silver: s}, "
           "scoring: {complete: previous + gold}}}\n")
    option(tmp_path, "c", "  features: {city: {scoring: {complete: previous + silver}}}\n")
    ruleset = load_ruleset("basic+c.yaml+b.yaml+a.yaml", tmp_path)
    assert ruleset.followers == 5
    assert ruleset.kind("city").complete({**CITY, "gold": 1, "silver": 2}) == 10 + 2 + 1 + 2


def test_overrides_apply_after_whatever_the_order(tmp_path: Path) -> None:
    option(tmp_path, "a", "  followers: 5\n")
    option(tmp_path, "b", "  followers: 9\n", "overrides: [a]\n")
    option(tmp_path, "z", "  followers: 2\n", "overrides: [b]\n")
    for names in permutations(["a.yaml", "b.yaml", "z.yaml"]):
        assert load_ruleset("+".join(["basic", *names]), tmp_path).followers == 2
    assert load_ruleset("basic+b.yaml+a.yaml", tmp_path).followers == 9


def test_a_deletion_clashes_too(tmp_path: Path) -> None:
    option(tmp_path, "a", "  constants: {gift: 3}\n")
    option(tmp_path, "b", "  constants: {gift: null}\n")
    assert codes("basic+a.yaml+b.yaml", tmp_path) == ["option-clash"]


def test_options_that_override_each_other_are_a_cycle(tmp_path: Path) -> None:
    option(tmp_path, "a", "  followers: 5\n", "overrides: [b]\n")
    option(tmp_path, "b", "  followers: 6\n", "overrides: [a]\n")
    assert codes("basic+a.yaml+b.yaml", tmp_path) == ["option-cycle"]


def test_a_required_option_may_come_after_and_is_refined(tmp_path: Path) -> None:
    # river-split-springs replaces the river's spring and lake: it requires the river.
    assert load_ruleset("basic+river-split-springs+river").data == load_ruleset("basic+river+river-split-springs").data


def test_shipped_pairs_give_the_same_ruleset_in_both_orders() -> None:
    from tests.rules.test_combinations import OPTIONS, combinations_of  # one list of shipped options
    for pair in combinations_of(list(OPTIONS), 2):
        if len(pair) != 2:
            continue
        a, b = pair
        first, second = load_ruleset(f"basic+{a}+{b}"), load_ruleset(f"basic+{b}+{a}")
        assert first.data == second.data and first.sha256 == second.sha256, pair


def test_origins_print_the_chain_that_built_a_formula() -> None:
    doc, _ = compose("first-edition+inns-and-cathedrals")
    chain = origin_chain(doc, ("features", "city", "scoring", "complete"))
    assert [(layer.name, layer.builds_on) for layer in chain] == [
        ("inns-and-cathedrals", True), ("first-edition", False), ("basic", False)]
    assert chain[1].value == "if tiles == 2 then tiles + pennants else 2 * tiles + 2 * pennants"
    text = show("first-edition+inns-and-cathedrals", origins=True)
    assert "# builds on: if tiles == 2 then tiles + pennants else 2 * tiles + 2 * pennants  " \
           "# rulesets/first-edition.yaml:" in text
    chains = leaf_chains(doc)["$.features.city.scoring.complete"]
    assert [layer["name"] for layer in chains] == ["inns-and-cathedrals", "first-edition", "basic"]


def test_origins_show_a_declared_override() -> None:
    text = show("basic+inns-and-cathedrals+two-maps", origins=True)
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("max: 2"))
    assert "replaces: 6" in lines[at + 1] and "(inns-and-cathedrals)" in lines[at + 1]
