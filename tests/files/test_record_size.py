"""A big record is refused on its plain values before the costly marked read (issue 50; the
newcomer's review found three ways past the turn count): its ruleset missing or not a string, a
top-level key given twice, and more turns than a game of its ruleset can hold."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.errors import UserError
from engine.files.record_text import BIG_TEXT, record_from_text
from engine.rules.ruleset import load_ruleset
from engine.sim.play import play_game


@pytest.fixture(scope="module")
def record() -> dict:
    return play_game(load_ruleset("basic"), ["random", "random"], 3).record


def _huge(record: dict, **changes) -> dict:
    return record | {"turns": (record["turns"] * 3000)[:200_000]} | changes


def _refusal(text: str, tmp_path: Path) -> str:
    assert len(text) > BIG_TEXT
    with pytest.raises(UserError) as refused:
        record_from_text(text, str(tmp_path / "huge.json"))
    return refused.value.render()


def test_too_many_turns_for_the_deck(record: dict, tmp_path: Path) -> None:
    said = _refusal(json.dumps(_huge(record)), tmp_path)
    assert "200,000 turn entries, but a game of basic holds at most 72" in said and "(at $.turns)" in said


def test_a_ruleset_that_does_not_load_is_said_at_the_record_s_ruleset(record: dict, tmp_path: Path) -> None:
    said = _refusal(json.dumps(_huge(record, ruleset="mine.yaml")), tmp_path)
    assert said.startswith(f"{tmp_path / 'huge.json'}:1:") and "ruleset file not found" in said
    assert "(at $.ruleset)" in said and "aliases" not in said


def test_a_ruleset_that_is_not_a_reference(record: dict, tmp_path: Path) -> None:
    said = _refusal(json.dumps(_huge(record, ruleset={"x": 1})), tmp_path)
    assert "a record's 'ruleset' is a ruleset reference (a string)" in said


def test_a_key_given_twice_is_refused_where_it_is_given_again(record: dict, tmp_path: Path) -> None:
    text = json.dumps(_huge(record))[:-1] + ', "turns": []}'  # json keeps the last value: a small list
    said = _refusal(text, tmp_path)
    assert "the key 'turns' is given twice" in said
    assert said.startswith(f"{tmp_path / 'huge.json'}:1:{text.rindex('[]') + 1}:")


def test_a_small_record_is_read_whole_and_its_errors_located(record: dict, tmp_path: Path) -> None:
    """Under BIG_TEXT the marked read runs (it locates every error, a duplicate key included)."""
    text = json.dumps(record)[:-1] + ', "turns": []}'
    with pytest.raises(UserError) as refused:
        record_from_text(text, str(tmp_path / "small.json"))
    assert refused.value.diagnostics[0].code == "yaml-duplicate-key"
