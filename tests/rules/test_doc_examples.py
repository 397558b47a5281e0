"""The designer examples of docs/rulesets.md ("Designer examples") validate and play.

Every YAML block there that starts with ``# file: NAME`` is saved under that
name, checked as ``carcassonne rulesets validate`` checks it, and played to the
end by two random bots; what each example is for is then checked on the game.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.core import moving, tallies
from engine.core.game import Game
from engine.core.scoring import segment_type
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
    return collected == [tokens[0] for tokens in tallies.of(game).tokens] and all(
        e.points == 10 and e.values == tuple(collected) for e in game.events if e.kind == "wine")


def mayors_weigh_their_pennants(game) -> bool:
    """Replayed move by move, every occupied city weighs each seat as its normal followers plus,
    per mayor, the pennants counted from the city's segments; and a mayor was weighed at all."""
    ruleset = game.ruleset
    pennants = ruleset.kind("city").attributes.index("pennants")
    replay = Game(ruleset, game.players, draw_order=[tile for tile, _ in game.history])
    weighed = 0
    for _, move in game.history:
        if move is None:
            continue
        replay.play(move)
        for root in replay.occupied_roots():
            if ruleset.kinds[replay.seg_kind[root]].name != "city":
                continue
            members = replay.members[root]
            shields = sum(segment_type(replay, m).attrs[pennants] for m in members)
            expected = [0] * game.players
            for segment, seat, kind, _ in replay.on_board:
                if replay.find(segment) == root:
                    expected[seat] += shields if kind else 1
                    weighed += kind
            if replay.followers_by_player(root) != expected:
                return False
    return weighed > 0


def wagons_move_within_reach(game) -> bool:
    """Every choice a wagon's owner made went to a segment within a king's move of the tile the
    wagon stood on, of a feature that was open and empty then; replayed move by move."""
    from engine.core.moves import HOME
    from engine.core.moving import destinations
    from engine.geometry import unpack

    replay = Game(game.ruleset, game.players, draw_order=[t for t, _ in game.history])
    decisions = list(moving.of(game).decisions)
    for _tile, move in game.history:
        if move is None:
            continue
        replay.play(move)
        while moving.of(replay).movers:
            _, owner, _, chosen = decisions.pop(0)
            seat, _, origin = moving.of(replay).movers[0]
            (ox, oy) = unpack(origin)
            if seat != owner or (chosen != HOME and chosen not in destinations(replay)):
                return False
            if any(max(abs(x - ox), abs(y - oy)) > 1 for x, y in (unpack(m.pos) for m in destinations(replay))):
                return False
            replay.play(chosen)
    replay.finish()
    return not decisions and replay.scores == game.scores


def barns_pay_their_owners(game) -> bool:
    """Every barn left on the board pays its owner 4 a completed city of its field at the end, in
    an event of its own; a barn's field holds no other piece then."""
    barn = next(t.index for t in game.ruleset.follower_types if t.name == "barn")
    paid = [e for e in game.events if e.rule == "final, barn"]
    barns = [(game.find(segment), seat) for segment, seat, kind, _ in game.on_board if kind == barn]
    alone = all(kind == barn for root, _ in barns
                for segment, _, kind, _ in game.on_board if game.find(segment) == root)
    return alone and sorted(seat for _, seat in barns) == sorted(p for e in paid for p in e.players) and all(
        e.points == 4 * e.inputs["completed_cities"] for e in paid)


#: What each example is for, checked on a played game.
PURPOSE = {"forty-tiles.yaml": drew_forty, "cloister-farms.yaml": farms_count_cloisters,
           "longest-road.yaml": longest_road_paid, "wine.yaml": wine_goes_to_completers,
           "mayor.yaml": mayors_weigh_their_pennants, "wagon.yaml": wagons_move_within_reach,
           "barn.yaml": barns_pay_their_owners}


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
