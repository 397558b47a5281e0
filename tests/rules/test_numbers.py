"""Numbers in rulesets stay within ±MAX_POINTS: constant parts of formulas at load time,
a score and its parts when it is computed (docs/rulesets.md, "Scoring formulas")."""

from __future__ import annotations

import pickle
import time

import pytest

from engine.errors import UserError
from engine.rules.formula import compile_formula
from engine.rules.formula_syntax import MAX_POINTS
from engine.rules.kinds import Score, ScoreRangeError

INPUTS = {"tiles": int, "pennants": int}


def located(text: str) -> UserError:
    with pytest.raises(UserError) as info:
        compile_formula(text, INPUTS, file="r.yaml", line=7, col=17, path="$.features.road.scoring.complete")
    return info.value


def test_the_range_is_a_billion() -> None:
    assert MAX_POINTS == 1_000_000_000


@pytest.mark.parametrize("text, col, message", [
    ("1000000 * 1000000", 17, "'1000000 * 1000000' is 1000000000000, beyond ±1,000,000,000"),
    ("tiles * (1000000 * 1000000)", 26, "'1000000 * 1000000' is 1000000000000"),
    ("1000000001", 17, "'1000000001' is 1000000001"),
    ("-1000000001", 18, "'1000000001' is 1000000001"),
    ("tiles * 99999999999999999999999", 25, "a number of 23 digits"),
    ("tiles + 900000000 + 600000000", 17, "the numbers in 'tiles + 900000000 + 600000000' add up to 1500000000"),
    ("1000000000 + 1", 17, "is 1000000001"),
    ("(2 * 3) * 500000000", 18, "is 3000000000"),
    ("max(tiles, 2000000000)", 28, "is 2000000000"),
])
def test_a_constant_part_beyond_the_range_is_a_located_load_error(text: str, col: int, message: str) -> None:
    (found,) = located(text).diagnostics
    assert (found.file, found.line, found.col, found.code) == ("r.yaml", 7, col, "formula-range")
    assert message in found.message
    assert found.path == "$.features.road.scoring.complete"


@pytest.mark.parametrize("text, value", [
    ("1000000000", 1_000_000_000),
    ("-1000000000", -1_000_000_000),
    ("1000000000 + 1000000000 - 1000000000", 1_000_000_000),  # the folded sum is what counts
    ("100000 * 10000", 1_000_000_000),
    ("tiles * 1000000000", 3_000_000_000),  # not constant: scoring checks it, not the compiler
])
def test_constant_parts_up_to_the_range_compile(text: str, value: int) -> None:
    assert compile_formula(text, INPUTS)({"tiles": 3, "pennants": 0}) == value


def test_a_formula_of_huge_factors_fails_at_its_first_fold_not_after_building_the_number() -> None:
    text = "*".join(["1000000"] * 62)  # 10^372 if it were folded to the end
    assert len(text) <= 500
    start = time.perf_counter()
    (found,) = located(text).diagnostics
    assert found.col == 17 and "'1000000*1000000' is 1000000000000" in found.message
    assert time.perf_counter() - start < 5  # generous: it is a handful of multiplications


def test_a_formula_keeps_its_location_also_when_pickled() -> None:
    formula = compile_formula("2 * tiles", INPUTS, file="r.yaml", line=3, col=5, path="$.x")
    where = {"file": "r.yaml", "line": 3, "col": 5, "path": "$.x"}
    assert formula.where == where
    assert pickle.loads(pickle.dumps(formula)).where == where


def score(text: str | dict) -> Score:
    items = text.items() if isinstance(text, dict) else [(None, text)]
    return Score(str(text), tuple((name, compile_formula(t, INPUTS, file="r.yaml", line=9, col=3, path="$.s"))
                                  for name, t in items), kind="road", rule="complete")


def test_a_score_in_range_is_its_points() -> None:
    assert score("tiles * 1000000")({"tiles": 1000, "pennants": 0}) == MAX_POINTS
    assert score("0 - tiles * 1000000")({"tiles": 1000, "pennants": 0}) == -MAX_POINTS


def test_a_score_beyond_the_range_is_located_at_its_formula() -> None:
    with pytest.raises(ScoreRangeError) as info:
        score("tiles * tiles * tiles * 1000000")({"tiles": 11, "pennants": 0})
    (found,) = info.value.diagnostics
    assert (found.file, found.line, found.col, found.path, found.code) == ("r.yaml", 9, 3, "$.s", "score-range")
    assert found.message == ("the complete score of road is 1331000000 (tiles 11), beyond ±1,000,000,000, "
                             "the most one score may be")
    assert info.value.at("turn 12").diagnostics[0].message.startswith("turn 12: the complete score of road")


def test_a_huge_score_is_reported_by_its_size_not_printed() -> None:
    formula = "*".join(["tiles"] * 83)  # 1000^83, in 497 characters
    with pytest.raises(ScoreRangeError) as info:
        score(formula)({"tiles": 1000, "pennants": 0})
    assert "is a number of about 250 digits (tiles 1000)" in info.value.diagnostics[0].message


def test_line_items_blame_the_largest_and_terms_are_checked_one_by_one() -> None:
    items = score({"tiles": "tiles * 1000000", "pennants": "pennants * 1000000"})
    with pytest.raises(ScoreRangeError) as info:
        items({"tiles": 1, "pennants": 2000})
    assert "pennants 2000" in info.value.diagnostics[0].message
    # Parts that cancel out: the points are in range, a part shown in the explanation is not.
    cancelling = score("tiles * 1000000000 - tiles * 1000000000 + pennants")
    env = {"tiles": 5, "pennants": 2}
    assert cancelling(env) == 2
    with pytest.raises(ScoreRangeError) as info:
        cancelling.terms(env)
    assert info.value.diagnostics[0].message.startswith("part 'tiles * 1000000000' of the complete score of road "
                                                        "is 5000000000")
