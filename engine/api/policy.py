"""A trained policy as a player: ``carcassonne play --players policy:FILE,greedy`` (the ``rl`` extra).

``FILE`` is a policy saved by :func:`save_policy`: an sb3-contrib ``MaskablePPO`` model trained
behind :class:`~engine.api.single_agent.CarcassonneGym` (examples/train_maskable_ppo.py), with
what it was trained on (ruleset, seats, crop, observation, the environment's version) kept in
the file.  :class:`PolicyPlayer` reads the game as the environment shows it to the seat to move
(:meth:`~engine.api.turns.ChanceGame.following`: the planes, no order of the stack) and plays
the policy's most likely legal action, and for a placement with follower spots, its most likely
spot after it: no sampling, so the same game gets the same move.  The player kind is declared
under the entry-point group ``carcassonne.players`` (:data:`engine.bots.players.PLUGINS`).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from ..bots.players import Setting
from ..bots.random_player import RandomPlayer
from ..core.game import Game
from ..core.moves import Move
from ..errors import UserError
from .actions import CropTooSmall
from .planes import make_layout
from .turns import ChanceGame

try:
    import numpy
    from sb3_contrib import MaskablePPO
except ImportError as error:  # pragma: no cover - depends on the extra
    raise ImportError(f"a policy player needs the 'rl' extra (install PyTorch's CPU build first, README "
                      f"'Training a policy'): pip install 'carcassonne-rules[rl]' ({error})") from None

#: The environment the policies here are trained in: its name holds the encoding's version
#: (:class:`~engine.api.pettingzoo.CarcassonneEnv`'s metadata).
ENVIRONMENT = "carcassonne_v1"


@functools.lru_cache(maxsize=8)
def _load(file: str, modified: int) -> Any:
    """The model saved in ``file`` (loaded once per file and version: a simulation makes a player per
    game, and predicting changes nothing in the model); :class:`UserError` when it does not load."""
    try:
        return MaskablePPO.load(file, device="cpu")
    except Exception as error:  # sb3 raises what zipfile, pickle and torch raise
        raise UserError(f"not a saved MaskablePPO policy ({type(error).__name__}: {error})", file=file) from None


def save_policy(model: Any, path: Path | str, ruleset: str, players: int, crop: int = 35,
                observation: str = "compact") -> None:
    """Save ``model`` (a ``MaskablePPO``) to ``path`` (a .zip) with what it was trained on:
    ``ruleset`` (a reference such as ``basic``), ``players`` (seats), ``crop`` (cells) and
    ``observation`` (``compact`` or ``full``), as :class:`PolicyPlayer` checks them."""
    model.carcassonne = {"environment": ENVIRONMENT, "ruleset": ruleset, "players": players, "crop": crop,
                         "observation": observation}
    model.save(str(path))


class PolicyPlayer:
    """``PolicyPlayer(seed, file)``: the policy saved in ``file`` as a player (module docstring).

    Raises :class:`~engine.errors.UserError` for a file that is not a policy saved by
    :func:`save_policy` (or saved for another version of the environment) and, at the first
    move, for a game of another number of seats or whose observation has another shape than
    the policy was trained on.  The ruleset itself is not checked: a policy plays any ruleset
    whose observation has the shape it reads (basic's plays ``first-edition`` or
    ``basic+no-farmers``), for what it is worth there.  Loading unpickles parts of the file
    (stable-baselines3 does): load only policies from people you trust.  A board that outgrows
    the crop (rare: the basic game at the default 35 cells) cannot be shown to the policy: from
    then on the player places as :class:`~engine.bots.random_player.RandomPlayer` does, seeded
    from ``seed``, and counts such moves in :attr:`blind`.
    """

    name = "policy"
    SETTINGS = {"file": Setting("file", required=True)}
    BARE = "file"

    def __init__(self, seed: int | str | None = None, file: str = "") -> None:
        path = Path(file).resolve()
        try:
            self.model = _load(str(path), path.stat().st_mtime_ns if path.is_file() else 0)
        except UserError as error:  # named as the user gave it
            raise UserError(error.diagnostics[0].message, file=file) from None
        self.trained = getattr(self.model, "carcassonne", None)
        if not isinstance(self.trained, dict) or self.trained.get("environment") != ENVIRONMENT:
            raise UserError(f"not a policy saved by engine.api.policy.save_policy for "
                            f"{ENVIRONMENT}", file=file)
        self.file = file
        self.fallback = RandomPlayer(seed)
        #: Moves played without the policy, the board having outgrown the crop.
        self.blind = 0
        self._layouts: dict[str, Any] = {}

    def choose_start(self, game: Game) -> int:
        state = self._state(game)
        return self._best(state, game) - state.codec.starts_from

    def choose(self, game: Game) -> Move:
        state = self._state(game)
        try:
            first = self._best(state, game)
        except CropTooSmall:
            self.blind += 1
            return self.fallback.choose(game)
        move = state.move_for(first)
        if move is None:  # a placement with follower spots: the spot is the second decision
            state.apply(first)
            move = state.move_for(self._best(state, game))
        assert move is not None
        return move

    def _state(self, game: Game) -> ChanceGame:
        if game.players != self.trained["players"]:
            raise UserError(f"the policy was trained for {self.trained['players']} players, "
                            f"not {game.players}", file=self.file)
        return ChanceGame.following(game, self.trained["crop"])

    def _best(self, state: ChanceGame, game: Game) -> int:
        """The policy's most likely legal action in ``state`` for the seat to move."""
        legal = state.legal_actions()  # CropTooSmall when the board no longer fits
        layout, tensor, views = self._layout(game)
        tensor.fill(0)
        layout.fill(views, state, state.player)
        if self.trained["observation"] == "compact":
            seen: Any = {"board": views["board"], "scalars": tensor[layout.board_size:]}
        else:
            seen = tensor
        mask = numpy.zeros(state.codec.size, bool)
        mask[legal] = True
        action, _ = self.model.predict(seen, action_masks=mask, deterministic=True)
        return int(action)

    def _layout(self, game: Game) -> tuple[Any, Any, Any]:
        """The observation's layout for ``game``'s ruleset, its tensor and its views (made, and
        checked against what the policy reads, once a ruleset)."""
        key = game.ruleset.sha256
        if key not in self._layouts:
            layout = make_layout(self.trained["observation"], game.ruleset, game.players, self.trained["crop"])
            self._check(layout)
            tensor = numpy.zeros(layout.size, numpy.float32)
            self._layouts[key] = (layout, tensor, layout.views(tensor))
        return self._layouts[key]

    def _check(self, layout: Any) -> None:
        """:class:`UserError` unless the policy reads observations of ``layout``'s shape."""
        trained = self.trained
        space = self.model.observation_space
        if trained["observation"] == "compact":
            expected = (tuple(space["board"].shape), tuple(space["scalars"].shape))
            shape = (tuple(layout.board_shape), (layout.scalar_size,))
        else:
            expected, shape = tuple(space.shape), (layout.size,)
        if expected != shape:
            raise UserError(f"the policy reads observations of shape {expected} (it was trained on "
                            f"{trained['ruleset']}); this game's are {shape}", file=self.file)

