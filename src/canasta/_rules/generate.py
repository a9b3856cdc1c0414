"""The legal-move generator: every legal play once, suit-free, in a fixed order.

Plays are enumerated by counts ("k naturals of rank R, t twos, j jokers"), never by
subsets of the hand, and each candidate is decided by the same functions as `check`
(`canasta._rules.legality`), so ``legal_moves()`` and ``check()`` cannot disagree.

Order of ``legal_moves()``: ``draw``; ``take`` moves (bare ``take`` first, then by number of
naturals, twos, jokers); ``ask``; ``meld`` moves by rank (A, 4..K, black threes, wild meld);
``add`` moves by the target meld's rank; ``discard`` moves by rank (A, 3..K, 2, joker);
``end``; ``yes`` then ``no`` when answering.
"""

from __future__ import annotations

from canasta._rules.facts import context
from canasta._rules.legality import (
    ask_reason,
    discard_block,
    discard_reason,
    end_reason,
    play_reason,
    take_options,
    wild_splits,
)
from canasta.cards import (
    BLACK_THREES,
    JOKER_RANK,
    NATURAL_RANKS,
    RANK_VALUES,
    RANKS,
    THREE,
    TWO,
    Card,
)
from canasta.moves import (
    ASK,
    END,
    NO,
    PATTERNS,
    TAKE_LAYOFF,
    YES,
    Discard,
    LayOff,
    MeldCards,
    Move,
    Take,
)
from canasta.moves import (
    DRAW as DRAW_MOVE,
)
from canasta.table import ANSWER, CANASTA_SIZE, DRAW, OVER, WILD_RANK, Table

# Discard order of legal_moves(): A, 3..K, then 2, then the joker.
_DISCARD_ORDER = (0, *range(2, 13), TWO, JOKER_RANK)
# Order of meld: and add: moves in legal_moves() (the black threes have no add:).
_MELD_ORDER = (*NATURAL_RANKS, THREE)
_ADD_ORDER = (*NATURAL_RANKS, WILD_RANK)

_MOVE_CACHE: dict[tuple[str, int, int, int, int], Move] = {}


def _move(kind: str, rank: int, k: int, twos: int, jokers: int) -> Move:
    key = (kind, rank, k, twos, jokers)
    move = _MOVE_CACHE.get(key)
    if move is None:
        cards: tuple[Card, ...] = (
            (PATTERNS[rank],) * k + (PATTERNS[TWO],) * twos + (PATTERNS[JOKER_RANK],) * jokers
        )
        if kind == "take":
            move = Take(cards)
        elif kind == "meld":
            move = MeldCards(cards)
        elif kind == "discard":
            move = Discard(PATTERNS[rank])
        else:
            move = LayOff("*" if rank == WILD_RANK else RANKS[rank], cards)
        _MOVE_CACHE[key] = move
    return move


#: ``discard:R`` for each rank index.
_DISCARDS: tuple[Move, ...] = tuple(_move("discard", rank, 0, 0, 0) for rank in range(14))


def _take_moves(st: Table) -> list[Move]:
    rank = st.pile[-1] >> 2 if st.pile else 0
    return [
        TAKE_LAYOFF if k == 0 and t == 0 and j == 0 else _move("take", rank, k, t, j)
        for k, t, j in take_options(st)
    ]


def _opening_conceivable(st: Table, counts: list[int]) -> bool:
    """Optimistic bound for an unopened side: could any initial meld be completed?

    Every natural of a rank held at least twice plus every wild, against the minimum; or a
    seven-card group, which may waive the minimum (D12, spec §3.5.4). Only a shortcut: the
    solver decides each move.
    """
    variant = st.variant
    seat = st.to_move
    assert seat is not None
    wilds = counts[TWO] + counts[JOKER_RANK]
    best = st.turn.opening + 20 * counts[TWO] + 50 * counts[JOKER_RANK]
    biggest = 0
    for rank in NATURAL_RANKS:
        if counts[rank] >= 2:
            best += counts[rank] * RANK_VALUES[rank]
            biggest = max(biggest, counts[rank])
    if best >= variant.initial_minimum(st.scores[variant.side_of(seat)]):
        return True
    return biggest + wilds >= CANASTA_SIZE or wilds >= CANASTA_SIZE or bool(st.turn.groups)


def _play_moves(st: Table) -> list[Move]:
    ctx = context(st)
    counts = ctx.counts
    variant = st.variant
    melds = ctx.melds
    twos, jokers = counts[TWO], counts[JOKER_RANK]
    most = variant.max_wilds_per_meld
    splits_all = wild_splits(twos, jokers, most)
    moves: list[Move] = []
    if not ctx.opened and not st.turn.must_go_out and not _opening_conceivable(st, counts):
        return moves
    for rank in _MELD_ORDER:
        for k in range(2, counts[rank] + 1):
            for t, j in splits_all:
                # Spec §2.4: a new meld has at least three cards (no need to ask).
                if k + t + j >= 3 and play_reason(st, ctx, False, rank, k, t, j) is None:
                    moves.append(_move("meld", rank, k, t, j))
    if variant.has_wild_melds and twos + jokers:
        for t in range(twos + 1):
            for j in range(jokers + 1):
                if t + j and play_reason(st, ctx, False, WILD_RANK, 0, t, j) is None:
                    moves.append(_move("meld", WILD_RANK, 0, t, j))
    on_table = {m.rank for m in melds}
    for rank in _ADD_ORDER:
        if rank not in on_table:
            continue
        naturals = 0 if rank == WILD_RANK else counts[rank]
        splits = wild_splits(twos, jokers, twos + jokers) if rank == WILD_RANK else splits_all
        for k in range(naturals + 1):
            for t, j in splits:
                if k + t + j and play_reason(st, ctx, True, rank, k, t, j) is None:
                    moves.append(_move("add", rank, k, t, j))
    return moves


def legal_moves(st: Table) -> tuple[Move, ...]:
    """Every legal move, suit-free, each play once, in the order of the module docstring."""
    phase = st.phase
    if phase == OVER:
        return ()
    if phase == ANSWER:
        return (YES, NO)
    moves: list[Move] = []
    if phase == DRAW:
        if st.stock:
            moves.append(DRAW_MOVE)
        moves.extend(_take_moves(st))
        if end_reason(st) is None:
            moves.append(END)
        return tuple(moves)
    if ask_reason(st) is None:
        moves.append(ASK)
    moves.extend(_play_moves(st))
    counts = context(st).counts
    if discard_block(st) is None:
        if not st.variant.restricts_discards:
            moves.extend(_DISCARDS[rank] for rank in _DISCARD_ORDER if counts[rank])
        else:
            hand = st.hands[st.to_move or 0]
            for rank in _DISCARD_ORDER:
                if counts[rank]:
                    code = next(c for c in hand if c >> 2 == rank)
                    if rank == THREE:
                        code = next((c for c in hand if c in BLACK_THREES), code)
                    if discard_reason(st, code) is None:
                        moves.append(_DISCARDS[rank])
    if end_reason(st) is None:
        moves.append(END)
    return tuple(moves)
