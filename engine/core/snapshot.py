"""Copying a game in progress: what a bot's look-ahead and a search's determinised deal start from.

Shallow copies suffice where a member list is never mutated in place (the
board's are copied by :meth:`~engine.core.board.Board.copy_board_into`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game


def copy_game_into(game: "Game", other: "Game") -> None:
    """Make ``other`` (a bare ``Game.__new__(Game)``) an independent copy of ``game``."""
    game.copy_board_into(other)
    other.seed, other.deploy_masks, other.moments = game.seed, game.deploy_masks, game.moments
    other.states = {name: state.copy() for name, state in game.states.items()}
    other.scores = game.scores.copy()
    other.kind_points = [dict(points) for points in game.kind_points]
    other.explain = game.explain
    other.events = game.events.copy()
    other.history = game.history.copy()
    other.seats = game.seats.copy()
    other.extra_turn, other.earned_turn = game.extra_turn, game.earned_turn
    other.extra_turns = game.extra_turns
    other.returned, other.went_back = game.returned, game.went_back
    other.turn, other.player, other.finished, other.tile = game.turn, game.player, game.finished, game.tile
    # Shared until one of the two draws from it (own_rng): copying its state costs half a copy.
    other.rng, other.rng_shared = game.rng, True
    game.rng_shared = True
    other.forced, other.auto_draw = game.forced, game.auto_draw
    other.pending_starts = game.pending_starts.copy()
    other.starts = game.starts.copy()
    other.stacks = [[phase.copy() for phase in stack] for stack in game.stacks]
    other.pins = [[ends.copy() for ends in pins] for pins in game.pins]
    other.box = [tiles.copy() for tiles in game.box]
    # ``deck`` is the phase being drawn (what a tile put back joins): the copy's own, as the original's is.
    stack = game.stacks[game.map]
    other.deck = other.stacks[other.map][0] if stack and game.deck is stack[0] else list(game.deck)


def own_rng(game: "Game") -> random.Random:
    """``game``'s random generator (the reshuffles of ``unplaceable: reshuffle`` and of hands),
    made its own first if a copy shares it: a copy costs no generator until one of the two draws."""
    if game.rng_shared:
        private = random.Random.__new__(random.Random)  # not seeded from the OS: setstate follows
        private.setstate(game.rng.getstate())
        game.rng, game.rng_shared = private, False
    return game.rng
