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


#: What each example is for, checked on a played game.
PURPOSE = {"forty-tiles.yaml": drew_forty}


def test_every_example_has_a_purpose_checked() -> None:
    assert EXAMPLES and set(EXAMPLES) == set(PURPOSE)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_example_validates_and_plays(name: str, tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_text(EXAMPLES[name], encoding="utf-8")
    validate_file(path)
    for seed in range(3):
        game = play_game(load_ruleset(str(path)), ["random", "random"], seed).game
        assert game.finished and PURPOSE[name](game)
