"""A custom variant from a TOML file: load it, show how it differs, and play with it.

    python examples/custom_variant.py                      # examples/house_rules.toml
    python examples/custom_variant.py my_rules.toml --name thursday

The file names a preset (``variant = "classic"``) and the options that change; see
docs/config.md. The variant is checked when it is read: a misspelt option or a bad value
is an error naming it. Registered under a name, the house rules can be used everywhere a
variant is named (positions, records, the command line).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import canasta

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Load and play a custom variant.")
    parser.add_argument("config", nargs="?", type=Path, default=HERE / "house_rules.toml")
    parser.add_argument("--name", default="house-rules", help="name to register it under")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)

    try:
        variant = canasta.variants.load(args.config)
    except (canasta.VariantError, canasta.UnknownVariantError) as error:
        print(f"error: {error}")
        return 1

    preset = canasta.variants.get(variant.name)
    print(f"{args.config.name}: the {variant.name!r} preset with these changes:")
    for option, value in variant.to_config().items():
        if option != "variant":
            print(f"    {option} = {value!r}  (preset: {getattr(preset, option)!r})")

    # The variant round-trips through its config, and can be registered under a name.
    assert canasta.variants.from_config(variant.to_config()) == variant
    house = variant.with_name(args.name)
    canasta.variants.register(house)
    print(f"registered as {args.name!r}: {args.name in canasta.variants.names()}")

    # Play one deal by name, with random moves.
    rng = random.Random(args.seed)
    state = canasta.new_game(args.name, seed=args.seed)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_moves()))
    outcome = state.outcome()
    assert outcome is not None
    print(f"one deal of {args.name!r}: scores {outcome.scores}, target {house.target_score}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
