"""Play a whole game with bots: the loop behind ``carcassonne play``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .game import Game, Move
from .players import Player, make_player
from .record import build_record
from .ruleset import Ruleset
from .scoring import ScoreEvent


@dataclass
class PlayedGame:
    """A finished game: the game itself, the bots' kinds, and the record dict."""

    game: Game
    kinds: list[str]
    in_game: list[int]
    record: dict


#: Called after each turn with (game, seat, tile index, move, events) — the CLI's log.
TurnHook = Callable[[Game, int, int, Move, list[ScoreEvent]], None]


def play_game(ruleset: Ruleset, kinds: list[str], seed: int, *, ref: str | None = None,
              on_turn: TurnHook | None = None) -> PlayedGame:
    """Play ``ruleset`` to the end with bots of ``kinds`` (seat order) and ``seed``.

    The deck is shuffled with ``seed``; bot ``i`` is seeded with ``f"{seed}:{i}"``.
    Raises ``ValueError`` for an unknown bot kind or a player count the
    ruleset does not allow.
    """
    players: list[Player] = [make_player(kind, seed, seat) for seat, kind in enumerate(kinds)]
    game = Game(ruleset, len(players), seed)
    while game.start_tile is not None:  # a drawn start tile: the first player turns it
        game.place_start(players[0].choose_start(game))
    while game.tile is not None:
        seat, tile = game.player, game.tile
        move = players[seat].choose(game)
        events = game.play(move, checked=True)
        if on_turn is not None:
            on_turn(game, seat, tile, move, events)
    in_game = list(game.scores)
    game.finish()
    record = build_record(game, ref or ruleset.ref,
                          [{"name": f"{kind}-{i + 1}", "kind": kind} for i, kind in enumerate(kinds)],
                          in_game)
    return PlayedGame(game, list(kinds), in_game, record)
