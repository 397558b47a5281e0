"""The designer examples of docs/rulesets.md ("Designer examples") validate and play.

Every YAML block there that starts with ``# file: NAME`` is saved under that
name, checked as ``carcassonne rulesets validate`` checks it, and played to the
end by two random bots; what each example is for is then checked on the game.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.rules.inspect import validate_file
from engine.rules.ruleset import load_ruleset
from engine.sim.play import play_game

DOC = Path(__file__).parents[2] / "docs" / "rulesets.md"
SECTION = DOC.read_text(encoding="utf-8").split("## Designer examples", 1)[1]
EXAMPLES = dict(re.findall(r"```yaml\n# file: (\S+)\n(.*?)```", SECTION, re.S))


def drew_forty(game) -> bool:
    return len(game.history) == 40


def farms_count_cloisters(game) -> bool:
    field = game.ruleset.kind("field")
    return [game.ruleset.kinds[k].name for k in field.adjacency] == ["city", "cloister"] and all(
        "completed_cloisters" in e.inputs for e in game.events if e.kind == "field")


def longest_road_paid(game) -> bool:
    paid = [e for e in game.events if e.kind == "longest-road"]  # one event, even for tied players
    return len(paid) == 1 and paid[0].points == 5 and paid[0].inputs["value"] == max(paid[0].values) > 0


def wine_goes_to_completers(game) -> bool:
    rewards = [e for e in game.events if e.rule == "reward"]
    collected = [sum(e.tokens.get("wine", 0) for e in rewards if p in e.players) for p in range(game.players)]
    return collected == [tokens[0] for tokens in game.tokens] and all(
        e.points == 10 and e.values == tuple(collected) for e in game.events if e.kind == "wine")


#: What each example is for, checked on a played game.
PURPOSE = {"forty-tiles.yaml": drew_forty, "cloister-farms.yaml": farms_count_cloisters,
           "longest-road.yaml": longest_road_paid, "wine.yaml": wine_goes_to_completers}


def test_every_example_has_a_purpose_checked() -> None:
    assert EXAMPLES and set(EXAMPLES) == set(PURPOSE)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_example_validates_and_plays(name: str, tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_text(EXAMPLES[name], encoding="utf-8")
    validate_file(path)
    for seed in range(6):
        game = play_game(load_ruleset(str(path)), ["random", "greedy"], seed).game
        assert game.finished and PURPOSE[name](game)
