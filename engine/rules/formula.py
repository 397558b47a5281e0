"""Scoring formulas: parsed once with lark, compiled to closures, evaluated often.

A ruleset scores each feature kind with formulas such as ``2 * tiles + 2 *
pennants`` or ``if tiles == 2 then tiles + pennants else 2 * tiles``.  The
grammar is ``grammar/scoring.lark``, parsed by :mod:`engine.rules.formula_syntax`
(limits and syntax errors); this module holds the public :func:`compile_formula`
and :class:`Formula`, and the compiler that checks names and types while it
turns the parse tree into nested Python closures (built by
:mod:`engine.rules.formula_nodes`) and into the same expression as Python source
(``src``), written from the checked tree alone (input names as string literals,
numbers, the grammar's operators), from which a score generates one function
with no builtins but ``min`` and ``max`` (:class:`~engine.rules.kinds.Score`):
no user text is ever given to ``compile``, and a formula cannot do anything but
arithmetic on its inputs.

The language, loosest binding first::

    if C then A else B        C boolean; A and B of one type
    a or b,  a and b,  not a  booleans only
    a == b  a != b            two numbers or two booleans; comparisons do not chain
    a < b  a <= b  a > b  a >= b
    a + b   a - b             numbers
    a * b   a // b            // floors like Python's (-7 // 2 == -4)
    -a                        unary minus
    42  tiles  true  false  min(a, ...)  max(a, ...)  (a)

Rules worth knowing:

* Division is total: ``x // 0`` is 0 at run time, so a formula never raises
  during a game.  A divisor that is 0 whatever the inputs is an error instead.
* A subexpression that reads no input is computed once, at compile time, and
  must lie within ±:data:`MAX_POINTS` (``1000000 * 1000000`` is an error).
* Keywords (``if then else and or not true false min max``) are reserved.
* ``previous`` is the formula this one replaces (an option's formula over the
  ruleset's, docs/rulesets.md "How options combine"), evaluated with the same
  inputs; the caller passes it as ``previous=``.  A formula that names it
  where nothing came before is an error (``formula-previous``).

    >>> f = compile_formula("2 * tiles + 2 * pennants", {"tiles": int, "pennants": int})
    >>> f({"tiles": 3, "pennants": 1})
    8
    >>> f.terms({"tiles": 3, "pennants": 1})
    [('2 * tiles', 6), ('2 * pennants', 2)]
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from lark import Token, Transformer, v_args
from lark.exceptions import VisitError

# Two lines, not ruff's one name a line (the isort skip): that would take this module past 400 lines.
from .formula_nodes import (VARIABLE, Env, Evaluator, Node, Value, calling, chain, combine, conditional,  # isort: skip
                            constant, inverted, named, negate)
from .formula_syntax import MAX_POINTS, Source, balanced, parse, span

#: The name a formula uses for the formula it replaces (reserved: no input may be called so).
PREVIOUS = "previous"
#: Where a formula's text names ``previous`` (a whole word: ``previous_x`` is another name).
PREVIOUS_PATTERN = re.compile(rf"\b{PREVIOUS}\b")


def names_previous(value: object) -> bool:
    """Whether ``value`` (a formula's text, or a mapping or list holding formulas) names ``previous``."""
    if isinstance(value, str):
        return PREVIOUS_PATTERN.search(value) is not None
    if isinstance(value, dict):
        return any(names_previous(v) for v in value.values())
    if isinstance(value, list):
        return any(names_previous(v) for v in value)
    return False


_ATOM = re.compile(r"[a-z_][a-z0-9_]*|[0-9]+")


def as_operand(text: str) -> str:
    """``text`` as one operand, to stand where ``previous`` stood: in parentheses unless it
    is a name, a number, or already one parenthesised whole."""
    if _ATOM.fullmatch(text):
        return text
    if text.startswith("("):
        depth = 0
        for i, char in enumerate(text):
            depth += {"(": 1, ")": -1}.get(char, 0)
            if depth == 0:
                if i == len(text) - 1:
                    return text
                break
    return f"({text})"


def written_out(text: str, stands_for: list[str]) -> str:
    """``text`` with each ``previous`` replaced by the formula it stands for, given as the
    texts of its parts (which add up); white space folded."""
    text = " ".join(text.split())
    if not stands_for:
        return text
    whole = " + ".join(as_operand(part) for part in stands_for) if len(stands_for) > 1 else stands_for[0]
    if text == PREVIOUS:
        return whole
    return PREVIOUS_PATTERN.sub(lambda _: as_operand(whole), text)


#: What ``previous`` stands for: the replaced formula's named parts ``(label or None, formula)``,
#: which add up (one unnamed part for a plain formula).
Earlier = tuple[tuple[str | None, "Formula"], ...]


@dataclass(frozen=True)
class Formula:
    """A compiled formula; call it with the inputs to get its value.

    ``text`` is the source, ``names`` the inputs it reads (those of the
    formula ``previous`` stands for included), ``is_bool`` its result type,
    ``earlier`` what ``previous`` stands for (empty if the text does not
    name it).  ``fn`` is the closure itself: a hot loop may call it directly
    and skip one frame.  The env passed must hold every name in ``names``
    (a missing one raises ``KeyError``: a bug in the caller, not in the ruleset).
    ``where`` says where the text sits (``file``, ``line``, ``col``, ``path`` as
    given to :func:`compile_formula`, keywords for :class:`~engine.errors.UserError`),
    so a problem found while scoring points at it.  A formula pickles by recompiling its text.
    """

    text: str
    names: frozenset[str]
    is_bool: bool
    fn: Evaluator = field(repr=False, compare=False)
    _terms: tuple[tuple[str, int, Evaluator], ...] = field(default=(), repr=False, compare=False)
    _types: tuple[tuple[str, type], ...] = field(default=(), repr=False, compare=False)
    where: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    earlier: Earlier = field(default=(), repr=False, compare=False)
    #: ``fn``'s expression as Python over ``env`` and the functions it calls (engine/rules/formula_nodes.py).
    src: str = field(default="", repr=False, compare=False)
    refs: tuple[tuple[str, Evaluator], ...] = field(default=(), repr=False, compare=False)

    def __call__(self, env: Env) -> Value:
        """The value of the formula for ``env`` (name -> int or bool)."""
        return self.fn(env)

    @property
    def written(self) -> str:
        """The text with ``previous`` written out as the formula it stands for, in
        parentheses (what the log and records show; docs/rulesets.md, "How options combine")."""
        return written_out(self.text, [formula.written for _, formula in self.earlier])

    def terms(self, env: Env) -> list[tuple[str, Value]]:
        """Explain the value as ``[(term text, value), ...]`` that add up to it.

        A top-level sum gives one entry per term, the value carrying the
        term's sign (``tiles - 2`` -> ``[("tiles", 5), ("2", -2)]``); anything
        else gives one entry for the whole formula.  A term that is just
        ``previous`` is explained by the replaced formula's own terms.
        """
        if not self._terms:
            return [(self.written, self.fn(env))]
        found: list[tuple[str, Value]] = []
        for text, sign, fn in self._terms:
            if text == PREVIOUS and self.earlier:
                found.extend((f"{label}: {part}" if label else part, sign * value)
                             for label, formula in self.earlier for part, value in formula.terms(env))
            else:
                found.append((text, sign * fn(env)))
        return found

    def __reduce__(self) -> tuple[Any, ...]:
        # Closures do not pickle; worker processes get the text (and what previous stands for) and recompile.
        return (_recompile, (self.text, self._types, bool if self.is_bool else int, self.where, self.earlier))


def _recompile(text: str, types: tuple[tuple[str, type], ...], want: type, where: dict[str, Any],
               earlier: Earlier) -> Formula:
    return compile_formula(text, dict(types), want=want, previous=earlier or None, **where)


def compile_formula(text: str, inputs: Mapping[str, type], *, want: type = int,
                    file: str | None = None, line: int | None = None, col: int | None = None,
                    path: str | None = None, previous: Earlier | None = None) -> Formula:
    """Parse, check and compile ``text`` into a :class:`Formula`.

    ``inputs`` maps each name the formula may read to ``int`` or ``bool``;
    ``want`` is the result type required; ``previous`` is what the name
    ``previous`` stands for (the parts of the formula this one replaces,
    compiled with the same inputs), None where nothing came before.
    ``file``, ``line``, ``col`` and ``path`` say where the text sits: ``line``/``col`` (1-based) are those of
    its first character, so an error ``k`` characters in is reported at
    ``col + k`` (on a later line of a multi-line text, at ``line + n`` and
    ``col +`` its offset in that line, which is right for a YAML block scalar).

    Raises :class:`UserError` with code ``formula-syntax``, ``formula-name``,
    ``formula-previous`` (``previous`` with nothing before), ``formula-type``,
    ``formula-div-zero``, ``formula-too-complex`` or ``formula-range`` (a
    constant part beyond ±MAX_POINTS), and a caret snippet under the offending column.  Raises
    ``TypeError`` when ``inputs`` or ``want`` name a type other than ``int`` or ``bool``.
    """
    if want not in (int, bool) or any(t not in (int, bool) for t in inputs.values()):
        raise TypeError("formula types must be int or bool")
    source = Source(text, file, line, col, path)
    tree = parse(source)
    compiler = _Compiler(source, inputs, previous)
    try:
        node: Node = compiler.transform(tree)
    except VisitError as error:  # lark wraps whatever a transformer method raises
        raise error.orig_exc from None
    if node.is_bool != (want is bool):
        source.fail("formula-type", f"formula gives {_kind(node.is_bool)}, but {_kind(want is bool)} "
                    "is needed here", len(text) - len(text.lstrip()))
    return Formula(text, frozenset(compiler.names), node.is_bool, node.fn, node.terms,
                   tuple(sorted((name, inputs[name]) for name in compiler.names)),
                   {"file": file, "line": line, "col": col, "path": path},
                   previous if PREVIOUS in compiler.used and previous else (), node.src, node.refs)


def _kind(is_bool: bool) -> str:
    return "a boolean" if is_bool else "a number"


class _Compiler(Transformer):
    """Turns a parse tree into one :class:`Node`, checking names and types.

    Method names are the grammar's rule and terminal names; each gets its
    children already compiled and raises :class:`UserError` at the first
    problem (lark wraps it in ``VisitError``; :func:`compile_formula` unwraps).
    """

    def __init__(self, source: Source, inputs: Mapping[str, type], previous: Earlier | None = None) -> None:
        super().__init__()
        self.source, self.inputs, self.previous = source, inputs, previous
        self.names: set[str] = set()
        self.used: set[str] = set()  # the special names it reads (previous)

    def expect(self, node: Node, is_bool: bool, need: str) -> None:
        if node.is_bool != is_bool:
            self.source.fail("formula-type", f"{self.excerpt(node)} is {_kind(node.is_bool)}, "
                             f"but {need}", node.start)

    def excerpt(self, node: Node) -> str:
        """The node's text on one line, shortened, for messages."""
        piece = balanced(self.source.text, node.start, node.end)
        return repr(piece if len(piece) <= 30 else piece[:27] + "...")

    def bounded(self, node: Node, what: str = "{} is") -> Node:
        """``node``, unless a constant number beyond ±:data:`MAX_POINTS` (checked at each step of
        folding, so no formula builds a huge number); ``what`` words the message, ``{}`` the node."""
        value = node.const
        if value is not VARIABLE and not isinstance(value, bool) and not -MAX_POINTS <= value <= MAX_POINTS:
            shown = str(value) if abs(value) < 10**20 else f"a number of {len(str(abs(value)))} digits"
            self.source.fail("formula-range", f"{what.format(self.excerpt(node))} {shown}, beyond ±{MAX_POINTS:,}:"
                             " a formula's constant parts must lie within it", node.start)
        return node

    def INT(self, token: Token) -> Node:
        return self.bounded(constant(int(token), *span(token)))

    def TRUE(self, token: Token) -> Node:
        return constant(True, *span(token))

    def FALSE(self, token: Token) -> Node:
        return constant(False, *span(token))

    def NAME(self, token: Token) -> Node:
        name = str(token)
        if name == PREVIOUS:
            return self._previous(token)
        if name not in self.inputs:
            names = [*self.inputs, *([PREVIOUS] if self.previous else [])]
            close = difflib.get_close_matches(name, names, n=1)
            hint = (f"; did you mean {close[0]!r}?" if close else
                    f"; inputs here: {', '.join(sorted(names))}" if names else "; there are no inputs")
            self.source.fail("formula-name", f"unknown input {name!r}{hint}", span(token)[0])
        self.names.add(name)
        return named(name, self.inputs[name] is bool, *span(token))

    def _previous(self, token: Token) -> Node:
        """The formula this one replaces, as one node: its parts add up."""
        if not self.previous:
            self.source.fail("formula-previous", "'previous' is the formula this one replaces, but no earlier "
                             "file sets one here", span(token)[0])
        self.used.add(PREVIOUS)
        formulas = [formula for _, formula in self.previous]
        for formula in formulas:
            self.names |= formula.names
        if len(formulas) == 1:
            only = formulas[0]
            return calling(only.fn, only.is_bool, *span(token))
        fns = tuple(formula.fn for formula in formulas)
        return calling(lambda env: sum(int(fn(env)) for fn in fns), False, *span(token))

    def start(self, children: list[Node]) -> Node:
        return children[0]

    @v_args(meta=True)
    def if_then_else(self, meta: Any, children: list[Node]) -> Node:
        cond, then, other = children
        self.expect(cond, True, "the condition after 'if' must be a boolean")
        if then.is_bool != other.is_bool:
            self.source.fail("formula-type", f"'then' gives {_kind(then.is_bool)} but 'else' gives "
                             f"{_kind(other.is_bool)}; both must be of one type", other.start)
        if all(n.const is not VARIABLE for n in children):
            return constant(then.const if cond.const else other.const, meta.start_pos, meta.end_pos)
        return conditional(cond, then, other, meta.start_pos, meta.end_pos)

    @v_args(meta=True)
    def or_test(self, meta: Any, children: list[Node]) -> Node:
        return self._logic("or", meta, children)

    @v_args(meta=True)
    def and_test(self, meta: Any, children: list[Node]) -> Node:
        return self._logic("and", meta, children)

    def _logic(self, op: str, meta: Any, children: list[Node]) -> Node:
        for node in children:
            self.expect(node, True, f"'{op}' needs booleans")
        return replace(chain(op, children), start=meta.start_pos, end=meta.end_pos)

    @v_args(meta=True)
    def not_test(self, meta: Any, children: list[Node]) -> Node:
        (node,) = children
        self.expect(node, True, "'not' needs a boolean")
        if node.const is not VARIABLE:
            return constant(not node.const, meta.start_pos, meta.end_pos)
        return inverted(node, meta.start_pos, meta.end_pos)

    @v_args(meta=True)
    def comparison(self, meta: Any, children: list[Any]) -> Node:
        left, op, right = children[0], str(children[1]), children[2]
        if op in ("==", "!="):
            if left.is_bool != right.is_bool:
                self.source.fail("formula-type", f"{op!r} compares two numbers or two booleans, but "
                                 f"{self.excerpt(left)} is {_kind(left.is_bool)} and "
                                 f"{self.excerpt(right)} is {_kind(right.is_bool)}", right.start)
        else:
            self.expect(left, False, f"{op!r} compares numbers")
            self.expect(right, False, f"{op!r} compares numbers")
        return replace(combine(op, left, right), start=meta.start_pos, end=meta.end_pos)

    @v_args(meta=True)
    def sum(self, meta: Any, children: list[Any]) -> Node:
        operands, ops = children[0::2], children[1::2]
        for i, node in enumerate(operands):
            self.expect(node, False, f"{str(ops[max(i - 1, 0)])!r} needs numbers")
        signs = [1] + [1 if op == "+" else -1 for op in ops]
        # Term texts run from operator to operator, so `(a + b)` keeps its parentheses.
        bounds = [operands[0].start] + [op.end_pos for op in ops]
        ends = [op.start_pos for op in ops] + [operands[-1].end]
        terms = tuple((balanced(self.source.text, lo, hi), sign, node.fn)
                      for lo, hi, sign, node in zip(bounds, ends, signs, operands))
        # Constants gather into one trailing term: `1 + neighbors` runs as `neighbors + 1`.
        total = sum(s * n.const for s, n in zip(signs, operands) if n.const is not VARIABLE)
        plus = [n for s, n in zip(signs, operands) if s > 0 and n.const is VARIABLE]
        minus = [n for s, n in zip(signs, operands) if s < 0 and n.const is VARIABLE]
        if plus and minus:
            node = combine("-", chain("+", plus), chain("+", minus))
        elif plus or minus:
            node = chain("+", plus) if plus else negate(chain("+", minus))
        else:
            node = constant(total, meta.start_pos, meta.end_pos)
        self.bounded(constant(total, meta.start_pos, meta.end_pos),
                     "the numbers in {} add up to" if plus or minus else "{} is")
        if total and (plus or minus):
            node = combine("+", node, constant(total, meta.start_pos, meta.end_pos))
        return replace(node, start=meta.start_pos, end=meta.end_pos, terms=terms)

    @v_args(meta=True)
    def product(self, meta: Any, children: list[Any]) -> Node:
        node = children[0]
        self.expect(node, False, f"{str(children[1])!r} needs numbers")
        for op, operand in zip(children[1::2], children[2::2]):
            self.expect(operand, False, f"{str(op)!r} needs numbers")
            if op == "//" and operand.const is not VARIABLE and operand.const == 0:
                self.source.fail("formula-div-zero", f"division by zero: {self.excerpt(operand)} "
                                 "is always 0", operand.start)
            node = self.bounded(combine(str(op), node, operand))
        return replace(node, start=meta.start_pos, end=meta.end_pos)

    @v_args(meta=True)
    def negate(self, meta: Any, children: list[Any]) -> Node:
        _, node = children
        self.expect(node, False, "'-' needs a number")
        return replace(negate(node), start=meta.start_pos, end=meta.end_pos)

    @v_args(meta=True)
    def call(self, meta: Any, children: list[Any]) -> Node:
        func, args = str(children[0]), children[1:]
        for node in args:
            self.expect(node, False, f"'{func}' needs numbers")
        # Constant arguments fold into one, which goes last so it stays inline.
        fixed = [n for n in args if n.const is not VARIABLE]
        varying = [n for n in args if n.const is VARIABLE]
        if fixed:
            varying.append(chain(func, fixed))
        return replace(chain(func, varying), start=meta.start_pos, end=meta.end_pos, terms=())
