"""The look-ahead's quick tests agree with the full search they stand in for.

`out_impossible` may only say "impossible" where the search finds no way out,
`opening_in_hand` may only say "reachable" where the search finds an opening, and where
`opening_reachable` says the opening is out of reach no play may be legal; otherwise a
shortcut would change which moves are legal. Checked on positions of random play of every
built-in variant, and on large random hands.
"""

from __future__ import annotations

import random

import pytest

import canasta
from canasta._rules import lookahead
from canasta._rules.facts import (
    concealed_possible,
    context,
    opening_in_hand,
    out_impossible,
    query,
)
from canasta._rules.legality import check
from canasta._rules.plays import opening_reachable
from canasta.cards import JOKER_RANK, NATURAL_RANKS, RANKS, THREE, TWO
from canasta.table import PLAY, WILD_RANK, Table


def _positions(variant: str, seeds: range) -> list[Table]:
    tables = []
    for seed in seeds:
        rng = random.Random(seed)
        state = canasta.new_game(variant, seed=seed)
        while not state.is_over:
            if state.phase == PLAY:
                tables.append(state._table)
            state = state.apply(rng.choice(state.legal_moves()))
    return tables


def _big_hands(variant: str, count: int) -> list[Table]:
    rng = random.Random(5)
    deck = canasta.new_game(variant, seed=0).to_dict()
    cards = [c for part in (*deck["hands"], deck["pile"], deck["stock"]) for c in part.split()]
    laid = set(canasta.variants.get(variant).laid_out_threes)
    cards = [c for c in cards if canasta.Card.parse(c).code not in laid]
    players = canasta.variants.get(variant).players
    tables = []
    for _ in range(count):
        rng.shuffle(cards)
        size = rng.randint(12, 50)
        hands = [" ".join(cards[:size])] + [cards[size + i] for i in range(players - 1)]
        position = {"variant": variant, "phase": "play", "hands": hands, "pile": cards[-1]}
        tables.append(canasta.GameState.from_dict(position)._table)
    return tables


@pytest.mark.parametrize("variant", canasta.variants.names())
def test_quick_tests_never_contradict_the_search(variant: str) -> None:
    tables = _positions(variant, range(3)) + _big_hands(variant, 40)
    assert tables
    for table in tables:
        ctx = context(table)
        side, turn = ctx.side, table.turn
        concealed = concealed_possible(table, ctx.seat, turn)
        out = query(table, lookahead.OUT, ctx.counts, ctx.melds, turn, ctx.opened, concealed)
        if out_impossible(table, ctx.counts, ctx.melds):
            assert not lookahead.feasible(table.variant, out), table.hands[ctx.seat]
        on_table = {meld.rank for meld in ctx.melds}
        if not ctx.opened and opening_in_hand(
            table, side, ctx.counts, on_table, turn, ctx.hand_len
        ):
            opening = query(table, lookahead.OPEN, ctx.counts, ctx.melds, turn, False, concealed)
            assert lookahead.feasible(table.variant, opening), table.hands[ctx.seat]


def _plays(table: Table) -> list[canasta.Move]:
    """Every meld and lay-off the hand's counts allow to be written, legal or not."""
    ctx = context(table)
    counts = ctx.counts
    twos, jokers = counts[TWO], counts[JOKER_RANK]
    plays = []
    for rank in (*NATURAL_RANKS, THREE, WILD_RANK):
        naturals = 0 if rank == WILD_RANK else counts[rank]
        for k in range(naturals + 1):
            for t in range(twos + 1):
                for j in range(jokers + 1):
                    if k + t + j == 0:
                        continue
                    cards = "".join([RANKS[rank]] * k + ["2"] * t + ["*"] * j)
                    target = "*" if rank == WILD_RANK else RANKS[rank]
                    plays.append(canasta.parse_move(f"meld:{cards}"))
                    plays.append(canasta.parse_move(f"add:{target}+{cards}"))
    return plays


@pytest.mark.parametrize("variant", ["classic", "modern-american", "modern-american-club"])
def test_an_opening_out_of_reach_refuses_every_play(variant: str) -> None:
    """Where `opening_reachable` says no, `check` refuses every meld and lay-off: the
    generator stops asking the look-ahead of each play there."""
    tables = [t for t in _positions(variant, range(8)) if not context(t).opened]
    hopeless = [t for t in tables if not opening_reachable(t, context(t))]
    assert hopeless, "no position to test"
    for table in hopeless:
        for move in _plays(table):
            assert check(table, move) is not None, (table.hands[context(table).seat], move)
