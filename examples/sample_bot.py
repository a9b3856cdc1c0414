"""A bot that searches over the hidden cards with ``sample_state``.

    python examples/sample_bot.py                 # 4 deals, SafeDiscardBot vs GreedyBot
    python examples/sample_bot.py --deals 10 --samples 32

A bot sees only its :class:`~canasta.Observation`: its own hand, not the
others'. :func:`~canasta.sample_state` deals the unseen cards at random into
a full :class:`~canasta.GameState` that gives the same observation (a
*determinization*). Playing a move in many such states estimates what it does against
the hands the bot cannot see.

``SafeDiscardBot`` plays like the built-in ``GreedyBot``, except for its discard: for
each discard it samples the hidden cards, and prefers the discard that lets the next
player take the pile in the fewest sampled worlds.
"""

from __future__ import annotations

import argparse
import random

import canasta
from canasta.bots import Bot, GreedyBot, play_deal


class SafeDiscardBot:
    """GreedyBot's play, with the discard that least often feeds the next player."""

    def __init__(self, samples: int = 16, seed: int | None = None) -> None:
        self.samples = samples
        self.rng = random.Random(seed)
        self.greedy = GreedyBot(seed=seed)
        self.decisions = 0
        self.changed = 0

    def choose(self, observation: canasta.Observation) -> canasta.Move:
        preferred = self.greedy.choose(observation)
        if not isinstance(preferred, canasta.Discard):
            return preferred
        discards = [m for m in observation.legal_moves if isinstance(m, canasta.Discard)]
        worlds = [canasta.sample_state(observation, self.rng) for _ in range(self.samples)]
        risk = {move: self.risk(move, worlds) for move in discards}
        safest = min(risk.values())
        choice = preferred if risk[preferred] == safest else self.highest(discards, risk, safest)
        self.decisions += 1
        self.changed += choice != preferred
        return choice

    @staticmethod
    def risk(move: canasta.Move, worlds: list[canasta.GameState]) -> float:
        """The share of the sampled worlds where the next player may take the pile."""
        fed = 0
        for world in worlds:
            after = world.apply(move)
            if not after.is_over and any(m.kind == "take" for m in after.legal_moves()):
                fed += 1
        return fed / len(worlds)

    @staticmethod
    def highest(
        moves: list[canasta.Discard], risk: dict[canasta.Discard, float], safest: float
    ) -> canasta.Discard:
        """Among the safest discards, the one worth most (it would count against us)."""
        safe = [m for m in moves if risk[m] == safest]
        return max(safe, key=lambda m: m.card.value)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A bot that samples the hidden cards.")
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    totals = [0, 0]
    bots_0 = [SafeDiscardBot(args.samples, seed=args.seed + s) for s in (0, 2)]
    for deal in range(args.deals):
        state = canasta.new_game("classic", seed=args.seed + deal)
        seats: list[Bot] = [bots_0[0], GreedyBot(seed=deal), bots_0[1], GreedyBot(seed=deal + 100)]
        end = play_deal(state, seats)
        outcome = end.outcome()
        assert outcome is not None
        totals = [t + s for t, s in zip(totals, outcome.scores, strict=True)]
        print(
            f"deal {deal + 1}: side 0 (SafeDiscardBot) {outcome.scores[0]:+5d}, "
            f"side 1 (GreedyBot) {outcome.scores[1]:+5d}"
        )
    decisions = sum(b.decisions for b in bots_0)
    changed = sum(b.changed for b in bots_0)
    print(f"total: side 0 {totals[0]:+d}, side 1 {totals[1]:+d}")
    print(f"{decisions} discards searched, {changed} changed from GreedyBot's choice")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
