"""The player protocol, ``choose(game) -> Move``, and the bot kinds by name.

Each bot owns a ``random.Random`` seeded from the game seed and its seat, so
the same seed and the same line-up always give the same game (DESIGN.md,
"Determinism").  A player spec is a kind, optionally with settings:
``mcts:2000`` (iterations), ``mcts:1.5s`` (seconds a move),
``mcts:500:depth=10:playout=random`` (:func:`parse_spec`).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Protocol

from ..core.game import Game
from ..core.moves import Move
from .greedy import GreedyPlayer
from .mcts import MctsPlayer
from .random_player import RandomPlayer


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
    "mcts": MctsPlayer,
}

def _turns(value: str) -> int | None:
    """A number of turns, or ``end`` (None: to the end of the game)."""
    return None if value == "end" else int(value)


#: The settings each kind takes after its name, with how to read each (``mcts:depth=10``).
SETTINGS: dict[str, dict[str, Callable[[str], Any]]] = {
    "random": {},
    "greedy": {},
    "mcts": {"iterations": int, "seconds": float, "depth": _turns, "playout": str, "width": int, "widen": float,
             "explore": float, "scale": float},
}
#: How each reader is named in an error message.
_READS = {int: "a whole number", float: "a number", str: "a word", _turns: "a whole number or 'end'"}


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:1.5s:depth=10"`` → ``("mcts", {"seconds": 1.5, "depth": 10})``.

    After the kind, ``:``-separated settings: a bare integer is ``iterations``,
    a number ending in ``s`` is ``seconds``, else ``name=value``.  Raises
    ``ValueError`` naming the part that is wrong (an unknown kind or setting, a
    value of the wrong type, a budget below 1 or 0.001 s).
    """
    kind, *parts = spec.split(":")
    if kind not in PLAYER_KINDS:
        raise ValueError(f"unknown player '{kind}' (known: {', '.join(PLAYER_KINDS)})")
    allowed = SETTINGS[kind]
    settings: dict[str, Any] = {}
    for part in parts:
        if "=" in part:
            name, value = part.split("=", 1)
        elif part.endswith("s"):
            name, value = "seconds", part[:-1]
        else:
            name, value = "iterations", part
        if name not in allowed:
            known = ", ".join(allowed) or "none"
            raise ValueError(f"player '{spec}': '{kind}' takes no setting '{name}' (settings: {known})")
        try:
            number = allowed[name](value)
        except ValueError:
            raise ValueError(f"player '{spec}': {name} must be {_READS[allowed[name]]}, not '{value}'") from None
        if number is None or isinstance(number, str):
            settings[name] = number
            continue
        out_of_range = number < 0 if name in ("depth", "width") else not (number > 0 and math.isfinite(number))
        if out_of_range:
            raise ValueError(f"player '{spec}': {name} must be {'at least 0' if name in ('depth', 'width') else 'positive'}")
        settings[name] = number
    return kind, settings


def make_player(spec: str, seed: int | None, seat: int) -> Player:
    """A bot for ``spec`` (:func:`parse_spec`) at ``seat``, seeded from the game seed;
    ``ValueError`` if the spec is wrong."""
    kind, settings = parse_spec(spec)
    return PLAYER_KINDS[kind](f"{seed}:{seat}", **settings)
