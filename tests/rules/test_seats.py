"""Per-seat setup (``seats``, engine/rules/seats.py): each seat's pieces and starting points, the
``start`` score category and the ``seat`` input of bonus formulas (issue 26)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.game import Game
from engine.errors import UserError
from engine.files.record import replay
from engine.rules.ruleset import load_ruleset
from engine.rules.source import Document
from engine.sim.play import play_game
from engine.sim.rescore import rescore
from engine.web.table import Table

HEAD_START = str(Path(__file__).parents[1] / "scenarios" / "rulesets" / "head-start.yaml")


def test_the_handicap_gives_each_listed_seat_its_followers_and_the_rest_the_usual() -> None:
    game = Game(load_ruleset("basic+handicap"), 3, 1)
    assert game.reserve == [[5], [8], [7]] and game.supply == [5, 8, 7] and game.scores == [0, 0, 0]
    assert "start" not in game.kind_points[0]  # no seat starts with points: no such category


def test_a_seat_keeps_the_counts_of_the_types_its_entry_does_not_name() -> None:
    ruleset = load_ruleset("basic+inns-and-cathedrals+handicap")
    assert [t.name for t in ruleset.follower_types] == ["normal", "large"]
    assert Game(ruleset, 3, 1).reserve == [[5, 1], [8, 1], [7, 1]]


def test_starting_points_are_a_score_category_of_their_own() -> None:
    ruleset = load_ruleset(HEAD_START)
    assert ruleset.categories[0] == "start" and ruleset.categories[-1] == "komi"
    game = Game(ruleset, 3, 1)
    assert game.scores == [0, 5, 0] and [points["start"] for points in game.kind_points] == [0, 5, 0]


def test_a_game_with_starting_points_and_the_seat_input_replays_and_adds_up() -> None:
    """The komi bonus (2 per seat after the first) pays 0, 2 and 4; the breakdown adds up to the
    final scores, start included; the record replays."""
    ruleset = load_ruleset(HEAD_START)
    played = play_game(ruleset, ["greedy", "random", "random"], 7)
    game = played.game
    assert [points["komi"] for points in game.kind_points] == [0, 2, 4]
    assert [sum(points.values()) for points in game.kind_points] == game.scores
    _, problems = replay(Document(played.record, "<record>", {}))
    assert problems == []
    column = rescore(Document(played.record, "<record>", {}), [HEAD_START])[-1]  # rescore's table has the column
    assert column.kinds[0] == "start" and column.scores == game.scores
    assert [sum(points.values()) for points in column.by_kind] == game.scores


def test_the_web_table_counts_each_seats_pieces() -> None:
    table = Table(load_ruleset("basic+handicap"), "basic+handicap", ["human", "random"], 3)
    assert [p["pieces"]["normal"] for p in table.state()["players"]] == [5, 8]


def _option(folder: Path, name: str, patch: str) -> str:
    path = folder / f"{name}.yaml"
    path.write_text(f"name: {name}\ndescription: a test option\nsource: test\npatch:\n{patch}")
    return str(path)


def test_options_setting_up_other_seats_or_types_merge(tmp_path: Path) -> None:
    """Found by the newcomer try: as a list, a second option's seats silently replaced the
    handicap's. Seat by seat and type by type, options now merge; the same value twice clashes."""
    komi = _option(tmp_path, "komi", "  seats:\n    second: {points: 5}\n")
    ruleset = load_ruleset(f"basic+handicap+{komi}")
    assert ruleset.seat_pieces == ((5,), (8,)) and ruleset.seat_points == (0, 5)
    again = _option(tmp_path, "again", "  seats:\n    second: {pieces: {normal: 6}}\n")
    with pytest.raises(UserError) as clash:
        load_ruleset(f"basic+handicap+{again}")
    assert "option-clash" in clash.value.render() and "again.yaml:" in clash.value.render()
    child = tmp_path / "child.yaml"
    child.write_text(f"name: child\nextends: {HEAD_START}\nseats:\n  first: {{pieces: {{normal: 3}}}}\n")
    assert load_ruleset(str(child)).seat_points == (0, 5) and load_ruleset(str(child)).seat_pieces[0] == (3,)


def test_a_type_only_some_seats_have_is_not_warned_about(tmp_path: Path) -> None:
    """Found by the newcomer try: a wagon of count 0 given to the first seat alone was warned of
    as a trigger that never fires."""
    wagon = _option(tmp_path, "one-wagon", "  follower_types:\n    wagon: {count: 0}\n"
                    "  seats:\n    first: {pieces: {wagon: 1}}\n")
    Path(wagon).write_text(Path(wagon).read_text().replace("patch:", "overrides: [abbey-and-mayor]\npatch:"))
    ruleset = load_ruleset(f"basic+abbey-and-mayor+{wagon}")
    assert not [w for w in ruleset.warnings if w.code == "trigger-never-fires"]
    assert Game(ruleset, 2, 1).reserve[0][[t.name for t in ruleset.follower_types].index("wagon")] == 1
