"""The compiled form of a formula: nodes, the closures they run as, and the Python they read as.

:mod:`engine.rules.formula` turns a parse tree into one :class:`Node`; this
module holds the node, constant folding and the closure factories it builds
from, shaped for speed: a formula is evaluated for every score and every
look-ahead of the bots.  Each node also carries ``src``, the same expression
written as Python over ``env``, generated from the checked tree alone (input names
as string literals, numbers as ints, the operators of the grammar), never from
the user's text: :func:`function` turns a whole score into one function, one
interpreted frame where the closures take one per operator.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Value = int | bool
Env = Mapping[str, Value]
Evaluator = Callable[[Env], Value]

VARIABLE = object()  # the `const` of a node whose value depends on the inputs


@dataclass(frozen=True, slots=True)
class Node:
    """A compiled subexpression: its span in the text, its type and its closure."""

    start: int
    end: int
    is_bool: bool
    fn: Evaluator
    const: Any = VARIABLE  # the value, when the node reads no input
    name: str | None = None  # the input, when the node is just that input
    terms: tuple[tuple[str, int, Evaluator], ...] = ()  # (text, sign, closure) of a sum's terms
    src: str = ""  # the expression as Python over ``env`` (see the module docstring)
    refs: tuple[tuple[str, Evaluator], ...] = ()  # functions ``src`` calls by name (``previous``)


def constant(value: Value, start: int, end: int) -> Node:
    return Node(start, end, isinstance(value, bool), lambda env: value, const=value, src=repr(value))


def named(name: str, is_bool: bool, start: int, end: int) -> Node:
    """The node of input ``name`` (a checked input name)."""
    return Node(start, end, is_bool, operator.itemgetter(name), name=name, src=f"env[{name!r}]")


def calling(fn: Evaluator, is_bool: bool, start: int, end: int) -> Node:
    """A node that calls ``fn`` (another formula's function: what ``previous`` stands for)."""
    ref = f"_f{next(_FRESH)}"
    return Node(start, end, is_bool, fn, src=f"{ref}(env)", refs=((ref, fn),))


def conditional(cond: Node, then: Node, other: Node, start: int, end: int) -> Node:
    """``if cond then then else other``, cond not constant."""
    c, t, e = cond.fn, then.fn, other.fn
    return Node(start, end, then.is_bool, lambda env: t(env) if c(env) else e(env),
                src=f"({then.src} if {cond.src} else {other.src})", refs=cond.refs + then.refs + other.refs)


def inverted(node: Node, start: int, end: int) -> Node:
    """``not node``, node not constant."""
    f = node.fn
    return Node(start, end, True, lambda env: not f(env), src=f"(not {node.src})", refs=node.refs)


#: Fresh names for generated code: each walrus target and function reference is used once.
_FRESH = itertools.count()


def function(body: str, text: str, refs: tuple[tuple[str, Any], ...]) -> Any:
    """``def formula(env)`` with ``body`` (generated lines, the first unindented), named
    ``<formula TEXT>`` in tracebacks, its globals ``refs`` and ``min``/``max`` only."""
    scope: dict[str, Any] = {"__builtins__": {}, "min": min, "max": max, **dict(refs)}
    lines = "\n    ".join(body.splitlines())
    exec(compile(f"def formula(env):\n    {lines}\n", f"<formula {text!r}>", "exec"), scope)  # noqa: S102
    return scope["formula"]


# Closure factories by operator and operand shape (K constant, N input name,
# F any other node), so that `2 * tiles` runs as one frame with an inline dict
# lookup rather than a chain of calls.  Sums put their folded constant last and
# join their terms variable with variable, hence fewer shapes for + and -.
# A constant divisor is never 0 here.
_ARITH: dict[str, dict[str, Callable[[Any, Any], Evaluator]]] = {
    "+": {"NK": lambda a, b: lambda env: env[a] + b, "NN": lambda a, b: lambda env: env[a] + env[b],
          "FK": lambda a, b: lambda env: a(env) + b, "FF": lambda a, b: lambda env: a(env) + b(env)},
    "-": {"NN": lambda a, b: lambda env: env[a] - env[b], "FF": lambda a, b: lambda env: a(env) - b(env)},
    "*": {"KN": lambda a, b: lambda env: a * env[b], "NK": lambda a, b: lambda env: env[a] * b,
          "NN": lambda a, b: lambda env: env[a] * env[b], "KF": lambda a, b: lambda env: a * b(env),
          "FK": lambda a, b: lambda env: a(env) * b, "FF": lambda a, b: lambda env: a(env) * b(env)},
    "//": {"KN": lambda a, b: lambda env: a // d if (d := env[b]) else 0,
           "NK": lambda a, b: lambda env: env[a] // b,
           "NN": lambda a, b: lambda env: env[a] // d if (d := env[b]) else 0,
           "KF": lambda a, b: lambda env: a // d if (d := b(env)) else 0,
           "FK": lambda a, b: lambda env: a(env) // b,
           "FF": lambda a, b: lambda env: a(env) // d if (d := b(env)) else 0},
}
# Folding never meets a zero divisor: that is a formula-div-zero error first.
_FOLD: dict[str, Callable[[Any, Any], Value]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "==": operator.eq,
    "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "and": lambda a, b: a and b, "or": lambda a, b: a or b,
    "min": min, "max": max,
}
# The other operators: a constant right operand (`tiles == 2`, `min(tiles, 5)`)
# is inlined; min and max avoid the argument tuple of builtins.min.
_WITH_CONSTANT: dict[str, Callable[[Evaluator, Any], Evaluator]] = {
    "==": lambda f, k: lambda env: f(env) == k, "!=": lambda f, k: lambda env: f(env) != k,
    "<": lambda f, k: lambda env: f(env) < k, "<=": lambda f, k: lambda env: f(env) <= k,
    ">": lambda f, k: lambda env: f(env) > k, ">=": lambda f, k: lambda env: f(env) >= k,
    "min": lambda f, k: lambda env: x if (x := f(env)) <= k else k,
    "max": lambda f, k: lambda env: x if (x := f(env)) >= k else k,
}
_FLIPPED = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
_GENERAL: dict[str, Callable[[Evaluator, Evaluator], Evaluator]] = {
    "and": lambda f, g: lambda env: f(env) and g(env),
    "or": lambda f, g: lambda env: f(env) or g(env),
    "min": lambda f, g: lambda env: x if (x := f(env)) <= (y := g(env)) else y,
    "max": lambda f, g: lambda env: x if (x := f(env)) >= (y := g(env)) else y,
}


def combine(op: str, a: Node, b: Node) -> Node:
    """``a op b`` as one node, folded when both are constants (types already checked)."""
    is_bool = op not in _ARITH and op not in ("min", "max")
    if a.const is not VARIABLE and b.const is not VARIABLE:
        return constant(_FOLD[op](a.const, b.const), a.start, b.end)
    if op in _ARITH:
        shape = "".join("K" if n.const is not VARIABLE else "N" if n.name else "F" for n in (a, b))
        table = _ARITH[op]
        if shape not in table:  # NF or FN: the name goes as its itemgetter
            shape = shape.replace("N", "F")
        fn = table[shape](*(n.const if s == "K" else n.name if s == "N" else n.fn for s, n in zip(shape, (a, b))))
    elif b.const is not VARIABLE and op in _WITH_CONSTANT:
        fn = _WITH_CONSTANT[op](a.fn, b.const)
    elif a.const is not VARIABLE and op in _FLIPPED:  # `2 < tiles` runs as `tiles > 2`
        fn = _WITH_CONSTANT[_FLIPPED[op]](b.fn, a.const)
    elif op in _GENERAL:
        fn = _GENERAL[op](a.fn, b.fn)
    else:
        compare, f, g = _FOLD[op], a.fn, b.fn

        def folded(env: Env) -> Value:
            return compare(f(env), g(env))

        fn = folded
    return Node(a.start, b.end, is_bool, fn, src=_src(op, a.src, b.src), refs=a.refs + b.refs)


def _src(op: str, a: str, b: str) -> str:
    """``a op b`` as Python: min and max as calls, ``//`` total (0 for a zero divisor)."""
    if op in ("min", "max"):
        return f"{op}({a}, {b})"
    if op == "//":
        d = f"_d{next(_FRESH)}"
        return f"(({a}) // {d} if ({d} := {b}) else 0)"
    return f"({a} {op} {b})"


def chain(op: str, nodes: list[Node]) -> Node:
    """Join nodes with an associative ``op`` as a balanced tree, so a long
    ``a + b + c + ...`` costs log n nested calls rather than n."""
    while len(nodes) > 1:
        nodes = [combine(op, *nodes[i:i + 2]) if i + 1 < len(nodes) else nodes[i]
                 for i in range(0, len(nodes), 2)]
    return nodes[0]


def negate(node: Node) -> Node:
    if node.const is not VARIABLE:
        return constant(-node.const, node.start, node.end)
    name, f = node.name, node.fn
    fn = (lambda env: -env[name]) if name else (lambda env: -f(env))
    return Node(node.start, node.end, False, fn, src=f"(-{node.src})", refs=node.refs)
