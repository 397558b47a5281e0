"""The player protocol, ``choose(game) -> Move``, and the bot kinds by name.

Each bot owns a ``random.Random`` seeded from the game seed and its seat, so
the same seed and the same line-up always give the same game (DESIGN.md,
"Determinism").  A player spec is a kind, optionally with settings:
``mcts:2000`` (iterations), ``mcts:1.5s`` (seconds a move),
``mcts:500:depth=10:playout=random``, ``mcts:800:roots=2`` (two searches on two
cores, :mod:`engine.bots.roots`) (:func:`parse_spec`).  Kinds beyond the bots here come from
installed packages, declared under the entry-point group :data:`PLUGINS`: this package's own
``policy:FILE`` (a trained network, :mod:`engine.api.policy`, the ``rl`` extra) is one.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Callable, Protocol

from ..core.game import Game
from ..core.moves import Move
from ..errors import UserError
from .greedy import GreedyPlayer
from .mcts import PLAYOUTS
from .random_player import RandomPlayer
from .roots import mcts_player


class Player(Protocol):
    """Anything that picks a move for the current tile of a game."""

    name: str

    def choose(self, game: Game) -> Move:
        """A legal :class:`~engine.core.moves.Move` for ``game.tile`` and ``game.player``."""
        ...

    def choose_start(self, game: Game) -> int:
        """Rotation (quarter turns) of a start tile drawn from the stack (``game.start_tile``)."""
        ...


#: Bot kinds by the name the CLI and records use.
PLAYER_KINDS: dict[str, Callable[..., Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "mcts": mcts_player,
}

@dataclass(frozen=True)
class Setting:
    """A setting a bot kind takes in a player spec: a whole ``count`` or a decimal
    ``number`` within ``low``–``high``, a ``file`` that exists, or one of ``choices``; ``end``
    also allows the word ``end`` (read as None: no limit); a ``required`` one must be given."""

    what: str
    low: float = 0
    high: float = math.inf
    choices: tuple[str, ...] = ()
    end: bool = False
    required: bool = False

    @property
    def shape(self) -> str:
        """What a value looks like, for messages: ``N``, ``N|end``, ``X``, ``FILE`` or the choices."""
        if self.choices:
            return "|".join(self.choices)
        if self.what == "file":
            return "FILE"
        return ("N" if self.what == "count" else "X") + ("|end" if self.end else "")

    def read(self, name: str, value: str) -> Any:
        """The value of ``value``; ``ValueError`` saying what it must be."""
        if self.choices:
            if value not in self.choices:
                raise ValueError(f"{name} must be one of {', '.join(self.choices)}, not '{value}'")
            return value
        if self.end and value == "end":
            return None
        if self.what == "file":
            if not Path(value).is_file():
                raise ValueError(f"{name} must be a file that exists, not '{value}'")
            return value
        pattern = r"[0-9]+" if self.what == "count" else r"[0-9]+(\.[0-9]*)?|\.[0-9]+"
        if not re.fullmatch(pattern, value):
            shape = "a whole number" if self.what == "count" else "a decimal number"
            raise ValueError(f"{name} must be {shape}{' or end' if self.end else ''}, not '{value}'")
        number = int(value) if self.what == "count" else float(value)
        if not self.low <= number <= self.high:
            bounds = f"{_figure(self.low)} or more" if self.high == math.inf else \
                f"{_figure(self.low)} to {_figure(self.high)}"
            raise ValueError(f"{name} must be {bounds}, not {value}")
        return number


def _figure(x: float) -> str:
    """``10000000`` → ``10,000,000``; ``0.001`` → ``0.001``."""
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


#: The settings each kind takes after its name (``mcts:500:depth=10``).
SETTINGS: dict[str, dict[str, Setting]] = {
    "random": {},
    "greedy": {"keep": Setting("count", 0, 1000)},
    "mcts": {
        "iterations": Setting("count", 1, 10_000_000),
        "seconds": Setting("number", 0.001, 3600),
        "depth": Setting("count", 0, 10_000, end=True),
        "playout": Setting("word", choices=PLAYOUTS),
        "width": Setting("count", 0, 10_000),
        "widen": Setting("number", 0.01, 1000),
        "explore": Setting("number", 0, 100),
        "scale": Setting("number", 0.01, 10_000),
        "keep": Setting("count", 0, 1000),
        "roots": Setting("count", 1, 64),
    },
}


#: The entry-point group where installed packages declare player kinds: each names a class taking
#: ``(seed, **settings)`` whose ``SETTINGS`` (a dict of :class:`Setting`) says what it takes
#: and whose ``BARE``, if any, names the setting a part without ``=`` gives (``policy:FILE``).
PLUGINS = "carcassonne.players"


@functools.cache
def _declared() -> dict[str, Any]:
    """The entry points of :data:`PLUGINS` by kind, but names the bots here already take."""
    return {point.name: point for point in entry_points(group=PLUGINS) if point.name not in PLAYER_KINDS}


def known_kinds() -> list[str]:
    """The player kinds a spec may name: the bots here, then those installed packages declare."""
    return [*PLAYER_KINDS, *_declared()]


@functools.cache
def _plugin(kind: str) -> Any:
    """The class an installed package declares ``kind`` with; ``ValueError`` when it does not import."""
    try:
        return _declared()[kind].load()
    except ImportError as error:
        raise ValueError(f"player '{kind}': {error}") from None


def _kind(kind: str) -> tuple[Callable[..., Player], dict[str, Setting], str | None]:
    """The factory of ``kind``, its settings and the setting a bare part gives (None: iterations
    or seconds); ``ValueError`` for an unknown kind."""
    if kind in PLAYER_KINDS:
        return PLAYER_KINDS[kind], SETTINGS[kind], None
    if kind in _declared():
        plugin = _plugin(kind)
        return plugin, plugin.SETTINGS, getattr(plugin, "BARE", None)
    raise ValueError(f"unknown player '{kind}' (known: {', '.join(known_kinds())})")


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:1.5s:depth=10"`` → ``("mcts", {"seconds": 1.5, "depth": 10})``.

    After the kind, ``:``-separated settings: a bare whole number is
    ``iterations``, a number ending in ``s`` is ``seconds``, else
    ``name=value`` (:data:`SETTINGS` gives each kind's, with their ranges); for a kind that an
    installed package declares (:data:`PLUGINS`) with a ``BARE`` setting, a part without ``=``
    is that setting.  Raises ``ValueError`` naming the part that is wrong: an unknown kind or
    setting, a value of the wrong shape or out of range, a setting given twice,
    both iterations and seconds, a required setting left out.
    """
    kind, *parts = spec.split(":")
    _, allowed, bare = _kind(kind)
    settings: dict[str, Any] = {}
    for part in parts:
        if "=" in part:
            name, value = part.split("=", 1)
        elif bare is not None:
            name, value = bare, part
        elif part in allowed:  # a setting's bare name (``greedy:keep``) is neither a count nor seconds
            raise ValueError(f"player '{spec}': {part} needs a value ({part}={allowed[part].shape})")
        elif any(part in settings_of for settings_of in SETTINGS.values()):  # another kind's: refused below
            name, value = part, ""
        elif part.endswith("s"):
            name, value = "seconds", part[:-1]
        else:
            name, value = "iterations", part
        if name not in allowed:
            known = ", ".join(allowed) or "none"
            raise ValueError(f"player '{spec}': '{kind}' takes no setting '{name}' (settings: {known})")
        if name in settings:
            raise ValueError(f"player '{spec}': {name} is given twice")
        try:
            settings[name] = allowed[name].read(name, value)
        except ValueError as error:
            raise ValueError(f"player '{spec}': {error}") from None
    if "iterations" in settings and "seconds" in settings:
        raise ValueError(f"player '{spec}': give iterations or seconds, not both")
    for name, setting in allowed.items():
        if setting.required and name not in settings:
            raise ValueError(f"player '{spec}': {kind} needs its {name} ({kind}:{setting.shape})")
    return kind, settings


def check_seats(specs: list[str], min_players: int, max_players: int, ref: str) -> None:
    """:class:`~engine.errors.UserError` (code ``players``) unless every spec is a bot
    :func:`parse_spec` reads or a bare ``human``, and their number is one the ruleset
    ``ref`` seats (``min_players`` to ``max_players``).  Each spec is checked before the
    count, so "mcts:abc" is a wrong spec, not one player too few."""
    for spec in specs:
        if spec.split(":")[0] == "human":
            if spec != "human":
                raise UserError(f"player '{spec}': a human takes no settings", code="players")
            continue
        try:
            parse_spec(spec)
        except ValueError as error:
            known = f"(known: {', '.join(known_kinds())})"
            raise UserError(str(error).replace(known, f"(known: {', '.join(known_kinds())}, human)"),
                            code="players") from None
    if not min_players <= len(specs) <= max_players:
        seats = str(min_players) if min_players == max_players else f"{min_players}–{max_players}"
        raise UserError(f"{ref} is for {seats} players, not {len(specs)} ({','.join(specs)})", code="players")


def make_player(spec: str, seed: int | None, seat: int, *, resumed_at: int = 0, replay: int = 0) -> Player:
    """A bot for ``spec`` (:func:`parse_spec`) at ``seat``, seeded from the game seed;
    ``ValueError`` if the spec is wrong.  A bot joining a game resumed from its record at turn
    ``resumed_at`` (not 0) is seeded from that turn too: its random choices from there on are
    the same each time the record is resumed, though not those it would have made had the game
    gone on unbroken (the bot's earlier draws are not recorded).  ``replay`` (not 0) seeds it
    afresh for another play of the same deal (``analyse``'s luck: the same tiles, other choices)."""
    kind, settings = parse_spec(spec)
    suffix = (f"@{resumed_at}" if resumed_at else "") + (f"#{replay}" if replay else "")
    return _kind(kind)[0](f"{seed}:{seat}{suffix}", **settings)
