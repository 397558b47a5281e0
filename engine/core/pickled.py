"""Pickling a game in progress, on both builds (issue 52).

The compiled build's classes keep their attributes in slots, rebuild through their ``__init__``
and freeze the tile data, so the standard protocol cannot rebuild a :class:`~engine.core.game.Game`
field by field.  A game pickles instead as its ruleset (which pickles as its document), its number
of seats and what it holds that the ruleset does not say: a fresh game of the same class is made
on loading and given those values, each mechanism's state included.  What follows from the
ruleset and the seats alone is made again, the caches start empty and the board's cells hold
their tile type and rotation in the pickle (their orientations are the ruleset's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .mechanisms import moments_for

if TYPE_CHECKING:
    from ..rules.ruleset import Ruleset
    from .game import Game

#: What a new game works out from the ruleset and the seats alone (the mechanisms' handlers
#: among them), never changed by play: made again on loading, not pickled.
FROM_THE_RULESET = frozenset({"ruleset", "tiles", "players", "moments", "deploy_masks", "kept_out", "segment_types",
                              "segment_rules", "weights", "edge_pow", "judging", "judge_around", "sharing"})
#: Caches, each worked out again when first needed: not pickled, and a loaded game's are emptied.
CACHES = frozenset({"placement_cache", "totals", "spots", "bonuses_memo"})
#: Pickled apart: the board (as tile type and rotation per cell), the mechanisms' states (as their
#: attributes) and whether the generator is shared with a copy (a loaded game has its own).
APART = frozenset({"board", "states", "rng_shared"})


def attribute_names(obj: object) -> tuple[str, ...]:
    """The names of ``obj``'s attributes: a compiled class lists them in ``__mypyc_attrs__``, an
    interpreted one keeps them in its ``__dict__`` or in the ``__slots__`` of its classes."""
    listed = getattr(type(obj), "__mypyc_attrs__", None)
    if listed is not None:
        return tuple(name for name in listed if name != "__dict__" and hasattr(obj, name))
    names = [name for cls in type(obj).__mro__ for name in getattr(cls, "__slots__", ()) if hasattr(obj, name)]
    names.extend(getattr(obj, "__dict__", {}))
    return tuple(dict.fromkeys(names))


def game_fields(game: "Game") -> dict[str, Any]:
    """What a pickle of ``game`` holds besides its ruleset and seats (module docstring): its
    attributes by name, with ``board`` as ``{pos: (tile type index, rotation, first segment)}``,
    ``states`` as ``{mechanism name: {attribute: value}}`` and, for a game trying mechanisms not in
    the registry, ``mechanisms`` (which then have to pickle)."""
    skipped = FROM_THE_RULESET | CACHES | APART
    fields = {name: getattr(game, name) for name in attribute_names(game) if name not in skipped}
    fields["board"] = {pos: (tile, orientation.rotation, base) for pos, (orientation, base, tile) in game.board.items()}
    fields["states"] = {name: {attr: getattr(state, attr) for attr in attribute_names(state)}
                        for name, state in game.states.items()}
    mechanisms = game.moments.mechanisms
    if mechanisms != moments_for(game.ruleset).mechanisms:
        fields["mechanisms"] = mechanisms  # a mechanism being tried (``Game(mechanisms=…)``) goes along
    return fields


def unpickled_game(cls: type["Game"], ruleset: "Ruleset", players: int, fields: dict[str, Any]) -> "Game":
    """The game a pickle holds (:meth:`Game.__reduce__ <engine.core.game.Game.__reduce__>`): a new
    ``cls(ruleset, players)`` given ``fields`` (:func:`game_fields`)."""
    game = cls(ruleset, players, mechanisms=fields.get("mechanisms"))
    tiles = ruleset.tiles
    for name, value in fields.items():
        if name == "mechanisms":
            continue
        if name == "board":
            game.board = {pos: (tiles[tile].orientations[rotation], base, tile)
                          for pos, (tile, rotation, base) in value.items()}
        elif name == "states":
            for mechanism, attributes in value.items():
                state = game.states[mechanism]
                for attr, held in attributes.items():
                    setattr(state, attr, held)
        else:
            setattr(game, name, value)
    game.rng_shared = False
    # The new game's caches are of its own first tile and board: emptied.
    game.placement_cache, game.totals, game.spots, game.bonuses_memo = None, {}, {}, {}
    return game
