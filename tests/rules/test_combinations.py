"""Every shipped ruleset with every combination of shipped options that declares no conflict
loads and plays a seeded game to the end."""

from __future__ import annotations

from itertools import combinations

import pytest

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


REFS = [
    "+".join([ruleset, *ordered(combo)])
    for ruleset in RULESETS
    for size in range(len(OPTIONS) + 1)
    for combo in combinations(sorted(OPTIONS), size)
    if compatible(combo)
]


@pytest.mark.parametrize("ref", REFS)
def test_combination_loads_and_plays(ref: str) -> None:
    played = play_game(load_ruleset(ref), ["random", "random"], 11)
    game = played.game
    placed = sum(1 for _, move in game.history if move is not None) + len(game.starts)
    discarded = sum(1 for _, move in game.history if move is None) - game.returned
    in_play = sum(t.count for t in game.ruleset.tiles) - len(game.ruleset.set_aside)
    assert game.finished and placed + discarded == in_play
