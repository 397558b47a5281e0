"""The game for OpenSpiel: ``pyspiel.load_game("python_carcassonne", {...})`` (the ``openspiel`` extra).

Importing this module registers the game.  Parameters: ``ruleset`` (a
ruleset reference such as ``"basic+river"``, default ``"basic"``),
``players`` (default 2) and ``returns`` (``"win"``: 1 to each winner, tied
winners alike, 0 otherwise; ``"points"``: the final scores).  Draws are
explicit chance nodes whose outcomes are tile type indices
(:mod:`engine.api.turns`); actions are the :class:`~engine.api.actions.ActionCodec`'s,
which covers every legal move of any ruleset; the observation tensor is
:mod:`engine.api.observation`'s.  The game has perfect information once the
draws are chance events, is general-sum, and rewards only at the end.
"""

from __future__ import annotations

from typing import Any

from ..errors import UserError
from ..rules.formula_syntax import MAX_POINTS
from ..rules.ruleset import Ruleset, load_ruleset
from ..rules.seats import pieces_at_start
from . import observation
from .actions import ActionCodec
from .turns import ChanceGame

try:
    import numpy
    import pyspiel
except ImportError as error:  # pragma: no cover - depends on the extra
    raise ImportError(f"the OpenSpiel game needs the 'openspiel' extra: pip install 'carcassonne-rules[openspiel]' "
                      f"({error})") from None

SHORT_NAME = "python_carcassonne"
DEFAULTS: dict[str, Any] = {"ruleset": "basic", "players": 2, "returns": "win"}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Carcassonne (any ruleset of carcassonne-rules)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=1,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


class CarcassonneGame(pyspiel.Game):
    """The OpenSpiel game of one ruleset (module docstring).  ``ValueError`` for a
    ruleset that does not load, a number of players it does not allow, or an
    unknown ``returns``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULTS, **(params or {})}
        try:
            self.ruleset: Ruleset = load_ruleset(str(params["ruleset"]))
        except UserError as error:
            raise ValueError(str(error)) from None
        self.players = int(params["players"])
        self.returns_kind = str(params["returns"])
        ChanceGame(self.ruleset, self.players, self.returns_kind)  # checks players and returns
        codec = ActionCodec.for_ruleset(self.ruleset)
        tiles = sum(t.count for t in self.ruleset.tiles)
        points = self.returns_kind == "points"
        info = pyspiel.GameInfo(
            num_distinct_actions=codec.size,
            max_chance_outcomes=len(self.ruleset.tiles),
            num_players=self.players,
            min_utility=-MAX_POINTS if points else 0.0,
            max_utility=MAX_POINTS if points else 1.0,
            utility_sum=None,
            # Draws: at most tiles × tile types (deck.put_back); moves: one per tile; start rotations: one per
            # map; under deck.personal, one move per personal tile and a decline before each draw and per seat;
            # under a triggers move, after each placement a choice per follower that may move on.
            max_game_length=tiles * len(self.ruleset.tiles) + tiles + codec.maps
            + (self.ruleset.personal_count * self.players + tiles + self.players if codec.draws else 0)
            + (tiles + self.ruleset.personal_count * self.players) * self.players
            * sum(max(pieces_at_start(self.ruleset, seat)[t] for seat in range(self.players))  # ``seats`` may vary it
                  for t, _ in self.ruleset.movers),
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> CarcassonneState:
        """The state before the first draw."""
        return CarcassonneState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CarcassonneObserver:
        """The observer of :mod:`engine.api.observation` (public information: all of it)."""
        if params:
            raise ValueError(f"the observer takes no parameters, not {params}")
        return CarcassonneObserver(self.ruleset, self.players)


class CarcassonneState(pyspiel.State):
    """One position: a :class:`~engine.api.turns.ChanceGame` behind OpenSpiel's state API."""

    def __init__(self, game: CarcassonneGame, inner: ChanceGame | None = None) -> None:
        super().__init__(game)
        self.inner = inner or ChanceGame(game.ruleset, game.players, game.returns_kind)

    def current_player(self) -> int:
        inner = self.inner
        if inner.over:
            return pyspiel.PlayerId.TERMINAL
        if inner.chance:
            return pyspiel.PlayerId.CHANCE
        return inner.player

    def _legal_actions(self, player: int) -> list[int]:
        return self.inner.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.inner.outcomes()

    def _apply_action(self, action: int) -> None:
        self.inner.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.inner.action_to_string(action, chance_step=player == pyspiel.PlayerId.CHANCE)

    def is_terminal(self) -> bool:
        return self.inner.over

    def returns(self) -> list[float]:
        return self.inner.returns()

    def __str__(self) -> str:
        game = self.inner.game
        tile = "none" if game.tile is None else self.inner.ruleset.tiles[game.tile].id
        return (f"turn {game.turn}, scores {game.scores}, supply {game.supply}, tile {tile}, "
                f"{len(game.board)} tiles placed, {game.remaining} to draw")


class CarcassonneObserver:
    """OpenSpiel's Python observer: ``tensor`` (float32), ``dict`` (named views), and a string."""

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        self.ruleset, self.players = ruleset, players
        self.tensor = numpy.zeros(observation.size(ruleset, players), numpy.float32)
        self.dict = observation.views(self.tensor, ruleset, players)

    def set_from(self, state: CarcassonneState, player: int) -> None:
        self.tensor.fill(0)
        observation.fill(self.dict, state.inner, player)

    def string_from(self, state: CarcassonneState, player: int) -> str:
        return f"seat {player}: {state}"


pyspiel.register_game(GAME_TYPE, CarcassonneGame)
