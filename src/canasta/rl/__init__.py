"""Canasta for reinforcement learning and search: a fixed action space, observation
tensors and zero-sum rewards (core library only; NumPy is used when it is installed).

The integrations with learning libraries live in `canasta.envs` (PettingZoo, OpenSpiel).
"""

from canasta.rl.actions import LAYOUT_VERSION, ActionSpace, Block, RLError
from canasta.rl.rewards import max_deal_moves, reward_bound, reward_scale, rewards
from canasta.rl.tensor import ObservationEncoder

__all__ = [
    "LAYOUT_VERSION",
    "ActionSpace",
    "Block",
    "ObservationEncoder",
    "RLError",
    "max_deal_moves",
    "reward_bound",
    "reward_scale",
    "rewards",
]
