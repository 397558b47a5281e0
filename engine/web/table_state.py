"""What the web table's page may see of a :class:`~engine.web.table.Table`: its state as
JSON-ready data (the board as SVG, scores, the log, and on a human's turn the drawn tile with
every legal placement and follower spot), never the order of the stack.

Under ``deck.hand`` (:mod:`engine.core.hands`) the page sees how many tiles each seat holds and
the tiles of one seat only (:func:`_hand_seat`): the human to answer, or while a bot plays the
table's only human.  A bot's hand, and what any seat returned to the stack, is never in it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import burial, moving, personal, tallies
from ..core.hands import of as hands_of
from ..core.moves import HOME
from ..core.titles import held_by
from ..files.notation import follower_name, format_follower, moved_on_phrase, place_name
from ..files.record import history_seats
from ..view.render import PLAYER_COLOURS, board_svg
from ..view.supply import supply_svg
from ..view.tile_svg import spot_anchor, tile_group

if TYPE_CHECKING:
    from .table import Table

#: Units of a tile in the board picture the page shows (SVG units, as :func:`board_svg` draws, a
#: pixel each at zoom 1): 84, so that at the default zoom every piece type of Abbey & Mayor and Inns
#: & Cathedrals (a large follower, a mayor, a wagon, a barn) and an inn's mark can be told apart
#: (issue 50: at 60 they were legible only zoomed in; tests/web/test_browser.py looks).  Each
#: seat's supply (``supply_svg``) is drawn at it too: a piece there as big as on the board at zoom
#: 1, a meeple 22 pixels tall and the smallest figure (a meeple of strength 0) 15.
TILE = 84


def build_state(table: Table) -> dict[str, Any]:
    """``table``'s state as the page receives it, one for every browser (docs/web.md, "The API",
    names each field): the same whatever the stack's order or the hands the page may not see."""
    game, ruleset = table.game, table.ruleset
    seat = table.seat_to_answer()
    human_turn = seat is not None and table.seats[seat].human
    asked = _asked(table) if human_turn else None
    options = _options(table) if asked == "place" else []
    spots = [(o["map"], o["x"], o["y"]) for o in options]
    gathered, hands = tallies.of(game), hands_of(game)
    state: dict[str, Any] = {
        "ruleset": table.ref, "seed": table.seed, "turn": game.turn, "remaining": game.remaining,
        "finished": game.finished, "to_play": seat, "maps": ruleset.maps, "map": game.map, "tile_size": TILE,
        "players": [{"name": s.name, "spec": s.spec, "human": s.human,
                     "colour": PLAYER_COLOURS[i % len(PLAYER_COLOURS)],
                     "score": game.scores[i], "followers": game.supply[i],
                     "pieces": {t.name: game.reserve[i][t.index] for t in ruleset.follower_types},
                     "supply_svg": supply_svg(ruleset, game.reserve[i], PLAYER_COLOURS[i % len(PLAYER_COLOURS)], TILE),
                     "by_kind": dict(game.kind_points[i]),
                     "in_game": (table.in_game or game.scores)[i],
                     "tokens": dict(zip(ruleset.tokens, gathered.tokens[i])), "titles": held_by(game, i),
                     **({"personal": personal.of(game).held[i]} if ruleset.personal_tile >= 0 else {}),
                     **({"holds": len(hands.held[i])} if hands is not None else {})}
                    for i, s in enumerate(table.seats)],
        "board": board_svg(game, table.names, size=TILE, coordinates=True, spots=spots,
                           recent=_since_last_turn(table, seat)),
        "log": _log(table), "events": _events(table), "saved_as": table.save.name if table.save else None,
        "save_error": table.save_error, "stopped": table.stopped,
        "take_back": human_turn and table.before is not None,
    }
    viewer = _hand_seat(table)
    if viewer is not None:
        state["hand"] = _hand(table, viewer)
    if human_turn and game.start_tile is not None:
        tile = game.start_tile
        state["start"] = {"tile": ruleset.tiles[tile].id,
                          "svg": [tile_group(ruleset, tile, r, TILE) for r in range(4)]}
    elif asked == "move-on":
        state["moving"] = {"follower": ruleset.follower_types[moving.of(game).movers[0][1]].name,
                           "options": _destinations(table)}
    elif asked == "place":
        assert game.tile is not None, "a placement is asked for the tile drawn"
        tile = game.tile
        state["tile"] = {"id": ruleset.tiles[tile].id, "svg": [tile_group(ruleset, tile, r, TILE) for r in range(4)]}
        if personal.of(game).offered:
            state["tile"]["own"] = "pass" if personal.of(game).last_round is not None else "draw"
        state["options"] = options
    return state


def _asked(table: Table) -> str | None:
    """The name of the decision the player to move faces (``place``, ``pick``, ``move-on``:
    :meth:`~engine.core.game.Game.decision`), or None when none is asked (a drawn start tile
    waits for its rotation, or the game is over)."""
    decision = table.game.decision()
    return decision.name if decision is not None and table.game.start_tile is None else None


def _hand_seat(table: Table) -> int | None:
    """The seat whose hand (``deck.hand``) the page shows: the human seat to answer, else the
    table's only human seat (so a lone human sees the tile they kept while the bots play); None
    without hands, at a table of bots only, or while a bot plays among several humans (each
    hand is shown only on its holder's turn: they share the page)."""
    if hands_of(table.game) is None:
        return None
    seat = table.seat_to_answer()
    if seat is not None and table.seats[seat].human:
        return seat
    humans = [i for i, s in enumerate(table.seats) if s.human]
    return humans[0] if len(humans) == 1 else None


def _hand(table: Table, seat: int) -> dict[str, Any]:
    """Seat ``seat``'s hand: ``tiles`` in the order drawn, each ``{id, svg}`` (the tile unturned,
    ``svg`` as :func:`tile_group` draws it ``TILE`` units wide) and, while the seat is to choose
    which to place (``picking``), ``cells``: the ``[map, x, y]`` where it fits; ``chosen``: the
    id of the tile being placed once one is chosen, else None; ``others``: where the tiles not
    placed go, ``kept`` (in the hand) or ``deck.hand``'s ``return`` (``bottom``, ``reshuffle``,
    ``box``)."""
    game, ruleset = table.game, table.ruleset
    hand = ruleset.hand
    hands = hands_of(game)
    assert hands is not None and hand is not None, "only a ruleset with hands shows one"
    asked = _asked(table) if table.seat_to_answer() == seat else None
    picking = asked == "pick"
    tiles = []
    for tile, _, _ in hands.held[seat]:
        shown: dict[str, Any] = {"id": ruleset.tiles[tile].id, "svg": tile_group(ruleset, tile, 0, TILE)}
        if picking:
            shown["cells"] = [list(cell) for cell in sorted({game.local(pos) for pos, _ in game.placements(tile)})]
        tiles.append(shown)
    chosen = ruleset.tiles[game.tile].id if asked == "place" and game.tile is not None else None
    return {"seat": seat, "picking": picking, "chosen": chosen, "tiles": tiles,
            "others": "kept" if hand.keep else hand.return_to}


def _options(table: Table) -> list[dict[str, Any]]:
    """Per legal cell of the drawn tile, its legal rotations and their follower spots."""
    game, ruleset, tile = table.game, table.ruleset, table.game.tile
    assert tile is not None
    cells: dict[tuple[int, int, int], dict[str, Any]] = {}
    for pos, rotation in game.placements():
        m, x, y = game.local(pos)
        cell = cells.setdefault((m, x, y), {"map": m, "x": x, "y": y, "rotations": {}})
        spots = []
        for segment, kind_of_follower in game.deploy_choices(pos, rotation):
            kind = ruleset.kinds[ruleset.tiles[tile].segments[ruleset.tiles[tile].spot_segment(segment)].kind]
            ax, ay = spot_anchor(ruleset, tile, rotation, segment, 1.0, inset=0.12)  # a corner's in its cell
            typed = ruleset.follower_types[kind_of_follower].name + " " if kind_of_follower else ""
            spots.append({"segment": segment, "type": kind_of_follower,
                          "notation": format_follower(ruleset, tile, rotation, segment, kind_of_follower),
                          "name": place_name(ruleset, tile, rotation, segment),
                          "follower": typed + kind.follower, "anchor": [round(ax, 3), round(ay, 3)]})
        cell["rotations"][str(rotation)] = spots
    return sorted(cells.values(), key=lambda c: (c["map"], c["y"], c["x"]))

def _destinations(table: Table) -> list[dict[str, Any]]:
    """Where the human's follower may move on: map, x, y, segment, notation and name."""
    game, found = table.game, []
    for move in game.legal_moves():
        segment = move.follower
        if move == HOME or segment is None:
            continue
        orientation, _, tile = game.board[move.pos]
        m, x, y = game.local(move.pos)
        found.append({"map": m, "x": x, "y": y, "segment": segment,
                      "notation": format_follower(table.ruleset, tile, orientation.rotation, segment),
                      "name": place_name(table.ruleset, tile, orientation.rotation, segment)})
    return found


def _log(table: Table) -> list[str]:
    """A line per history entry: ``turn N: who placed what where``, with the follower (N as the
    score list numbers turns: placements only), or an unnumbered discard; a line per tile buried
    under a placed one (``deck.bury``, never which) and per follower that moved on after its turn."""
    game, ruleset, lines, turn = table.game, table.ruleset, [], 0
    buried = {when for when, _ in burial.of(game).buried}
    for (tile, move), seat in zip(game.history, history_seats(game)):
        tile_id = ruleset.tiles[tile].id
        if move is None:
            lines.append(f"{tile_id} fits nowhere: set aside; {table.names[seat]} draws again")
            continue
        turn += 1
        if turn in personal.of(game).turns:
            tile_id += " (their own tile)"
        m, x, y = game.local(move.pos)
        where = f"map {m} " if ruleset.maps > 1 else ""
        follower = ""
        if move.follower is not None:
            kind = ruleset.kinds[ruleset.tiles[tile].segments[ruleset.tiles[tile].spot_segment(move.follower)].kind]
            who = follower_name(ruleset, move.type, kind.follower)
            follower = f", {who} on {place_name(ruleset, tile, move.rotation, move.follower)}"
        lines.append(f"turn {turn}: {table.names[seat]} placed {tile_id} at {where}({x},{y}) turned "
                     f"{move.rotation * 90}°{follower}")
        if turn in buried:  # deck.bury: which tile stays hidden
            lines.append(f"a tile from the stack went under the {ruleset.kinds[ruleset.bury_kind].name}, unseen")
        lines.extend(_moved_on(table, turn))
    return lines

def _since_last_turn(table: Table, seat: int | None) -> list[int]:
    """Where the tiles placed since human seat ``seat`` last placed one lie (all of them before
    its first turn), so the page can mark every move made meanwhile; none when no human is to
    play."""
    if seat is None or not table.seats[seat].human:
        return []
    found: list[int] = []
    for (_, move), who in zip(table.game.history, history_seats(table.game)):
        if move is None:
            continue
        found = [] if who == seat else found + [move.pos]
    return found

def _moved_on(table: Table, turn: int) -> list[str]:
    """A line per follower that moved on (or went home) after turn ``turn``'s scoring."""
    return [f"{table.names[seat]}'s {moved_on_phrase(table.game, kind, move)}"
            for when, seat, kind, move in moving.of(table.game).decisions if when == turn]

def _events(table: Table) -> list[dict[str, Any]]:
    return [{"text": e.explain(table.names), "words": e.words(table.names), "turn": e.turn, "phase": e.phase,
             "kind": e.kind, "points": e.points, "players": list(e.players), "map": e.map or 0,
             "tiles": [list(t) for t in e.tiles]}
            for e in table.game.events]


__all__ = ["TILE", "build_state"]
