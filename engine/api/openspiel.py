"""The game for OpenSpiel: ``pyspiel.load_game("python_carcassonne", {...})`` (the ``openspiel`` extra).

Importing this module registers the game.  Parameters: ``ruleset`` (a
ruleset reference such as ``"basic+river"``, default ``"basic"``),
``players`` (default 2), ``returns`` (``"win"``: 1 to each winner, tied
winners alike, 0 otherwise; ``"points"``: the final scores; ``"zero-sum"``: +1 or −1
per other seat with fewer or more points, averaged, :data:`~engine.api.turns.RETURNS`) and ``crop``
(the side of the board window in cells, default
:data:`~engine.api.actions.DEFAULT_CROP`; 0 for one no game outgrows) and ``observation``
(``"compact"``, the default: :mod:`engine.api.planes`, the board planes then the scalars in one
flat tensor; ``"full"``: :mod:`engine.api.observation`'s).  Draws are explicit chance nodes
whose outcomes are tile type indices (:mod:`engine.api.turns`); actions are
the factored :class:`~engine.api.actions.ActionCodec`'s (a cell and rotation,
then a follower spot); the observation string is :mod:`engine.api.observation`'s, and the
information state string is the
history as the seat knows it.  The game rewards only at the end; it is general-sum, but
zero-sum under ``returns="zero-sum"``.  :func:`engine_bot` makes the engine's bots OpenSpiel
bots.  It has perfect information once the draws are chance events, but for
a ruleset with hands (``deck.hand``): each seat's hand is hidden from the
others, so that game's :class:`pyspiel.GameType` says imperfect information
(:data:`HANDS_GAME_TYPE`: ``game.get_type()`` is per ruleset, under the one
registered name, whose registered type is the default ruleset's), and its
observation tensor and string are each seat's own.
"""

from __future__ import annotations

from typing import Any

from ..core.hands import of as hands_of
from ..errors import UserError
from ..rules.formula_syntax import MAX_POINTS
from ..rules.ruleset import Ruleset, load_ruleset
from ..rules.seats import pieces_at_start
from . import observation
from .actions import DEFAULT_CROP, CropTooSmall
from .opponents import BotActor
from .planes import make_layout
from .turns import ChanceGame

try:
    import numpy
    import pyspiel
except ImportError as error:  # pragma: no cover - depends on the extra
    raise ImportError(f"the OpenSpiel game needs the 'openspiel' extra: pip install 'carcassonne-rules[openspiel]' "
                      f"({error})") from None

SHORT_NAME = "python_carcassonne"
DEFAULTS: dict[str, Any] = {"ruleset": "basic", "players": 2, "returns": "win", "crop": DEFAULT_CROP,
                            "observation": "compact"}


def _game_type(information: Any, utility: Any = None) -> Any:
    """The game's :class:`pyspiel.GameType` with ``information`` (a ``GameType.Information``) and
    ``utility`` (a ``GameType.Utility``; default general-sum)."""
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Carcassonne (any ruleset of carcassonne-rules)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        utility=utility or pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=6,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS,
    )


#: The registered type, and the type of every ruleset without hands.
GAME_TYPE = _game_type(pyspiel.GameType.Information.PERFECT_INFORMATION)
#: The type of a ruleset with hands (``deck.hand``): the other seats' hands are hidden.
HANDS_GAME_TYPE = _game_type(pyspiel.GameType.Information.IMPERFECT_INFORMATION)
#: Per kind of information, the type under ``returns="zero-sum"``.
ZERO_SUM_TYPES = {kind: _game_type(kind, pyspiel.GameType.Utility.ZERO_SUM)
                  for kind in (pyspiel.GameType.Information.PERFECT_INFORMATION,
                               pyspiel.GameType.Information.IMPERFECT_INFORMATION)}


class CarcassonneGame(pyspiel.Game):
    """The OpenSpiel game of one ruleset (module docstring).  ``ValueError`` for a
    ruleset that does not load, a number of players it does not allow, or an
    unknown ``returns``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULTS, **(params or {})}
        try:
            self.ruleset: Ruleset = load_ruleset(str(params["ruleset"]))
        except UserError as error:
            raise ValueError(str(error).removeprefix("error: ")) from None
        self.players = int(params["players"])
        self.returns_kind = str(params["returns"])
        codec = ChanceGame(self.ruleset, self.players, self.returns_kind, int(params["crop"])).codec  # checks them
        self.crop = codec.crop
        self.layout = make_layout(str(params["observation"]), self.ruleset, self.players, self.crop)
        tiles = sum(t.count for t in self.ruleset.tiles)
        points, zero_sum = self.returns_kind == "points", self.returns_kind == "zero-sum"
        info = pyspiel.GameInfo(
            num_distinct_actions=codec.size,
            max_chance_outcomes=len(self.ruleset.tiles),
            num_players=self.players,
            min_utility=-MAX_POINTS if points else -1.0 if zero_sum else 0.0,
            max_utility=MAX_POINTS if points else 1.0,
            utility_sum=0.0 if zero_sum else None,
            # Draws: at most tiles × tile types (deck.put_back); moves: two per tile (where, then the follower
            # spot), personal tiles included; start rotations: one per
            # map; under deck.personal, one move per personal tile and a decline before each draw and per seat;
            # under a triggers move, after each placement a choice per follower that may move on; under
            # deck.hand a pick per placement and, per turn, up to size − 1 tiles returned to be drawn again.
            max_game_length=tiles * len(self.ruleset.tiles) + 2 * tiles + codec.maps
            + self.ruleset.personal_count * self.players
            + (tiles * self.ruleset.hand.size if self.ruleset.hand else 0)
            + (self.ruleset.personal_count * self.players + tiles + self.players if codec.draws else 0)
            + (tiles + self.ruleset.personal_count * self.players) * self.players
            * sum(max(pieces_at_start(self.ruleset, seat)[t] for seat in range(self.players))  # ``seats`` may vary it
                  for t, _ in self.ruleset.movers),
        )
        kind = HANDS_GAME_TYPE if self.ruleset.hand else GAME_TYPE
        super().__init__(ZERO_SUM_TYPES[kind.information] if zero_sum else kind, info, params)

    @property
    def observer(self) -> CarcassonneObserver:
        """The default observer, which :meth:`CarcassonneState.observation_tensor` fills."""
        found = self.__dict__.get("_observer")
        if found is None:
            found = self.__dict__["_observer"] = CarcassonneObserver(self.layout)
        return found

    def new_initial_state(self) -> CarcassonneState:
        """The state before the first draw."""
        return CarcassonneState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        """The observer of :mod:`engine.api.observation` (everything public, and under ``deck.hand``
        the observing seat's own hand), or with ``perfect_recall`` the information state: the
        history as the seat knows it (:meth:`~engine.api.turns.ChanceGame.history_seen`; a string,
        no tensor).  ``ValueError`` for parameters, and for an observation type that shows no
        public information or every seat's private information."""
        if params:
            raise ValueError(f"the observer takes no parameters, not {params}")
        if iig_obs_type is not None and (not iig_obs_type.public_info or (
                self.ruleset.hand and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER)):
            raise ValueError(f"the observers show the public information and the observing seat's own (under "
                             f"deck.hand, its hand), not public_info={iig_obs_type.public_info}, "
                             f"private_info={iig_obs_type.private_info}")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return HistoryObserver()
        return CarcassonneObserver(self.layout)


class CarcassonneState(pyspiel.State):
    """One position: a :class:`~engine.api.turns.ChanceGame` behind OpenSpiel's state API."""

    def __init__(self, game: CarcassonneGame, inner: ChanceGame | None = None) -> None:
        super().__init__(game)
        self.inner = inner or ChanceGame(game.ruleset, game.players, game.returns_kind, game.crop)

    @property
    def inner(self) -> ChanceGame:
        """The stepped game.  OpenSpiel loads a serialised or pickled state's game again from its
        parameters, so a ruleset file of one's own is read afresh, while the state carries the rules
        it was played under (their document): ``ValueError`` where the two disagree.  Checked here,
        on every use, since OpenSpiel's ``deserialize_state`` calls nothing of the state's own."""
        found: ChanceGame = self.__dict__["inner"]
        game = self.get_game()
        if found.ruleset is not game.ruleset and found.ruleset.sha256 != game.ruleset.sha256:
            raise ValueError(f"this state was played under another ruleset than {game.ruleset.ref!r} is now "
                             f"(ruleset sha256 {found.ruleset.sha256[:12]}…, now {game.ruleset.sha256[:12]}…): "
                             f"load it where the ruleset file is as it was")
        return found

    @inner.setter
    def inner(self, value: ChanceGame) -> None:
        self.__dict__["inner"] = value

    def __setstate__(self, data: str) -> None:
        super().__setstate__(data)
        self.inner  # noqa: B018  (a state played under other rules than its game's fails on loading)

    def observation_tensor(self, player: int | None = None) -> Any:
        """What ``player`` (default: the one to move) observes, as a float32 numpy array of the
        game's ``observation_tensor_size()`` values (a copy, filled by the game's observer).
        OpenSpiel's own builds a Python list of every value for each call, several times the
        cost of filling them (benchmarks/observation.py).  ``ValueError`` for no such seat."""
        seat = self.current_player() if player is None else player
        game = self.get_game()
        if not 0 <= seat < game.players:
            raise ValueError(f"player is a seat, 0–{game.players - 1}, not {seat}")
        game.observer.set_from(self, seat)
        return game.observer.tensor.copy()

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
        # The chance player reads a draw as the referee does (as OpenSpiel's card games deal face up in
        # their strings: the outcome is in the history anyway); a seat asking at a chance node reads it as
        # that seat sees it, without the tile drawn into another seat's hand.
        if player == pyspiel.PlayerId.CHANCE:
            return self.inner.action_to_string(action, chance_step=True)
        return self.inner.action_to_string(action, chance_step=self.inner.chance, seat=player)

    def is_terminal(self) -> bool:
        return self.inner.over

    def returns(self) -> list[float]:
        return self.inner.returns()

    def __str__(self) -> str:
        """The whole state, as the referee sees it (every hand included)."""
        game = self.inner.game
        tiles = self.inner.ruleset.tiles
        tile = "none" if game.tile is None else tiles[game.tile].id
        held_now = hands_of(game)
        hands = "" if held_now is None else \
            ", hands " + " | ".join(" ".join(tiles[t].id for t, _, _ in held) or "-" for held in held_now.held)
        return (f"turn {game.turn}, scores {game.scores}, supply {game.supply}, tile {tile}{hands}, "
                f"{len(game.board)} tiles placed, {game.remaining} to draw")


class CarcassonneObserver:
    """OpenSpiel's Python observer: ``tensor`` (float32), ``dict`` (named views), and a string."""

    def __init__(self, layout: Any) -> None:
        self.layout = layout
        self.tensor = numpy.zeros(layout.size, numpy.float32)
        self.dict = layout.views(self.tensor)

    def set_from(self, state: CarcassonneState, player: int) -> None:
        self.tensor.fill(0)
        try:
            self.layout.fill(self.dict, state.inner, player)
        except CropTooSmall:
            if not state.inner.over:
                raise
            self.tensor.fill(0)  # the last tile widened the board past the crop: zeros, as PettingZoo shows

    def string_from(self, state: CarcassonneState, player: int) -> str:
        """What ``player`` observes (:func:`engine.api.observation.text`)."""
        return observation.text(state.inner, player)


class HistoryObserver:
    """The information state: the actions so far as the seat knows them; no tensor."""

    def __init__(self) -> None:
        self.tensor = numpy.zeros(0, numpy.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: CarcassonneState, player: int) -> None:
        pass

    def string_from(self, state: CarcassonneState, player: int) -> str:
        return state.inner.history_seen(player)


class EngineBot(pyspiel.Bot):
    """One of the engine's bots as an OpenSpiel bot (:func:`engine_bot`)."""

    def __init__(self, actor: BotActor) -> None:
        pyspiel.Bot.__init__(self)
        self.actor = actor

    def step(self, state: CarcassonneState) -> int:
        return self.actor.act(state.inner)

    def restart_at(self, state: CarcassonneState) -> None:
        self.actor.restart()

    def inform_action(self, state: CarcassonneState, player_id: int, action: int) -> None:
        pass  # the bot reads the state it is asked about: nothing to track

    def provides_policy(self) -> bool:
        return False


def engine_bot(game: CarcassonneGame, player_id: int, spec: str = "greedy", seed: int | None = None) -> EngineBot:
    """The engine's bot ``spec`` (``random``, ``greedy``, ``mcts``, ``mcts:200``, …, as
    ``carcassonne play --players`` takes) as a :class:`pyspiel.Bot` for seat ``player_id`` of
    ``game`` (a ``python_carcassonne`` game), seeded by ``seed`` as the command line seeds it;
    what ``evaluate_bots`` plays.  ``ValueError`` for a spec that names no bot."""
    if not isinstance(game, CarcassonneGame):
        raise ValueError(f"engine_bot plays a python_carcassonne game, not {game}")
    if type(player_id) is not int or not 0 <= player_id < game.players:
        raise ValueError(f"player_id is one of 0–{game.players - 1}, not {player_id!r}")
    return EngineBot(BotActor(spec, seed, player_id))


pyspiel.register_game(GAME_TYPE, CarcassonneGame)
