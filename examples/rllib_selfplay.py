"""RLlib PPO self-play on Canasta: every seat shares one policy, which masks illegal actions.

Needs the extra ``canasta[rllib]`` (Ray RLlib and PyTorch). Run::

    python examples/rllib_selfplay.py --variant classic-2p --iterations 5
"""

from __future__ import annotations

import argparse

import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
    ActionMaskingTorchRLModule,
)
from ray.tune.registry import register_env

from canasta.envs.rllib import rllib_env


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic-2p")
    parser.add_argument("--iterations", type=int, default=5)
    parser.add_argument("--batch", type=int, default=2000, help="env steps per iteration")
    args = parser.parse_args(argv)

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    register_env("canasta", lambda config: rllib_env(config["variant"]))
    config = (
        PPOConfig()
        .environment("canasta", env_config={"variant": args.variant})
        .env_runners(num_env_runners=0)
        .multi_agent(
            policies={"shared"},
            # Self-play: every seat is played by the same policy.
            policy_mapping_fn=lambda agent_id, episode, **kwargs: "shared",
        )
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    "shared": RLModuleSpec(
                        module_class=ActionMaskingTorchRLModule,
                        model_config={"head_fcnet_hiddens": [64]},
                    )
                }
            )
        )
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=min(256, args.batch),
            num_epochs=1,
        )
    )
    algorithm = config.build_algo()
    for iteration in range(1, args.iterations + 1):
        result = algorithm.train()
        runners = result["env_runners"]
        print(
            f"iteration {iteration}: {runners['num_env_steps_sampled_lifetime']} env steps, "
            f"{runners.get('num_episodes_lifetime', 0)} deals"
        )
    algorithm.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()
