"""A Gymnasium single-agent environment: one learner against fixed or self-play opponents.

``CarcassonneGym(ruleset="basic", players=2, opponent="random", seat=None, returns="zero-sum",
illegal="raise", crop=35, observation="compact")`` wraps :class:`~engine.api.pettingzoo.CarcassonneEnv`: the learner
plays one seat and the environment plays every other seat until the learner is to move again,
so a step is one of the learner's actions.  ``opponent`` is a bot by name (``random``,
``greedy``, ``mcts``, …: :class:`~engine.api.opponents.BotActor`), a callable
``opponent(observation, action_mask) -> action`` (a frozen copy of the learner: self-play),
or a list of these, one per other seat.  ``seat`` fixes the learner's seat; None draws it
afresh at each reset from the reset's seed, so that training sees every seat.

Observations are the PettingZoo environment's without the mask: ``{"board", "scalars"}`` (a
``Dict`` space; ``observation="compact"``) or the full vector (a ``Box``; ``"full"``);
the legal actions are :meth:`CarcassonneGym.action_masks` (what sb3-contrib's ``MaskablePPO``
reads) and ``info["action_mask"]``.  The reward comes at the end: the learner's return
(``returns``: ``"zero-sum"``, ``"win"`` or ``"points"``, :mod:`engine.api.turns`), plus, with
``shaping=w`` (default 0), a dense term at every step: ``w`` times the change, from the
learner's last decision (or the game's start, level) to this one, of its lead in points if the game ended now
(:meth:`~engine.core.game.Game.potential_scores`: its points less the best other seat's,
divided by 100).  The terms add up over a game to ``w`` × the final lead / 100, whatever the
moves, so they steer learning without changing which results are best (potential-based shaping,
Ng, Harada & Russell 1999, with no discount).  An
illegal action raises ``ValueError`` (``illegal="raise"``) or, with ``illegal="lose"``, ends
the episode with reward −1 and ``info["illegal"]`` True, as PettingZoo's classic games do.
A board that outgrows the crop truncates the episode (``truncated`` True, reward 0).
"""

from __future__ import annotations

import math
import operator
import random
from typing import Any, Callable, Union

from .actions import DEFAULT_CROP
from .opponents import BotActor
from .pettingzoo import CarcassonneEnv
from .planes import POINTS_SCALE

try:
    import gymnasium
except ImportError as error:  # pragma: no cover - depends on the extra
    raise ImportError(f"the Gymnasium environment needs the 'pettingzoo' extra: "
                      f"pip install 'carcassonne-rules[pettingzoo]' ({error})") from None

#: An opponent: a bot's spec, or a policy from an observation and its action mask to an action.
Opponent = Union[str, Callable[[Any, Any], int]]
#: What an illegal action does: raise ``ValueError``, or end the episode with reward −1.
ILLEGAL = ("raise", "lose")


class CarcassonneGym(gymnasium.Env):
    """The single-agent environment (module docstring).  ``ValueError`` for what
    :class:`~engine.api.pettingzoo.CarcassonneEnv` refuses, a seat the ruleset does not have,
    a list of opponents of the wrong length, a bot spec that names no bot, an unknown
    ``illegal`` and a ``shaping`` that is not a finite number."""

    metadata = {"render_modes": ["ansi", "rgb_array"]}

    def __init__(self, ruleset: str = "basic", players: int = 2, opponent: Opponent | list[Opponent] = "random",
                 seat: int | None = None, returns: str = "zero-sum", illegal: str = "raise",
                 crop: int = DEFAULT_CROP, render_mode: str | None = None, observation: str = "compact",
                 shaping: float = 0.0) -> None:
        self.env = CarcassonneEnv(ruleset, players, returns, render_mode=render_mode, crop=crop,
                                  observation=observation)
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL)}, not {illegal!r}")
        if isinstance(shaping, bool) or not isinstance(shaping, (int, float)) or not math.isfinite(shaping):
            raise ValueError(f"shaping is a finite number (the weight of the dense term), not {shaping!r}")
        if seat is not None and (type(seat) is not int or not 0 <= seat < players):
            raise ValueError(f"seat is None or one of 0–{players - 1}, not {seat!r}")
        opponents = opponent if isinstance(opponent, list) else [opponent] * (players - 1)
        if len(opponents) != players - 1:
            raise ValueError(f"{players} players: {players - 1} opponents, not {len(opponents)}")
        for each in opponents:
            if isinstance(each, str):
                BotActor(each)  # a spec that names no bot fails here, not at the first reset
            elif not callable(each):
                raise ValueError(f"an opponent is a bot's name or a policy(observation, action_mask), not {each!r}")
        self.opponents, self.fixed_seat, self.illegal, self.render_mode = opponents, seat, illegal, render_mode
        self.shaping = float(shaping)
        #: The learner's lead if the game ended now (points / 100) at its last decision (``shaping``).
        self._lead = 0.0
        spaces = dict(self.env.observation_space(self.env.possible_agents[0]).spaces)
        del spaces["action_mask"]
        self.observation_space = spaces["observation"] if "observation" in spaces else gymnasium.spaces.Dict(spaces)
        self.action_space = self.env.action_space(self.env.possible_agents[0])
        self.seat = seat or 0
        self._actors: dict[int, Any] = {}
        #: Whether the episode is over (also by an illegal action under ``illegal="lose"``), None before a reset.
        self._over: bool | None = None

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[Any, dict]:
        """A new game: ``seed`` seeds the draws, the learner's seat when not fixed, and the bots;
        without one, the next of the generator the last seed started (Gymnasium's ``np_random``)."""
        super().reset(seed=seed)
        rng = random.Random(int(self.np_random.integers(2 ** 63)))
        players = self.env.players
        self.seat = self.fixed_seat if self.fixed_seat is not None else rng.randrange(players)
        others = [s for s in range(players) if s != self.seat]
        bots = rng.randrange(2 ** 31)  # the bots' seed
        self._actors = {s: BotActor(o, bots, s) if isinstance(o, str) else o for s, o in zip(others, self.opponents)}
        self.env.reset(seed=rng.randrange(2 ** 31))
        self._over = False
        self._lead = 0.0  # the game starts level: the first step's term counts the opponents' moves before it too
        self._play_others()
        return self._observed()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict]:
        """Play the learner's ``action``, then the other seats until the learner is to move or the
        game ends: ``(observation, reward, terminated, truncated, info)``."""
        env = self.env
        learner = env.possible_agents[self.seat]
        if self._over is None:
            raise ValueError("call reset() before step()")
        if self._over:
            raise ValueError("the episode is over: call reset()")
        if not self._legal(action):
            if self.illegal == "raise":
                raise ValueError(f"action {action!r} is not legal for the learner now")
            self._over = True
            observation, info = self._observed()
            return observation, -1.0, True, False, {**info, "illegal": True}
        env.step(operator.index(action))
        self._play_others()
        observation, info = self._observed()
        over, cut = env.terminations[learner], env.truncations[learner]
        self._over = over or cut
        if cut:
            info["truncated"] = env.infos[learner]["truncated"]
        reward = float(env.rewards[learner]) if over else 0.0
        if self.shaping and not cut:
            lead = self._potential_lead()
            reward += self.shaping * (lead - self._lead)
            self._lead = lead
        return observation, reward, over, cut, info

    def action_masks(self) -> Any:
        """The learner's legal actions now, as booleans over the action space."""
        if self._over is None:
            raise ValueError("call reset() before action_masks()")
        return self.env.observe(self.env.possible_agents[self.seat])["action_mask"].astype(bool)

    def render(self) -> Any:
        return self.env.render()

    def _legal(self, action: Any) -> bool:
        """Whether ``action`` is an integer (of any integer type, not a bool, as PettingZoo takes
        them) legal for the learner now."""
        if isinstance(action, bool):
            return False
        try:
            index = operator.index(action)
        except TypeError:
            return False
        return 0 <= index < self.action_space.n and bool(self.action_masks()[index])

    def _play_others(self) -> None:
        """Step every other seat until the learner is to move or the episode ends."""
        env = self.env
        learner = env.possible_agents[self.seat]
        while not (env.terminations[learner] or env.truncations[learner]):
            seat = env.possible_agents.index(env.agent_selection)
            if seat == self.seat:
                return
            actor = self._actors[seat]
            if isinstance(actor, BotActor):
                env.step(actor.act(env.state))
            else:
                observation, mask = _split(env.observe(env.agent_selection))
                chosen = actor(observation, mask)
                try:
                    env.step(chosen)
                except ValueError as error:
                    raise ValueError(f"the opponent policy at seat {seat} chose {chosen!r}: {error}") from None

    def _potential_lead(self) -> float:
        """The learner's points if the game ended now less the best other seat's, / 100."""
        potential = self.env.state.game.potential_scores()
        mine = potential[self.seat]
        return (mine - max(p for s, p in enumerate(potential) if s != self.seat)) / POINTS_SCALE

    def _observed(self) -> tuple[Any, dict]:
        observation, mask = _split(self.env.observe(self.env.possible_agents[self.seat]))
        return observation, {"action_mask": mask.astype(bool), "seat": self.seat}


def _split(seen: dict[str, Any]) -> tuple[Any, Any]:
    """An agent's PettingZoo observation as ``(observation, action mask)``: the full vector, or
    the compact one's ``{"board", "scalars"}``."""
    mask = seen.pop("action_mask")
    return seen.get("observation", seen), mask
