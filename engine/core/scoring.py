"""Scoring a feature: formula inputs, majority, and the event that explains it.

Scoring is rare next to placing tiles, so this module favours clarity.  All
points come from the ruleset's formulas; this module only gathers their
inputs and decides who has the majority (RULES.md §3.1: the player or players
with most followers on a feature score it, every tied player in full).

Points stay within ±MAX_POINTS (docs/rulesets.md, "Scoring formulas"): each
score and each of its parts (checked by :class:`~engine.rules.kinds.Score`)
and each player's total (checked here).  Beyond that a formula is wrong, and
the game stops with a :class:`~engine.errors.UserError` ``score-range`` at the
formula's line, naming the feature kind, the rule and the turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence, Union

from ..errors import UserError
from ..geometry import RING8
from ..rules.formula_syntax import MAX_POINTS
from ..rules.kinds import ScoreRangeError
from .followers import count_of
from .score_event import Paid, Scored, ScoreEvent
from .ties import broken
from .totals import adjacent_of, totals

if TYPE_CHECKING:
    from ..rules.kinds import FeatureKind, Score
    from ..rules.tiles import SegmentType
    from .game import Game
    from .totals import Totals




def is_complete(game: "Game", root: int) -> bool:
    """Whether the feature with root ``root`` is complete now."""
    kind = game.ruleset.kinds[kind_of(game, root)]
    if kind.completion == "closed":
        return game.open[root] == 0
    if kind.completion == "surrounded":
        return _neighbours(game, root) == 8
    return kind.completes is not None and game.is_done(root)


def make_inputs(kind: "FeatureKind", tiles: int, segments: int, complete: bool, attrs: list[int],
                neighbours: int, adjacent: list[int] | None, around: list[int] | None = None) -> dict[str, int | bool]:
    """The formula inputs of a feature of ``kind`` from its totals (see :func:`feature_inputs`);
    ``adjacent`` counts the completed adjacent features per adjacency kind (None: none), ``around``
    the segments of each ``around`` kind on the tiles around (None: none)."""
    env = kind.inputs.copy()  # every input in order, constants set: a C-level copy, then the totals
    env["tiles"], env["segments"], env["complete"] = tiles, segments, complete
    if around:
        for (name, _), count in zip(kind.around, around):
            env[name] = count
    for name, total in zip(kind.attributes, attrs):
        env[name] = total
    if kind.neighbourly:
        env["neighbors"] = neighbours
    if adjacent:
        for name, count in zip(kind.adjacency_inputs, adjacent):
            env[name] = count
    return env  # per-player inputs stay 0 until :func:`own_env` reads a scored player's (none may hold the majority)


def feature_inputs(game: "Game", root: int, kind: "FeatureKind") -> dict[str, int | bool]:
    """The formula inputs of a feature: ``tiles`` (distinct positions, RULES.md §3.1
    "Counting"), ``segments``, ``complete``, each attribute summed, ``neighbors``
    for surrounded kinds, each adjacency input (completed adjacent features of its kind) and
    each ``around`` input (:func:`around_counts`)."""
    assert game.members[root], "feature_inputs needs a root"
    return inputs_from(kind, totals(game, root), feature_facts(game, root, kind))


#: What a feature's inputs read beyond its member list (:func:`feature_facts`).
Facts = tuple[bool, int, Union[list[int], None], Union[list[int], None]]


def feature_facts(game: "Game", root: int, kind: "FeatureKind", adjacent: set[int] | None = None) -> Facts:
    """What the inputs of the feature at ``root`` read beyond its members (its
    :class:`~engine.core.totals.Totals`): whether it is complete, its neighbours (0 but for a
    surrounded kind), the completed adjacent features per adjacency kind and the ``around``
    counts (None where the kind has none).  ``adjacent``: the adjacent features' roots, if known
    (:func:`~engine.core.totals.adjacent_of`)."""
    if kind.adjacency and adjacent is None:
        adjacent = adjacent_of(game, root)
    return (is_complete(game, root), _neighbours(game, root) if kind.neighbourly else 0,
            count_by_kind(game, kind, [t for t in adjacent if is_complete(game, t)])
            if adjacent is not None else None,
            around_counts(game, root, kind) if kind.around else None)


def inputs_from(kind: "FeatureKind", found: "Totals", facts: Facts) -> dict[str, int | bool]:
    """:func:`feature_inputs` from a feature's totals and facts."""
    complete, neighbours, adjacent, around = facts
    return make_inputs(kind, tiles=len(found.positions), segments=len(found.members), complete=complete,
                       attrs=found.attrs, neighbours=neighbours, adjacent=adjacent, around=around)


def around_counts(game: "Game", root: int, kind: "FeatureKind") -> list[int]:
    """Per ``around`` entry of ``kind`` (a kind without ports), the segments of its kind on the 8
    tiles around the feature at ``root`` (engine/rules/around.py: Hills & Sheep's vineyards)."""
    pos, board, tiles = game.seg_pos[root], game.board, game.tiles
    around = [tiles[board[pos + d][2]].kinds for d in RING8 if pos + d in board]
    return [sum(kinds.count(k) for kinds in around) for _, k in kind.around]


def count_by_kind(game: "Game", kind: "FeatureKind", roots) -> list[int]:
    """How many of the feature ``roots`` (distinct) are of each of ``kind``'s adjacency kinds."""
    kinds = [kind_of(game, root) for root in roots]
    return [kinds.count(k) for k in kind.adjacency]


def majority(followers: list[int]) -> tuple[int, ...]:
    """Seats with the most followers (all tied seats), or () when there are none (RULES.md §3.1)."""
    most = max(followers)
    return tuple(p for p, n in enumerate(followers) if n == most) if most else ()


def majority_in(game: "Game", roots: list[int], followers: list[int]) -> tuple[int, ...]:
    """:func:`majority` of ``followers`` on the features ``roots``, a tie broken by the ruleset's
    ``rules.tie_break`` (:func:`engine.core.ties.broken`: a follower on a hill)."""
    players = majority(followers)
    return broken(game, roots, players) if len(players) > 1 and game.ruleset.tie_kind >= 0 else players


def end_points(kind: "FeatureKind", env: dict[str, int | bool]) -> int:
    """What an occupied feature pays at game end: ``incomplete`` (unless complete) plus ``final``."""
    points = 0
    if kind.incomplete is not None and not env["complete"]:
        points += kind.incomplete.points(env)
    if kind.final is not None:
        points += kind.final.points(env)
    return points


def score_feature(game: "Game", root: int, *, complete: bool, phase: str, rule: str | None = None,
                  explain: bool = True) -> list[Scored]:
    """Score the feature at ``root`` for its majority holders, not applied: a
    :class:`ScoreEvent`, or with ``explain=False`` the same points as a :class:`Paid`; one
    per majority player when the kind's formulas read per-player inputs (``own_T``).

    Raises :class:`UserError` ``score-range`` for points beyond ±MAX_POINTS."""
    kind = game.ruleset.kinds[kind_of(game, root)]
    rule = rule or ("complete" if complete else "incomplete")
    followers = game.followers_by_player(root)
    make = explained if explain else paid_only
    env, players = feature_inputs(game, root, kind), majority_in(game, [root], followers)
    owners = owner_paid(game, root, kind, rule, env, phase, explain)
    if owners and not players:  # only pieces that pay their owners stand here: no majority to report
        return owners
    if not kind.own or not players:
        return [make(game, kind, rule, getattr(kind, rule), env, followers, players, root, phase), *owners]
    return [*(make(game, kind, rule, getattr(kind, rule), own_env(game, kind.own, env, [game.fol[root]], p), followers,
                   (p,), root, phase) for p in players), *owners]


def owner_paid(game: "Game", root: int, kind: "FeatureKind", rule: str, env: dict, phase: str,
               explain: bool = True) -> list[Scored]:
    """What the pieces on the feature at ``root`` that pay their owner (``pays: owner``: the barn)
    pay as it scores under ``rule``: per such type, each seat with one scores the type's ``score``
    (else the kind's formula for ``rule``) once, majority or not; the event's rule is ``RULE, TYPE``."""
    found: list[Scored] = []
    packed, players = game.fol[root], game.players
    if not packed:
        return found
    for index in game.ruleset.owner_types:
        counts = [count_of(packed, p, index, players) for p in range(players)]
        owners = tuple([p for p in range(players) if counts[p]])
        if not owners:
            continue
        piece = game.ruleset.follower_types[index]
        score = piece.score if piece.score is not None else getattr(kind, rule.split(",")[0])
        name = f"{rule}, {piece.name}"
        # Each called by name, not through a variable: a native call.
        found.append(explained(game, kind, name, score, env, counts, owners, root, phase) if explain
                     else paid_only(game, kind, name, score, env, counts, owners, root, phase))
    return found


def own_env(game: "Game", own: tuple[tuple[str, int], ...], env: dict, packed: list[int], player: int) -> dict:
    """``env`` with the per-player inputs ``own`` (``(own_T, type index)`` pairs, a kind's or a
    score trigger's) for ``player``: their followers of each type read (``own_pig``) on the
    features whose packed followers are ``packed``."""
    mine = dict(env)
    for name, type_index in own:
        mine[name] = sum(count_of(fol, player, type_index, game.players) for fol in packed)
    return mine


def paid_only(game: "Game", kind: "FeatureKind", rule: str, score, env: dict, followers: list[int],
          players: tuple[int, ...], root: int, phase: str, target: str | None = None) -> Paid:
    try:
        return Paid(kind.name, rule, score.points(env) if score is not None else 0, players)
    except ScoreRangeError as error:
        raise error.at(f"turn {game.turn}") from None


def explained(game: "Game", kind: "FeatureKind", rule: str, score, env: dict, followers: list[int],
           players: tuple[int, ...], root: int, phase: str, target: str | None = None) -> ScoreEvent:
    try:
        points = score.points(env) if score is not None else 0
        terms = tuple(score.terms(env)) if score is not None else ()
    except ScoreRangeError as error:
        raise error.at(f"turn {game.turn}") from None
    return ScoreEvent(
        target=target, constants=tuple(kind.constants),
        phase=phase, turn=game.turn, kind=kind.name, rule=rule,
        formula=score.text if score is not None else "0",
        points=points, players=players,
        followers=tuple(followers),
        # A per-target score's adjacency inputs only say the target's kind, which the event names.
        inputs={k: v for k, v in env.items() if not target or k not in kind.adjacency_inputs},
        terms=terms,
        tiles=tuple(sorted({game.local(game.seg_pos[m])[1:] for m in game.members[root]})),
        map=game.local(game.seg_pos[root])[0] if game.ruleset.maps > 1 else None,
        anchor=_anchor(game, root),
    )


def _anchor(game: "Game", root: int) -> tuple[int, ...]:
    """The board ports of the segment of feature ``root`` on its first tile (the lowest position,
    as :attr:`ScoreEvent.tiles` sorts them: a packed position orders as ``(x, y)``), sorted: what
    tells two features of one tile apart.  Two passes over the members, comparing ints: it runs
    for every explained event."""
    members, seg_pos = game.members[root], game.seg_pos
    first = seg_pos[members[0]]
    for m in members:
        if seg_pos[m] < first:
            first = seg_pos[m]
    orientation, base, _ = game.board[first]
    ports: list[int] = []
    for m in members:
        if seg_pos[m] == first:
            ports.extend(orientation.segment_ports[m - base])
    return tuple(sorted(ports))


def points_by_kind(game: "Game") -> list[dict[str, int]]:
    """Per seat, the points each feature kind paid it so far (``{kind name: points}``, every
    kind of the ruleset, in its order): what the game's scores add up from, event by event."""
    return [dict(points) for points in game.kind_points]


def check_totals(game: "Game", events: "Sequence[Scored]", totals: list[int]) -> None:
    """Add ``events`` to ``totals`` (per seat) in order; :class:`UserError` ``score-range``,
    at the formula of the event that takes a total beyond ±MAX_POINTS."""
    for event in events:
        for p in event.players:
            totals[p] = totals[p] + event.points
            if not -MAX_POINTS <= totals[p] <= MAX_POINTS:
                score = _formula_of(game, event)
                raise UserError(f"turn {game.turn}: the {score.rule} score of {event.kind} ({event.points}) takes "
                                f"seat {p + 1}'s total to {totals[p]}, beyond ±{MAX_POINTS:,}, the most a total may be",
                                code="score-range", **score.items[0][1].where)


def _formula_of(game: "Game", event: Scored) -> "Score":
    """The formula that paid ``event``: a bonus's (named by the bonus), a score trigger's (its rule
    is the trigger's name), a piece type's (``final, barn``), or the kind's for the rule (``final,
    per city`` is the final formula)."""
    kind = game.ruleset.kind(event.kind)
    if kind is None:
        return next(b.points for b in game.ruleset.bonuses if b.name == event.kind)
    trigger = next((t for t in game.ruleset.scorers if t.name == event.rule), None)
    if trigger is not None:
        return trigger.score
    rule, _, piece = event.rule.partition(", ")
    paying = next((t.score for t in game.ruleset.follower_types if t.name == piece and t.score is not None), None)
    return paying if paying is not None else getattr(kind, rule)


def segment_type(game: "Game", segment: int) -> "SegmentType":
    """The :class:`~engine.rules.tiles.SegmentType` of placed segment ``segment``."""
    _, base, tile_index = game.board[game.seg_pos[segment]]
    return game.tiles[tile_index].segments[segment - base]


def kind_of(game: "Game", segment: int) -> int:
    """Kind index of placed segment ``segment``."""
    return game.seg_kind[segment]


def _neighbours(game: "Game", root: int) -> int:
    pos, board = game.seg_pos[root], game.board
    return sum(1 for d in RING8 if pos + d in board)
