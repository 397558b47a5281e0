"""Where a command's results go: a terminal, a pipe, or JSON (``--json FILE`` or ``--json -``).

Every results-printing command takes ``--json FILE``: the same results as one
JSON document with ``format`` (``carcassonne-<command>``) and ``version``
fields, in the shape its schema in ``rulesets/schema/output/`` gives
(docs/json.md).  ``--json -`` prints only the JSON, on standard output, so
a script can read it; everything meant for people is then left out.  On a
terminal tables have boxes and colours; piped, they are plain aligned
columns, wide enough not to wrap.

Text from files (player names, tile ids, descriptions, the messages quoting
them) is untrusted: every console here is a :func:`terminal_console`, which
interprets no markup or emoji codes in any string and writes every control
character as a visible escape (:func:`engine.errors.printable`); ``echo``
and the JSON writer apply the same rule.
"""

from __future__ import annotations

import json
import sys
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from ..errors import UNSAFE, printable
from ..rules.references import split_ref

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

#: Bumped when a JSON output changes incompatibly (a key removed or its meaning changed).
JSON_VERSION = 1

JsonOption = Annotated[Optional[str], typer.Option(
    "--json", metavar="FILE",
    help="Also write the results as JSON to FILE; '-' prints only the JSON, to standard output.")]


class Output:
    """One command's output: ``json`` is the ``--json`` value (None, ``-`` or a path).

    Construct it before any work: a JSON file that cannot be written, or that is
    also another of the command's ``outputs`` or one of its ``inputs`` (name →
    path), is a :class:`~engine.errors.UserError` at once, not after the games.
    """

    def __init__(self, json_target: str | None, *, outputs: dict[str, Any] | None = None,
                 inputs: dict[str, Any] | None = None) -> None:
        from ..files.output import check_distinct, check_writable

        self.target = json_target
        self.to_stdout = json_target == "-"
        # The command's other outputs and its input files: none may be the same file as another.
        check_distinct({"--json": json_target, **(outputs or {})}, inputs)
        if json_target is not None and not self.to_stdout:
            check_writable(json_target)
        self._console: Console | None = None

    @property
    def terminal(self) -> bool:
        """Whether people read standard output on a terminal (tables get boxes and colours)."""
        return sys.stdout.isatty()

    @property
    def console(self) -> Console:
        """A rich console for people; silent when the JSON goes to standard output."""
        if self._console is None:
            self._console = terminal_console(soft_wrap=True, quiet=self.to_stdout,
                                             width=None if self.terminal else 160)
        return self._console

    def echo(self, text: str = "", *, err: bool = False) -> None:
        """A line for people (``err``: a diagnostic on standard error, always shown); control
        characters in it are shown as escapes (:func:`~engine.errors.printable`)."""
        if err:
            typer.echo(printable(text), err=True)
        elif not self.to_stdout:
            typer.echo(printable(text))

    def table(self, title: str | None = None) -> Table:
        """A rich table: boxed on a terminal, plain aligned columns in a pipe or file."""
        from rich.table import Table

        if self.terminal:
            return Table(title=title)
        return Table(title=title, box=None, pad_edge=False, title_justify="left")

    def json(self, command: str, data: dict[str, Any]) -> None:
        """Write ``data`` as the JSON result of ``command`` (no-op without ``--json``)."""
        if self.target is None:
            return
        document = {**data, "format": f"carcassonne-{command}", "version": JSON_VERSION}
        if self.to_stdout:
            typer.echo(json_text(document))
            return
        from ..files.output import write_text

        write_text(Path(self.target), json_text(document) + "\n")
        # A note, not a result: on standard error, so `show --json f.json > merged.yaml` keeps the YAML clean.
        self.echo(f"Results written to {self.target}", err=True)


def json_text(document: Any) -> str:
    r"""``document`` as indented JSON with sorted keys, UTF-8 text left as it is but every
    :data:`~engine.errors.UNSAFE` character written ``\uXXXX`` (the same data to a JSON
    reader; nothing a terminal acts on, and no lone surrogate that would fail to encode).

    >>> json_text({"name": "\x9b2J\ud800é"})
    '{\n "name": "\\u009b2J\\ud800é"\n}'
    """
    text = json.dumps(document, indent=1, ensure_ascii=False, sort_keys=True)
    return UNSAFE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)  # dumps escapes C0 itself; only strings hold these


def terminal_console(**options: Any) -> Console:
    """A :class:`rich.console.Console` (``options`` as rich takes them) that shows every
    string as text: no markup (``[bold]``), no emoji codes (``:smile:``), no highlighting,
    and control characters written as visible escapes as the output is rendered, so a
    name or tile id from a file cannot style, move or clear the terminal, whichever
    table, log line or drawing carries it.  Styles come only from :class:`rich.text.Text`
    and ``style=`` arguments in the code."""
    return _console_class()(markup=False, emoji=False, highlight=False, **options)


@lru_cache(maxsize=1)
def _console_class() -> type:
    from rich.console import Console
    from rich.segment import Segment

    class PlainConsole(Console):
        def render_str(self, text: str, **options: Any) -> Any:
            # Strings (printed, table cells, titles) are escaped before rich measures them.
            return super().render_str(printable(text), **options)

        def render(self, renderable: Any, options: Any = None) -> Any:
            # The one place every renderable's text passes on its way out; control segments
            # (the progress bar's cursor moves) are rich's own and carry no text from files.
            for segment in super().render(renderable, options):
                if segment.control is None and UNSAFE.search(segment.text):
                    segment = Segment(printable(segment.text), segment.style)
                yield segment

        def on_broken_pipe(self) -> None:
            # The reader went away (`carcassonne play | head -1`): it had what it wanted, so the
            # command ends quietly and successfully, as `git log | head` does (rich says exit 1).
            try:
                super().on_broken_pipe()  # points standard output at /dev/null, then exits
            except SystemExit:
                raise SystemExit(0) from None

    return PlainConsole


def ref_inputs(*refs: str) -> dict[str, str]:
    """The files named in ruleset references (``my.yaml+house.yaml``), for :class:`Output`'s ``inputs``."""
    return {f"ruleset file {part}": part for ref in refs for part in _parts(ref)
            if "/" in part or "\\" in part or "." in part}


def _parts(ref: str) -> list[str]:
    name, options = split_ref(ref)  # a path with '+' that names a file is that file
    return [name, *options]


def diagnostics_json(error: Any) -> list[dict[str, Any]]:
    """A :class:`~engine.errors.UserError`'s problems as JSON objects (file, line, col, path, code, message)."""
    return diagnostic_list(error.diagnostics)


def diagnostic_list(diagnostics: Any) -> list[dict[str, Any]]:
    """Diagnostics (errors or warnings) as JSON objects (file, line, col, path, code, message)."""
    return [{"file": d.file, "line": d.line, "col": d.col, "path": d.path, "code": d.code, "message": d.message}
            for d in diagnostics]
