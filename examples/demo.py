"""`make demo`: one seeded deal of classic Canasta between bots, printed move by move.

Seats 0 and 2 (side 0) are greedy bots, seats 1 and 3 (side 1) too; every turn is one
line, with the exact cards each move showed the table. The deal ends with each side's
score breakdown.

Run it with ``python examples/demo.py [SEED]``.
"""

from __future__ import annotations

import sys

import canasta
from canasta.bots import GreedyBot
from canasta.display import draw_outcome, style_for
from canasta.observation import observe


def main(seed: int = 2024) -> None:
    style = style_for(sys.stdout)
    state = canasta.new_game("classic", seed=seed)
    bots = [GreedyBot() for _ in range(state.variant.players)]
    print(f"Classic Canasta, seed {seed}: four greedy bots, partners sit opposite.")
    print(f"Upcard: {style.card(state.pile_top) if state.pile_top else '-'}", end="")
    threes = [style.cards(side) for side in state.threes]
    print(f"   red threes dealt: side 0 [{threes[0]}]  side 1 [{threes[1]}]\n")
    turn, line = 0, ""
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        if state.phase == "draw":
            if line:
                print(line)
            turn += 1
            line = f"{turn:3}. seat {seat} (side {state.variant.side_of(seat)}):"
        move = bots[seat].choose(observe(state, seat))
        after = state.apply(move)
        event = after.history()[-1]
        words = [str(move)]
        if event.cards and move.kind != "draw":
            words.append(f"[{style.cards(event.cards)}]")
        if event.taken:
            words.append(f"(took {len(event.taken)} cards)")
        if event.threes:
            words.append(f"(red three {style.cards(event.threes)})")
        line += "  " + " ".join(words)
        state = after
    print(line)
    outcome = state.outcome()
    assert outcome is not None
    print("\nThe deal is over after", len(state.history()), "moves.\n")
    print(draw_outcome(outcome))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2024)
