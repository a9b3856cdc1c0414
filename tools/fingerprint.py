"""Behaviour fingerprint of the engine: one hash per registered variant over random deals.

A change meant to make the engine faster, or its code simpler, must not change what it
does. This plays ``--deals`` seeded deals of random legal play of every registered variant
and hashes, at every position, the legal-move list in order and the turn's progress; at
three positions in ten the ``check()`` reasons of up to 12 candidate moves
(``canasta.testing.candidate_moves``); at every seventh ply the position (``to_json()``)
and every seat's observation; and at the end of each deal its outcome and last events.
Run it before and after a change: the lines must be identical.

Usage: ``PYTHONHASHSEED=0 python tools/fingerprint.py [--deals N]`` (default 20 deals per
variant, a few seconds).
"""

from __future__ import annotations

import argparse
import hashlib
import random

import canasta
from canasta.testing import candidate_moves


def fingerprint(name: str, deals: int) -> tuple[int, str]:
    """The positions played and the hash of ``deals`` seeded deals of variant ``name``."""
    digest = hashlib.sha256()
    plies = 0
    for seed in range(deals):
        rng = random.Random(seed)
        state = canasta.new_game(name, seed=seed)
        while not state.is_over:
            legal = state.legal_moves()
            digest.update(" ".join(map(str, legal)).encode())
            digest.update(repr(state.turn).encode())
            if rng.random() < 0.3:
                for move in candidate_moves(state, random.Random(seed * 1000 + plies))[:12]:
                    digest.update(f"{move}={state.check(move)}".encode())
            state = state.apply(rng.choice(legal))
            plies += 1
            if plies % 7 == 0:
                digest.update(state.to_json().encode())
                for seat in range(state.players):
                    digest.update(repr(state.observe(seat)).encode())
        digest.update(repr(state.outcome()).encode())
        digest.update(repr(state.history()[-3:]).encode())
    return plies, digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20, help="deals per variant (20)")
    args = parser.parse_args()
    total = hashlib.sha256()
    for name in canasta.variants.names():
        plies, digest = fingerprint(name, args.deals)
        print(f"{name:24} {plies:6} {digest}")
        total.update(digest.encode())
    print(f"{'all':24} {'':6} {total.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
