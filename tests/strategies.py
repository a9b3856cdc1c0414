"""Hypothesis strategies for the property tests (style.md: strategies gathered here).

- :func:`variant_names`: the registered variant names.
- :func:`seeds`: deal seeds.
- :func:`played`: a deal of a variant after some random legal moves, as a :class:`Played`
  whose ``repr`` is the line that rebuilds it (``new_game(...).play(...)``), so a failing
  example can be replayed outside Hypothesis.
- :func:`move_texts`: move texts built from the mover's hand, legal or not.

Only the public API is used.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
from hypothesis import strategies as st

import canasta

#: Wild cards and kinds of moves, as written in move texts (api.md §3).
WILD_TEXTS = ("2", "*")
_KINDS = ("meld", "take", "add", "discard")
_SIMPLE = ("draw", "take", "ask", "yes", "no", "end")


def variant_names() -> st.SearchStrategy[str]:
    """Any registered variant name."""
    return st.sampled_from(canasta.variants.names())


def seeds() -> st.SearchStrategy[int]:
    """A deal seed."""
    return st.integers(min_value=0, max_value=2**32 - 1)


@attrs.frozen(repr=False)
class Played:
    """A seeded deal and the moves played on it; ``state`` is where they lead."""

    variant: str | Mapping[str, Any]
    seed: int
    moves: tuple[canasta.Move, ...]
    state: canasta.GameState

    def __repr__(self) -> str:
        line = " ".join(str(m) for m in self.moves)
        return f"canasta.new_game({self.variant!r}, seed={self.seed}).play({line!r})"


@st.composite
def played(
    draw: st.DrawFn, variant: str | Mapping[str, Any] | None = None, max_plies: int = 300
) -> Played:
    """A deal of ``variant`` (default: any) after up to ``max_plies`` random legal moves.

    Each move is drawn by Hypothesis as an index into ``legal_moves()``, so examples shrink
    towards short games and the first listed moves. Play stops early when the deal ends.
    """
    name = variant if variant is not None else draw(variant_names())
    seed = draw(seeds())
    plies = draw(st.integers(min_value=0, max_value=max_plies))
    state = canasta.new_game(name, seed=seed)
    moves: list[canasta.Move] = []
    while len(moves) < plies and not state.is_over:
        legal = state.legal_moves()
        move = legal[draw(st.integers(min_value=0, max_value=len(legal) - 1))]
        state = state.apply(move)
        moves.append(move)
    return Played(name, seed, tuple(moves), state)


def _hand_ranks(state: canasta.GameState) -> Sequence[str]:
    seat = state.to_move
    if seat is None:
        return ()
    return sorted({card.rank for card in state.hand(seat)})


@st.composite
def move_texts(draw: st.DrawFn, state: canasta.GameState) -> str:
    """A move text for ``state``'s mover: a simple move, or a kind with cards whose ranks
    come mostly from the hand (plus wild cards and an occasional other rank)."""
    if draw(st.integers(min_value=0, max_value=5)) == 0:
        return draw(st.sampled_from(_SIMPLE))
    ranks = [r for r in _hand_ranks(state) if r not in WILD_TEXTS]
    pool = [*ranks, *WILD_TEXTS, draw(st.sampled_from("A3456789TJQK"))]
    kind = draw(st.sampled_from(_KINDS))
    if kind == "discard":
        return f"discard:{draw(st.sampled_from(pool))}"
    size = (1, 6) if kind != "take" else (1, 4)
    cards = draw(st.lists(st.sampled_from(pool), min_size=size[0], max_size=size[1]))
    text = "".join(cards)
    if kind == "add":
        target = draw(st.sampled_from([*ranks, "*"] if ranks else ["*"]))
        return f"add:{target}+{text}"
    return f"{kind}:{text}"
