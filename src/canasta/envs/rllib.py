"""The PettingZoo environment as RLlib wants it (extra ``canasta[rllib]``).

RLlib's action-masking module reads the observation keys ``"observations"`` and
``"action_mask"`` (a float mask), and RLlib's environment checker steps with actions
sampled without the mask. `rllib_env` adapts `canasta.envs.pettingzoo` to both: it
renames the key, gives the mask as ``float32``, and makes an illegal action end the
episode with a penalty (``illegal="penalize"``) instead of raising.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils.wrappers import BaseWrapper
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

from canasta.envs.pettingzoo import CanastaEnv
from canasta.variants.base import Variant

__all__ = ["MaskedObservations", "rllib_env"]


class MaskedObservations(BaseWrapper[str, dict[str, np.ndarray], int]):
    """Observations ``{"observations": vector, "action_mask": float32 mask}``."""

    def __init__(self, env: CanastaEnv) -> None:
        super().__init__(env)
        self._spaces: dict[str, spaces.Space[Any]] = {}
        for agent in env.possible_agents:
            inner = env.observation_space(agent)
            assert isinstance(inner, spaces.Dict)
            self._spaces[agent] = spaces.Dict(
                {
                    "observations": inner["observation"],
                    "action_mask": spaces.Box(0.0, 1.0, (env.actions.size,), dtype=np.float32),
                }
            )

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        inner = self.env.observe(agent)
        assert inner is not None
        return {
            "observations": inner["observation"],
            "action_mask": inner["action_mask"].astype(np.float32),
        }


def rllib_env(variant: Variant | str | Mapping[str, Any] = "classic", episode: str = "deal") -> Any:
    """RLlib's ``PettingZooEnv`` around a masked Canasta environment (illegal actions
    penalized), for ``register_env``."""
    return PettingZooEnv(MaskedObservations(CanastaEnv(variant, episode, illegal="penalize")))
