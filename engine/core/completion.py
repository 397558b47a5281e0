"""What a placement sets off: completed features scored and cleared, the mechanisms told of
each completion, and an extra turn earned.

:meth:`engine.core.game.Game.apply` calls these after placing a tile (RULES.md
§3.1: a feature is scored as soon as it is complete, for its majority, and its
followers go home).  The ``completed`` moment's handlers hear of every completed
feature, occupied or not (tokens handed out and features noted for bonuses:
:mod:`engine.core.tallies`); the extra turn is the follower types' ``extra_turn``
(docs/rulesets.md, "Follower types").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..geometry import RING8
from ..rules.completes import OPEN
from ..rules.tiles import NONE
from .followers import count_of
from .scoring import Scored, ScoreEvent, check_totals, feature_inputs, majority_in, score_feature

if TYPE_CHECKING:
    from ..rules.tiles import TileType
    from .game import Game


def score_completed(game: "Game", tile_index: int, pos: int, base: int) -> list[Scored]:
    """Score and clear every feature the placement of tile type ``tile_index`` at ``pos`` (its
    segments from ``base``) completed: the occupied ones, and every one when a mechanism listens at
    the ``completed`` moment (the tallies: the bonuses' aggregates count features completed by the
    placer, occupied or not)."""
    tile = game.tiles[tile_index]
    events: list[Scored] = []
    fol, open_ = game.fol, game.open
    done = []
    rewarding = bool(game.moments.completed)  # someone reads unoccupied completions (tokens, bonuses)
    for j in tile.closing:
        root = game.find(base + j)
        if open_[root] == 0 and root not in done and (fol[root] or rewarding):
            done.append(root)
            events.extend(score_completion(game, root))
    for segment in game.closed_at_wild:  # features of neighbouring tiles the placement ended at a wild side
        root = game.find(segment)
        if open_[root] == 0 and root not in done and (fol[root] or rewarding):
            done.append(root)
            events.extend(score_completion(game, root))
    surrounded_at = game.surrounded_at
    if surrounded_at:
        board = game.board
        for q in (pos, *(pos + d for d in RING8)):
            ids = surrounded_at.get(q)
            if ids is None:
                continue
            if all(q + d in board for d in RING8):
                for s in ids:
                    if fol[s] or rewarding:
                        events.extend(score_completion(game, s))
    if game.judging:
        events.extend(judge(game, tile, pos, base, done, rewarding))
    return events


def judge(game: "Game", tile: "TileType", pos: int, base: int, done: list[int], rewarding: bool) -> list[Scored]:
    """Complete the features of kinds with a completion formula (engine/rules/completes.py) that
    the placement of ``tile`` at ``pos`` (segments from ``base``) touched and whose formula now
    holds: the tile's own and, when a formula reads the tiles around, those on the 8 tiles around.
    Each completes once and stays complete (:attr:`~engine.core.board.Board.done`); a done feature
    the placement joined to occupied ones completes them with it, so their followers score now."""
    segments = [base + j for j in tile.judged]
    if game.judge_around:
        board, tiles = game.board, game.tiles
        for d in RING8:
            entry = board.get(pos + d)
            if entry is not None:
                segments.extend(entry[1] + j for j in tiles[entry[2]].judged)
    events: list[Scored] = []
    kinds = game.ruleset.kinds
    for segment in segments:
        root = game.find(segment)
        if root in done:
            continue
        done.append(root)
        if game.is_done(root):  # completed before: only followers the placement brought in score
            if game.fol[root]:
                events.extend(score_completion(game, root, noted=False))
            continue
        kind = kinds[game.seg_kind[root]]
        completes = kind.completes
        assert completes is not None, "judged segments are of kinds with a completion formula"
        env = feature_inputs(game, root, kind)
        if kind.ports != NONE:
            env[OPEN] = game.open[root]
        if completes(env):
            game.done.add(root)
            if game.fol[root] or rewarding:
                events.extend(score_completion(game, root))
    return events


def score_completion(game: "Game", root: int, noted: bool = True) -> list[Scored]:
    """Score the completed feature at ``root`` if occupied and pay it, tell the ``completed``
    moment's handlers (its tokens handed out, who held it and who completed it noted for
    bonuses), and free its followers.  ``noted=False``: it completed before (a done feature
    joined to occupied ones), so the handlers note nothing again."""
    found: list[Scored] = []
    players: tuple[int, ...] = ()
    if game.fol[root]:
        scored = score_feature(game, root, complete=True, phase="in_game", explain=game.explain)
        check_totals(game, scored, list(game.scores))
        pay(game, scored)
        found.extend(scored)
        players = majority_in(game, [root], game.followers_by_player(root))
    for completed in game.moments.completed:
        found.extend(completed(game, root, players, noted))
    if game.explain:
        game.events.extend(e for e in found if isinstance(e, ScoreEvent))
    if game.fol[root]:
        for feature_scored in game.moments.feature_scored:  # before its followers go home
            feature_scored(game, root)
        game.return_followers(root)
    return found


def pay(game: "Game", events: list[Scored]) -> None:
    """Add checked ``events`` to the scores and to the points per kind."""
    scores, kind_points = game.scores, game.kind_points
    for event in events:
        for p in event.players:
            scores[p] = scores[p] + event.points
            kind_points[p][event.kind] += event.points


def extends_own(game: "Game", tile: int, base: int) -> bool:
    """Whether the tile just placed (segments from ``base``) joined a feature holding one of the
    player's followers of a type with ``extra_turn`` (the builder), before any deployment."""
    fol, player, players = game.fol, game.player, game.players
    for j in range(len(game.tiles[tile].segments)):
        packed = fol[game.find(base + j)]
        if packed and any(count_of(packed, player, t, players) for t in game.ruleset.extra_turn_types):
            return True
    return False
