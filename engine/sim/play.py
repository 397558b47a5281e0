"""Play a whole game with bots: the loop behind ``carcassonne play``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..bots.players import Player, make_player
from ..core.game import Game
from ..core.moves import Move
from ..core.scoring import Scored
from ..files.record import build_record
from ..rules.ruleset import Ruleset


@dataclass
class PlayedGame:
    """A finished game: the game itself, the bots' kinds, and the record dict."""

    game: Game
    kinds: list[str]
    in_game: list[int]
    record: dict
    quit: bool = False


#: Called after each turn with (game, seat, tile index, move, its score events: explained ones, or points only
#: when the game keeps no explanations) — the CLI's log.
TurnHook = Callable[[Game, int, int, Move, list[Scored]], None]


class QuitGame(Exception):
    """Raised by a player (a human typing ``q``) to stop the game where it stands."""


def play_game(ruleset: Ruleset, kinds: list[str], seed: int, *, ref: str | None = None,
              on_turn: TurnHook | None = None, players: list[Player] | None = None, game: Game | None = None,
              names: list[str] | None = None) -> PlayedGame:
    """Play ``ruleset`` to the end with bots of ``kinds`` (seat order) and ``seed``.

    The deck is shuffled with ``seed``; bot ``i`` is seeded with ``f"{seed}:{i}"``
    (``players`` gives ready-made players instead, e.g. a human).  ``game``: a game under
    way to go on with (resumed from its record, :func:`engine.files.resume.resume`) instead
    of a new one.  ``names``: the seats' names in the record (default ``KIND-N``).  A player
    raising :class:`QuitGame` ends the game early: the result then has
    ``quit=True``, no final scoring, and a record of the turns so far.
    Raises ``ValueError`` for an unknown bot kind.
    """
    players = players or [make_player(kind, seed, seat) for seat, kind in enumerate(kinds)]
    game = game if game is not None else Game(ruleset, len(players), seed)
    quit_early = False
    try:
        play_out(game, players, on_turn)
    except QuitGame:
        quit_early = True
    in_game = list(game.scores)
    if not quit_early:
        game.finish()
    names = names or [f"{kind}-{i + 1}" for i, kind in enumerate(kinds)]
    record = build_record(game, ref or ruleset.ref, [{"name": name, "kind": kind} for name, kind in zip(names, kinds)],
                          in_game)
    return PlayedGame(game, list(kinds), in_game, record, quit_early)


def play_points(ruleset: Ruleset, kinds: list[str], seed: int) -> Game:
    """The finished game :func:`play_game` plays, scored for points only (no score events,
    no record: what simulations keep is the scores and the points per kind, which are
    the same).  Raises ``ValueError`` for an unknown bot kind."""
    players = [make_player(kind, seed, seat) for seat, kind in enumerate(kinds)]
    game = Game(ruleset, len(players), seed, explain=False)
    play_out(game, players, None)
    game.finish()
    return game


def play_out(game: Game, players: list[Player], on_turn: TurnHook | None) -> None:
    """Play ``game`` to its last tile with ``players`` (seat order), calling ``on_turn`` after each move."""
    while game.start_tile is not None:  # a drawn start tile: the first player turns it
        game.place_start(players[0].choose_start(game))
    while game.tile is not None:
        seat, tile = game.player, game.tile
        move = players[seat].choose(game)
        events = game.play(move, checked=True)
        if on_turn is not None:
            on_turn(game, seat, tile, move, events)
