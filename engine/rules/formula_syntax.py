"""Scoring formulas, from text to parse tree: the lark parser, limits and located syntax errors.

:func:`parse` turns a formula's text into the lark tree of
``grammar/scoring.lark`` (the rule names are those of the compiler's
transformer methods in :mod:`engine.rules.formula`, which documents the
language).  On the way it enforces the size limits and turns lark's
exceptions into :class:`~engine.errors.UserError` with a hint where a common
slip is recognised (``=`` for ``==``, ``/`` for ``//``, chained comparisons,
...).  :class:`Source` remembers where the text sits in its file, so the
compiler can report type and name errors at the same place as syntax errors.

    >>> print(parse(Source("2 * tiles", None, None, None, None)).pretty().rstrip())
    start
      product
        2
        *
        tiles
    >>> parse(Source("tiles = 2", "r.yaml", 4, 12, None))
    Traceback (most recent call last):
    engine.errors.UserError: r.yaml:4:18: error: unexpected character '='; use '==' to compare [formula-syntax]
        tiles = 2
              ^
"""

from __future__ import annotations

import functools
import io
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import lark
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ..errors import UserError
from ..resources import data_dir
from .build_cache import cache_key, cached

GRAMMAR_PATH: Path = data_dir("grammar") / "scoring.lark"
MAX_LENGTH = 500  # characters
MAX_DEPTH = 32  # operators nested in one another; parentheses alone do not count
#: The range of every number in scoring (docs/rulesets.md, "Scoring formulas"): a formula's constant
#: parts, one score's points, a player's total.  Far above any real game, far below slow integers.
MAX_POINTS = 10**9
_SNIPPET_WIDTH = 72


@functools.cache
def _parser() -> Lark:
    # The basic lexer (not the contextual one) turns every NAME spelled like a
    # keyword into that keyword, so `1 + not` cannot slip through as a name.
    grammar = GRAMMAR_PATH.read_text(encoding="utf-8")

    def build() -> bytes:
        out = io.BytesIO()
        Lark(grammar, parser="lalr", lexer="basic", propagate_positions=True).save(out)
        return out.getvalue()

    # Building the LALR tables is most of a short command's start-up; they are kept on disk.
    return cached("formula-parser", cache_key(grammar, lark.__version__), build,
                  lambda data: Lark.load(io.BytesIO(data)))


@dataclass(frozen=True)
class Source:
    """The formula text and where it sits, to turn an offset into a located error."""

    text: str
    file: str | None
    line: int | None
    col: int | None
    path: str | None

    def fail(self, code: str, message: str, offset: int) -> NoReturn:
        """Raise :class:`UserError` ``code`` at ``offset`` in the text, with a caret snippet."""
        text = self.text
        offset = max(0, min(offset, len(text)))
        begin = text.rfind("\n", 0, offset) + 1
        end = text.find("\n", offset)
        line_text, caret = text[begin:end if end >= 0 else len(text)].rstrip("\r"), offset - begin
        # A window round the caret, so a 500-character line does not flood the terminal.
        lo = max(0, min(caret - _SNIPPET_WIDTH // 2, len(line_text) - _SNIPPET_WIDTH))
        before = "..." if lo else ""
        after = "..." if lo + _SNIPPET_WIDTH < len(line_text) else ""
        shown = line_text[lo:lo + _SNIPPET_WIDTH]
        # Tabs stay tabs so the caret lines up however the terminal expands them.
        pad = " " * len(before) + "".join(c if c == "\t" else " " for c in shown[:caret - lo])
        line, col = self.position(offset)
        raise UserError(message, file=self.file, path=self.path, code=code, line=line, col=col,
                        snippet=f"    {before}{shown}{after}\n    {pad}^")

    def position(self, offset: int) -> tuple[int | None, int]:
        """``(line, col)`` in the file of the character ``offset`` into the text.

        YAML may have folded the text: a plain or quoted scalar continued on later lines
        reaches the formula with each line break and indentation turned into a space, a
        block scalar without its indentation.  So the text is walked beside the file's
        own characters from the value's first one, white space matching white space; where
        the file cannot be read (or does not hold the text there), the text's own lines are
        counted instead.
        """
        fallback = (None if self.line is None else self.line + self.text.count("\n", 0, offset),
                    (1 if self.col is None else self.col) + offset - (self.text.rfind("\n", 0, offset) + 1))
        raw = _file_from(self.file, self.line, self.col)
        if raw is None:
            return fallback
        quote, j = _quote(raw, self.file, self.line, self.col)
        i = 0
        while i < offset and j < len(raw):
            if quote == '"' and raw[j] == "\\":
                width = _escape_width(raw, j)
                if raw[j + 1:j + 2] in ("\r", "\n"):  # an escaped line break: nothing, nor the indentation after
                    j += width
                    while j < len(raw) and raw[j] in " \t":
                        j += 1
                else:  # one character of the text (\t, \", \x41, ...)
                    i, j = i + 1, j + width
            elif quote == "'" and raw.startswith("''", j):  # a single-quoted scalar's doubled quote
                i, j = i + 1, j + 2
            elif self.text[i] == raw[j]:
                i, j = i + 1, j + 1
            elif raw[j] in " \t\r\n":
                while j < len(raw) and raw[j] in " \t\r\n":
                    j += 1
                while i < offset and self.text[i] in " \n":
                    i += 1
            elif self.text[i] in " \n":
                i += 1
            else:
                return fallback  # an escape sequence or another text: no safe mapping
        assert self.line is not None and self.col is not None  # _file_from needs both
        breaks = raw.count("\n", 0, j)
        return self.line + breaks, (self.col + j if not breaks else j - raw.rfind("\n", 0, j))


def _quote(raw: str, file: str | None, line: int | None, col: int | None) -> tuple[str, int]:
    """The quote of the scalar whose text ``raw`` is (``"``, ``'`` or none), and where its first
    character is in ``raw``: a value's position is its quote's, or (the columns formulas count
    from) the character after it."""
    if raw[:1] in ("'", '"'):
        return raw[0], 1
    before = _file_from(file, line, col - 1) if col is not None and col > 1 else None
    return (before[0], 0) if before and before[0] in ("'", '"') else ("", 0)


def _escape_width(raw: str, j: int) -> int:
    """How many characters of a double-quoted YAML scalar the escape at ``raw[j]`` (a backslash)
    takes: ``\\xHH`` 4, ``\\uHHHH`` 6, ``\\UHHHHHHHH`` 10, an escaped CR LF 3, any other 2."""
    follow = raw[j + 1:j + 3]
    if follow == "\r\n":
        return 3
    return {"x": 4, "u": 6, "U": 10}.get(follow[:1], 2)


def _file_from(file: str | None, line: int | None, col: int | None) -> str | None:
    """The file's text from 1-based ``(line, col)`` on (a few thousand characters), or None."""
    if file is None or line is None or col is None:
        return None
    try:
        with open(file, encoding="utf-8-sig", newline="") as handle:
            lines = handle.read(4_000_000).splitlines(keepends=True)
    except (OSError, ValueError):
        return None
    if not 1 <= line <= len(lines):
        return None
    return "".join(lines[line - 1:line + 40])[col - 1:]


def balanced(text: str, lo: int, hi: int) -> str:
    """``text[lo:hi]`` on one line, widened until its parentheses balance."""
    # lark's spans of parenthesised operands may leave out one parenthesis:
    # widen to the nearest ones until the piece balances.
    while text.count(")", lo, hi) > text.count("(", lo, hi) and text.rfind("(", 0, lo) >= 0:
        lo = text.rfind("(", 0, lo)
    while text.count("(", lo, hi) > text.count(")", lo, hi) and text.find(")", hi) >= 0:
        hi = text.find(")", hi) + 1
    return " ".join(text[lo:hi].split())


def span(token: Token) -> tuple[int, int]:
    """A token's ``(start, end)`` offsets in the text."""
    assert token.start_pos is not None and token.end_pos is not None  # the lexer sets both
    return token.start_pos, token.end_pos


_CHAR_HINTS = {"=": "; use '==' to compare", "/": "; use '//' (floor division)", "&": "; use 'and'",
               "|": "; use 'or'", "!": "; use 'not'"}
_TOKEN_HINTS = {"COMPARE": "comparisons do not chain; join them with 'and'",
                "LPAR": "only min(...) and max(...) can be called",
                "NOT": "put 'not ...' in parentheses here", "IF": "put 'if ... then ... else ...' in parentheses here"}
#: The hint for ``if`` after a whole value (Python's ``A if C else B``), where parentheses do not help.
_CONDITION_FIRST = "the condition comes first: 'if CONDITION then VALUE else VALUE'"
_VALUE_START = {"INT", "NAME", "LPAR", "MINUS", "TRUE", "FALSE", "MIN", "MAX", "NOT", "IF"}
_OPERATORS = {"PLUS", "MINUS", "TIMES", "FLOORDIV", "COMPARE", "AND", "OR"}


def parse(source: Source) -> Tree:
    """The parse tree of the text, at most :data:`MAX_LENGTH` characters and :data:`MAX_DEPTH` deep.

    Raises :class:`UserError` with code ``formula-syntax`` or ``formula-too-complex``.
    """
    text = source.text
    if len(text) > MAX_LENGTH:
        source.fail("formula-too-complex",
                    f"formula is {len(text)} characters long; at most {MAX_LENGTH} are allowed", MAX_LENGTH)
    tree = _parse(source)
    _check_depth(tree, source)
    return tree


def _parse(source: Source) -> Tree:
    """The parse tree of the text; lark's errors become ``formula-syntax`` errors."""
    text = source.text
    if not text.strip():
        source.fail("formula-syntax", "formula is empty", 0)
    try:
        return _parser().parse(text)
    except UnexpectedCharacters as error:
        assert error.pos_in_stream is not None  # the lexer sets it
        char = text[error.pos_in_stream]
        hint = "; names are lower case" if char.isupper() else _CHAR_HINTS.get(char, "")
        source.fail("formula-syntax", f"unexpected character {char!r}{hint}", error.pos_in_stream)
    except UnexpectedToken as error:
        token = error.token
        # accepts() replays the parser: unlike `expected`, it leaves out what
        # LALR's merged states allow elsewhere (a ',' outside any call).
        accepted = error.interactive_parser.accepts()
        if token.type == "$END":
            source.fail("formula-syntax", f"unexpected end of formula; expected {_expected(accepted)}",
                        len(text.rstrip()))
        what = {"NAME": f"name {token.value!r}", "INT": f"number {token.value}"}.get(token.type, repr(token.value))
        hint = _TOKEN_HINTS.get(token.type, "") if token.type not in accepted else ""
        if token.type == "IF" and ("$END" in accepted or accepted & _OPERATORS):
            hint = _CONDITION_FIRST
        source.fail("formula-syntax", f"unexpected {what}; {hint or 'expected ' + _expected(accepted)}",
                    span(token)[0])
    except UnexpectedInput:  # UnexpectedEOF: LALR reports $END instead; kept so nothing of lark leaks
        source.fail("formula-syntax", "unexpected end of formula", len(text.rstrip()))


def _expected(terminals: set[str]) -> str:
    """Lark's expected terminal names in words: ``a value, ')' or ','``."""
    rest, words = set(terminals), []
    if "INT" in rest:
        words.append("a value")
        rest -= _VALUE_START
    if "PLUS" in rest:
        words.append("an operator")
        rest -= _OPERATORS
    words += sorted(repr(_parser().get_terminal(name).pattern.value) for name in rest - {"$END"})
    if "$END" in rest:
        words.append("the end")
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]


def _check_depth(tree: Tree, source: Source) -> None:
    # Iterative, so no text can exhaust Python's stack here; past this check,
    # compiling recurses at most MAX_DEPTH levels.
    stack = [(child, 1) for child in reversed(tree.children) if isinstance(child, Tree)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            source.fail("formula-too-complex", f"formula nests more than {MAX_DEPTH} operators deep",
                        node.meta.start_pos)
        stack.extend((child, depth + 1) for child in reversed(node.children) if isinstance(child, Tree))
