"""The search bot: information-set Monte-Carlo tree search over determinised games.

Each iteration deals the hidden tiles afresh (:func:`engine.core.chance.determinise`),
so the draws are chance and the real order is never used, nor the tiles the other
players hold (``deck.hand``) (single-observer
ISMCTS: Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree
Search", IEEE TCIAIG 4(2), 2012).  A node's children are moves
(``(tile type, Move)``: the same move of another tile is another child), each
counting how often it was *available* as well as visited, since a drawn tile
makes only some of them legal; selection is UCB1 over the available ones.

Fifty to 150 moves a turn are tamed by **progressive widening** in a prior
order: a node with ``n`` visits may have ``ceil(widen · n ** 0.5)`` children.
At the root the order is the greedy bot's (:func:`~engine.core.trial.look_ahead`,
the ruleset's own scoring: what the move is worth if the game ended now);
below it, placements without a follower come first, in the order they are
listed.  A leaf is valued by a short playout, ``depth`` turns (default 2:
the next seat's reply and the one after) in which every seat plays as the
greedy bot would, then by the score if the game ended there plus ``keep``
points a follower left in the supply (or by the final score at the end, if it
comes first); ``playout=random`` plays uniformly at random instead.
Every point comes from the ruleset, so the bot plays any variant.  The
reward of a seat is ``0.5 + 0.5 · tanh(margin / scale)``, the margin being
its measure minus its best opponent's: the winner counts, and so does by how
much.

Measured choices (seat-swapped games of ``basic`` against ``greedy``, compiled
build, benchmarks/strength.py): at 0.5 s a move (20 games each) random
playouts to the end won 60 %, random playouts cut after 10 turns 70 %, greedy
playouts of 2 turns 85 %.  At 80 iterations (200 games each), valuing a
follower in the supply at 2 points (``keep``, issue 27) won 79.5 %
(benchmarks/results/strength-curve.json) where the plain measure won 70.5 %
(strength-mcts-80-keep-0-vs-greedy.json): the greedy measure alone spends
followers on any point now, and runs out.  At 80 iterations, widening by 1 (``ceil(√n)``
children) won 81.5 % of 400 fresh deals where the earlier 2 won 75.8 % of the same deals
(paired difference +5.8 points, 95 % interval [+0.5, +11.0];
strength-mcts-80-widen-1-fresh-deals.json, ``strength.py --paired``), after a sweep of ``widen`` 0.5–4 and
``explore`` 0.15–1.4 over 200 games each (strength-mcts-80-tuning*.json) in which less
widening and less exploration did better and the wider settings worse.
"""

from __future__ import annotations

import math
import random
import time
from typing import Callable, Optional

from ..core.chance import determinise
from ..core.choices import PLACE_DECISION, decision_kind, offered
from ..core.game import Game
from ..core.moves import Move
from .greedy import GreedyPlayer
from .valuing import candidates, margin, measure

#: How playouts choose moves: uniformly at random, or as the greedy bot does.
PLAYOUTS = ("random", "greedy")

#: A child's key: the tile type placed and the move.
Key = tuple[int, Move]


class Node:
    """A tree node: the seat to move there, and its children by :data:`Key`."""

    def __init__(self) -> None:
        self.children: dict[Key, Child] = {}
        self.visits = 0


class Child:
    """Statistics of one move at a node: visits, summed reward (of the seat that moved),
    how often it was available, and the node it leads to."""

    def __init__(self) -> None:
        self.visits = 0
        self.reward = 0.0
        self.available = 0
        #: Progressive bias: the prior reward (greedy's measure, at the root), fading with visits.
        self.prior = 0.0
        self.node: Optional[Node] = None


class MctsPlayer:
    """ISMCTS with progressive widening and short greedy playouts (module docstring).

    ``iterations`` bounds the search (default 80: a median 0.049 s a move on
    a 2-core VM, benchmarks/results/strength-curve.json) unless ``seconds`` is
    given, which bounds it by time instead (not reproducible: how many
    iterations fit depends on the machine).  ``keep`` (points, default 2) adds that
    much to a seat's measure for each follower in its supply that it has a turn left
    to place (:func:`~engine.core.supply_value.kept_points`), in the root's order,
    the playouts' greedy moves and a leaf's value (not at the game's end, where
    followers are worth nothing).  ``depth`` cuts playouts after that
    many turns (default 2; None: to the end); ``playout`` is ``greedy`` or
    ``random``; ``width`` keeps only the root's best moves by the greedy
    measure (0: all); ``widen``, ``explore`` (UCB1's constant) and ``scale``
    (points) tune the search.  ``leaf``, when given, values a new leaf instead of
    the playout: a function of the game there returning a reward in [0, 1] per seat
    (a learned value: examples/learn_a_value.py); a leaf at the game's end is still
    scored exactly.  Seeded like every bot, so a fixed iteration budget gives the same
    game for the same seed.  ``ValueError`` for an unknown ``playout``.
    """

    name = "mcts"

    def __init__(self, seed: int | str | None = None, *, iterations: int = 80,
                 seconds: float | None = None, depth: int | None = 2, playout: str = "greedy",
                 width: int = 0, widen: float = 1.0, explore: float = 0.7, scale: float = 10.0,
                 keep: int = 2, leaf: Callable[[Game], list[float]] | None = None) -> None:
        if playout not in PLAYOUTS:
            raise ValueError(f"playout must be one of {', '.join(PLAYOUTS)}, not '{playout}'")
        self.rng = random.Random(seed)
        self.playout = playout
        self.greedy = GreedyPlayer(self.rng.getrandbits(32), keep=keep)
        self.keep = keep
        self.width = width
        self.iterations = iterations
        self.seconds = seconds
        self.depth = depth
        self.widen = widen
        self.explore = explore
        self.scale = scale
        self.leaf = leaf
        #: Iterations run by the last :meth:`choose`, and its tree (benchmarks read them).
        self.last_iterations = 0
        self.last_root: Optional[Node] = None

    def choose_start(self, game: Game) -> int:
        # On an empty board every rotation of the start tile scores alike.
        return self.rng.randrange(4)

    def choose(self, game: Game) -> Move:
        return best_move(self.search(game))

    def search(self, game: Game) -> dict[Key, tuple[int, float]]:
        """Search from ``game`` (not changed): ``{(tile type, move): (visits, summed
        reward)}`` per move tried at the root, in the order first tried.  A move that
        is the only legal one comes back unsearched, as ``(0, 0.0)``.  Root-parallel
        search (:mod:`engine.bots.roots`) adds these up over independent searches."""
        tile = game.tile
        assert tile is not None, "search needs a drawn tile"
        ranked = _root_order(game, self.keep)
        if self.width:
            ranked = ranked[:self.width]
        if len(ranked) == 1:
            self.last_iterations, self.last_root = 0, None
            return {(tile, ranked[0][1]): (0, 0.0)}
        root = Node()
        order = {(tile, move): self._reward(margin) for margin, move in ranked}
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while (done < self.iterations) if deadline is None else (done == 0 or time.perf_counter() < deadline):
            self._iterate(determinise(game, self.rng), root, order)
            done += 1
        self.last_iterations, self.last_root = done, root
        return {key: (child.visits, child.reward) for key, child in root.children.items()}

    # -- one iteration ---------------------------------------------------------

    def _iterate(self, state: Game, root: Node, root_order: dict[Key, float]) -> None:
        path: list[tuple[Node, Child, int]] = []
        node: Optional[Node] = root
        order: Optional[dict[Key, float]] = root_order
        while node is not None and state.tile is not None:
            tile, seat = state.tile, state.player
            keys = [(tile, move) for move in _moves(state)] if order is None else list(order)
            child, key = self._select(node, keys, order)
            path.append((node, child, seat))
            state.play(key[1], checked=True)
            if child.node is None:
                child.node = Node()
                node = None  # a new leaf: play out from here
            else:
                node = child.node
            order = None
        rewards = self._playout(state) if self.leaf is None or state.tile is None else self.leaf(state)
        for parent, child, seat in path:
            parent.visits += 1
            child.visits += 1
            child.reward += rewards[seat]

    def _select(self, node: Node, keys: list[Key], order: Optional[dict[Key, float]]) -> tuple[Child, Key]:
        """UCB1 (plus the fading prior) over the available children, widened in ``keys``
        order; counts availability.  ``order`` holds the priors (at the root only)."""
        children = node.children
        allowed = math.ceil(self.widen * math.sqrt(node.visits + 1))
        available = []
        fresh: Optional[Key] = None
        for key in keys:
            child = children.get(key)
            if child is not None:
                child.available += 1
                available.append((key, child))
            elif fresh is None:
                fresh = key
        if fresh is not None and (len(children) < allowed or not available):
            child = children[fresh] = Child()
            child.available = 1
            if order is not None:
                child.prior = order[fresh]
            return child, fresh
        log_n = self.explore * self.explore
        best_key, best, best_value = available[0][0], available[0][1], -1.0
        for key, child in available:
            if child.visits == 0:
                return child, key
            value = (child.reward / child.visits + math.sqrt(log_n * math.log(child.available) / child.visits)
                     + child.prior / (child.visits + 1))
            if value > best_value:
                best_key, best, best_value = key, child, value
        return best, best_key

    def _playout(self, state: Game) -> list[float]:
        rng = self.rng
        turns = 0
        greedy = self.greedy if self.playout == "greedy" else None
        while state.tile is not None and (self.depth is None or turns < self.depth):
            if greedy is not None:
                state.play(greedy.choose(state), checked=True)
                turns += 1
                continue
            if decision_kind(state) is not PLACE_DECISION:  # as the random bot
                choices = state.legal_moves()
                state.play(choices[rng.randrange(len(choices))], checked=True)
                continue
            count = state.placement_count()
            extra = offered(state)
            n = rng.randrange(count + len(extra))
            if n >= count:  # as the random bot: declining a personal tile is one more choice
                state.play(extra[n - count], checked=True)
                turns += 1
                continue
            pos, rotation = state.placement(n)
            options = state.deploy_choices(pos, rotation)
            pick = rng.randrange(len(options) + 1)
            state.play(Move(pos, rotation, *options[pick]) if pick < len(options) else Move(pos, rotation),
                       checked=True)
            turns += 1
        if state.tile is None:
            state.finish()
            scores = state.scores
        else:
            scores = measure(state, self.keep)
        return [self._reward(margin(scores, seat)) for seat in range(len(scores))]

    def _reward(self, margin: float) -> float:
        """A margin of points as a reward in (0, 1)."""
        return 0.5 + 0.5 * math.tanh(margin / self.scale)


def best_move(stats: dict[Key, tuple[int, float]]) -> Move:
    """The move of the most visited root child (:meth:`MctsPlayer.search`), the higher summed
    reward breaking a tie, then the order first tried."""
    best = max(stats.items(), key=lambda item: item[1])
    return best[0][1]


def _root_order(game: Game, keep: int) -> list[tuple[int, Move]]:
    """Every legal move with the greedy bot's measure of it (the margin over the best
    opponent if the game ended right after it, ``keep`` points a follower in the supply), best
    first; ties in listing order."""
    me = game.player
    valued = []
    for i, (move, totals) in enumerate(candidates(game, keep)):
        valued.append((-margin(totals, me), i, move))
    valued.sort(key=lambda item: (item[0], item[1]))
    return [(-margin, move) for margin, _, move in valued]


def _moves(state: Game) -> list[Move]:
    """Legal moves below the root: every placement without a follower, then those with one (a
    follower's choices, or the tiles of a hand to pick from, as listed)."""
    if decision_kind(state) is not PLACE_DECISION:
        return state.legal_moves()
    placements = state.placements()
    bare = [Move(pos, r) for pos, r in placements]
    return (bare + [Move(pos, r, j, t) for pos, r in placements for j, t in state.deploy_choices(pos, r)]
            + offered(state))
