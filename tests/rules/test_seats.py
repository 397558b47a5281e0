"""Per-seat setup (``seats``, engine/rules/seats.py): each seat's pieces and starting points, the
``start`` score category and the ``seat`` input of bonus formulas (issue 26)."""

from __future__ import annotations

from pathlib import Path

from engine.core.game import Game
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
