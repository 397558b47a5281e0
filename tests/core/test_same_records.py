"""Speed work must not change a single game: the records of fixed seeds stay byte for byte.

The cases cover the hot paths' variants, every shipped option, and the search bot on a
fixed iteration budget, so both builds are held to the same games in all of them.

``same_records.json`` holds the SHA-256 of each game's record (canonical JSON),
written by the engine as it stood before the one-walk placement table and the
points-only scoring path (issue 14), and by both builds since: the pure
Python modules and the compiled ones must reproduce it.  A deliberate rule
change regenerates it with ``UPDATE_RECORD_HASHES=1 pytest tests/core/test_same_records.py``
and says so in its commit.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from engine.rules.ruleset import load_ruleset
from engine.sim.play import play_game

HASHES = Path(__file__).with_name("same_records.json")

#: Rulesets whose hot paths differ: plain, 1st-edition farms, constrained River tiles,
#: returned tiles, two maps, a drawn start tile.
REFS = ["basic", "first-edition", "second-edition+river", "basic+river+unplaceable-reshuffle",
        "basic+two-maps", "basic+random-start"]
PLAYERS = [("random", "random"), ("greedy", "random"), ("random", "greedy", "random")]
SEEDS = range(6)
#: Every shipped option at least once (bonuses, follower types and their extra turns, goods,
#: a short deck), and the search bot on a fixed iteration budget (and the bots' ``keep``).
EXTRA_REFS = ["basic+inns-and-cathedrals+traders-and-builders",
              "first-edition+farms-pay-cloisters+longest-road-bonus+tiny-city",
              "second-edition+river+river-split-springs+river-immediate-u-turn+incomplete-zero",
              "basic+river+river-start-tile-shuffled+incomplete-full+short-game",
              "basic+no-farmers+own-follower-may-join", "first-edition+farm-points-2+unplaceable-reshuffle",
              "second-edition+farm-points-4", "basic+hand-of-two", "basic+draw-three-keep-one+unplaceable-reshuffle",
              "first-edition+hills+vineyards", "basic+abbey-and-mayor", "basic+king-and-robber-baron"]
EXTRA_PLAYERS = [("greedy", "random"), ("random", "greedy", "random")]
SEARCH = [("basic", ("mcts:30", "greedy")), ("second-edition+river", ("greedy", "mcts:30")),
          ("basic+hand-of-two", ("mcts:30", "greedy")), ("basic+hills", ("mcts:30", "greedy")),
          # A follower in the supply worth points (keep): by features, by pooled farms, by trial, and without it.
          ("basic", ("greedy:keep=2", "greedy")), ("first-edition", ("random", "greedy:keep=3")),
          ("basic+longest-road-bonus", ("greedy:keep=2", "greedy")), ("basic", ("mcts:30:keep=0", "greedy")),
          ("basic", ("mcts:10:roots=2", "greedy")),
          # Special follower types and wild sides, weighed piecewise (engine/core/trial.py), with and without keep.
          ("basic+abbey-and-mayor", ("mcts:30", "greedy")), ("basic+abbey-and-mayor", ("greedy:keep=2", "greedy"))]
CASES = [(ref, players, seed) for ref in REFS for players in PLAYERS for seed in SEEDS
         if len(players) <= load_ruleset(ref).max_players]
CASES += [(ref, players, seed) for ref in EXTRA_REFS for players in EXTRA_PLAYERS for seed in range(2)]
CASES += [(ref, players, seed) for ref, players in SEARCH for seed in range(2)]


def record_hash(ref: str, players: tuple[str, ...], seed: int) -> str:
    record = play_game(load_ruleset(ref), list(players), seed, ref=ref).record
    return hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()


def _key(ref: str, players: tuple[str, ...], seed: int) -> str:
    return f"{ref} {','.join(players)} {seed}"


def test_hash_file_covers_every_case():
    if os.environ.get("UPDATE_RECORD_HASHES"):
        HASHES.write_text(json.dumps({_key(*case): record_hash(*case) for case in CASES}, indent=1) + "\n")
    assert sorted(json.loads(HASHES.read_text())) == sorted(_key(*case) for case in CASES)


@pytest.mark.parametrize("ref, players, seed", CASES, ids=lambda v: ",".join(v) if isinstance(v, tuple) else str(v))
def test_record_is_unchanged(ref, players, seed):
    assert record_hash(ref, players, seed) == json.loads(HASHES.read_text())[_key(ref, players, seed)]
