"""A PettingZoo AEC environment of any ruleset (the ``pettingzoo`` extra).

``CarcassonneEnv(ruleset="basic+river", players=3, returns="win", render_mode=None, crop=35,
observation="compact")``:
agents ``player_0`` … act in seat order; the environment draws the tiles itself
(from a ``random.Random`` seeded by ``reset(seed=…)``), so every step is a
move, or the first player's turn of a start tile drawn from the stack.  An
observation is ``{"board": float32 [C, H, W], "scalars": float32 vector, "action_mask": int8
vector}`` (``observation="compact"``, :mod:`engine.api.planes`: seats relative to the agent,
values in [0, 1] but the points) or ``{"observation": float32 vector, "action_mask": …}``
(``observation="full"``, :mod:`engine.api.observation`), as that agent's seat sees it
(under ``deck.hand`` its own hand, not the others'); the mask marks the acting
agent's legal actions (all zero for the others), over the factored
:class:`~engine.api.actions.ActionCodec`'s actions: a placement is a cell of
the crop and a rotation, then (the same agent again) a follower spot.
A board that outgrows the crop (:class:`~engine.api.actions.CropTooSmall`)
**truncates** the episode: every agent's ``truncation`` is True, with no
reward, and its ``info["truncated"]`` says why (``crop=0`` never truncates); when the last
tile of the game does it, the game ends as usual, rewarded, with ``info["outgrown"]`` saying
why the last observation is zeros.
Rewards come at the end: 1 to each winner and 0 otherwise
(``returns="win"``), the final points (``returns="points"``), or zero-sum ones in [−1, 1]
(``returns="zero-sum"``, :data:`~engine.api.turns.RETURNS`).  :class:`CarcassonneEnv`
raises ``ValueError`` for an illegal action; :func:`env` wraps it as PettingZoo's classic
games are wrapped, so that an illegal action ends the episode with −1 to its agent.
:meth:`render` gives text with ``render_mode="ansi"`` and the board picture
with ``"rgb_array"`` (the ``render`` extra too); the environment never renders
by itself.
"""

from __future__ import annotations

import operator
import random
from typing import Any

from ..errors import UserError
from ..rules.ruleset import load_ruleset
from .actions import DEFAULT_CROP, CropTooSmall
from .planes import CompactLayout, make_layout
from .turns import ChanceGame

try:
    import gymnasium
    import numpy
    from pettingzoo import AECEnv
except ImportError as error:  # pragma: no cover - depends on the extra
    raise ImportError(f"the PettingZoo environment needs the 'pettingzoo' extra: "
                      f"pip install 'carcassonne-rules[pettingzoo]' ({error})") from None


class CarcassonneEnv(AECEnv):
    """The AEC environment (module docstring).  ``ValueError`` for a ruleset that does
    not load, a number of players it does not allow, an unknown ``returns`` or
    ``render_mode``, and for an illegal action."""

    render_modes = ("ansi", "rgb_array")
    # The version counts the encodings of observations and actions (CHANGELOG.md): v1, the compact planes.
    metadata = {"render_modes": list(render_modes), "name": "carcassonne_v1", "is_parallelizable": False}

    def __init__(self, ruleset: str = "basic", players: int = 2, returns: str = "win",
                 render_mode: str | None = None, crop: int = DEFAULT_CROP, observation: str = "compact") -> None:
        super().__init__()
        if render_mode not in (None, *self.render_modes):
            raise ValueError(f"render_mode must be one of {list(self.render_modes)}, not {render_mode!r}")
        if not isinstance(ruleset, str):
            raise ValueError(f"ruleset is a ruleset reference such as 'basic+river', not {ruleset!r}")
        try:
            self.ruleset = load_ruleset(ruleset)
        except UserError as error:
            raise ValueError(str(error).removeprefix("error: ")) from None
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players is a number of seats, not {players!r}")
        self.players, self.returns_kind, self.render_mode = players, returns, render_mode
        self.state = ChanceGame(self.ruleset, players, returns, crop)
        self.crop = self.state.codec.crop
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.layout = make_layout(observation, self.ruleset, players, self.crop)
        self.compact = observation == "compact"
        size = self.layout.size
        actions = self.state.codec.size
        space = gymnasium.spaces.Dict({**_spaces(self.layout), "action_mask": gymnasium.spaces.Box(
            0, 1, (actions,), numpy.int8)})
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {agent: gymnasium.spaces.Discrete(actions) for agent in self.possible_agents}
        self._rng = random.Random()
        self._cut: str | None = None
        self._tensor = numpy.zeros(size, numpy.float32)
        self._views = self.layout.views(self._tensor)

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def __getstate__(self) -> dict[str, Any]:
        # The observation's views into its tensor would come back as arrays of their own (pickle
        # and deepcopy copy each), so they are left out and made again from the tensor on loading.
        state = self.__dict__.copy()
        del state["_views"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._views = self.layout.views(self._tensor)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game; ``seed`` seeds the draws (the same seed and actions give the same game).
        Without one, the draws are seeded from the generator the last seed started, so a run
        seeded once repeats; before any seed, from the operating system."""
        if seed is not None or not hasattr(self, "_seeds"):
            self._seeds = random.Random(None if seed is None else f"episodes after {seed}")
        self._rng = random.Random(seed if seed is not None else self._seeds.getrandbits(64))
        self.state = ChanceGame(self.ruleset, self.players, self.returns_kind, self.crop)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict] = {agent: {} for agent in self.agents}
        self._cut = None  # why the episode was truncated (the board outgrew the crop)
        self._draw()
        self.agent_selection = self.possible_agents[self.state.player]

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s private view (module docstring); ``ValueError`` for an unknown agent."""
        if agent not in self.possible_agents:
            raise ValueError(f"no agent {agent!r} (agents: {', '.join(self.possible_agents)})")
        seat = self.possible_agents.index(agent)
        self._tensor.fill(0)
        mask = numpy.zeros(self.state.codec.size, numpy.int8)
        if self._cut is None:  # else truncated: the board no longer fits the planes; zeros
            self.layout.fill(self._views, self.state, seat)
            if not self.state.over and seat == self.state.player:
                mask[self.state.legal_actions()] = 1
        if self.compact:
            board = self.layout.board_size
            return {"board": self._views["board"].copy(), "scalars": self._tensor[board:].copy(), "action_mask": mask}
        return {"observation": self._tensor.copy(), "action_mask": mask}

    def last(self, observe: bool = True) -> Any:
        if not hasattr(self, "agent_selection"):
            raise ValueError("call reset() before last()")
        return super().last(observe)

    def step(self, action: Any) -> None:
        if not hasattr(self, "agent_selection"):
            raise ValueError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            if isinstance(action, bool):
                raise TypeError
            action = operator.index(action)
        except TypeError:
            raise ValueError(f"an action is an integer, not {action!r}") from None
        if action not in self.state.legal_actions():
            raise ValueError(f"action {action} is not legal for {agent} now")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply(action)
        self._draw()
        try:
            self.state.legal_actions()  # places the crop's windows on the new board
            self.state.window  # noqa: B018  (the last tile's too: legal_actions has none to place then)
        except CropTooSmall as error:
            self._cut = str(error)
            for a in self.possible_agents:
                # A game that ended with that tile ends (its observation is zeros); else it is cut short.
                self.truncations[a] = not self.state.over
                self.infos[a]["truncated" if not self.state.over else "outgrown"] = self._cut
        if self.state.over:
            for a, value in zip(self.possible_agents, self.state.returns()):
                self.rewards[a] = value
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[self.state.player]
        self._accumulate_rewards()

    def render(self) -> Any:
        """Text (``ansi``) or an RGB array (``rgb_array``) of the board; None without a mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi' or 'rgb_array'")
            return None
        if self.render_mode == "ansi":
            return _text(self.state)
        return _picture(self.state, self.possible_agents)

    def close(self) -> None:
        pass

    def _draw(self) -> None:
        """Resolve every draw due now with the environment's generator."""
        state, rng = self.state, self._rng
        while state.chance:
            outcomes = state.outcomes()
            state.apply(rng.choices([t for t, _ in outcomes], [p for _, p in outcomes])[0])


def _spaces(layout: Any) -> dict[str, Any]:
    """The observation's spaces but the action mask: ``board`` and ``scalars`` (compact), or
    ``observation`` (full; unbounded, as its points and counts are)."""
    if isinstance(layout, CompactLayout):
        low, high = numpy.array(layout.low, numpy.float32), numpy.array(layout.high, numpy.float32)
        return {"board": gymnasium.spaces.Box(0.0, 1.0, layout.board_shape, numpy.float32),
                "scalars": gymnasium.spaces.Box(low, high, (layout.scalar_size,), numpy.float32)}
    return {"observation": gymnasium.spaces.Box(-numpy.inf, numpy.inf, (layout.size,), numpy.float32)}


def env(**kwargs: Any) -> Any:
    """:class:`CarcassonneEnv` (``kwargs`` are its parameters) wrapped as PettingZoo's classic
    games are: an illegal action ends the episode, −1 to the agent that played it and 0 to the
    others (with a warning), an action outside the space fails an assertion, and the calls
    must come in order (``reset`` first)."""
    from pettingzoo.utils import wrappers

    wrapped = wrappers.TerminateIllegalWrapper(CarcassonneEnv(**kwargs), illegal_reward=-1)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(wrapped))


def _text(state: ChanceGame) -> str:
    """The board as rows of tile names (``.`` for an empty cell), then the scores."""
    from ..geometry import map_local

    game = state.game
    cells = {map_local(pos): state.ruleset.tiles[tile].id for pos, (_, _, tile) in game.board.items()}
    lines = []
    for m in range(state.codec.maps):
        here = [(x, y) for (mm, x, y) in cells if mm == m]
        if not here:
            continue
        width = max(len(name) for name in cells.values())
        xs, ys = [x for x, _ in here], [y for _, y in here]
        for y in range(min(ys), max(ys) + 1):
            lines.append(" ".join(cells.get((m, x, y), ".").rjust(width) for x in range(min(xs), max(xs) + 1)))
        lines.append("")
    tile = "-" if game.tile is None else state.ruleset.tiles[game.tile].id
    lines.append(f"scores {game.scores}  supply {game.supply}  tile {tile}  to draw {game.remaining}")
    return "\n".join(lines)


def _picture(state: ChanceGame, names: list[str]) -> Any:
    """The board picture (engine/view/render.py) as an ``(height, width, 3)`` uint8 array."""
    import io

    from ..view.render import board_svg, png_renderer

    renderer = png_renderer()  # says which extra to install (render), before any work
    from PIL import Image  # cairosvg's own dependency: there with the render extra

    png = renderer.svg2png(bytestring=board_svg(state.game, names).encode("utf-8"))
    return numpy.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
