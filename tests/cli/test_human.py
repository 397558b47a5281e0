"""The terminal player: scripted answers through the ``input`` callable, output captured from a rich Console.

What matters to a person at the keyboard: the screen shows the board and the
numbered moves, every kind of bad answer is refused with a reason and the
next good one is taken, ``?`` helps, ``q`` quits, and no input ends the game
with a traceback.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path
from typing import Callable, Iterable

import pytest
from rich.console import Console

from engine.bots.greedy import GreedyPlayer
from engine.cli.human import HumanPlayer
from engine.cli.move_input import MoveInputError, move_notation, parse_move
from engine.cli.screen import board_text
from engine.core import moving, personal
from engine.core.game import Game
from engine.core.moves import MOVE_ON, Move
from engine.files.notation import place_name
from engine.geometry import pack
from engine.rules.ruleset import load_ruleset
from engine.sim.play import QuitGame

BASIC = load_ruleset("basic")
A, B, D = (BASIC.tile_ids[t] for t in "ABD")


def console(width: int = 120) -> Console:
    return Console(file=io.StringIO(), width=width)


def scripted(answers: Iterable[str]) -> tuple[Callable[[str], str], list[str]]:
    """An ``input`` that returns ``answers`` in turn (and fails the test if asked once too often),
    and the list of prompts it was shown."""
    queue, prompts = list(answers), []

    def fake(prompt: str) -> str:
        prompts.append(prompt)
        assert queue, "the player asked for more input than the script has"
        return queue.pop(0)

    return fake, prompts


def human(answers: Iterable[str], width: int = 120, **kwargs) -> tuple[HumanPlayer, Console, list[str]]:
    fake, prompts = scripted(answers)
    out = console(width)
    return HumanPlayer("alice", input=fake, console=out, **kwargs), out, prompts


def text(out: Console) -> str:
    return out.file.getvalue()


def forced(*tiles: int) -> Game:
    """A basic game (start tile D at 0,0, rotation 0) drawing ``tiles`` in order."""
    return Game(BASIC, 2, draw_order=list(tiles))


def refusals(out: Console) -> list[str]:
    return [line for line in text(out).splitlines() if line.startswith("✗")]


# -- whole games ---------------------------------------------------------------


def test_a_whole_game_against_greedy_answering_1() -> None:
    game = Game(BASIC, 2, seed=11)
    player, out, prompts = human(["1"] * 200)
    bot = GreedyPlayer("11:1")
    turns = 0
    while game.tile is not None:
        if game.player == 0:
            move = player.choose(game)
            turns += 1
        else:
            move = bot.choose(game)
        game.play(move)  # checked: the human's answer must be legal
    game.finish()
    assert game.finished and turns >= 30
    assert len(prompts) == turns  # "1" is always accepted at once
    screen = text(out)
    assert screen.count("Legal moves (") == turns
    assert "Scores" in screen and "╭───╮" in screen


def test_typed_notation_round_trips_for_every_move_of_a_game() -> None:
    """Every legal move, written as the list writes it, is read back as the same move; and a
    human answering with typed notation plays a game to the end."""
    game = Game(BASIC, 2, seed=5)
    rng = random.Random(5)
    expected: list[Move] = []

    def typist(prompt: str) -> str:
        move = rng.choice(game.legal_moves())
        expected.append(move)
        return move_notation(game, move)

    player = HumanPlayer("alice", input=typist, console=console())
    bot = GreedyPlayer("5:1")
    while game.tile is not None:
        if game.player == 0:
            for move in game.legal_moves():
                assert parse_move(game, move_notation(game, move)) == move
            move = player.choose(game)
            assert move == expected[-1]
        else:
            move = bot.choose(game)
        game.play(move)
    assert game.finish() is not None


# -- what the screen shows ---------------------------------------------------------


def test_the_turn_screen_shows_board_scores_tile_and_numbered_moves() -> None:
    game = forced(D, D)
    player, out, _ = human(["1"])
    player.choose(game)
    screen = text(out)
    assert "R D R" in screen                  # the start tile's block: W road, id, E road
    assert "CCC" in screen                    # its city side on top
    assert "│1,0│" in screen                  # a cell where the drawn tile fits, with its coordinates
    assert "Scores" in screen and "7 followers left" in screen
    assert "r0 fits  r1 —     r2 fits  r3 —" in screen and "CRFR" in screen  # D fits at turn 1 turned 0 or 2
    first = player.choices(game)[0]
    x, y = first.move.at
    assert re.search(rf"^  {x},{y} +r{first.move.rotation}: +1\) —", screen, re.M)  # one line per cell
    assert "+road@E" in screen or "+city@" in screen  # follower spots are numbered too
    assert re.search(r"\+field@\w+ \((north|south|east|west|all round)", screen)  # fields say where they lie
    assert "→ " + first.text in screen


def test_followers_appear_on_the_board_as_seat_numbers() -> None:
    game = forced(D, D)
    game.play(parse_move(game, "1,0 r0 road@E"))
    drawing = board_text(game).plain
    assert "R D 1" in drawing  # seat 1's thief on the east road port of the tile at 1,0


def test_many_moves_are_capped_and_question_mark_lists_them_all() -> None:
    game = Game(BASIC, 2, seed=3)
    bot = GreedyPlayer("3:0")
    lister = HumanPlayer("x", input=lambda p: "1", console=console())
    while len({(m.pos, m.rotation) for m in game.legal_moves()}) < 6:
        game.play(bot.choose(game))
    choices = lister.choices(game)
    player, out, _ = human(["?", "1"], max_listed=2)
    player.choose(game)
    screen = text(out)
    listed = screen[screen.index("Legal moves ("):screen.index("How to answer")]
    assert "more placements" in listed and "? lists all" in listed
    assert f"{choices[-1].number}) " not in listed
    help_part = screen[screen.index("How to answer"):]
    for choice in choices:
        assert f"{choice.number}) " in help_part


def test_a_narrow_console_crops_the_board_and_says_so() -> None:
    game = Game(BASIC, 2, seed=3)
    bot = GreedyPlayer("3:0")
    for _ in range(30):
        game.play(bot.choose(game))
    drawing = board_text(game, max_width=40).plain
    assert "board cropped" in drawing
    assert max(len(line) for line in drawing.splitlines() if "cropped" not in line) <= 40


# -- answers -------------------------------------------------------------------------


def test_garbage_is_refused_with_reasons_then_a_good_answer_is_taken() -> None:
    game = forced(D, D)
    player, out, prompts = human(["", "banana", "99999", "0", "0,0 r0", "5,5 r0", "1,0 r9", "1,0 rx",
                                  "1,0 r0 city@Q", "1,0 r0 castle@N", "1,0 r0 city@", "2,0 r0",
                                  "1,0 r0 city@N"])
    move = player.choose(game)
    assert move == Move(pack(1, 0), 0, BASIC.tiles[D].segments.index(
        next(s for s in BASIC.tiles[D].segments if BASIC.kinds[s.kind].name == "city")))
    reasons = refusals(out)
    assert len(reasons) == len(prompts) - 1 == 12
    expected = ["type a number", "could not read 'banana'", "no move 99999", "no move 0",
                "already holds a tile", "does not touch the board", "rotation r9 does not exist",
                "could not read the rotation", "'Q' is not a side", "unknown feature kind 'castle'",
                "names no port", "does not touch the board"]
    for reason, words in zip(reasons, expected):
        assert words in reason, (reason, words)


def test_sides_that_do_not_match_are_refused() -> None:
    game = forced(D, D)
    player, out, _ = human(["0,-1 r0", "0,-1 r2"])  # D's city must face the start tile's city
    assert player.choose(game) == Move(pack(0, -1), 2)
    assert "sides do not match" in refusals(out)[0]


def test_an_occupied_follower_spot_is_refused() -> None:
    game = forced(D, D, D)
    game.play(parse_move(game, "1,0 r0 road@E"))   # seat 1's thief on the road through the start tile
    player, out, _ = human(["-1,0 r0 road@W", "-1,0 r0"])
    assert player.choose(game) == Move(pack(-1, 0), 0)
    assert "road already holds a follower" in refusals(out)[0]


def test_forgiving_about_spaces_case_and_left_out_parts() -> None:
    game = forced(D, B)
    assert parse_move(game, " 1 , 0  R0  City @ n ") == parse_move(game, "1,0 r0 city@N")
    assert parse_move(game, "(1, 0) r0 -") == Move(pack(1, 0), 0)
    assert parse_move(game, "1,0 r0 +road@E") == parse_move(game, "1,0 r0 road@E")
    assert parse_move(game, "1,0 r0 city") == parse_move(game, "1,0 r0 city@N")  # D has one city
    with pytest.raises(MoveInputError, match="nothing after it"):
        parse_move(game, "1,0 r0 city@N extra")


def test_the_rotation_may_be_left_out_where_only_one_fits() -> None:
    game = forced(A)  # A's one road end must meet the start tile's road: only r1 fits at 1,0
    assert parse_move(game, "1,0") == Move(pack(1, 0), 1)
    assert parse_move(game, "1,0 road@W") == parse_move(game, "1,0 r1 road@W")
    assert parse_move(game, "1,0 cloister") == parse_move(game, "1,0 r1 cloister")


def test_a_bare_port_less_kind_and_an_ambiguous_rotation() -> None:
    game = forced(B)  # the cloister in a field fits south of the start tile in every rotation
    move = parse_move(game, "0,1 r3 cloister")
    assert BASIC.kinds[BASIC.tiles[B].segments[move.follower].kind].name == "cloister"
    with pytest.raises(MoveInputError, match="say which rotation"):
        parse_move(game, "0,1 cloister")


def test_a_number_picks_that_line_of_the_list() -> None:
    game = forced(D, D)
    player, _, _ = human(["3"])
    assert player.choose(game) == player.choices(game)[2].move


def test_no_input_ever_crashes_it() -> None:
    nasty = ["1,", ",", "r", "-", "+", "@", "1,0 r0 @N", "1,0 r-1", "1,0 r 0 road#2", "1,0 r0 field#3",
             "1,0 r0 cloister#2", "999999999999,0 r0", "-0,-0", "1.5,0 r0", "1,0,0", "\x00",
             "1,0 r0 city@N extra", "))", "0,1 r0 field@NL@N", "99999999999999999999999", "None", "; rm -rf /"]
    game = forced(D, D)
    player, out, prompts = human([*nasty, "1"])
    assert player.choose(game) == player.choices(game)[0].move
    assert len(refusals(out)) == len(nasty)
    assert len(prompts) == len(nasty) + 1


def test_question_mark_prints_help_and_the_moves() -> None:
    game = forced(D, D)
    player, out, _ = human(["?", "1"])
    player.choose(game)
    help_part = text(out)[text(out).index("How to answer"):]
    assert "y grows SOUTH" in help_part and "start tile is at 0,0" in help_part
    assert "clockwise quarter turns" in help_part
    assert "3,-1 r2 city@N" in help_part
    assert "Legal moves (" in help_part


@pytest.mark.parametrize("answer", ["q", "Q", "quit"])
def test_q_quits(answer: str) -> None:
    game = forced(D, D)
    player, _, _ = human(["banana", answer])
    with pytest.raises(QuitGame):
        player.choose(game)


def test_the_end_of_input_quits_rather_than_crashing() -> None:
    def closed(prompt: str) -> str:
        raise EOFError

    player = HumanPlayer("alice", input=closed, console=console())
    with pytest.raises(QuitGame):
        player.choose(forced(D, D))


@pytest.mark.parametrize("answer, saved", [("", None), ("n", None), ("No", None), ("y", "carcassonne-3.json"),
                                           ("YES", "carcassonne-3.json"), ("mine.json", "mine.json")])
def test_after_a_quit_only_a_named_file_is_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 answer: str, saved: str | None) -> None:
    monkeypatch.chdir(tmp_path)
    player, _, prompts = human([answer])
    assert player.ask_save("carcassonne-3.json") == (None if saved is None else Path(saved))
    assert prompts == ["Save the game so far? [file name, y = carcassonne-3.json, Enter = don't save]: "]
    assert not list(tmp_path.iterdir())  # asking writes nothing; the caller writes the answer


def test_a_file_name_that_cannot_be_written_is_refused_and_asked_again(tmp_path: Path) -> None:
    target = tmp_path / "g.json"
    player, out, prompts = human([str(tmp_path / "missing" / "g.json"), str(tmp_path), str(target)])
    assert player.ask_save("x.json") == target
    assert len(refusals(out)) == 2 and len(prompts) == 3
    assert "does not exist" in " ".join(text(out).split())  # the reason, however the console wraps it


def test_an_existing_file_is_chosen_only_after_a_yes_to_overwrite(tmp_path: Path) -> None:
    existing = tmp_path / "g.json"
    existing.write_text("an older game")
    player, _, prompts = human([str(existing), "", str(existing), "y"])
    assert player.ask_save("x.json") == existing
    assert [p for p in prompts if "overwrite" in p] == [f"{existing} exists: overwrite it? [y/N]: "] * 2
    assert existing.read_text() == "an older game"


@pytest.mark.parametrize("ending", [EOFError, KeyboardInterrupt])
def test_the_end_of_input_saves_nothing_and_asks_nothing_more(ending: type[BaseException]) -> None:
    prompts = []

    def closed(prompt: str) -> str:
        prompts.append(prompt)
        raise ending

    player = HumanPlayer("alice", input=closed, console=console())
    with pytest.raises(QuitGame):
        player.choose(forced(D, D))
    assert player.input_ended and player.ask_save("x.json") is None and len(prompts) == 1
    at_the_question = HumanPlayer("bob", input=closed, console=console())
    assert at_the_question.ask_save("x.json") is None and at_the_question.input_ended


def test_choose_start_asks_until_a_rotation_0_to_3() -> None:
    ruleset = load_ruleset("basic+random-start")
    game = Game(ruleset, 2, seed=4)
    assert game.start_tile is not None
    player, out, _ = human(["", "4", "r9", "north", "?", "r2"])
    assert player.choose_start(game) == 2
    assert len(refusals(out)) == 4
    game.place_start(2)
    assert game.tile is not None and game.starts[0][1] == 2


def test_a_two_map_game_is_typed_in_the_map_in_play() -> None:
    ruleset = load_ruleset("basic+two-maps")
    game = Game(ruleset, 2, seed=2)
    bot = GreedyPlayer("2:0")
    for _ in range(3):  # into the second round: map 1 (maps count from 0, as in records)
        game.play(bot.choose(game))
    assert game.map == 1
    player, out, _ = human(["1"])
    move = player.choose(game)
    assert game.local(move.pos)[0] == 1
    assert "map 1 (maps 0–1)" in text(out)
    assert parse_move(game, move_notation(game, move)) == move


def test_an_engine_error_is_no_typing_mistake(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a wrong answer is refused and asked again; an error of the engine itself ends the
    game as the bug it is (the command then shows its traceback, exit 70)."""
    from engine.cli import human as human_module

    def broken(game, text):
        raise RuntimeError("engine bug")

    monkeypatch.setattr(human_module, "parse_move", broken)
    player, _, _ = human(["3,-1 r2"])
    with pytest.raises(RuntimeError, match="engine bug"):
        player.choose(forced(D, D))


# -- personal tiles (deck.personal) ----------------------------------------------

ABBEYS = load_ruleset(str(Path(__file__).parents[1] / "scenarios" / "rulesets" / "abbey-supply.yaml"))


def offered_abbey() -> Game:
    """A game under the abbey test ruleset, played on until a seat is offered its abbey."""
    from engine.core.moves import DRAW

    game = Game(ABBEYS, 2, seed=4)
    rng = random.Random(4)
    while not personal.of(game).offered:
        game.play(rng.choice([m for m in game.legal_moves() if m != DRAW]))
    return game


def test_the_own_tile_is_announced_and_d_keeps_it_and_draws() -> None:
    from engine.core.moves import DRAW

    game = offered_abbey()
    player, out, _ = human(["draw it", "d"])
    assert player.choose(game) == DRAW
    screen = text(out)
    assert "tile AB (your own)" in screen and "type d to keep it and draw a tile from the stack instead" in screen
    assert "AB held" in screen
    assert refusals(out)[0].startswith("✗ could not read 'draw it'")
    assert all(choice.move != DRAW for choice in player.choices(game))  # numbers stay placements


def test_a_drawn_tile_cannot_be_kept() -> None:
    game = forced(A)
    with pytest.raises(MoveInputError, match="only your own tile"):
        parse_move(game, "draw")


def test_placing_the_own_tile_is_told_to_the_others() -> None:
    game = offered_abbey()
    me = game.player
    move = next(m for m in game.legal_moves() if m.rotation >= 0)
    game.play(move)
    watcher, out, _ = human(["1"])
    while game.player == me:  # an extra turn cannot follow here, but be sure whose turn it is
        game.play(game.legal_moves()[0])
    watcher.choose(game)
    assert "placed AB (their own tile) at" in text(out)


# -- followers moving on (triggers) ---------------------------------------------

WAGONS = load_ruleset(str(Path(__file__).parents[1] / "scenarios" / "rulesets" / "wagon.yaml"))


def wagon_to_move() -> Game:
    """Scenario 86's board up to the road scoring: A's wagon may move on."""
    ids = WAGONS.tile_ids
    game = Game(WAGONS, 2, draw_order=[ids["W"], ids["B"], ids["A"]])
    from engine.files.notation import parse_deployment

    game.play(Move(pack(1, 0), 0, *parse_deployment(WAGONS, ids["W"], 0, "wagon:road@W")))  # A's wagon
    game.play(Move(pack(0, 1), 0, *parse_deployment(WAGONS, ids["B"], 0, "cloister")))     # B's monk
    game.play(Move(pack(-1, 0), 3))        # A closes the road
    return game


def test_a_wagon_moves_on_by_number_or_goes_home() -> None:
    from engine.core.moves import HOME

    game = wagon_to_move()
    assert moving.of(game).movers and game.player == 0
    player, out, _ = human(["9", "x", "?", "h", "b", "2"])
    chosen = player.choose(game)
    screen = text(out)
    assert "your wagon may move on" in screen and "1) 0,0 city@N  (city (north))" in screen
    assert screen.count("Your wagon's feature has scored") == 4  # shown, then again for ?, h (help) and b
    wrong = "is not a choice: type a number from 1 to 3, a destination as listed (e.g. 0,0 city@N), or home"
    assert refusals(out) == [f"✗ '9' {wrong}", f"✗ 'x' {wrong}"]
    assert chosen in game.legal_moves() and chosen != HOME and "→ wagon to 1,0 road@" in screen
    from engine.files.notation import format_follower

    player, out, _ = human([" 1 , 0  ROAD@S "])
    typed = player.choose(game)
    assert typed in game.legal_moves() and typed.pos == pack(1, 0) and "→ wagon to 1,0 road@S" in text(out)
    assert format_follower(WAGONS, WAGONS.tile_ids["W"], 0, typed.follower) == "road@S"
    player, out, _ = human(["home"])
    assert player.choose(game) == HOME and "→ wagon home" in text(out)


def test_the_news_tells_of_a_wagon_moving_on_and_the_board_names_its_owner() -> None:
    game = wagon_to_move()
    game.play(next(m for m in game.legal_moves() if m.kind == MOVE_ON and m.pos == pack(1, 0)))
    watcher, out, _ = human(["1"])
    game.force_tile(WAGONS.tile_ids["U"])
    watcher.choose(game)
    screen = text(out)
    assert "P1's wagon moved on to 1,0 road@" in screen and "W at 1,0 is P1's wagon" in screen


# -- a piece on a corner (the barn) ---------------------------------------------------

BARNS = load_ruleset(str(Path(__file__).parents[1] / "scenarios" / "rulesets" / "barn.yaml"))


def barn_to_place() -> Game:
    """Scenario 88's board up to B's turn 4: B at (1,1) closes a junction of four field corners."""
    ids = BARNS.tile_ids
    game = Game(BARNS, 2, draw_order=[ids["E"], ids["E"], ids["U"], ids["B"]])
    from engine.files.notation import parse_deployment

    game.play(Move(pack(0, 1), 2, *parse_deployment(BARNS, ids["E"], 2, "field@N")))  # A's farmer
    game.play(Move(pack(0, 2), 0))
    game.play(Move(pack(1, 0), 1))
    return game


def test_a_barn_is_listed_on_its_corner_and_typed_by_it() -> None:
    from engine.files.notation import format_follower

    game = barn_to_place()
    player, out, _ = human(["?", "1,1 r0 barn:field@NW"])
    move = player.choose(game)
    screen = text(out)
    assert "+barn:field@NW (north-west corner)" in screen  # the list names the corner in words
    assert move in game.legal_moves() and format_follower(BARNS, BARNS.tile_ids["B"], 0, move.follower, move.type) \
        == "barn:field@NW"
    game.play(move)
    assert game.scores == [3, 0]  # A's farmer scored at once (scenario 88)
    board = board_text(game, max_width=120).plain
    assert "B at 1,1 NW is P2's barn" in board


def test_the_scores_line_counts_each_seats_pieces_by_type() -> None:
    """Found by a newcomer try: under a handicap with Inns & Cathedrals the first seat read "6
    followers left" (5 normal and the large one lumped), as if the handicap gave 6."""
    from engine.rules.ruleset import load_ruleset

    game = Game(load_ruleset("basic+inns-and-cathedrals+handicap"), 2, 1)
    player, out, _ = human(["1"])
    player.choose(game)
    screen = text(out)
    assert "5 followers, 1 large left" in screen and "8 followers, 1 large left" in screen


@pytest.mark.parametrize("tile, every, listed", [("X", 72, 18), ("C", 8, 2), ("B", 12, 3), ("U", 24, 12),
                                                 ("V", 24, 24)])
def test_a_symmetric_tile_lists_each_result_once(tile: str, every: int, listed: int) -> None:
    """Issue 50: the crossroads X listed 128 moves where 32 differ.  Beside the start tile, each
    rotation of X (C, B: four alike; U: two) that looks alike is listed once; the others may still
    be typed, and give the same board."""
    game = Game(BASIC, 2, draw_order=[BASIC.tile_ids[tile], BASIC.tile_ids["V"]])
    moves = game.legal_moves()
    choices = HumanPlayer("alice", console=console()).choices(game)
    assert (len(moves), len(choices)) == (every, listed)
    shown = {choice.move for choice in choices}
    for move in moves:
        if move in shown:
            continue
        alike = next(c.move for c in choices if c.move.pos == move.pos and
                     (c.move.follower is None) == (move.follower is None) and
                     _after(game, c.move) == _after(game, move))
        assert parse_move(game, move_notation(game, move)) == move and alike is not None


def _after(game: Game, move: Move) -> tuple:
    """The board a move leaves, as the next tile sees it: each cell's edge constraint, the cells
    where V fits with its follower choices, and who holds what."""
    copy = game.copy()
    copy.play(move)
    fits = sorted((pos, r, tuple(copy.deploy_choices(pos, r))) for pos, r in copy.placements())
    return tuple(sorted(copy.frontier.items())), len(fits), copy.supply, copy.scores


def test_a_field_is_named_by_its_port_nearest_where_it_lies() -> None:
    """Issue 50: "field@NL (south-west)" read as a contradiction; the list names a field by the
    half-side nearest it, which reads back as the same segment (records keep the first port)."""
    game = Game(BASIC, 2, draw_order=[BASIC.tile_ids["V"], BASIC.tile_ids["V"]])
    for choice in HumanPlayer("alice", console=console()).choices(game):
        move = choice.move
        if move.follower is None or "field" not in choice.text:
            continue
        port = choice.text.rsplit("@", 1)[1]
        side = {"N": "north", "E": "east", "S": "south", "W": "west"}
        where = place_name(BASIC, game.tile, move.rotation, move.follower)
        half = {"NL": "west", "NR": "east", "EL": "north", "ER": "south", "SL": "east", "SR": "west",
                "WL": "south", "WR": "north"}[port]
        assert side[port[0]] in where or half in where, (choice.text, where)
        assert parse_move(game, choice.text) == move


def test_the_move_list_flows_across_a_wide_terminal_and_keeps_to_its_lines() -> None:
    """Issue 50: a line per rotation pushed the board off a 130×45 terminal.  Placements flow side
    by side; no line is wider than the terminal (but for an entry wider than it alone), and at
    most ``max_listed`` lines of them are shown."""
    from engine.cli.move_list import move_list

    game = Game(BASIC, 2, seed=5)
    bots = [GreedyPlayer("a"), GreedyPlayer("b")]
    while game.turn < 20:
        game.play(bots[game.player].choose(game))
    choices = HumanPlayer("x", console=console()).choices(game)
    shown = move_list(game, choices, 8, 130).plain.splitlines()
    assert shown[0].startswith(f"Legal moves ({len(choices)} in ")
    body = [line for line in shown[1:] if not line.startswith("  … ")]
    assert 1 <= len(body) <= 8 and all(len(line) <= 130 for line in body)
    assert len(move_list(game, choices, None, 130).plain.splitlines()) < len({(c.move.pos, c.move.rotation)
                                                                              for c in choices})
