"""Where a command's results go: a terminal, a pipe, or JSON (``--json FILE`` or ``--json -``).

Every results-printing command takes ``--json FILE``: the same results as one
JSON document with ``format`` (``carcassonne-<command>``) and ``version``
fields, in the shape its schema in ``rulesets/schema/output/`` gives
(docs/json.md).  ``--json -`` prints only the JSON, on standard output, so
a script can read it; everything meant for people is then left out.  On a
terminal tables have boxes and colours; piped, they are plain aligned
columns, wide enough not to wrap.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

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

    Construct it before any work: a JSON file that cannot be written is a
    :class:`~engine.errors.UserError` at once, not after the games.
    """

    def __init__(self, json_target: str | None) -> None:
        from ..files.output import check_writable

        self.target = json_target
        self.to_stdout = json_target == "-"
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
            from rich.console import Console

            self._console = Console(highlight=False, soft_wrap=True, quiet=self.to_stdout,
                                    width=None if self.terminal else 160)
        return self._console

    def echo(self, text: str = "", *, err: bool = False) -> None:
        """A line for people (``err``: a diagnostic on standard error, always shown)."""
        if err:
            typer.echo(text, err=True)
        elif not self.to_stdout:
            typer.echo(text)

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
            typer.echo(json.dumps(document, indent=1, ensure_ascii=False, sort_keys=True))
            return
        from ..files.output import write_text

        write_text(Path(self.target), json.dumps(document, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
        # A note, not a result: on standard error, so `show --json f.json > merged.yaml` keeps the YAML clean.
        self.echo(f"Results written to {self.target}", err=True)


def diagnostics_json(error: Any) -> list[dict[str, Any]]:
    """A :class:`~engine.errors.UserError`'s problems as JSON objects (file, line, col, path, code, message)."""
    return [{"file": d.file, "line": d.line, "col": d.col, "path": d.path, "code": d.code, "message": d.message}
            for d in error.diagnostics]
