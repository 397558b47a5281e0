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
from engine.files.scenario import load_scenario, run_scenario
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


def test_a_replacement_applies_before_the_changes_that_build_on_it(tmp_path: Path) -> None:
    # my-city replaces the city formula; inns-and-cathedrals builds on whatever is there.
    option(tmp_path, "my-city", "  features:\n    city:\n      scoring:\n        complete: 3 * tiles\n")
    for ref in ("basic+inns-and-cathedrals+my-city.yaml", "basic+my-city.yaml+inns-and-cathedrals"):
        city = load_ruleset(ref, tmp_path).kind("city")
        assert city.complete(CITY) == 3 * 5  # my rule
        assert city.complete({**CITY, "cathedrals": 1}) == 3 * 5 + 3 * 1  # the cathedral's, kept


def test_an_option_that_adds_a_mapping_owns_only_the_keys_it_wrote(tmp_path: Path) -> None:
    """An option that brings a mapping the ruleset lacked (basic has no constraints) set that
    mapping's keys, not the keys another option adds to it later: a third option may change one of
    those (abbey-and-mayor's constraint, then the River's, then river-immediate-u-turn's change to
    the River's was refused as a clash with abbey-and-mayor)."""
    option(tmp_path, "first", "  constants: {mine: 1}\n  constraints:\n    holes: {rule: hole, tiles: [B]}\n")
    option(tmp_path, "second", "  constraints:\n    more: {rule: hole, tiles: [A], neighbors: 4}\n")
    option(tmp_path, "third", "  constraints:\n    more: {neighbors: 3}\n", "requires: [second]\n")
    for ref in ("basic+first.yaml+second.yaml+third.yaml", "basic+second.yaml+first.yaml+third.yaml"):
        assert load_ruleset(ref, tmp_path).data["constraints"]["more"]["neighbors"] == 3
    assert load_ruleset("basic+river+abbey-and-mayor+river-immediate-u-turn").data["constraints"][
        "river-no-u-turn"]["look"] == "immediate"
    option(tmp_path, "rival", "  constraints:\n    holes: {tiles: [A]}\n")  # what first wrote: a clash
    assert codes("basic+first.yaml+rival.yaml", tmp_path) == ["option-clash"]


def test_two_options_setting_one_key_clash_at_load_time(tmp_path: Path) -> None:
    option(tmp_path, "four", "  players: {max: 4}\n")
    for ref in ("basic+inns-and-cathedrals+four.yaml", "basic+four.yaml+inns-and-cathedrals"):
        with pytest.raises(UserError) as caught:
            load_ruleset(ref, tmp_path)
        (clash,) = caught.value.diagnostics
        # Located in the designer's file, not in the shipped one (which they cannot change).
        assert (clash.code, Path(clash.file).name, clash.line) == ("option-clash", "four.yaml", 5)
        assert "options 'four' and 'inns-and-cathedrals' both set $.players.max" in clash.message
        assert "inns-and-cathedrals.yaml:" in clash.message and "'overrides: [inns-and-cathedrals]' in 'four'" \
            in clash.message
        assert "previous" not in clash.message  # a player count is no formula


def test_two_replacements_of_one_formula_clash(tmp_path: Path) -> None:
    option(tmp_path, "a", "  features: {city: {scoring: {complete: 3 * tiles}}}\n")
    option(tmp_path, "b", "  features: {city: {scoring: {complete: 4 * tiles}}}\n")
    (clash,) = [d for d in _diagnostics("basic+b.yaml+a.yaml", tmp_path)]
    assert (clash.code, Path(clash.file).name) == ("option-clash", "b.yaml")
    assert "build on it (a formula names it 'previous')" in clash.message


def test_building_on_a_deleted_key_clashes_at_the_deletion(tmp_path: Path) -> None:
    option(tmp_path, "gone", "  features: {city: {scoring: {complete: null}}}\n")
    (clash,) = _diagnostics("basic+tiny-city+gone.yaml", tmp_path)
    assert (clash.code, Path(clash.file).name) == ("option-clash", "gone.yaml")
    assert "'gone' deletes it and 'tiny-city' builds on it" in clash.message


def test_two_changes_of_one_formula_say_their_order(tmp_path: Path) -> None:
    option(tmp_path, "zz-plus-one", "  features: {city: {scoring: {complete: previous + 1}}}\n")
    ruleset = load_ruleset("basic+tiny-city+zz-plus-one.yaml", tmp_path)
    (warning,) = [w for w in ruleset.warnings if w.code == "option-order"]
    assert Path(warning.file).name == "zz-plus-one.yaml" and "after: [tiny-city]" in warning.message
    assert ruleset.kind("city").complete({**CITY, "tiles": 2, "pennants": 0}) == 2 + 1  # zz wraps tiny
    option(tmp_path, "aa-plus-one", "  features: {city: {scoring: {complete: previous + 1}}}\n",
           "after: [tiny-city]\n")
    ruleset = load_ruleset("basic+tiny-city+aa-plus-one.yaml", tmp_path)
    assert not [w for w in ruleset.warnings if w.code == "option-order"]
    assert ruleset.kind("city").complete({**CITY, "tiles": 2, "pennants": 0}) == 2 + 1  # declared: it wraps tiny


def test_shipped_combinations_warn_of_no_order() -> None:
    from tests.rules.test_combinations import REFS
    for ref in REFS:
        assert not [w for w in load_ruleset(ref).warnings if w.code == "option-order"], ref


def _diagnostics(ref: str, base: Path) -> list:
    with pytest.raises(UserError) as caught:
        load_ruleset(ref, base)
    return caught.value.diagnostics


def test_the_hash_and_the_shown_ruleset_cover_every_layer(tmp_path: Path) -> None:
    option(tmp_path, "plus-one", "  features: {city: {scoring: {complete: previous + 1}}}\n", "after: [tiny-city]\n")
    plain, more = load_ruleset("basic+tiny-city"), load_ruleset("basic+tiny-city+plus-one.yaml", tmp_path)
    assert plain.sha256 != more.sha256
    assert more.data["features"]["city"]["scoring"]["complete"] == \
        "(if tiles == 2 then tiles + pennants else (2 * tiles + 2 * pennants)) + 1"
    saved = tmp_path / "merged.yaml"
    saved.write_text(show("basic+inns-and-cathedrals"))  # the shown ruleset loads as it is
    assert load_ruleset(str(saved)).kind("city").complete({**CITY, "cathedrals": 1}) == 18


def test_an_option_may_not_name_itself(tmp_path: Path) -> None:
    option(tmp_path, "me", "  followers: 5\n", "requires: [me]\n")
    assert codes("basic+me.yaml", tmp_path) == ["option-relation"]


def test_one_option_given_twice_is_the_reference_s_fault_not_the_option_file_s(tmp_path: Path) -> None:
    (twice,) = _diagnostics("basic+river+river", tmp_path)
    assert (twice.code, twice.file, twice.message) == (
        "option-twice", None, "option 'river' is given twice in 'basic+river+river'")
    scenario = tmp_path / "s.yaml"
    scenario.write_text("rulesets: [basic, basic+river+river]\nplayers: [A, B]\nturns: []\n")
    with pytest.raises(UserError) as caught:
        run_scenario(load_scenario(scenario))
    (found,) = caught.value.diagnostics
    # where it is written
    assert (found.code, found.file, found.line, found.col) == ("option-twice", str(scenario), 1, 19)


def test_two_files_with_one_name(tmp_path: Path) -> None:
    option(tmp_path, "tiny-city", "  followers: 5\n")
    (twice,) = _diagnostics("basic+tiny-city+tiny-city.yaml", tmp_path)
    assert twice.code == "option-twice" and Path(twice.file).name == "tiny-city.yaml" and twice.line == 1
    assert "are both named 'tiny-city'" in twice.message


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
    lines = show("first-edition+inns-and-cathedrals", origins=True).splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("complete: if cathedrals"))
    assert lines[at].endswith("(if tiles == 2 then tiles + pennants else 2 * tiles + 2 * pennants)  "
                              "# rulesets/options/inns-and-cathedrals.yaml:34, building on:")
    assert lines[at + 1].strip() == ("#   if tiles == 2 then tiles + pennants else 2 * tiles + 2 * pennants  "
                                     "# rulesets/first-edition.yaml:18 (first-edition), replacing:")
    assert lines[at + 2].strip() == "#   2 * tiles + 2 * pennants  # rulesets/basic.yaml:32 (basic)"
    chains = leaf_chains(doc)["$.features.city.scoring.complete"]
    assert [layer["name"] for layer in chains] == ["inns-and-cathedrals", "first-edition", "basic"]


def test_origins_show_a_declared_override() -> None:
    lines = show("basic+inns-and-cathedrals+two-maps", origins=True).splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("max: 2"))
    assert lines[at].endswith(", replacing:")
    assert lines[at + 1].strip().startswith("#   6  # rulesets/options/inns-and-cathedrals.yaml:")
    assert "(inns-and-cathedrals)" in lines[at + 1]


def test_a_new_key_has_no_chain() -> None:
    doc, _ = compose("basic+inns-and-cathedrals")
    assert len(origin_chain(doc, ("features", "city", "attributes", "cathedrals"))) == 1


def test_a_chain_of_options_keeps_the_limits_of_one_formula(tmp_path: Path) -> None:
    """Each layer doubling the last (previous + previous) would grow the formula without
    bound: written out, it is held to the 500 characters of one formula, at the layer that
    goes beyond."""
    refs = ["basic"]
    for i in range(1, 9):
        option(tmp_path, f"d{i}", "  features: {city: {scoring: {complete: previous + previous}}}\n")
        refs.append(f"d{i}.yaml")
    (error,) = _diagnostics("+".join(refs), tmp_path)
    # 2*tiles + 2*pennants is 24 characters; each layer doubles it, plus 5: d5 passes 500.
    assert (error.code, Path(error.file).name) == ("formula-too-complex", "d5.yaml")
    assert "with 'previous' written out" in error.message and "at most 500" in error.message


def test_what_previous_stands_for_must_be_a_formula(tmp_path: Path) -> None:
    option(tmp_path, "five", "  features: {city: {scoring: {complete: 5}}}\n")
    (error,) = _diagnostics("basic+tiny-city+five.yaml", tmp_path)  # five replaces, tiny-city builds on it
    assert (error.code, Path(error.file).name, error.line) == ("schema", "five.yaml", 5)
    assert "expected a formula as text, got 5" in error.message


def test_an_unordered_change_is_named_with_every_other_change(tmp_path: Path) -> None:
    option(tmp_path, "plus-one", "  features: {city: {scoring: {complete: previous + 1}}}\n")
    warnings = [w for w in load_ruleset("basic+plus-one.yaml+tiny-city+inns-and-cathedrals", tmp_path).warnings
                if w.code == "option-order"]
    assert len(warnings) == 2 and all("'plus-one'" in w.message for w in warnings)
    assert {other for w in warnings for other in ("tiny-city", "inns-and-cathedrals") if f"'{other}'" in w.message} \
        == {"tiny-city", "inns-and-cathedrals"}
    assert {Path(w.file).name for w in warnings} == {"plus-one.yaml"}  # the user's file, not a shipped one


def test_scores_explain_previous_as_what_it_stands_for() -> None:
    city = load_ruleset("first-edition+inns-and-cathedrals").kind("city")
    (term,) = city.complete.terms({**CITY, "tiles": 2, "pennants": 0})
    assert term == ("if cathedrals > 0 then 3 * tiles + 3 * pennants else "
                    "(if tiles == 2 then tiles + pennants else 2 * tiles + 2 * pennants)", 2)
    field = load_ruleset("basic+farms-pay-cloisters").kind("field")
    env = {"completed_cities": 2, "completed_cloisters": 1, "farm_points": 3, "tiles": 1, "segments": 1,
           "complete": False}
    assert field.final.terms(env) == [("cities: farm_points * completed_cities", 6),
                                      ("cloisters: farm_points * completed_cloisters", 3)]


def test_a_relation_name_close_to_an_option_is_warned_of(tmp_path: Path) -> None:
    option(tmp_path, "typo", "  followers: 6\n", "after: [tiny-citty]\n")
    (warning,) = load_ruleset("basic+typo.yaml", tmp_path).warnings
    assert (warning.code, warning.line) == ("option-unknown", 4) and "did you mean 'tiny-city'" in warning.message


def test_validate_takes_a_required_option_from_the_base(tmp_path: Path) -> None:
    from engine.rules.inspect import validate_file
    option(tmp_path, "mine", "  followers: 6\n")
    needs = option(tmp_path, "needs-mine", "  followers: 6\n", "requires: [mine]\n")
    ruleset = validate_file(needs, f"basic+{tmp_path / 'mine.yaml'}")
    assert ruleset.followers == 6 and ruleset.ref.endswith("needs-mine.yaml")
    with pytest.raises(UserError) as caught:
        validate_file(needs)  # without it in the base: it is no shipped option
    assert caught.value.diagnostics[0].code == "option-unknown"


def test_a_cycle_through_replacements_is_an_error_too(tmp_path: Path) -> None:
    """b comes after a (declared); c replaces the road formula a builds on, so c comes before a;
    b replaces the city formula c builds on, so b comes before c: no order is left."""
    option(tmp_path, "a", "  features: {road: {scoring: {complete: previous + 1}}}\n")
    option(tmp_path, "b", "  features: {city: {scoring: {complete: 3 * tiles}}}\n", "after: [a]\n")
    option(tmp_path, "c", "  features: {road: {scoring: {complete: 2 * tiles}}, "
           "city: {scoring: {complete: previous + 1}}}\n")
    assert codes("basic+a.yaml+b.yaml+c.yaml", tmp_path) == ["option-cycle"]
