"""The final score of kinds pooled over several features, as a look-ahead weighs a move.

Under the 1st and 2nd editions' farms (``majority: adjacent``, ``adjacent_pays_once``) a
farm's final score is not its own: a completed city pays the majority of all the farmers
around it, or each farmer's owner once.  :class:`~engine.core.lookahead.Lookahead` scores
such kinds as a whole with :func:`pool_total`, before and after each candidate move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .after_move import Group
from .followers import unpack_followers
from .game_end import target_inputs
from .scoring import majority

if TYPE_CHECKING:
    from ..rules.kinds import FeatureKind
    from .lookahead import Lookahead


def pool_total(look: "Lookahead", context: Any, override: tuple[Group, int] | None = None) -> list[int]:
    """Per-seat final points of the pooled kinds after the move described by ``context``
    (``None``: the current position), one group's followers replaced by ``override``.
    Mirrors :func:`engine.core.game_end.end_scores`: same features, same order."""
    root_group: dict[int, Group] = context[2] if context else {}
    gained: dict[int, bool] = context[3] if context else {}
    entries: list[tuple[Any, ...]] = []  # (kind, followers per seat, adjacent features after the move, inputs)
    added: list[Group] = []
    for root, kind, followers, targets in look._pool:
        group = root_group.get(root)
        if group is None:
            entries.append((kind, followers, [root_group.get(t, t) for t in targets], look.envs[root]))
        elif not any(g is group for g in added):
            added.append(group)
            packed = override[1] if override and override[0] is group else group.fol
            entries.append(_group_entry(look, kind, group, packed, context))
    if override and override[0].kind in look._pooled and not any(g is override[0] for g in added):
        entries.append(_group_entry(look, look.kinds[override[0].kind], override[0], override[1], context))
    total = [0] * look.players
    for kind in look.kinds:
        mine = [e for e in entries if e[0] is kind]
        if not mine:
            continue
        final = kind.final
        assert final is not None  # only kinds with a final score pool
        if kind.majority == "adjacent":
            counts: dict = {}
            for _, followers, after, _ in mine:
                for target in set(after):
                    if look._done(target, gained):
                        pooled = counts.setdefault(target if isinstance(target, int) else id(target),
                                                   [target, [0] * look.players])
                        for p, n in enumerate(followers):
                            pooled[1][p] = pooled[1][p] + n
            for target, followers in counts.values():
                points = int(final(_target_env(look, kind, target, context)))
                for p in majority(followers):
                    total[p] = total[p] + points
        else:  # adjacent_pays_once
            paid: list[set] = [set() for _ in range(look.players)]
            for _, followers, after, env in mine:
                done = {t if isinstance(t, int) else id(t): look._kind_of(t)
                        for t in after if look._done(t, gained)}
                for p in majority(followers):
                    fresh = [done[t] for t in done.keys() - paid[p]]
                    paid[p] |= done.keys()
                    counts_now = {name: fresh.count(a) for a, name in zip(kind.adjacency, kind.adjacency_inputs)}
                    total[p] = total[p] + int(final({**env, **counts_now}))
    return total

def _group_entry(look: "Lookahead", kind, group: Group, packed: int, context):
    groups, reps, root_group, gained, pos, nh, live = context
    tile_index = look.game.tile
    assert tile_index is not None, "a look-ahead needs a tile to place"
    tile = look.game.tiles[tile_index]
    targets: list[Any] = [root_group.get(t, t) for root in group.roots for t in look._adjacent_of(root)]
    targets += [groups[reps[a]] for j in group.locals for a in tile.segments[j].adjacent]
    followers = unpack_followers(packed, look.players)
    env = look._group_inputs(kind, group, groups, reps, root_group, gained, pos, nh)
    return kind, followers, targets, env

def _target_env(look: "Lookahead", kind: "FeatureKind", target, context) -> dict:
    """The inputs ``kind``'s final score reads when paid for the adjacent ``target``
    (as :func:`engine.core.game_end.target_inputs`)."""
    game = look.game
    if isinstance(target, Group):
        groups, reps, root_group, gained, pos, nh, live = context
        env = look._group_inputs(look.kinds[target.kind], target, groups, reps, root_group, gained, pos, nh)
        env.update((name, int(a == target.kind)) for a, name in zip(kind.adjacency, kind.adjacency_inputs))
        return env
    found = look._target_envs.get((kind.index, target))
    if found is None:
        found = look._target_envs[(kind.index, target)] = target_inputs(game, kind, target)
    return found
