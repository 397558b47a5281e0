"""Every game ends, within the bound :func:`engine.core.deck.put_back` derives.

With N tiles to draw, K tile types among them and P placements a game draws at
most N + P·(K − 1) tiles (docs/rulesets.md, "Unplaceable tiles").  The ruling
is pinned on small decks built for it (a deck where nothing fits, a pinned last
tile, phases, two maps, a drawn start tile), and the bound is checked on 48,000
seeded random games (shared out, at least 60 a group) of every shipped ruleset × option combination (up to
four options that change drawing or placing, and every largest set), grouped by
the part of the merged ruleset that decides drawing and placing.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import random
from collections import Counter
from pathlib import Path

import pytest
import yaml

from engine.bots.random_player import RandomPlayer
from engine.core import burial, personal
from engine.core.game import Game
from engine.core.moves import Move
from engine.errors import UserError
from engine.rules.compose import compose
from engine.rules.ruleset import Ruleset, load_ruleset
from engine.sim.play import play_game

ENGINE = Path(__file__).resolve().parents[2] / "engine"
_spec = importlib.util.spec_from_file_location(
    "combination_listing", Path(__file__).resolve().parents[1] / "rules" / "test_combinations.py")
_listing = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_listing)
OPTIONS: dict[str, dict] = _listing.OPTIONS
#: Seeded games in all, shared out between the groups (each plays at least 60; the total is what the
#: CI's time allows).
TOTAL_GAMES = 48_000


# -- the bound -----------------------------------------------------------------------

def deck_size(ruleset: Ruleset) -> tuple[int, int]:
    """N, the tiles a game draws (the deck minus start tiles and ``set_aside``, at most
    ``deck.size``), and K, the tile types among them (with a drawn start tile, counted before the start is drawn)."""
    copies = Counter({t.index: t.count for t in ruleset.tiles})
    copies.subtract(ruleset.set_aside)
    if ruleset.start >= 0 and not ruleset.start_drawn:
        copies[ruleset.start] -= ruleset.maps
    dealt = sum(copies.values())
    if ruleset.deck_size:  # a short game deals that many, drawn start tiles included
        dealt = min(dealt, ruleset.deck_size)
    n = dealt - (ruleset.maps if ruleset.start_drawn else 0)  # the loader ensures n >= 0
    return n, sum(1 for c in copies.values() if c > 0)  # K may count a type left in the box: a looser bound


class Bounded(Game):
    """A game that fails, rather than hangs, once it draws more tiles than the bound allows."""

    def __init__(self, ruleset: Ruleset, players: int, seed: int) -> None:
        self.n, self.k = deck_size(ruleset)
        super().__init__(ruleset, players, seed)

    def discard(self) -> None:
        # Draws so far, this one included, before its run of returns has ended in a
        # placement: at most N + (P + 1)·(K − 1).
        # A tile of a player's own (deck.personal) is neither drawn nor counted among the N.
        own = len(personal.of(self).turns)
        assert len(self.history) - own < self.n + (self.turn - own + 1) * max(self.k - 1, 0), \
            "more draws than the bound"
        super().discard()


def play_out(ruleset: Ruleset, seed: int) -> Bounded:
    """One seeded game of two ``random`` bots, played on :class:`Game` directly."""
    game = Bounded(ruleset, 2, seed)
    bots = [RandomPlayer(f"{seed}:0"), RandomPlayer(f"{seed}:1")]
    while game.start_tile is not None:
        game.place_start(bots[0].choose_start(game))
    while game.tile is not None:
        game.play(bots[game.player].choose(game), checked=True)
    return game


def assert_ended_within_bound(game: Bounded) -> None:
    own = len(personal.of(game).turns)  # tiles of the players' own (deck.personal), not drawn
    placed = sum(1 for _, move in game.history if move is not None) - own
    drawn = len(game.history) - own
    discarded = drawn - placed - game.returned
    assert game.tile is None and game.remaining == 0
    # Every tile placed, discarded or buried under a hill (deck.bury, never drawn), none lost or drawn twice.
    assert placed + discarded + len(burial.of(game).buried) == game.n
    assert drawn <= game.n + placed * max(game.k - 1, 0) <= game.n * max(game.k, 1)


# -- the ruling on decks built for it --------------------------------------------------

def mini(tmp_path: Path, name: str, tiles: dict, **top) -> Ruleset:
    """A stand-alone ruleset: cities (C) and fields (F); the start tile S is city all round,
    so a tile without a C edge never fits anywhere."""
    shapes = {"CCCC": [{"kind": "city", "ports": ["N", "E", "S", "W"]}],
              "FFFF": [{"kind": "field", "ports": ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"]}],
              "CFFF": [{"kind": "city", "ports": ["N"]},
                       {"kind": "field", "ports": ["EL", "ER", "SL", "SR", "WL", "WR"]}]}
    data = {"name": name, "players": {"min": 1, "max": 2},
            "features": {"city": {"edge": "C", "ports": "side"}, "field": {"edge": "F", "ports": "half"}},
            "tiles": {tile_id: {"count": count, "edges": edges, "segments": shapes[edges], **extra}
                      for tile_id, (count, edges, extra) in tiles.items()},
            **top}
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return load_ruleset(str(path))


def ids(game: Game) -> list[tuple[str, bool]]:
    """The history as (tile id, placed?)."""
    return [(game.tiles[t].id, move is not None) for t, move in game.history]


RESHUFFLE = {"rules": {"unplaceable": "reshuffle"}}


def test_seed_107_of_river_reshuffle_ends_and_discards_the_tile_stuck_before_the_lake() -> None:
    ruleset = load_ruleset("basic+river+unplaceable-reshuffle")
    game = play_game(ruleset, ["random", "greedy"], 107).game  # as `carcassonne play -s 107` plays it
    assert game.finished and game.returned == 0
    assert ids(game)[8:11] == [("RJ", True), ("RF", False), ("RL", True)]  # RF left the game; the lake came
    assert "RF" not in [tile_id for tile_id, placed in ids(game) if placed]


def test_a_tile_goes_back_at_most_once_between_two_placements(tmp_path: Path) -> None:
    # Y never fits (no city edge); Z always does. Y may go back while Z waits, but only
    # once: drawn again before Z is placed, it leaves the game.
    ruleset = mini(tmp_path, "once", {"S": (1, "CCCC", {}), "Y": (2, "FFFF", {}), "Z": (1, "CCCC", {})},
                   deck={"start": "S"}, **RESHUFFLE)
    went_back = set()
    for seed in range(60):
        game = play_out(ruleset, seed)
        assert_ended_within_bound(game)
        assert ids(game).count(("Y", False)) == 2 + game.returned and ids(game).count(("Z", True)) == 1
        assert game.returned <= 1  # K − 1 = 1 type may go back before the one placement
        went_back.add(game.returned)
    assert went_back == {0, 1}


def test_a_tile_pinned_last_does_not_keep_another_in_its_phase(tmp_path: Path) -> None:
    # Y is drawn first, Z (pinned last) after it whatever the shuffle: Y fits nowhere and
    # nothing that could come before it fits, so it is discarded at once (it used to go
    # back in front of Z forever).
    ruleset = mini(tmp_path, "pinned", {"S": (1, "CCCC", {}), "Y": (1, "FFFF", {}), "Z": (1, "CCCC", {})},
                   deck={"start": "S", "phases": [{"group": "base", "last": "Z"}]}, **RESHUFFLE)
    for seed in range(20):
        game = play_out(ruleset, seed)
        assert ids(game) == [("Y", False), ("Z", True)] and game.returned == 0


def test_a_tile_goes_back_into_its_own_phase_only(tmp_path: Path) -> None:
    # Y, alone in the first phase, fits nowhere: a fitting Z in the next phase does not
    # keep it, so Y leaves the game instead of moving to a later phase.
    ruleset = mini(tmp_path, "own", {"S": (1, "CCCC", {}), "Y": (1, "FFFF", {"group": "early"}),
                                     "Z": (3, "CCCC", {})},
                   deck={"start": "S", "phases": [{"group": "early"}, {"group": "base"}]}, **RESHUFFLE)
    for seed in range(20):
        game = play_out(ruleset, seed)
        assert ids(game) == [("Y", False)] + [("Z", True)] * 3 and game.returned == 0


@pytest.mark.parametrize("policy", ["discard", "reshuffle"])
def test_a_deck_where_nothing_fits_is_drawn_once_and_discarded(tmp_path: Path, policy: str) -> None:
    ruleset = mini(tmp_path, "stuck", {"S": (1, "CCCC", {}), "Y": (6, "FFFF", {})},
                   deck={"start": "S"}, rules={"unplaceable": policy})
    game = play_out(ruleset, 3)
    assert ids(game) == [("Y", False)] * 6 and game.returned == 0 and game.turn == 0
    assert_ended_within_bound(game)


def test_a_map_whose_stack_runs_out_on_a_discard_hands_the_turn_to_the_next_map(tmp_path: Path) -> None:
    # Two maps; Y never fits. When the last tile of a map's stack is discarded the same
    # player plays on the other map: the game used to end there with tiles left to draw.
    ruleset = mini(tmp_path, "maps", {"S": (2, "CCCC", {}), "Y": (2, "FFFF", {}), "Z": (6, "CCCC", {})},
                   deck={"start": "S", "maps": 2})
    y, z = ruleset.tile_ids["Y"], ruleset.tile_ids["Z"]
    game = Game(ruleset, 2, 1)
    game.enter_map(0)
    game.stacks, game.tile = [[[]], [[z]]], y
    game.discard()
    assert (game.tile, game.map, game.player) == (z, 1, 0)
    for seed in range(40):
        game = play_out(ruleset, seed)
        assert_ended_within_bound(game)
        assert ids(game).count(("Z", True)) == 6


@pytest.mark.parametrize("policy", ["discard", "reshuffle"])
def test_a_drawn_start_tile_from_a_deck_that_barely_fits_ends(tmp_path: Path, policy: str) -> None:
    # The start tile is the first of the stack: a field (Y) or a city (Z). Either way
    # some tiles never fit; every game still ends with every tile placed or discarded.
    ruleset = mini(tmp_path, "drawn", {"Y": (3, "FFFF", {}), "Z": (3, "CCCC", {}), "X": (2, "CFFF", {})},
                   deck={"start_rule": "drawn"}, rules={"unplaceable": policy})
    for seed in range(40):
        game = play_out(ruleset, seed)
        assert len(game.starts) == 1
        assert_ended_within_bound(game)


@pytest.mark.parametrize("phase", [{"group": "base", "first": "Z", "last": "Z"}, {"group": "base", "last": "S"},
                                   {"group": "base", "first": "S", "last": "Z"}])
def test_a_pinned_tile_is_drawn_only_if_its_phase_holds_a_copy(tmp_path: Path, phase: dict) -> None:
    # One Z pinned at both ends, or the start tile's only copy pinned: no phantom copy is drawn.
    ruleset = mini(tmp_path, "pins", {"S": (1, "CCCC", {}), "Z": (1, "CCCC", {}), "X": (2, "CFFF", {})},
                   deck={"start": "S", "phases": [phase]}, **RESHUFFLE)
    for seed in range(10):
        game = play_out(ruleset, seed)
        assert_ended_within_bound(game)
        assert sorted(tile_id for tile_id, _ in ids(game)) == ["X", "X", "Z"]


@pytest.mark.parametrize("set_aside, message", [
    (["Z", "Z"], "no copy of 'Z' is left to set aside (count 1)"),
    (["S"], "no copy of 'S' is left to set aside (count 1, 1 used as start tiles)"),
    (["X"], "no copy of 'X' is left to set aside (count 0)"),
])
def test_setting_aside_a_copy_the_deck_does_not_have_is_a_located_error(tmp_path: Path, set_aside: list,
                                                                       message: str) -> None:
    with pytest.raises(UserError) as raised:
        mini(tmp_path, "aside", {"S": (1, "CCCC", {}), "Z": (1, "CCCC", {}), "X": (0, "CFFF", {})},
             deck={"start": "S", "set_aside": set_aside})
    found = raised.value.diagnostics[0]
    assert found.message == message and found.code == "set-aside" and found.line is not None


@pytest.mark.parametrize("maps, count", [(1, 0), (2, 1), (3, 2)])
def test_drawn_start_tiles_need_a_tile_for_every_map(tmp_path: Path, maps: int, count: int) -> None:
    with pytest.raises(UserError) as raised:
        mini(tmp_path, "few", {"Z": (count, "CCCC", {})}, deck={"start_rule": "drawn", "maps": maps})
    found = raised.value.diagnostics[0]
    assert found.message == (f"drawn start tiles need {maps} tile{'s' * (maps != 1)} in the deck (one per map), "
                             f"but it has {count}") and found.code == "start-tile"
    assert mini(tmp_path, "enough", {"Z": (maps, "CCCC", {})}, deck={"start_rule": "drawn", "maps": maps}).maps == maps


def test_a_phase_pinning_a_tile_after_a_broken_one_reports_the_broken_tile(tmp_path: Path) -> None:
    # The broken tile is left out of the compiled tiles; the pin is still checked by its id.
    with pytest.raises(UserError, match="half-sides"):
        mini(tmp_path, "broken", {"S": (1, "CCCC", {}), "Y": (1, "FFFF", {"segments": [{"kind": "field",
                                                                                          "ports": ["N"]}]}),
                                  "Z": (1, "CCCC", {})},
             deck={"start": "S", "phases": [{"group": "base", "last": "Z"}]})


# -- grouping the shipped combinations by what decides drawing and placing --------------

def draw_part(data: dict) -> dict:
    """The part of a (merged) ruleset document that decides what a game draws and where a
    tile may go: players, the deck, the tiles, the constraints, ``rules.unplaceable`` and
    each feature kind's edge letter and ports.  Empty parts are left out."""
    kinds = {name: {k: v for k, v in (spec or {}).items() if k in ("edge", "ports")}
             for name, spec in (data.get("features") or {}).items()}
    part = {"players": data.get("players"), "deck": data.get("deck"), "tiles": data.get("tiles"),
            "constraints": data.get("constraints"), "unplaceable": (data.get("rules") or {}).get("unplaceable"),
            "features": {name: spec for name, spec in kinds.items() if spec}}
    return {k: v for k, v in part.items() if v not in (None, {})}


#: Ruleset attributes the drawing and placing code reads → the parts of draw_part they come
#: from; None: read for followers, scoring or messages only, never for what is drawn or placed.
READS: dict[str, tuple[str, ...] | None] = {
    "tiles": ("tiles", "features"), "fits": ("tiles", "features"), "fit_table": ("tiles", "features"),
    "edge_base": ("tiles", "features"), "edge_mirror": ("tiles", "features"), "edge_wild": ("tiles", "features"),
    "constraints": ("constraints", "tiles", "features"),
    "start": ("deck",), "start_drawn": ("deck",), "maps": ("deck",), "phases": ("deck",), "set_aside": ("deck",),
    "deck_size": ("deck",), "personal_tile": ("deck",), "personal_count": ("deck",), "hand": ("deck",),
    "bury_kind": ("deck", "features"),
    "unplaceable": ("unplaceable",), "min_players": ("players",), "max_players": ("players",),
    "followers": None, "deploy_own": None,  # the follower supply and who may deploy
    "bonuses": None, "tokens": None,  # game-end bonuses and the tokens completed features hand out
    "titles": None,  # bonuses held during play (King & Robber Baron): who holds them, not what is drawn
    "follower_types": None, "extra_turn_types": None,  # who may deploy what where; who plays the next tile
    "feature_strengths": None,  # who holds a majority (the mayor): scores, not what is drawn or placed
    "scorers": None, "corner_types": None,  # scores set off and pieces sent home; where a piece may stand
    "kinds": None,  # deployable kinds and kind names in refusals
    "ref": None,  # the error message for a wrong player count
}
DRAWING_AND_PLACING = ["core/game.py", "core/choices.py", "core/deployment.py", "core/deck.py", "core/hands.py",
                       "core/burial.py", "rules/constraints.py"]
PLAY_OPTIONS = {name for name, data in OPTIONS.items() if draw_part(data.get("patch", {}))}
#: The most options that change drawing or placing taken together, besides the largest sets: with 16
#: such options every combination would be 3,592 groups of 11,316 rulesets, and composing them alone
#: takes minutes; every set of four of them (and every option with every other at least once in a
#: largest set) is 808 groups.
MOST = 4
#: Every shipped ruleset with every compatible combination of at most :data:`MOST` of the options
#: that change drawing or placing, with each largest compatible set, and with the combinations the
#: other options are played in (test_combinations.py).
REFS: list[str] = sorted(set(_listing.refs_of(_listing.combinations_of(sorted(PLAY_OPTIONS), MOST)
                                              + _listing.maximal_sets())) | set(_listing.REFS))


def reduced(ref: str) -> str:
    """``ref`` without its options that touch nothing of :func:`draw_part`."""
    name, *options = ref.split("+")
    return "+".join([name, *(o for o in options if o in PLAY_OPTIONS)])


def _groups() -> dict[str, list[str]]:
    by_reduced: dict[str, list[str]] = {}
    for ref in REFS:
        by_reduced.setdefault(reduced(ref), []).append(ref)
    groups: dict[str, list[str]] = {}
    for short, refs in by_reduced.items():
        key = json.dumps(draw_part(compose(short)[0].data), sort_keys=True)
        groups.setdefault(key, []).extend(refs)
    return groups


GROUPS = _groups()
REPRESENTATIVES = sorted(min(refs, key=lambda r: (len(r.split("+")), r)) for refs in GROUPS.values())
GAMES = max(60, TOTAL_GAMES // len(GROUPS))


def test_the_combinations_fall_into_groups_and_scoring_options_join_the_base() -> None:
    assert sum(map(len, GROUPS.values())) == len(REFS) == len(set(REFS))
    assert PLAY_OPTIONS == {"abbey-and-mayor", "draw-three-keep-one", "hand-of-two", "hills", "inns-and-cathedrals",
                            "king-and-robber-baron", "random-start", "river", "river-immediate-u-turn",
                            "river-split-springs", "river-start-tile-shuffled", "short-game",
                            "traders-and-builders", "two-maps", "unplaceable-reshuffle", "vineyards"}
    base = next(refs for refs in GROUPS.values() if "basic" in refs)
    assert {"basic+farm-points-4", "first-edition", "second-edition+no-farmers+tiny-city"} <= set(base)
    assert len(GROUPS) == 808


def test_leaving_scoring_options_out_does_not_change_the_merged_drawing_part() -> None:
    # The grouping composes each combination without its scoring options; composing the
    # whole combination gives the same part (checked for the longest member of each group).
    for refs in GROUPS.values():
        longest = max(refs, key=lambda r: len(r.split("+")))
        assert draw_part(compose(longest)[0].data) == draw_part(compose(reduced(longest))[0].data), longest


def _ruleset_reads(path: Path) -> set[str]:
    """Attributes read off anything called ``ruleset`` (``game.ruleset.x``, ``ruleset.x``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute):
            owner = node.value
            name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", None)
            if name == "ruleset":
                found.add(node.attr)
    return found


def test_the_key_covers_everything_the_drawing_and_placing_code_reads() -> None:
    reads = set().union(*(_ruleset_reads(ENGINE / module) for module in DRAWING_AND_PLACING))
    unknown = reads - set(READS)
    assert not unknown, f"classify these Ruleset reads in READS: {sorted(unknown)}"
    keyed = {"players", "deck", "tiles", "constraints", "unplaceable", "features"}
    assert {part for parts in READS.values() if parts for part in parts} <= keyed
    assert {"tiles", "phases", "unplaceable", "maps", "start_drawn"} <= reads  # the scan sees the reads


def _placements_only(ruleset: Ruleset, seed: int) -> list:
    """A seeded game choosing placements only (no follower): what is drawn and where it goes."""
    game, rng = Game(ruleset, 2, seed), random.Random(seed)
    while game.start_tile is not None:
        game.place_start(rng.randrange(4))
    while game.tile is not None:
        game.play(Move(*game.placement(rng.randrange(game.placement_count()))), checked=True)
    return [(game.tiles[t].id, move) for t, move in game.history]


@pytest.mark.parametrize("key", sorted(GROUPS), ids=[min(GROUPS[k], key=len) for k in sorted(GROUPS)])
def test_every_member_of_a_group_draws_and_places_alike(key: str) -> None:
    # The shortest member against the longest (most scoring options), on one seed: 808 groups,
    # and compiling a ruleset costs more than its game.
    refs = sorted(GROUPS[key])
    sample = [refs[0], max(refs, key=lambda r: len(r.split("+")))]
    games = [_placements_only(load_ruleset(ref), 5) for ref in sample]
    assert games[1] == games[0], sample


# -- the property: GAMES seeded games of each group end within the bound -------------------

@pytest.mark.parametrize("ref", REPRESENTATIVES, ids=list(REPRESENTATIVES))
def test_every_game_of_every_combination_ends_within_the_bound(ref: str) -> None:
    ruleset = load_ruleset(ref)
    for seed in range(GAMES):
        assert_ended_within_bound(play_out(ruleset, seed))
