"""Canasta as a PettingZoo AEC environment (extra ``canasta[pettingzoo]``).

``env(variant="classic")`` makes one; agents ``"player_0"`` .. are the seats. A Canasta
turn is several moves (draw, melds, discard), so the same agent is selected again for
each move of its turn. Observations are dictionaries ``{"observation": Box(float32),
"action_mask": Box(0, 1, int8)}`` (the `canasta.rl.ObservationEncoder` vector and the
`canasta.rl.ActionSpace` mask, all zeros for an agent that is not to move); actions are
``Discrete(ActionSpace.size)``. At the end of each deal every agent gets
`canasta.rl.rewards`: zero-sum per side, in target scores, shared by partners.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from numbers import Integral
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from canasta._input import excerpt
from canasta.deal import new_game
from canasta.display import Style, draw_observation
from canasta.errors import CanastaError
from canasta.match import Match
from canasta.moves import Move
from canasta.rl import ActionSpace, ObservationEncoder, RLError, rewards
from canasta.state import GameState
from canasta.variants.base import Variant

from . import _resolve

__all__ = ["CanastaEnv", "EnvObservation", "env"]

_EPISODES = ("deal", "match")
_ILLEGAL = ("raise", "penalize")
_RENDER_MODES = ("human", "ansi")

EnvObservation = dict[str, np.ndarray]

#: The action mask's type (looked up once: observe() runs every step).
_INT8 = np.dtype(np.int8)


def env(
    variant: Variant | str | Mapping[str, Any] = "classic",
    episode: str = "deal",
    seed: int | None = None,
    illegal: str = "raise",
    render_mode: str | None = None,
) -> CanastaEnv:
    """A Canasta environment; see `CanastaEnv` for the arguments."""
    return CanastaEnv(variant, episode, seed, illegal, render_mode)


def _seed(seed: object) -> int | None:
    """``seed`` if it is None or an integer (NumPy's too), as an int; else RLError."""
    if seed is None:
        return None
    if isinstance(seed, Integral) and not isinstance(seed, bool):
        return int(seed)
    raise RLError(f"a seed is an integer or None, got {excerpt(seed)}")


class CanastaEnv(AECEnv[str, EnvObservation, int]):
    """Canasta for PettingZoo: one deal, or a whole match, per episode.

    Args:
        variant: a `Variant`, a registered name or a config mapping.
        episode: ``"deal"`` (an episode is one deal) or ``"match"`` (deals until a side
            wins; rewards come at the end of every deal).
        seed: the seed of the first ``reset()`` without one (None: a random seed).
        illegal: what an action that is not legal does: ``"raise"`` (`IllegalMoveError`,
            or `RLError` outside the action space; nothing changes) or ``"penalize"``
            (the episode ends, the offender's side gets -1 and the other sides share +1).
        render_mode: None, ``"ansi"`` (`render` returns the table as the agent to move
            sees it) or ``"human"`` (it is printed after every step).

    Raises:
        RLError: an unknown ``episode``, ``illegal`` or ``render_mode``.
    """

    _state: GameState
    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's attribute)
        "render_modes": list(_RENDER_MODES),
        "name": "canasta_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: Variant | str | Mapping[str, Any] = "classic",
        episode: str = "deal",
        seed: int | None = None,
        illegal: str = "raise",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        for name, value, allowed in (
            ("episode", episode, _EPISODES),
            ("illegal", illegal, _ILLEGAL),
            ("render_mode", render_mode, (None, *_RENDER_MODES)),
        ):
            if value not in allowed:
                raise RLError(f"{name} must be one of {list(allowed)}, got {value!r}")
        self.variant = _resolve(variant)
        self.episode = episode
        self.illegal = illegal
        self.render_mode = render_mode
        self.actions = ActionSpace(self.variant)
        self.encoder = ObservationEncoder(self.variant, numpy=True)
        self.possible_agents = [f"player_{seat}" for seat in range(self.variant.players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        low, high = (np.array(b, dtype=np.float32) for b in self.encoder.bounds)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (self.actions.size,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self.actions.size) for agent in self.possible_agents
        }
        self._seed = _seed(seed)
        self._rng: random.Random | None = None
        self._match: Match | None = None
        self._paid = False  # the last step paid rewards

    # -- spaces ------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[self.possible_agents[self._seat(agent)]]

    def _seat(self, agent: str) -> int:
        """The seat of ``agent``; RLError for a name that is not one of the agents."""
        try:
            return self._seats[agent]
        except (KeyError, TypeError):  # not an agent's name, or not even hashable
            raise RLError(
                f"no agent {excerpt(agent)}; the agents are {self.possible_agents}"
            ) from None

    # -- the episode -------------------------------------------------------------------

    @property
    def game_state(self) -> GameState:
        """The deal being played (the last one, once the episode is over)."""
        return self._state

    @property
    def match(self) -> Match | None:
        """The match being played when ``episode="match"``, else None."""
        return self._match

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new deal (or start a new match).

        ``seed`` makes the episode reproducible, and so does the seed given to `env`
        for the first reset; later resets without a seed go on from the last seed given.
        """
        seed = _seed(seed)
        if seed is None and self._rng is None:
            seed = self._seed if self._seed is not None else random.SystemRandom().getrandbits(63)
        if seed is not None:
            self._rng = random.Random(seed)
        assert self._rng is not None
        deal_seed = self._rng.getrandbits(63)
        if self.episode == "match":
            self._match = Match.new(self.variant, seed=deal_seed)
            self._state = self._match.state
        else:
            self._state = new_game(self.variant, seed=deal_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._paid = False
        self._select()

    def _select(self) -> int | None:
        """Select the agent to move; its seat, or None once the deal is over."""
        seat = self._state.to_move
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        return seat

    def observe(self, agent: str) -> EnvObservation:
        """The agent's observation vector and action mask (zeros unless it is to move)."""
        try:
            seat = self._seats[agent]  # inline: observe is called on every step
        except (KeyError, TypeError):
            seat = self._seat(agent)  # raises
        state = self._state
        if state.to_move == seat:
            mask = np.frombuffer(self.actions.mask(state), _INT8)
        else:
            mask = np.zeros(self.actions.size, _INT8)
        return {"observation": self.encoder.encode(state.observe(seat)), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play the action of the selected agent (None for an agent whose episode ended)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._state
        try:
            if action is None:
                raise RLError(f"{agent} is to move: None is no action")
            move = self.actions.decode(state, action)
        except CanastaError:
            if self.illegal == "raise":
                raise
            self._penalize(agent)
            return
        self._cumulative_rewards[agent] = 0.0
        # Only the end of a deal pays: the rewards are cleared and added up after a step
        # that paid, not after every move.
        if self._paid:
            self._clear_rewards()
            self._paid = False
        self._play(move)
        if self._paid:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _play(self, move: Move) -> None:
        if self._match is None:
            self._state = self._state.apply(move)
            if self._select() is None:  # the deal is over
                outcome = self._state.outcome()
                assert outcome is not None
                self._pay(outcome.scores)
                self._end()
            return
        deals = len(self._match.deals)
        self._match = self._match.apply(move)
        self._state = self._match.state
        if len(self._match.deals) > deals:
            outcome = self._match.deals[-1].outcome
            assert outcome is not None
            self._pay(outcome.scores)
        if self._match.is_over:
            self._end()
        else:
            self._select()

    def _pay(self, scores: tuple[int, ...]) -> None:
        self._paid = True
        for agent, reward in zip(self.possible_agents, rewards(self.variant, scores), strict=True):
            self.rewards[agent] = reward

    def _end(self) -> None:
        self.terminations = dict.fromkeys(self.agents, True)

    def _penalize(self, agent: str) -> None:
        variant = self.variant
        offender = variant.side_of(self._seats[agent])
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        for other in self.agents:
            side = variant.side_of(self._seats[other])
            self.rewards[other] = -1.0 if side == offender else 1.0 / (variant.sides - 1)
            self.infos[other] = {"illegal_action": agent}
        self._accumulate_rewards()
        self._end()

    def render(self) -> str | None:
        """The table as the selected agent sees it: returned (``"ansi"``), printed
        (``"human"``) or nothing (no render mode)."""
        if self.render_mode is None:
            return None
        seat = self._seats[self.agent_selection]
        text = draw_observation(self._state.observe(seat), Style(symbols=False))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
