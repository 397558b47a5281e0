"""The scoring formula language: values, explanations, errors and their columns.

The hypothesis properties at the end generate well-typed formulas as syntax
trees, print them with as few parentheses as precedence allows, and check the
compiled formula against a plain recursive evaluator written here.
"""

from __future__ import annotations

import functools
import operator
import pickle
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.errors import Diagnostic, UserError
from engine.rules.formula import Formula, compile_formula
from engine.rules.formula_nodes import function
from engine.rules.formula_syntax import GRAMMAR_PATH, MAX_DEPTH, MAX_LENGTH, _parser
from engine.rules.kinds import Score

INPUTS: dict[str, type] = {"tiles": int, "pennants": int, "neighbors": int, "completed_cities": int,
                           "complete": bool}
ENV: dict[str, int | bool] = {"tiles": 3, "pennants": 1, "neighbors": 4, "completed_cities": 2, "complete": True}


def compiled(text: str, want: type = int) -> Formula:
    return compile_formula(text, INPUTS, want=want)


def value(text: str, want: type = int, **env: int | bool) -> int | bool:
    return compiled(text, want)({**ENV, **env})


def error(text: str, inputs: dict[str, type] = INPUTS, want: type = int, **where: Any) -> Diagnostic:
    with pytest.raises(UserError) as info:
        compile_formula(text, inputs, want=want, **where)
    (diagnostic,) = info.value.diagnostics
    return diagnostic


# --- values -------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("2 * tiles + 2 * pennants", 8),
    ("1 + neighbors", 5),
    ("3 * completed_cities", 6),
    ("tiles", 3),
    ("42", 42),
    ("1 + 2 * 3", 7),
    ("(1 + 2) * 3", 9),
    ("10 - 3 - 2", 5),
    ("tiles - pennants", 2),
    ("neighbors - tiles - pennants", 0),
    ("1 - tiles", -2),
    ("-tiles + pennants", -2),
    ("10 - (3 - 2)", 9),
    ("2 * 3 // 4", 1),
    ("2 * (3 // 4)", 0),
    ("100 // 10 // 3", 3),
    ("7 // 2", 3),
    ("-7 // 2", -4),  # floors like Python
    ("-2 // 3", -1),  # unary minus binds tighter than //
    ("-(2 // 3)", 0),
    ("- tiles * 2", -6),
    ("tiles - -pennants", 4),
    ("--tiles", 3),
    ("tiles // 2 + pennants", 2),
    ("2 * tiles - pennants * 3", 3),
    ("((((tiles))))", 3),
    ("if tiles == 2 then tiles + pennants else 2 * tiles + 2 * pennants", 8),
    ("if tiles == 3 then tiles + pennants else 2 * tiles + 2 * pennants", 4),
    ("if complete then 2 * tiles else tiles", 6),
    ("if not complete then 2 * tiles else tiles", 3),
    ("if tiles < 2 then 0 else if tiles < 4 then 1 else 2", 1),
    ("(if complete then 2 else 1) * tiles", 6),
    ("if if complete then false else true then 1 else 2", 2),
    ("if complete then if tiles > 5 then 1 else 2 else 3", 2),
    ("min(tiles)", 3),
    ("max(tiles, neighbors)", 4),
    ("min(tiles, 2, 5)", 2),
    ("min(5, 2, tiles)", 2),
    ("max(1, tiles, neighbors, 2)", 4),
    ("min(2, 5)", 2),
    ("max(-tiles, pennants - 10)", -3),
    ("min(max(tiles, 5), 4)", 4),
    ("max(tiles, pennants) + min(tiles, pennants)", 4),
    ("min(if complete then 1 else 9, tiles)", 1),
])
def test_integer_values(text: str, expected: int) -> None:
    assert value(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("tiles == 3", True), ("tiles == 2", False), ("tiles != 3", False), ("3 != tiles", False),
    ("tiles < 4", True), ("tiles < 3", False), ("tiles <= 3", True), ("tiles <= 2", False),
    ("tiles > 2", True), ("tiles > 3", False), ("tiles >= 3", True), ("tiles >= 4", False),
    ("2 < tiles", True), ("4 <= tiles", False),
    ("tiles + 1 == 2 * 2", True),
    ("complete", True), ("not complete", False), ("not not complete", True),
    ("complete == true", True), ("complete != (tiles > 2)", False),
    ("not tiles > 5", True),
    ("not complete or tiles > 2", True),
    ("complete and tiles > 5", False),
    ("complete or tiles > 5", True),
    ("true and false or true", True),  # (true and false) or true
    ("false or true and false", False),  # false or (true and false)
    ("not false and false", False),  # (not false) and false
    ("not (false and false)", True),
    ("if complete then tiles > 2 else false", True),
])
def test_boolean_values(text: str, expected: bool) -> None:
    result = value(text, want=bool)
    assert result is expected


@pytest.mark.parametrize("text, env, expected", [
    ("tiles // pennants", {"pennants": 0}, 0),
    ("tiles // (pennants - 1)", {"pennants": 1}, 0),
    ("12 // tiles", {"tiles": 0}, 0),
    ("12 // (tiles * 2)", {"tiles": 0}, 0),
    ("(tiles + 1) // (pennants - 1)", {"pennants": 1}, 0),
    ("tiles // (0 * tiles)", {}, 0),  # zero only at run time: no compile-time error
    ("tiles // pennants", {"pennants": -2}, -2),
])
def test_floor_division_by_runtime_zero_is_zero(text: str, env: dict[str, int], expected: int) -> None:
    assert compiled(text)({**ENV, **env}) == expected


def test_attributes() -> None:
    formula = compiled("if complete then tiles else 2 * pennants")
    assert formula.text == "if complete then tiles else 2 * pennants"
    assert formula.names == frozenset({"complete", "tiles", "pennants"})
    assert formula.is_bool is False
    assert compiled("tiles > 2", want=bool).is_bool is True
    assert compiled("1 + 2").names == frozenset()


def test_a_score_runs_as_one_generated_function_with_no_builtins_but_min_and_max() -> None:
    text = "if tiles > 2 then min(tiles, pennants) // 2 else -tiles"
    score = Score(text, ((None, compiled(text)),))
    assert score.points(ENV) == 0 and score({"tiles": 2, "pennants": 1}) == -2  # generated on the first call
    code = score.points.__code__
    assert set(code.co_names) == {"min", "_over"} and not any(hasattr(c, "co_code") for c in code.co_consts)
    assert score.points.__globals__["__builtins__"] == {}
    assert Score("(2 + 3) * 4", ((None, compiled("(2 + 3) * 4")),)).points({}) == 20  # folded: reads nothing
    over = Score("tiles * 1000000000", ((None, compiled("tiles * 1000000000")),))
    with pytest.raises(UserError, match="beyond"):
        over.points(ENV)
    assert pickle.loads(pickle.dumps(score)).points(ENV) == 0


def test_the_deepest_formulas_compile_to_python_that_runs() -> None:
    divisions, choices = "tiles", "tiles"
    for _ in range(MAX_DEPTH // 2):  # each level two operators: a division and a subtraction / a comparison
        divisions = f"100 // ({divisions} - 1)"
        choices = f"if tiles > 1 then ({choices}) else -1"
    for text, expected in ((divisions, _divided(3, MAX_DEPTH // 2)), (choices, 3)):
        assert value(text) == expected
        assert Score(text, ((None, compiled(text)),)).points(ENV) == expected


def _divided(tiles: int, levels: int) -> int:
    """``100 // (x - 1)`` applied ``levels`` times from ``tiles``, a zero divisor giving 0."""
    for _ in range(levels):
        tiles = 100 // (tiles - 1) if tiles != 1 else 0
    return tiles


def test_long_sums_stay_shallow() -> None:
    # Terms join as a balanced tree: 80 terms evaluate well within any stack.
    text = "+".join(["tiles"] * 80)
    assert len(text) <= MAX_LENGTH
    assert value(text) == 240


def test_pickles_by_recompiling() -> None:
    formula = compiled("2 * tiles + 2 * pennants")
    copy = pickle.loads(pickle.dumps(formula))
    assert copy == formula and copy(ENV) == 8 and copy.terms(ENV) == formula.terms(ENV)


# --- terms ---------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("2 * tiles + 2 * pennants", [("2 * tiles", 6), ("2 * pennants", 2)]),
    ("1 + neighbors", [("1", 1), ("neighbors", 4)]),
    ("tiles - 2 * pennants + 1", [("tiles", 3), ("2 * pennants", -2), ("1", 1)]),
    ("(tiles + 1) - (pennants)", [("(tiles + 1)", 4), ("(pennants)", -1)]),
    ("(tiles + pennants)", [("tiles", 3), ("pennants", 1)]),
    ("2*tiles  +  pennants", [("2*tiles", 6), ("pennants", 1)]),
    ("3 * completed_cities", [("3 * completed_cities", 6)]),
    ("-(tiles + 1)", [("-(tiles + 1)", -4)]),
    ("min(tiles + 1)", [("min(tiles + 1)", 4)]),
    ("if complete then 1 + tiles else 0", [("if complete then 1 + tiles else 0", 4)]),
    ("tiles\n  + pennants", [("tiles", 3), ("pennants", 1)]),
])
def test_terms(text: str, expected: list[tuple[str, int]]) -> None:
    formula = compiled(text)
    assert formula.terms(ENV) == expected
    assert sum(v for _, v in formula.terms(ENV)) == formula(ENV)


def test_terms_of_a_boolean_formula() -> None:
    assert compiled("tiles > 2", want=bool).terms(ENV) == [("tiles > 2", True)]


# --- errors --------------------------------------------------------------------

@pytest.mark.parametrize("text, code, offset", [
    ("2 * tiles + * pennants", "formula-syntax", 12),
    ("2 * tiles +", "formula-syntax", 11),
    ("2 * tiles +   ", "formula-syntax", 11),
    ("(tiles + 1", "formula-syntax", 10),
    ("tiles = 2", "formula-syntax", 6),
    ("tiles / 2", "formula-syntax", 6),
    ("tiles < 2 < 3", "formula-syntax", 10),
    ("", "formula-syntax", 0),
    ("   ", "formula-syntax", 0),
    ("tiles pennants", "formula-syntax", 6),
    ("if complete then 1", "formula-syntax", 18),
    ("min()", "formula-syntax", 4),
    ("min", "formula-syntax", 3),
    ("1 + not complete", "formula-syntax", 4),
    ("1 + if complete then 1 else 2", "formula-syntax", 4),
    ("Tiles", "formula-syntax", 0),
    ("tiles(1)", "formula-syntax", 5),
    ("tils + 1", "formula-name", 0),
    ("2 * tiles + 2 * pennant", "formula-name", 16),
    ("farms", "formula-name", 0),
    ("tiles + complete", "formula-type", 8),
    ("complete + tiles", "formula-type", 0),
    ("2 * complete", "formula-type", 4),
    ("tiles and complete", "formula-type", 0),
    ("tiles and 1", "formula-type", 0),
    ("complete and 1", "formula-type", 13),
    ("complete or tiles", "formula-type", 12),
    ("not tiles", "formula-type", 4),
    ("-complete", "formula-type", 1),
    ("complete < true", "formula-type", 0),
    ("tiles >= complete", "formula-type", 9),
    ("complete == 1", "formula-type", 12),
    ("if tiles then 1 else 2", "formula-type", 3),
    ("if complete then 1 else false", "formula-type", 24),
    ("min(tiles, complete)", "formula-type", 11),
    ("complete", "formula-type", 0),  # result type is not the one wanted
    ("  tiles > 1", "formula-type", 2),
    ("tiles // 0", "formula-div-zero", 9),
    ("1 // 0", "formula-div-zero", 5),
    ("tiles // (2 - 2)", "formula-div-zero", 10),
    ("tiles // min(0, 5) + 1", "formula-div-zero", 9),
    ("-" * (MAX_DEPTH + 1) + "1", "formula-too-complex", MAX_DEPTH),
    ("x" * (MAX_LENGTH + 1), "formula-too-complex", MAX_LENGTH),
])
def test_error_codes_and_columns(text: str, code: str, offset: int) -> None:
    where: dict[str, Any] = {"file": "rules.yaml", "line": 7, "col": 12, "path": "$.features.city.scoring.complete"}
    diagnostic = error(text, **where)
    assert (diagnostic.code, diagnostic.col) == (code, 12 + offset)
    assert (diagnostic.file, diagnostic.line, diagnostic.path) == ("rules.yaml", 7, where["path"])
    caret = diagnostic.snippet.splitlines()[-1] if diagnostic.snippet else ""
    assert caret.endswith("^") and not caret[:-1].strip()


def test_rendered_error_points_into_the_yaml_file() -> None:
    diagnostic = error("2 * tiles + * pennants", file="rules.yaml", line=7, col=12)
    assert diagnostic.render() == (
        "rules.yaml:7:24: error: unexpected '*'; expected a value [formula-syntax]\n"
        "    2 * tiles + * pennants\n"
        "                ^"
    )


def test_position_without_a_location_is_within_the_formula() -> None:
    diagnostic = error("tiles + * 2")
    assert (diagnostic.line, diagnostic.col, diagnostic.file) == (None, 9, None)


def test_error_on_a_later_line_of_a_block_scalar() -> None:
    diagnostic = error("tiles +\n  * 2", line=7, col=12)
    assert (diagnostic.line, diagnostic.col) == (8, 14)
    assert diagnostic.snippet == "      * 2\n      ^"


def test_long_line_snippet_is_a_window_round_the_caret() -> None:
    text = "tiles + " * 40 + "farms"
    diagnostic = error(text, col=1)
    assert diagnostic.col == len(text) - 4
    shown, caret = (diagnostic.snippet or "").splitlines()
    assert len(shown) < 90 and shown.startswith("    ...") and shown.endswith("farms")
    assert shown[len(caret) - 1:].startswith("farms")


def test_unknown_name_suggestions() -> None:
    assert "did you mean 'tiles'?" in error("tils").message
    assert "did you mean 'completed_cities'?" in error("completed_city").message
    message = error("xyz").message
    assert "did you mean" not in message and "tiles" in message
    assert "no inputs" in error("tiles", inputs={}).message


@pytest.mark.parametrize("text, words", [
    ("tiles < 2 < 3", "do not chain"),
    ("tiles = 2", "'=='"),
    ("tiles / 2", "'//'"),
    ("foo(1)", "only min(...) and max(...)"),
    ("(tiles + 1", "expected ')'"),
    ("1 2", "expected an operator or the end"),
    ("if complete then 1 else false", "both must be of one type"),
])
def test_messages_help(text: str, words: str) -> None:
    assert words in error(text).message


@pytest.mark.parametrize("text", [
    '__import__("os")', "__import__('os')", "tiles.__class__", "().__class__", "min.__call__",
    "getattr(tiles, 'x')", "open('f')", "exec('1')", "eval(tiles)", "lambda: 1", "tiles if complete else 1",
    "[1]", "{}", "tiles[0]", "tiles;", "1 ** 2", "1 % 2", "0x10", "1e5", "1.5", "tiles()", "min(1)(2)",
    "(", ")", "if", "then", "else", "and", "or", "not", "-", "#", "tiles # comment", "é", "\x00", "`tiles`",
    "a\\\nb", "$tiles", "tiles @ 2",
])
def test_no_code_execution_and_no_lark_errors(text: str) -> None:
    assert error(text).code == "formula-syntax"


@pytest.mark.parametrize("keyword", ["if", "then", "else", "and", "or", "not", "min", "max"])
def test_keywords_are_reserved(keyword: str) -> None:
    assert error(f"{keyword} + 1", inputs={keyword: int}).code == "formula-syntax"
    assert error(f"1 + {keyword}", inputs={keyword: int}).code == "formula-syntax"


def test_true_is_a_literal_even_if_declared() -> None:
    formula = compile_formula("true", {"true": int}, want=bool)
    assert formula.names == frozenset() and formula({}) is True


def test_length_and_nesting_limits() -> None:
    assert value("1" + " " * (MAX_LENGTH - 1)) == 1
    assert value("-" * MAX_DEPTH + "1") == 1
    assert value("(" * 100 + "tiles" + ")" * 100) == 3  # parentheses alone nest nothing
    nested = "tiles"
    for level in range(MAX_DEPTH):
        nested = f"min({nested}, 9)" if level % 2 else f"(1 + {nested})"
    assert value(nested) == 9
    assert error(f"-{nested}").code == "formula-too-complex"
    deep = "-" * 400 + "1"  # would overflow a recursive walk long before the check
    assert error(deep).code == "formula-too-complex"


def test_bad_types_are_programming_errors() -> None:
    with pytest.raises(TypeError):
        compile_formula("tiles", {"tiles": float})
    with pytest.raises(TypeError):
        compile_formula("tiles", {"tiles": int}, want=str)


def test_grammar_file_and_parser_built_once() -> None:
    assert GRAMMAR_PATH.name == "scoring.lark" and GRAMMAR_PATH.is_file()
    assert _parser() is _parser()


# --- properties ------------------------------------------------------------------

INT_NAMES = ("tiles", "pennants", "neighbors")
BOOL_NAMES = ("complete", "open")
PROPERTY_INPUTS: dict[str, type] = {**{n: int for n in INT_NAMES}, **{n: bool for n in BOOL_NAMES}}
IF, OR, AND, NOT, CMP, ADD, MUL, NEG, ATOM = range(9)  # precedence, loosest first

Node = tuple[Any, ...]


@functools.cache
def int_exprs(depth: int) -> st.SearchStrategy[Node]:
    leaf = st.one_of(st.integers(0, 12).map(lambda n: ("lit", n)),
                     st.sampled_from(INT_NAMES).map(lambda n: ("name", n)))
    if depth == 0:
        return leaf
    i, b = int_exprs(depth - 1), bool_exprs(depth - 1)
    return st.one_of(
        leaf,
        st.tuples(st.just("bin"), st.sampled_from(["+", "-", "*", "//"]), i, i),
        st.tuples(st.just("neg"), i),
        st.tuples(st.just("paren"), i),
        st.tuples(st.just("if"), b, i, i),
        st.tuples(st.just("call"), st.sampled_from(["min", "max"]), st.lists(i, min_size=1, max_size=3).map(tuple)),
    )


@functools.cache
def bool_exprs(depth: int) -> st.SearchStrategy[Node]:
    leaf = st.one_of(st.booleans().map(lambda v: ("lit", v)), st.sampled_from(BOOL_NAMES).map(lambda n: ("name", n)))
    if depth == 0:
        return leaf
    i, b = int_exprs(depth - 1), bool_exprs(depth - 1)
    return st.one_of(
        leaf,
        st.tuples(st.just("cmp"), st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), i, i),
        st.tuples(st.just("cmp"), st.sampled_from(["==", "!="]), b, b),
        st.tuples(st.just("not"), b),
        st.tuples(st.just("logic"), st.sampled_from(["and", "or"]), b, b),
        st.tuples(st.just("paren"), b),
        st.tuples(st.just("if"), b, b, b),
    )


def render(node: Node) -> tuple[str, int]:
    """Formula text for ``node`` with only the parentheses precedence needs, and its level."""
    kind = node[0]
    if kind == "lit":
        return {True: "true", False: "false"}.get(node[1], str(node[1])) if isinstance(node[1], bool) \
            else str(node[1]), ATOM
    if kind == "name":
        return node[1], ATOM
    if kind == "paren":
        return f"({render(node[1])[0]})", ATOM
    if kind == "neg":
        return "-" + wrap(node[1], NEG), NEG
    if kind == "not":
        return "not " + wrap(node[1], NOT), NOT
    if kind in ("bin", "logic"):
        _, op, a, b = node
        level = {"+": ADD, "-": ADD, "*": MUL, "//": MUL, "and": AND, "or": OR}[op]
        return f"{wrap(a, level)} {op} {wrap(b, level + 1)}", level  # left-associative
    if kind == "cmp":
        _, op, a, b = node
        return f"{wrap(a, ADD)} {op} {wrap(b, ADD)}", CMP  # comparisons do not chain
    if kind == "if":
        return f"if {render(node[1])[0]} then {render(node[2])[0]} else {render(node[3])[0]}", IF
    return f"{node[1]}({', '.join(render(arg)[0] for arg in node[2])})", ATOM


def wrap(node: Node, level: int) -> str:
    text, own = render(node)
    return text if own >= level else f"({text})"


COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
           ">=": operator.ge}


def reference(node: Node, env: dict[str, Any]) -> Any:
    """The value of ``node``, evaluated the obvious way."""
    kind = node[0]
    if kind == "lit":
        return node[1]
    if kind == "name":
        return env[node[1]]
    if kind == "paren":
        return reference(node[1], env)
    if kind == "neg":
        return -reference(node[1], env)
    if kind == "not":
        return not reference(node[1], env)
    if kind == "if":
        return reference(node[2], env) if reference(node[1], env) else reference(node[3], env)
    if kind == "call":
        return (min if node[1] == "min" else max)(reference(arg, env) for arg in node[2])
    op, a, b = node[1], reference(node[2], env), reference(node[3], env)
    if kind == "cmp":
        return COMPARE[op](a, b)
    if kind == "logic":
        return (a and b) if op == "and" else (a or b)
    return {"+": a + b, "-": a - b, "*": a * b, "//": a // b if b else 0}[op]


def children(node: Node) -> list[Node]:
    kind = node[0]
    if kind in ("lit", "name"):
        return []
    if kind == "call":
        return list(node[2])
    return [part for part in node[1:] if isinstance(part, tuple)]


def reads_input(node: Node) -> bool:
    return node[0] == "name" or any(reads_input(child) for child in children(node))


def divides_by_constant_zero(node: Node) -> bool:
    if node[:2] == ("bin", "//") and not reads_input(node[3]) and reference(node[3], {}) == 0:
        return True
    return any(divides_by_constant_zero(child) for child in children(node))


envs = st.fixed_dictionaries({**{n: st.integers(-5, 30) for n in INT_NAMES}, **{n: st.booleans() for n in BOOL_NAMES}})


@settings(max_examples=400, deadline=None)
@given(st.one_of(int_exprs(4).map(lambda n: (n, int)), bool_exprs(4).map(lambda n: (n, bool))), envs)
def test_compiled_formula_matches_reference(tree_and_type: tuple[Node, type], env: dict[str, Any]) -> None:
    tree, want = tree_and_type
    text = render(tree)[0]
    assume(len(text) <= MAX_LENGTH)
    if divides_by_constant_zero(tree):
        assert error(text, inputs=PROPERTY_INPUTS, want=want).code == "formula-div-zero"
        return
    formula = compile_formula(text, PROPERTY_INPUTS, want=want)
    expected = reference(tree, env)
    assert formula(env) == expected and type(formula(env)) is type(expected), text
    generated = function(f"return {formula.src}", text, formula.refs)  # the Python a score runs
    assert generated(env) == expected and type(generated(env)) is type(expected), text
    if want is int:
        assert sum(v for _, v in formula.terms(env)) == expected, text
        assert Score(text, ((None, formula),)).points(env) == expected, text


TOKENS = ["tiles", "complete", "if", "then", "else", "and", "or", "not", "min", "max", "true", "(", ")", ",",
          "+", "-", "*", "//", "==", "<", "0", "2", "x", "=", "."]


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.lists(st.sampled_from(TOKENS), max_size=12).map(" ".join), st.text(max_size=40)))
def test_any_text_compiles_or_raises_user_error(text: str) -> None:
    try:
        compile_formula(text, INPUTS)
    except UserError as raised:
        (diagnostic,) = raised.diagnostics
        assert diagnostic.code and diagnostic.code.startswith("formula-")
        assert diagnostic.col is not None and 1 <= diagnostic.col <= len(text) + 1
