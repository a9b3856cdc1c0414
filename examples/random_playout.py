"""Play one deal with uniformly random legal moves and print the score breakdown.

    python examples/random_playout.py                       # classic, seed 1
    python examples/random_playout.py --variant modern-american --seed 7 --show-moves

Everything the library offers for one deal is here: ``new_game``, ``legal_moves``,
``apply`` (states are immutable: each move gives a new state), ``is_over`` and
``outcome`` with its breakdown.
"""

from __future__ import annotations

import argparse
import random

import canasta


def playout(variant: str, seed: int, show_moves: bool = False) -> canasta.GameState:
    """The deal dealt from ``seed``, played to its end with random moves (also ``seed``)."""
    rng = random.Random(seed)
    state = canasta.new_game(variant, seed=seed)
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        if show_moves:
            print(f"seat {state.to_move}: {move}")
        state = state.apply(move)
    return state


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play one deal with random legal moves.")
    parser.add_argument("--variant", default="classic", help="a registered variant name")
    parser.add_argument("--seed", type=int, default=1, help="seed of the shuffle and the moves")
    parser.add_argument("--show-moves", action="store_true", help="print every move")
    args = parser.parse_args(argv)

    state = playout(args.variant, args.seed, args.show_moves)
    outcome = state.outcome()
    assert outcome is not None
    plies = len(state.history())
    ended = (
        f"seat {outcome.went_out} went out" + (" concealed" if outcome.concealed else "")
        if outcome.went_out is not None
        else "the stock ran out"
    )
    print(f"{args.variant}, seed {args.seed}: {plies} moves, {ended}")
    for side, score in enumerate(outcome.scores):
        seats = ", ".join(str(s) for s in state.variant.seats_of(side))
        print(f"side {side} (seats {seats}): {score:+d}")
        for label, points in outcome.breakdown[side]:
            print(f"    {label:<22}{points:+6d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
