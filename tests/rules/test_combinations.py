"""Every shipped ruleset with every option, every pair of options and every maximal set of
options that declare no conflict loads and plays a seeded game to the end."""

from __future__ import annotations

from itertools import combinations

import pytest

from engine.core import personal
from engine.rules.compose import options_dir
from engine.rules.inspect import shipped
from engine.rules.ruleset import load_ruleset
from engine.rules.source import load_yaml
from engine.sim.play import play_game

RULESETS = [s.name for s in shipped() if s.kind == "ruleset"]
OPTIONS = {s.name: load_yaml(options_dir() / f"{s.name}.yaml").data for s in shipped() if s.kind == "option"}


def compatible(names: tuple[str, ...]) -> bool:
    chosen = set(names)
    for name in names:
        data = OPTIONS[name]
        if chosen & set(data.get("conflicts", ())) or not set(data.get("requires", ())) <= chosen:
            return False
    return True


def ordered(names: tuple[str, ...]) -> list[str]:
    """Options in an order that puts each after the options it requires."""
    out: list[str] = []
    pending = list(names)
    while pending:
        name = next(n for n in pending if set(OPTIONS[n].get("requires", ())) <= set(out))
        out.append(name)
        pending.remove(name)
    return out


def combinations_of(names: list[str], most: int | None = None) -> list[tuple[str, ...]]:
    """Every compatible combination of ``names`` (of at most ``most`` options), sorted."""
    return [combo for size in range(len(names) + 1 if most is None else most + 1)
            for combo in combinations(sorted(names), size) if compatible(combo)]


def maximal_sets() -> list[tuple[str, ...]]:
    """For each option, the largest compatible set grown from it (adding the others in name
    order): every option that can be played together, at once."""
    found = set()
    for first in sorted(OPTIONS):
        chosen = [first]
        for name in sorted(OPTIONS):
            if name not in chosen and compatible(tuple(chosen + [name])):
                chosen.append(name)
        for name in sorted(OPTIONS):  # an option whose requirement came later in name order
            if name not in chosen and compatible(tuple(chosen + [name])):
                chosen.append(name)
        if compatible(tuple(chosen)):
            found.add(tuple(sorted(chosen)))
    return sorted(found)


def refs_of(combos: list[tuple[str, ...]]) -> list[str]:
    """Every shipped ruleset with each of ``combos``, options in an order that applies."""
    return sorted({"+".join([ruleset, *ordered(combo)]) for ruleset in RULESETS for combo in combos})


#: Every shipped ruleset alone, with each option, with each compatible pair of options, and
#: with each maximal compatible set: every option meets every other at least once, and all
#: together.  (All 2^n combinations would double with each option; the termination test
#: takes every combination of up to four of the options that change drawing or placing.)
REFS = refs_of(combinations_of(list(OPTIONS), 2) + maximal_sets())


@pytest.mark.parametrize("ref", REFS)
def test_combination_loads_and_plays(ref: str) -> None:
    ruleset = load_ruleset(ref)
    # Shipped rules hold no tile that can never be placed and no follower that can never score.
    assert not {w.code for w in ruleset.warnings} & {"tile-unplaceable", "kind-never-scores", "follower-never-scores",
                                                     "trigger-never-fires"}
    played = play_game(ruleset, ["random", "random"], 11)
    game = played.game
    # A tile of a player's own (deck.personal: the abbey) is not in the stacks.
    placed = sum(1 for _, move in game.history if move is not None) + len(game.starts) - len(personal.of(game).turns)
    discarded = sum(1 for _, move in game.history if move is None) - game.returned
    boxed = sum(map(len, game.box))  # deck.size left these out of the game
    in_play = sum(t.count for t in game.ruleset.tiles) - len(game.ruleset.set_aside) - boxed
    assert game.finished and placed + discarded == in_play
