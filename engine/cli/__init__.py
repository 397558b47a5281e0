"""The ``carcassonne`` command line: thin typer commands over the engine; the only layer that prints.

Exit codes: 0 success, 1 a check failed (a scenario expectation, a replay
that disagrees), 2 bad input (``file:line:col: error: …`` on stderr, never a
traceback), 70 a bug (its traceback and a line asking to report it), 130/143
Ctrl-C or SIGTERM.  ``app`` holds the typer application; ``game_commands``,
``ruleset_commands``, ``sim_commands`` and ``serve_command`` register their commands on it;
``human`` (with ``screen`` and ``move_input``) is the terminal player.  Engine
modules are imported inside the commands so that ``carcassonne --help``
starts fast.  It may import every other layer.
"""

from __future__ import annotations

import os
import signal
import sys
import traceback

import typer

from . import analyse_command, doctor, game_commands, play_command, ruleset_commands, serve_command, sim_commands  # noqa: F401  (register their commands)
from .app import Failed, app

__all__ = ["app", "main"]


def main() -> None:
    """Console entry point: run the app, rendering user errors as ``file:line:col: error: …`` (exit 2)."""
    from ..errors import UserError

    # A closed standard output or error (`carcassonne … >&-`) is one nobody reads: write to nowhere.
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (for the whole process)
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    for stream in (sys.stdout, sys.stderr):
        # A terminal or pipe that cannot show "—" or "×" gets an escape, not a UnicodeEncodeError.
        if (getattr(stream, "encoding", "") or "").lower().replace("-", "") != "utf8":
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    # SIGTERM unwinds like Ctrl-C (which typer ends with exit 130): temporary files are
    # removed and worker processes stopped on the way out, instead of left behind.
    signal.signal(signal.SIGTERM, _terminated)
    try:
        app()  # standalone: click reports usage errors itself, with exit 2
    except UserError as error:
        typer.echo(error.render(), err=True)
        sys.exit(2)
    except Failed:
        sys.exit(1)
    except Exception:  # noqa: BLE001 — what escapes every command is a bug, and is said to be one
        traceback.print_exc()
        typer.echo("carcassonne: this is a bug in the engine, not a problem with your input: please report it "
                   "with the command and the files it read (exit status 70)", err=True)
        sys.exit(70)
    except SystemExit as ending:
        # Click (as typer ships it) ends with 1 when the reader of standard output went away
        # (EPIPE: `… | head -1`), wrapping the stream in its PacifyFlushWrapper; the reader had
        # what it wanted, so that is success.
        if ending.code == 1 and type(sys.stdout).__name__ == "PacifyFlushWrapper":
            sys.exit(0)
        raise


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)  # the shell's code for "killed by SIGTERM" (143)
