"""RLlib on the PettingZoo environment (extra ``canasta[rllib]``): the masked observations
RLlib's action-masking module reads, and one PPO self-play iteration of the example.

Runs in the Ray environment of ``make test-ray``.
"""

from __future__ import annotations

from pathlib import Path

import numpy

from canasta.envs.rllib import rllib_env
from test_examples import run


def test_rllib_sees_observations_and_a_float_mask() -> None:
    env = rllib_env("classic")
    observations, _ = env.reset(seed=1)
    ((agent, first),) = observations.items()
    assert set(first) == {"observations", "action_mask"}
    assert first["action_mask"].dtype == numpy.float32
    assert env.observation_space[agent].contains(first)
    # An action sampled without the mask (as RLlib's checker does) ends the deal with a
    # penalty instead of raising.
    illegal = int(numpy.flatnonzero(first["action_mask"] == 0)[0])
    _, rewards, terminated, _, _ = env.step({agent: illegal})
    assert terminated["__all__"]
    assert rewards[agent] == -1.0


def test_one_ppo_iteration_of_the_self_play_example(tmp_path: Path) -> None:
    out = run("rllib_selfplay.py", "--iterations", "1", "--batch", "400", cwd=tmp_path)
    assert "iteration 1: 400" in out
