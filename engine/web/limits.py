"""What a client of the web table may ask of the server: bots that think within the server's
budgets, and rulesets read from the shipped ones and one folder of the server's only.

A page, or any program that can reach the port, opens tables (``POST /api/tables``), asks for a
ruleset's atlas (``/rulesets/atlas?ref=``) and uploads records (``POST /api/replay``).  Without
limits, ``mcts:10000000:roots=64`` forks 64 searches of ten million iterations a move, and a
ruleset given as a path reads any file of the machine, the answer telling whether it exists.
So a seat's ``iterations``, ``seconds`` and ``roots`` are capped (:class:`Limits`, raised by
``carcassonne serve --max-iterations/--max-seconds/--max-roots``), and a reference a client
sends names shipped rulesets and options by name, and ruleset or option files by a path that
lies in the server's rulesets folder (``serve --rulesets DIR``; the records folder by default).
The check reads no file: a refusal says the same whether the path exists or not.  What the
person who started the server typed (``serve --ruleset``, ``--players``) is theirs, not
checked; nor are the records in the records folder, which the server or its owner wrote.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import UserError

#: A seat's most ``mcts`` iterations a move by default (80, the default search, takes 0.05 s a
#: move under basic: docs/planners.md).
MAX_ITERATIONS = 5_000
#: A seat's most seconds a move by default.
MAX_SECONDS = 10.0
#: The deepest playout (turns) of a search counted in iterations, by default (the search's own
#: default is 2: deeper playouts make each iteration dearer).
MAX_DEPTH = 8


def _cores() -> int:
    return os.cpu_count() or 1


@dataclass(frozen=True)
class Limits:
    """The server's limits on what a client asks for.  ``folder`` is where ruleset and option
    files a client names may lie (None: shipped ones only); ``iterations``, ``seconds`` and ``roots``
    cap the settings of the same names of a bot seat (``roots`` defaults to the machine's cores)."""

    folder: Path | None = None
    iterations: int = MAX_ITERATIONS
    seconds: float = MAX_SECONDS
    roots: int = field(default_factory=_cores)
    depth: int = MAX_DEPTH

    def check_players(self, specs: list[str]) -> None:
        """:class:`UserError` (``players``) for a seat whose bot asks for more than a cap; a spec that
        does not parse is left to :func:`~engine.bots.players.check_seats`, which says what is wrong."""
        from ..bots.players import parse_spec  # here: the command line reads this module's caps at start-up
        from ..rules.references import shortened

        caps = {"iterations": (self.iterations, "iterations a move", "--max-iterations"),
                "seconds": (self.seconds, "seconds a move", "--max-seconds"),
                "roots": (self.roots, "searches at once (roots)", "--max-roots")}
        for spec in specs:
            try:
                _, settings = parse_spec(spec)
            except ValueError:
                continue  # "human", or a wrong spec: check_seats says why
            for name, (most, what, flag) in caps.items():
                if settings.get(name, 0) > most:
                    raise UserError(f"player '{shortened(spec)}': this server lets a bot think at most {most:g} {what} "
                                    f"(whoever runs it may raise that: carcassonne serve {flag})", code="players")
            # A search counted in iterations is only as quick as its playouts are short: depth=end plays
            # every iteration to the game's end (a 5,000-iteration move took minutes).  By the clock, the
            # seconds cap bounds it whatever the depth.
            if "depth" in settings and "seconds" not in settings and (settings["depth"] is None
                                                                     or settings["depth"] > self.depth):
                raise UserError(f"player '{shortened(spec)}': this server lets a search counted in iterations play "
                                f"out at most {self.depth} turns (depth={self.depth}); one that thinks by the clock "
                                "(mcts:5s) may go deeper (whoever runs it may raise that: carcassonne serve "
                                "--max-depth)", code="players")

    def check_ref(self, ref: str, base: Path) -> None:
        """:class:`UserError` (``ruleset-not-served``) unless every part of ruleset reference ``ref``
        (``NAME_OR_PATH[+OPTION]…``, split at every ``+``) is a shipped ruleset (the first) or option
        (the others) by name, or a path that, taken from ``base``, lies in :attr:`folder`.  Reads no
        file, so the answer is the same whether a path outside exists or not."""
        from ..resources import rulesets_dir
        from ..rules.compose import options_dir
        from ..rules.references import is_name, shipped_file, shortened

        for i, part in enumerate(ref.split("+")):
            what = "ruleset" if i == 0 else "option"
            if is_name(part):
                folder = rulesets_dir() if i == 0 else options_dir()
                if shipped_file(folder, part) is None:  # never a file of the working directory's
                    names = ", ".join(sorted(p.stem for p in folder.glob("*.yaml")))
                    raise UserError(f"unknown {what} '{shortened(part)}' (shipped {what}s: {names})",
                                    code=f"{what}-unknown")
                continue
            if not self._served(base, part):
                where = f"from {self.folder}" if self.folder is not None else "from no folder"
                raise UserError(f"'{shortened(part)}': this server reads {what} files {where}, by their bare name "
                                f"(shipped {what}s by name: /rulesets; carcassonne serve --rulesets DIR names the "
                                "folder)", code="ruleset-not-served")

    def _served(self, base: Path, part: str) -> bool:
        """Whether path ``part`` is a bare file name (no folder, no ``..``: nothing is looked up on
        the way to it, so whether a folder elsewhere exists cannot show) of a file directly in
        :attr:`folder`, ``base`` being that folder (links followed: one out of the folder is out)."""
        if self.folder is None or "\0" in part or Path(part).name != part or part in (".", ".."):
            return False
        try:
            return base.resolve() == self.folder.resolve() and (base / part).resolve().parent == self.folder.resolve()
        except (OSError, RuntimeError):  # a loop of links, a name too long
            return False


__all__ = ["Limits", "MAX_DEPTH", "MAX_ITERATIONS", "MAX_SECONDS"]
