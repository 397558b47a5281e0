"""Load a ruleset reference into a frozen, compiled :class:`Ruleset`.

Pipeline: YAML (positions kept) → JSON Schema → meaning checks (tiles consistent, kinds known,
formulas compile) → compiled tile orientations and formula closures.  Every problem is a
:class:`~engine.errors.Diagnostic` at the file, line and column that set the value; all of a file's
problems are reported together.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import Diagnostic, UserError
from .bonuses import Bonus, compile_bonuses, token_names
from .burial import compile_bury
from .compose import compose
from .constraints import Constraint, compile_constraints
from .edge_fit import CELL_MEMO_MOST, rotation_sets, side_fits
from .follower_types import FollowerType, compile_follower_types
from .hands import Hand, compile_hand
from .kinds import FeatureKind, Score, compile_kinds
from .phases import Phase, compile_phases
from .problems import Problems, diagnostic_order
from .resolve import Chains, chained_document, previous_chains, resolved
from .seats import START, compile_seats
from .source import Document, own_refusal
from .ties import compile_tie_break
from .tiles import EdgeCodes, TileType, compile_tile
from .triggers import ScoreTrigger, compile_triggers
from .unreachable import warn_unreachable
from .validate import check


@dataclass(frozen=True)
class Ruleset:
    """A loaded, validated and compiled ruleset.

    ``data`` is the merged document, each ``previous`` written out as the formula
    it stands for (what ``sha256`` hashes; engine/rules/resolve.py); ``kinds`` and
    ``tiles`` are indexed by their ``index``; ``start`` is the start tile's
    index (``-1`` for none); ``edge_mirror``/``edge_base`` drive edge
    matching (see :class:`~engine.rules.tiles.EdgeCodes`).
    """

    name: str
    ref: str
    data: dict[str, Any]
    sha256: str
    min_players: int
    max_players: int
    followers: int
    kinds: tuple[FeatureKind, ...]
    tiles: tuple[TileType, ...]
    start: int
    deploy_own: bool
    unplaceable: str
    start_drawn: bool
    maps: int
    edge_mirror: tuple[int, ...]
    edge_base: int
    #: The side code of a wild side (edge letter ``*``), which meets any side; -1: no tile has one.
    edge_wild: int = -1
    phases: tuple[Phase, ...] = ()
    set_aside: tuple[int, ...] = ()
    #: ``deck.size``: tiles dealt into the stacks (pinned ones first, drawn start tiles
    #: included), the rest left in the box unseen; 0 deals every tile.
    deck_size: int = 0
    #: ``deck.personal``: the tile type each player holds outside the stacks (-1: none), and how many.
    personal_tile: int = -1
    personal_count: int = 0
    #: ``deck.hand``: the tiles a player chooses among (None: the single draw; engine/rules/hands.py).
    hand: Hand | None = None
    #: ``deck.bury``: the kind whose tiles take a tile from the stack under them (-1: none; engine/rules/burial.py).
    bury_kind: int = -1
    #: Game-end bonuses, in scoring order (:mod:`engine.rules.bonuses`).
    bonuses: tuple[Bonus, ...] = ()
    #: ``rules.tie_break``: the kind whose segments break a tied majority (a hill), -1: none (engine/rules/ties.py).
    tie_kind: int = -1
    #: The bonuses that are titles (``award: title``), in order: :mod:`engine.core.titles` passes them.
    titles: tuple[Bonus, ...] = ()
    #: Every token a kind's ``rewards`` hands out, in kind order.
    tokens: tuple[str, ...] = ()
    #: The follower types, ``normal`` (``followers`` of them) first (:mod:`engine.rules.follower_types`).
    follower_types: tuple[FollowerType, ...] = ()
    #: Indices of the follower types with ``extra_turn`` (the builder).
    extra_turn_types: tuple[int, ...] = ()
    #: ``(type index, within)`` of the follower types that may move on after their feature scores
    #: (a ``when: scored, effect: move`` trigger: the wagon; :mod:`engine.rules.triggers`).
    movers: tuple[tuple[int, int], ...] = ()
    #: The ``effect: score`` triggers (the barn's), in document order (:mod:`engine.rules.triggers`).
    scorers: tuple[ScoreTrigger, ...] = ()
    #: Indices of the follower types that pay their owner, majority or not (``pays: owner``: the barn).
    owner_types: tuple[int, ...] = ()
    #: Indices of the follower types that go on a tile's corner (``spot: corner``: the barn).
    corner_types: tuple[int, ...] = ()
    #: ``(type index, strength formula)`` of the follower types whose strength reads the feature
    #: they stand on (the mayor's ``pennants``).
    feature_strengths: tuple[tuple[int, Score], ...] = ()
    #: Per tile type, the placement constraints that apply to it (see engine/rules/constraints.py).
    constraints: tuple[tuple[Constraint, ...], ...] = ()
    #: Per seat set up in ``seats`` (seat 1 first), its count of every follower type and the points
    #: it starts with (engine/rules/seats.py); a seat past them starts as ``follower_types`` say, at 0.
    seat_pieces: tuple[tuple[int, ...], ...] = ()
    seat_points: tuple[int, ...] = ()
    #: The score categories, in the breakdown's order: ``start`` when a seat starts with points,
    #: then every kind, then every bonus.
    categories: tuple[str, ...] = ()
    #: What each formula naming ``previous`` builds on (engine/rules/resolve.py): a pickle carries it,
    #: so that the ruleset compiled again explains each score by the same terms.
    chains: Chains = field(default_factory=dict, repr=False, compare=False)
    #: What is accepted but probably not meant (severity ``warning``), for the CLI to show.
    warnings: tuple[Diagnostic, ...] = field(default=(), compare=False)
    _fits: list[dict[int, tuple[int, ...]]] = field(default_factory=list, repr=False, compare=False)
    #: Per tile type, side and neighbour's side code: the orientations (a bit each, in
    #: ``orientations`` order) whose side meets it; and per such bit set, their rotations.
    _side_fits: tuple[tuple[tuple[int, ...], ...], ...] = field(default=(), repr=False, compare=False)
    _rotation_sets: tuple[tuple[tuple[int, ...], ...], ...] = field(default=(), repr=False, compare=False)
    #: Per tile type, :meth:`cell_table`'s memo (made on first use).
    _cell_fits: list[list[int]] = field(default_factory=list, repr=False, compare=False)

    def __reduce__(self) -> tuple[Any, ...]:
        # A compiled frozen dataclass cannot be rebuilt field by field (FrozenInstanceError), and a
        # ruleset is what its document says: it pickles as that document, compiled again on loading.
        return (unpickled_ruleset, (self.data, self.ref, self.sha256, self.chains))

    def __copy__(self) -> Ruleset:
        return self  # immutable: a copy may share it

    def __deepcopy__(self, memo: dict[int, Any]) -> Ruleset:
        return self

    @property
    def tile_ids(self) -> dict[str, int]:
        """Map tile type id → index."""
        return {t.id: t.index for t in self.tiles}

    def kind(self, name: str) -> FeatureKind | None:
        """The feature kind called ``name``, or None."""
        return next((k for k in self.kinds if k.name == name), None)

    def fit_table(self, tile: int) -> dict[int, tuple[int, ...]]:
        """The memo behind :meth:`fits` for one tile type (constraint key → rotations);
        a key not in it yet is computed by :meth:`fits`.  For the turn loop's hot path."""
        return self._fits[tile]

    def fits(self, tile: int, key: int) -> tuple[int, ...]:
        """Rotations of tile type ``tile`` that satisfy a cell's edge-constraint ``key``.

        ``key`` packs four side codes (0 = no neighbour) in base ``edge_base``,
        N first; a wild side (``edge_wild``), the tile's or its neighbour's, meets any side.
        Results are memoised per ruleset: a game looks up, never recomputes.
        """
        table = self._fits[tile]
        found = table.get(key)
        if found is None:
            base, sides = self.edge_base, self._side_fits[tile]
            square = base * base
            found = table[key] = self._rotation_sets[tile][
                sides[0][key % base] & sides[1][key // base % base] & sides[2][key // square % base]
                & sides[3][key // (square * base)]]
        return found

    def fits_cell(self, tile: int, key: int) -> bool:
        """Whether tile type ``tile``, whose constraints all read the cell alone (``hole``), fits a frontier
        cell of edge constraint ``key``: some rotation meets its sides (:meth:`fits`) and every constraint
        allows the cell; memoised in :meth:`cell_table` (the abbey's spots: engine/core/constrained.py)."""
        table = self.cell_table(tile)
        found = table[key] if table else -1
        if found < 0:
            found = 1 if self.fits(tile, key) else 0
            for constraint in self.constraints[tile]:
                if not constraint.allows_cell(key, self.edge_base):
                    found = 0
            if table:
                table[key] = found
        return found == 1

    def cell_table(self, tile: int) -> list[int]:
        """:meth:`fits_cell`'s memo for a tile type by edge constraint (a dict boxes int keys): 1 fits, 0 not,
        -1 not asked; empty (none) past ``CELL_MEMO_MOST`` constraints (many side codes: no memory for it)."""
        table = self._cell_fits[tile]
        if not table and self.edge_base ** 4 <= CELL_MEMO_MOST:
            table.extend([-1] * self.edge_base ** 4)
        return table


def load_ruleset_for(doc: Document, path: tuple) -> "Ruleset":
    """Load the ruleset that ``doc`` names at ``path``, relative to the document's folder;
    an error that has no file of its own, or that refuses the named file as not a ruleset
    (:func:`~engine.rules.source.own_refusal`), is reported at that place in ``doc``."""
    ref = doc.data
    for key in path:
        ref = ref[key]
    try:
        return load_ruleset(ref, Path(doc.file).parent)
    except UserError as error:
        if any(d.file for d in error.diagnostics) and own_refusal(error) is None:
            raise
        first = error.diagnostics[0]
        raise UserError(first.message, code=first.code, **doc.where(path)) from None


def load_ruleset(ref: str, base: Path | None = None, *, cache: bool = True) -> Ruleset:
    """Load, compose, validate and compile the ruleset reference ``ref``.

    ``ref`` is ``NAME_OR_PATH[+OPTION]…`` (see :mod:`engine.rules.compose`); relative paths
    are taken from ``base`` if given.  Raises :class:`UserError` with every problem found,
    each at the file and line that set the value.  Results are cached until one of the files
    changes, so loading the same ruleset for many games costs one ``stat`` per file
    (``cache=False`` loads afresh, as the benchmark does).
    """
    key = (ref, str(base) if base is not None else None)
    cached = _CACHE.get(key) if cache else None
    if cached is not None:
        ruleset, stamps = cached
        if all(_stamp(path) == stamp for path, stamp in stamps):
            return ruleset
    doc, files = compose(ref, base)
    check(doc, "ruleset")
    ruleset = compile_ruleset(doc, ref)
    _CACHE[key] = (ruleset, [(path, _stamp(path)) for path in files])
    return ruleset


_CACHE: dict[tuple[str, str | None], tuple["Ruleset", list[tuple[Path, int]]]] = {}


def unpickled_ruleset(data: dict[str, Any], ref: str, sha256: str, chains: Chains | None = None) -> Ruleset:
    """The ruleset a pickle holds (:meth:`Ruleset.__reduce__`): ``data``, its whole document as
    composed (no file is read), with ``chains``, what its formulas naming ``previous`` build on
    (:func:`~engine.rules.resolve.previous_chains`), compiled under the name ``ref``, once a process
    for each ``sha256`` and name (the same object for every game unpickled with it).  Raises
    :class:`UserError` for a document that does not compile (a pickle of another version)."""
    found = _UNPICKLED.get((sha256, ref))
    if found is None:
        doc = chained_document(data, chains or {}, f"<pickled {ref}>")
        found = _UNPICKLED[(sha256, ref)] = compile_ruleset(doc, ref)
    return found


_UNPICKLED: dict[tuple[str, str], "Ruleset"] = {}


def _stamp(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return -1


#: The most tiles a ruleset's deck may hold in all (docs/rulesets.md, "Tile types"): some 70 times
#: the basic game, every expansion together many times over, and a game that still ends in seconds.
MAX_TILES = 5000


def compile_ruleset(doc: Document, ref: str) -> Ruleset:
    """Check a schema-valid ruleset document for meaning and compile it.

    Raises :class:`UserError` listing every problem (unknown kinds, ports
    that don't fit a kind, sides covered twice or not at all, edges that
    disagree with segments, a missing start tile, formula errors).
    """
    data = doc.data
    problems = Problems(doc)
    problems.warnings.extend(doc.warnings)  # found while composing (option-order)
    problem = problems.at
    kinds = compile_kinds(doc, problems)
    if any(d.code == "edge-letter" for d in problems.found):
        raise UserError.from_diagnostics(problems.found)  # tiles cannot be read while letters clash
    kind_index = {k.name: k.index for k in kinds}
    gone: dict[str, list[str]] = {path[1]: [] for path in doc.deleted if len(path) == 2 and path[0] == "features"}
    for tile_id, spec in data["tiles"].items():
        for seg in spec["segments"]:
            if seg["kind"] in gone and tile_id not in gone[seg["kind"]]:
                gone[seg["kind"]].append(tile_id)
    for kind_name, users in gone.items():
        if users:
            problem(("features", kind_name), f"feature kind '{kind_name}' is deleted here, but tiles "
                    f"{', '.join(users)} still have {kind_name} segments", "kind-unknown")
    codes = EdgeCodes()
    tiles = []
    for index, (tile_id, spec) in enumerate(data["tiles"].items()):
        if any(seg["kind"] in gone for seg in spec["segments"]):
            continue
        tile = compile_tile(tile_id, spec, index, kinds, kind_index, codes, problems)
        if tile is not None:
            tiles.append(tile)
    tile_ids = {t.id: t.index for t in tiles}

    start_id = data.get("deck", {}).get("start")
    start = -1
    if start_id is not None:
        if ("tiles", start_id) in doc.deleted:
            problem(("tiles", start_id), f"start tile '{start_id}' (deck.start) is deleted here", "start-tile")
        elif start_id not in data["tiles"]:
            problem(("deck", "start"), f"start tile '{start_id}' is not a tile type of this ruleset", "start-tile")
        elif data["tiles"][start_id]["count"] < 1:
            problem(("tiles", start_id, "count"), f"start tile '{start_id}' has count 0", "start-tile")
        else:
            start = tile_ids.get(start_id, -1)
            maps = data["deck"].get("maps", 1)
            fixed = data["deck"].get("start_rule", "fixed") == "fixed"
            if fixed and data["tiles"][start_id]["count"] < maps:
                problem(("deck", "maps"), f"{maps} maps need {maps} start tiles '{start_id}', "
                        f"but there are {data['tiles'][start_id]['count']}", "start-tile")
    players = data.get("players", {"min": 2, "max": 5})
    if players["min"] > players["max"]:
        problem(("players",), "players: min is greater than max", "players")
    deck = data.get("deck", {})
    phases = tuple(compile_phases(deck, tiles, tile_ids, problems))
    set_aside: list[int] = []
    fixed_starts = deck.get("maps", 1) if start >= 0 and deck.get("start_rule", "fixed") == "fixed" else 0
    for i, tile_id in enumerate(deck.get("set_aside", ())):
        if tile_id not in tile_ids:
            problem(("deck", "set_aside", i), f"'{tile_id}' is not a tile type of this ruleset", "tile-unknown")
        else:
            index, count = tile_ids[tile_id], data["tiles"][tile_id]["count"]
            starts = fixed_starts if index == start else 0  # the deck cannot give a copy it does not have
            if count - starts - set_aside.count(index) < 1:
                problem(("deck", "set_aside", i), f"no copy of '{tile_id}' is left to set aside (count {count}"
                        f"{f', {starts} used as start tiles' if starts else ''})", "set-aside")
            set_aside.append(index)
    if deck.get("start_rule", "fixed") == "drawn":
        maps, left = deck.get("maps", 1), sum(spec["count"] for spec in data["tiles"].values()) - len(set_aside)
        if left < maps:  # every map's start tile is drawn before play begins
            problem(("deck", "start_rule"), f"drawn start tiles need {maps} tile{'s' * (maps != 1)} in the deck "
                    f"(one per map), but it has {left}", "start-tile")
    size = deck.get("size", 0)
    total = sum(spec["count"] for spec in data["tiles"].values())
    if total > MAX_TILES:
        problem(("tiles",), f"the tile types add up to {total:,} tiles, more than the {MAX_TILES:,} one game may "
                f"have (the basic game has 72; a greedy bot's game of {MAX_TILES:,} takes seconds, one of "
                "25,000 minutes)", "deck-size")
    pinned = sum(1 for phase in phases for tile in (phase.first, phase.last) if tile is not None)
    starts_drawn = deck.get("maps", 1) if deck.get("start_rule", "fixed") == "drawn" else 0
    if size and size < pinned + starts_drawn:
        held = [what.format(n=n, s="s" * (n != 1)) for n, what in (
            (pinned, "{n} tile{s} pinned first or last in a phase"), (starts_drawn, "{n} drawn start tile{s}")) if n]
        problem(("deck", "size"), f"a deck of {size} tile{'s' * (size != 1)} cannot hold its "
                f"{' and its '.join(held)}", "deck-size")
    personal_tile, personal_count = next(iter(deck.get("personal", {}).items()), (None, 0))
    if personal_tile is not None and personal_tile not in data["tiles"]:  # a broken one has its own error
        problem(("deck", "personal", personal_tile), f"personal tile '{personal_tile}' is not a tile type of this "
                "ruleset", "tile-unknown", key=True)
    hand = compile_hand(deck, personal_tile is not None, problems)
    bury_kind = compile_bury(deck, kinds, tiles, hand is not None, problems)
    constraints = compile_constraints(data.get("constraints", {}), kinds, tile_ids, problems)
    bonuses = compile_bonuses(doc, kinds, problems)
    follower_types = compile_follower_types(doc, kinds, problems)
    movers, scorers = compile_triggers(doc, follower_types, kinds, problems)
    seat_pieces, seat_points = compile_seats(doc, follower_types, kinds, bonuses, players["max"], problems)
    tie_kind = compile_tie_break(doc, kinds, problems)
    warn_unreachable(tiles, codes.mirror, codes.wild, kinds, follower_types, bonuses,
                     {start: fixed_starts} if fixed_starts else {}, tile_ids.get(personal_tile or "", -1), problems)
    if problems.found:
        raise UserError.from_diagnostics(sorted(problems.found, key=diagnostic_order))
    rules = data.get("rules", {})
    data = resolved(doc)  # every previous written out: the hash covers each option's part of a formula
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return Ruleset(
        name=data["name"], ref=ref, data=data,
        sha256=hashlib.sha256(canonical.encode()).hexdigest(),
        min_players=players["min"], max_players=players["max"],
        followers=data.get("followers", 7),
        kinds=tuple(kinds), tiles=tuple(tiles), start=start,
        deploy_own=rules.get("deploy", "empty") == "own-or-empty", tie_kind=tie_kind,
        unplaceable=rules.get("unplaceable", "discard"),
        start_drawn=data.get("deck", {}).get("start_rule", "fixed") == "drawn",
        maps=data.get("deck", {}).get("maps", 1),
        phases=phases, set_aside=tuple(set_aside), deck_size=size,
        personal_tile=tile_ids.get(personal_tile, -1) if personal_tile is not None else -1,
        personal_count=personal_count, hand=hand, bury_kind=bury_kind,
        bonuses=bonuses, titles=tuple(b for b in bonuses if b.award == "title"), tokens=token_names(kinds),
        follower_types=follower_types,
        extra_turn_types=tuple(t.index for t in follower_types if t.extra_turn), movers=movers, scorers=scorers,
        corner_types=tuple(t.index for t in follower_types if t.spot == "corner"),
        seat_pieces=seat_pieces, seat_points=seat_points,
        chains=previous_chains(doc),
        categories=(((START,) if any(seat_points) else ()) + tuple(k.name for k in kinds)
                    + tuple(b.name for b in bonuses)),
        owner_types=tuple(t.index for t in follower_types if t.pays_owner),
        feature_strengths=tuple((t.index, t.strength_of) for t in follower_types if t.strength_of is not None),
        constraints=tuple(tuple(c for c in constraints if c.applies_to(t)) for t in tiles),
        edge_mirror=tuple(codes.mirror), edge_base=codes.base, edge_wild=codes.wild,
        warnings=tuple(sorted(problems.warnings, key=diagnostic_order)),
        _fits=[{} for _ in tiles],
        _cell_fits=[[] for _ in tiles],
        _side_fits=tuple(side_fits(t, codes.base, codes.wild) for t in tiles),
        _rotation_sets=tuple(rotation_sets(tuple(o.rotation for o in t.orientations)) for t in tiles),
    )
