"""Turn sequencing and legality: the one place that decides what is legal.

Three entry points, all pure: `legal_moves`, `check` and `apply`. Every
rule question that differs between variants is asked of the variant (spec §3); every
look-ahead question goes to `canasta.solver`.

Legality works on counts: a move is reduced to "k naturals of rank R, t twos, j jokers"
(plus the exact cards it names), so the generator never enumerates subsets of a hand and
``legal_moves()`` and ``check()`` share one validation path per kind of move.

Order of ``legal_moves()``: ``draw``; ``take`` moves (bare ``take`` first, then by number of
naturals, twos, jokers); ``ask``; ``meld`` moves by rank (A, 4..K, black threes, wild meld);
``add`` moves by the target meld's rank; ``discard`` moves by rank (A, 3..K, 2, joker);
``end``; ``yes`` then ``no`` when answering.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from canasta import solver
from canasta.cards import (
    JOKER,
    JOKER_RANK,
    NATURAL_RANKS,
    RANKS,
    THREE,
    TWO,
    Card,
    card_value,
)
from canasta.errors import IllegalReason as R
from canasta.moves import (
    ASK,
    DRAW,
    END,
    NO,
    PATTERNS,
    TAKE_LAYOFF,
    YES,
    Answer,
    Ask,
    Discard,
    Draw,
    End,
    LayOff,
    MeldCards,
    Move,
    Take,
)
from canasta.table import ANSWER, NEW_TURN, OVER, PLAY, WILD_RANK, Group, Meld, Turn, evolve
from canasta.table import DRAW as PHASE_DRAW

if TYPE_CHECKING:
    from canasta.state import GameState
    from canasta.variants.base import Variant

_T = TypeVar("_T")
_VALUES = (20, 20, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 50)
# Discard order of legal_moves(): A, 3..K, then 2, then the joker.
_DISCARD_ORDER = (0, *range(2, 13), TWO, JOKER_RANK)
_RANK_INDEX = {rank: index for index, rank in enumerate(RANKS)}
# Order of meld: and add: moves in legal_moves() (the black threes have no add:).
_MELD_ORDER = (*NATURAL_RANKS, THREE)
_ADD_ORDER = (*NATURAL_RANKS, WILD_RANK)


# --------------------------------------------------------------------------------------
# Small readers of the table


def _growable(variant: Variant, melds: tuple[Meld, ...], rank: int) -> Meld | None:
    """The side's meld of ``rank`` that can still take cards (classic: the only one)."""
    cap = variant.max_meld_size
    for meld in melds:
        if meld.rank == rank and meld.size < cap:
            return meld
    return None


def _lay_off_target(variant: Variant, melds: tuple[Meld, ...], rank: int) -> Meld | None:
    """The meld an ``add:`` of ``rank`` goes to: the growable one, or (D28) a full one."""
    target = _growable(variant, melds, rank)
    if target is None and variant.oversize_when_going_out:
        target = next((m for m in melds if m.rank == rank), None)
    return target


def _closed(st: GameState) -> frozenset[int]:
    """Ranks closed by a natural canasta of either side (spec §3.5.3), where they exist."""
    if not st.variant.closes_ranks:
        return frozenset()
    return frozenset(
        m.rank
        for side in st.melds
        for m in side
        if m.is_canasta and m.is_natural and m.rank not in (WILD_RANK, THREE)
    )


def _new_ok(variant: Variant, melds: tuple[Meld, ...], rank: int, closed: frozenset[int]) -> bool:
    """May the side start a meld of ``rank`` (classic: it merges into the existing one)?"""
    if rank in closed:
        return False
    if variant.merges_same_rank:
        return True
    if _growable(variant, melds, rank) is not None:
        return False  # at most one incomplete meld of a rank (spec §3.5.3)
    return variant.new_meld_after_canasta or all(m.rank != rank for m in melds)


def _canastas(melds: tuple[Meld, ...]) -> int:
    return sum(1 for m in melds if m.is_canasta)


def _wild_incomplete(melds: tuple[Meld, ...]) -> bool:
    return any(m.rank == WILD_RANK and m.size < 7 for m in melds)


def _may_go_out(variant: Variant, melds: tuple[Meld, ...], turn: Turn) -> bool:
    """Spec §2.9, §3.5.7: enough canastas, partner did not say no, no open wild meld."""
    if turn.permission is False or _canastas(melds) < variant.canastas_to_go_out:
        return False
    return not (variant.wild_meld_blocks_going_out and _wild_incomplete(melds))


def _concealed_possible(st: GameState, seat: int, turn: Turn) -> bool:
    """Spec §2.10 (1) and D13: no earlier meld by this player, nothing laid off."""
    if st.melded_seats[seat] or turn.laid_off:
        return False
    return not (turn.took_pile and not st.variant.concealed_after_pickup)


def _concealed_done(variant: Variant, groups: tuple[Group, ...]) -> bool:
    """Spec §2.10 (3)(4): every own group valid alone and one of them a canasta."""
    if not groups or not any(g.naturals + g.wilds >= 7 for g in groups):
        return False
    for g in groups:
        if g.rank == WILD_RANK:
            if variant.wild_meld_reason(0, g.wilds) is not None:
                return False
        elif variant.natural_meld_reason(g.rank, 0, 0, g.naturals, g.wilds, True) is not None:
            return False
    return True


def _group_flags(groups: tuple[Group, ...]) -> int:
    flags = 0
    for g in groups:
        flags |= solver.group_flags(g.rank, g.naturals, g.wilds, g.from_hand)
    return flags


def _with_group(
    groups: tuple[Group, ...], rank: int, naturals: int, wilds: int, from_hand: bool, create: bool
) -> tuple[Group, ...]:
    """The turn's groups after adding cards of ``rank`` (``create``: a meld/take group)."""
    for i, g in enumerate(groups):
        if g.rank == rank:
            updated = Group(rank, g.naturals + naturals, g.wilds + wilds, g.from_hand and from_hand)
            return groups[:i] + (updated,) + groups[i + 1 :]
    if create:
        return (*groups, Group(rank, naturals, wilds, from_hand))
    return groups


def _out_impossible(st: GameState, counts: list[int], melds: tuple[Meld, ...]) -> bool:
    """A cheap necessary condition for going out: at most one card that no meld can take,
    and enough canastas within reach.

    A single natural without a meld of its rank can only be the discard (every meld needs
    two naturals); so can cards of a closed rank, and one or two black threes.
    """
    variant = st.variant
    closed = _context(st).closed
    ranks = {m.rank for m in melds}
    wilds = counts[TWO] + counts[JOKER_RANK]
    orphans = counts[THREE] if counts[THREE] < 3 else 0
    pairs = 0  # two naturals and no meld: a new meld needs a wild (or both are lost)
    for rank in NATURAL_RANKS:
        count = counts[rank]
        if count and (rank in closed or (count == 1 and rank not in ranks)):
            orphans += count
            if orphans > 1:
                return True
        elif count == 2 and rank not in ranks:
            pairs += 1
    if pairs > wilds:
        return True
    if variant.has_wild_melds:
        return False
    # A meld can only become a canasta if its cards, the hand's cards of its rank and every
    # wild in hand make seven.
    reachable = 0
    for m in melds:
        if m.is_canasta or m.size + counts[m.rank] + wilds >= 7:
            reachable += 1
    for rank in NATURAL_RANKS:
        if counts[rank] >= 2 and rank not in ranks and counts[rank] + wilds >= 7:
            reachable += 1
    return reachable < variant.canastas_to_go_out


def _query(
    st: GameState,
    goal: int,
    counts: list[int],
    melds: tuple[Meld, ...],
    turn: Turn,
    opened: bool,
    concealed: bool,
) -> solver.Query:
    variant = st.variant
    closed = _context(st).closed
    growable: list[tuple[int, int] | None] = [None] * 13
    new_ok = [False] * 13
    on_table = {m.rank for m in melds}
    for rank in NATURAL_RANKS:
        meld = None
        if rank in on_table:
            meld = _growable(variant, melds, rank)
            if goal == solver.OUT and meld is None:
                meld = _lay_off_target(variant, melds, rank)  # D28: only when going out
        if rank in closed:
            continue
        if meld is not None:
            growable[rank] = (meld.naturals, meld.wilds)
        else:
            new_ok[rank] = _new_ok(variant, melds, rank, closed)
    wild = _growable(variant, melds, WILD_RANK)
    groups: list[tuple[int, int, bool] | None] = [None] * 14
    for g in turn.groups:
        groups[g.rank] = (g.naturals, g.wilds, g.from_hand)
    seat = st.to_move
    assert seat is not None
    opening = None
    if not opened:
        opening = (turn.opening, variant.initial_minimum(st.scores[variant.side_of(seat)]))
    return solver.Query(
        goal=goal,
        counts=tuple(counts),
        melds=tuple(growable),
        new_ok=tuple(new_ok),
        wild_meld=None if wild is None else wild.size,
        new_wild_ok=wild is None and (variant.has_wild_melds),
        canastas=_canastas(melds),
        opening=opening,
        groups=tuple(groups),
        concealed=concealed,
        no_out=turn.permission is False,
        no_discard=turn.no_discard,
    )


# --------------------------------------------------------------------------------------
# Validation of meld-like actions in the play phase


def _after_meld_reason(
    st: GameState,
    seat: int,
    counts_after: list[int],
    melds_after: tuple[Meld, ...],
    turn_after: Turn,
    hand_after: int,
    obliged: bool,
) -> R | None:
    """Checks that depend on the position after a meld, lay-off or pickup (spec §2.8, §2.9)."""
    variant = st.variant
    side = variant.side_of(seat)
    opened = st.opened[side]
    done = opened
    if not opened:
        minimum = variant.initial_minimum(st.scores[side])
        done = variant.opening_done(turn_after.opening, minimum, _group_flags(turn_after.groups))
        if done:
            hand_after += sum(1 for c in turn_after.waiting if c not in variant.laid_out_threes)
    if hand_after <= 1:
        if obliged and hand_after and turn_after.no_discard:
            return R.MUST_GO_OUT  # the last card cannot be discarded this turn (D11)
        may_out = _may_go_out(variant, melds_after, turn_after)
        if not done:
            # D12: an unopened player may still go out concealed without the minimum.
            may_out = may_out and (
                variant.concealed_exempt
                and not turn_after.took_pile
                and _concealed_possible(st, seat, turn_after)
                and _concealed_done(variant, turn_after.groups)
            )
        if not may_out:
            if turn_after.permission is False and hand_after == 0:
                return R.PERMISSION_DENIED
            return R.HAND_SIZE
        if hand_after == 0 and variant.go_out_needs_discard:
            return R.HAND_SIZE
        return None
    if not done:
        q = _query(
            st,
            solver.OPEN,
            counts_after,
            melds_after,
            turn_after,
            False,
            _concealed_possible(st, seat, turn_after) and not turn_after.took_pile,
        )
        if not solver.feasible(variant, q):
            return R.INITIAL_MINIMUM
    if obliged:
        if _out_impossible(st, counts_after, melds_after):
            return R.MUST_GO_OUT
        q = _query(
            st,
            solver.OUT,
            counts_after,
            melds_after,
            turn_after,
            done,
            _concealed_possible(st, seat, turn_after),
        )
        if not solver.feasible(variant, q):
            return R.MUST_GO_OUT
    return None


class _Context(NamedTuple):
    """Facts about the player to move that every candidate move needs (cached per state)."""

    seat: int
    side: int
    counts: list[int]
    melds: tuple[Meld, ...]
    #: by rank index: the side's meld of that rank that can still grow
    growable: list[Meld | None]
    closed: frozenset[int]
    opened: bool
    hand_len: int
    wild_incomplete: bool


def _context(st: GameState) -> _Context:
    ctx: _Context | None = st._ctx
    if ctx is None:
        seat = st.to_move
        assert seat is not None
        variant = st.variant
        side = variant.side_of(seat)
        melds = st.melds[side]
        cap = variant.max_meld_size
        growable: list[Meld | None] = [None] * 14
        for meld in melds:
            if meld.size < cap and growable[meld.rank] is None:
                growable[meld.rank] = meld
        ctx = _Context(
            seat,
            side,
            st.counts(),
            melds,
            growable,
            _closed(st),
            st.opened[side],
            len(st.hands[seat]),
            _wild_incomplete(melds),
        )
        st.__dict__["_ctx"] = ctx  # a cache on the frozen state
    return ctx


def _play_reason(st: GameState, add: bool, rank: int, k: int, twos: int, jokers: int) -> R | None:
    """Validate ``meld:`` (add=False) or ``add:`` (add=True) by counts."""
    if st.phase != PLAY:
        return R.WRONG_PHASE
    ctx = _context(st)
    counts = ctx.counts
    if (
        (k and k > counts[rank])
        or twos > counts[TWO]
        or jokers > counts[JOKER_RANK]
        or (rank == WILD_RANK and k)
    ):
        return R.NOT_IN_HAND
    return _placement_reason(st, ctx, add, rank, k, twos, jokers)


def _placement_reason(
    st: GameState, ctx: _Context, add: bool, rank: int, k: int, twos: int, jokers: int
) -> R | None:
    """`_play_reason` for cards known to be in hand, in the play phase."""
    variant = st.variant
    counts = ctx.counts
    seat = ctx.seat
    melds = ctx.melds
    turn = st.turn
    wilds = twos + jokers
    opening = not ctx.opened
    closed = ctx.closed
    target = ctx.growable[rank]
    obliged = turn.must_go_out
    if rank == THREE:
        if add:
            return R.NO_SUCH_MELD
        reason = variant.black_three_meld_reason(k, wilds)
        if reason is not None:
            return reason
        obliged = True
        target = None
    elif rank == WILD_RANK:
        if add:
            if target is None:
                return R.NO_SUCH_MELD
            reason = variant.wild_meld_reason(target.size, wilds)
        else:
            if target is not None or not variant.has_wild_melds:
                return R.INVALID_MELD
            reason = variant.wild_meld_reason(0, wilds)
        if reason is not None:
            return reason
    else:
        if rank in closed:
            return R.CLOSED_RANK
        if add:
            if target is None:
                target = _lay_off_target(variant, melds, rank)
            if target is None:
                return R.NO_SUCH_MELD
        else:
            if not _new_ok(variant, melds, rank, closed):
                return R.INVALID_MELD
            # A meld: group must be valid on its own before merging (spec §2.4, §2.10).
            reason = variant.natural_meld_reason(rank, 0, 0, k, wilds, opening)
            if reason is not None:
                return reason
        n0, w0 = (target.naturals, target.wilds) if target is not None else (0, 0)
        if n0 + w0 or add:
            reason = variant.natural_meld_reason(rank, n0, w0, k, wilds, opening)
            if reason is not None:
                return reason
        if wilds and ctx.wild_incomplete and variant.wild_meld_blocks_wilds:
            return R.WILD_RULE
        if n0 + w0 + k + wilds > variant.max_meld_size:
            obliged = True  # D28: a meld beyond the cap only in the going-out turn
    hand_after = ctx.hand_len - k - wilds
    if not opening and not obliged and hand_after >= 2:
        return None  # nothing below can fail: skip building the position after
    # The position after the action.
    counts_after = counts.copy()
    counts_after[rank if rank != WILD_RANK else TWO] -= k if rank != WILD_RANK else 0
    counts_after[TWO] -= twos
    counts_after[JOKER_RANK] -= jokers
    placeholder = (JOKER,) * jokers + (4,) * twos + ((rank * 4,) * k if rank != WILD_RANK else ())
    if target is not None:
        melds_after = _set(melds, melds.index(target), target.plus(placeholder))
    else:
        melds_after = (*melds, Meld.of(rank, placeholder))
    own = any(g.rank == rank for g in turn.groups)
    if add and not own:
        turn_after = evolve(turn, laid_off=True, melded=True)
    else:
        turn_after = evolve(
            turn,
            melded=True,
            groups=_with_group(turn.groups, rank, k, wilds, True, not add),
        )
    if opening:
        value = k * (5 if rank == THREE else _VALUES[rank]) + 20 * twos + 50 * jokers
        turn_after = evolve(turn_after, opening=turn.opening + value)
    reason = _after_meld_reason(
        st, seat, counts_after, melds_after, turn_after, hand_after, obliged
    )
    if rank == THREE and reason in (R.MUST_GO_OUT, R.HAND_SIZE):
        return R.BLACK_THREES  # spec §2.6: only in the turn the player goes out
    return reason


def _take_reason(st: GameState, k: int, twos: int, jokers: int) -> R | None:
    """Spec §2.7 (T1–T6) and §3.5.5: take the pile with k naturals, twos and jokers."""
    if st.phase != PHASE_DRAW:
        return R.WRONG_PHASE
    if not st.pile:
        return R.PILE_EMPTY
    variant = st.variant
    top = st.pile[-1]
    if variant.blocks_pile(top):
        return R.PILE_BLOCKED
    seat = st.to_move
    assert seat is not None
    side = variant.side_of(seat)
    rank = top >> 2
    counts = st.counts()
    if k > counts[rank] or twos > counts[TWO] or jokers > counts[JOKER_RANK]:
        return R.NOT_IN_HAND
    hand = st.hands[seat]
    if len(hand) == 1 and len(st.pile) == 1 and not variant.one_card_pile_allowed:
        return R.ONE_CARD_PILE  # T5, D16
    closed = _closed(st)  # the draw phase needs no full context
    if rank in closed:
        return R.CLOSED_RANK
    melds = st.melds[side]
    opened = st.opened[side]
    frozen_for = variant.pile_always_frozen or st.frozen or not opened
    wilds = twos + jokers
    target = _growable(variant, melds, rank)
    if k + wilds == 0:
        # T3c: lay the top card off.
        if frozen_for or not variant.pickup_layoff_allowed:
            return R.PILE_FROZEN if st.frozen else R.NATURAL_PAIR_NEEDED
        if target is None:
            return R.NO_SUCH_MELD
        reason = variant.natural_meld_reason(rank, target.naturals, target.wilds, 1, 0, False)
        if reason is not None:
            return reason
    else:
        reason = variant.pickup_reason(k, wilds, st.frozen, opened)
        if reason is not None:
            return reason
        reason = variant.natural_meld_reason(rank, 0, 0, k + 1, wilds, not opened)
        if reason is not None:
            return reason
        if target is not None:
            if target.size > variant.pickup_join_limit:
                return R.MELD_TOO_LARGE  # spec §3.5.5: joins only a meld of 3 or 4
            reason = variant.natural_meld_reason(
                rank, target.naturals, target.wilds, k + 1, wilds, not opened
            )
            if reason is not None:
                return reason
        elif not _new_ok(variant, melds, rank, closed):
            return R.INVALID_MELD
    hand_after = len(hand) - k - wilds
    if opened:
        hand_after += sum(1 for c in st.pile[:-1] if c not in variant.laid_out_threes)
        if hand_after >= 2:
            return None  # nothing below can fail: skip building the position after
    # The position after the pickup meld.
    placeholder = (top,) + (JOKER,) * jokers + (4,) * twos + (rank * 4,) * k
    if target is not None:
        index = melds.index(target)
        melds_after = melds[:index] + (target.plus(placeholder),) + melds[index + 1 :]
    else:
        melds_after = (*melds, Meld.of(rank, placeholder))
    counts_after = counts.copy()
    counts_after[rank] -= k
    counts_after[TWO] -= twos
    counts_after[JOKER_RANK] -= jokers
    turn = NEW_TURN
    if k + wilds:
        turn = evolve(
            turn,
            took_pile=True,
            groups=(Group(rank, k + 1, wilds, False),),
            waiting=st.pile[:-1],
        )
    else:
        turn = evolve(turn, took_pile=True, laid_off=True, waiting=st.pile[:-1])
    if not opened:
        hand_value = k * _VALUES[rank] + 20 * twos + 50 * jokers
        turn = evolve(turn, opening=variant.pickup_opening_value(card_value(top), hand_value))
    if opened:
        turn = evolve(turn, waiting=())
    return _after_meld_reason(st, seat, counts_after, melds_after, turn, hand_after, False)


def _discard_block(st: GameState) -> R | None:
    """Why no card at all may be discarded now (the same answer for every card)."""
    if st.phase != PLAY:
        return R.WRONG_PHASE
    seat = st.to_move
    assert seat is not None
    variant = st.variant
    turn = st.turn
    if turn.no_discard:
        return R.NO_DISCARD
    side = variant.side_of(seat)
    melds = st.melds[side]
    going_out = len(st.hands[seat]) == 1
    if not st.opened[side] and (turn.melded or turn.took_pile):
        exempt = (
            going_out
            and variant.concealed_exempt
            and not turn.took_pile
            and _concealed_possible(st, seat, turn)
            and _concealed_done(variant, turn.groups)
            and _may_go_out(variant, melds, turn)
        )
        if not exempt:
            return R.OPENING_INCOMPLETE
    if going_out:
        if turn.permission is False:
            return R.PERMISSION_DENIED
        if not _may_go_out(variant, melds, turn):
            return R.CANNOT_GO_OUT
    elif turn.must_go_out:
        return R.MUST_GO_OUT
    return None


def _discard_reason(st: GameState, code: int) -> R | None:
    """May the card ``code`` (in the hand of the player to move) be discarded?"""
    reason = _discard_block(st)
    if reason is not None or not st.variant.restricts_discards:
        return reason
    going_out = len(st.hands[st.to_move or 0]) == 1
    return st.variant.discard_reason(code, st.counts(), not st.pile, going_out, _context(st).closed)


def _ask_reason(st: GameState) -> R | None:
    if st.phase != PLAY:
        return R.WRONG_PHASE
    seat = st.to_move
    assert seat is not None
    variant = st.variant
    turn = st.turn
    if not variant.has_partners or turn.asked or turn.melded or turn.no_discard:
        return R.ASK_NOT_ALLOWED
    if len(st.hands[seat]) < 2:
        # [LIB] after "no" the player must end the turn with a card in hand: with one card
        # there would be no legal move left, so a single card cannot ask.
        return R.ASK_NOT_ALLOWED
    limit = variant.ask_limit
    if limit is not None and st.asked[seat] >= limit:
        return R.ASK_NOT_ALLOWED
    side = variant.side_of(seat)
    # Spec §2.11 [LIB]: only when a going-out sequence exists, so "yes" can be honoured.
    if _out_impossible(st, st.counts(), st.melds[side]):
        return R.ASK_NOT_ALLOWED
    q = _query(
        st,
        solver.OUT,
        st.counts(),
        st.melds[side],
        turn,
        st.opened[side],
        _concealed_possible(st, seat, turn),
    )
    return None if solver.feasible(variant, q) else R.ASK_NOT_ALLOWED


def _end_reason(st: GameState) -> R | None:
    if st.phase == PHASE_DRAW:
        if st.stock:
            return R.END_NOT_ALLOWED
        variant = st.variant
        seat = st.to_move
        assert seat is not None
        side = variant.side_of(seat)
        if (
            variant.stock_exhausted_mode == "continue_with_pile"
            and variant.forced_pickup
            and st.pile
            and not (st.frozen or variant.pile_always_frozen or not st.opened[side])
            and any(m.rank == st.pile[-1] >> 2 for m in st.melds[side])
            and _take_moves(st)
        ):
            return R.PICKUP_FORCED  # spec §2.12 (2), D20
        return None
    if st.phase == PLAY and st.turn.no_discard:
        side = st.variant.side_of(st.to_move or 0)
        if not st.opened[side] and st.turn.melded:
            return R.OPENING_INCOMPLETE
        if st.turn.must_go_out:
            return R.MUST_GO_OUT
        return None
    return R.END_NOT_ALLOWED


# --------------------------------------------------------------------------------------
# Resolving the cards a move names


def _resolve(hand: tuple[int, ...], cards: tuple[Card, ...]) -> list[int] | None:
    """The hand codes a move's cards stand for: exact cards first, then patterns."""
    pool = list(hand)
    chosen: list[int] = []
    patterns: list[int] = []
    for card in cards:
        if card.suit is None and card.rank != "*":
            patterns.append(_RANK_INDEX[card.rank])
            continue
        code = card.code
        if code not in pool:
            return None
        pool.remove(code)
        chosen.append(code)
    for rank in patterns:
        # Deterministic: the lowest code of that rank (the hand is sorted), black threes
        # before red ones.
        pick = None
        for code in pool:
            if code >> 2 == rank:
                if rank != THREE or code not in (9, 10):
                    pick = code
                    break
                if pick is None:
                    pick = code
        if pick is None:
            return None
        pool.remove(pick)
        chosen.append(pick)
    return chosen


def cards_used(st: GameState, move: Move) -> tuple[int, ...]:
    """The exact hand cards a legal move uses (its rank patterns resolved)."""
    if isinstance(move, Discard):
        cards: tuple[Card, ...] = (move.card,)
    elif isinstance(move, Take | MeldCards | LayOff):
        cards = move.cards
    else:
        return ()
    codes = _resolve(st.hands[st.to_move or 0], cards)
    return tuple(codes) if codes is not None else ()


def _split(codes: list[int]) -> tuple[int | None, int, int, int] | None:
    """(rank of the naturals or None, naturals, twos, jokers); None if ranks are mixed."""
    rank: int | None = None
    naturals = twos = jokers = 0
    for code in codes:
        r = code >> 2
        if code == JOKER:
            jokers += 1
        elif r == TWO:
            twos += 1
        else:
            if rank is not None and r != rank:
                return None
            rank = r
            naturals += 1
    return rank, naturals, twos, jokers


def check(st: GameState, move: Move) -> R | None:
    """None if ``move`` is legal in ``st``, else why not."""
    if st.phase == OVER:
        return R.GAME_OVER
    if st.phase == ANSWER:
        return None if isinstance(move, Answer) else R.WRONG_PHASE
    if isinstance(move, Answer):
        return R.WRONG_PHASE
    if isinstance(move, Draw):
        if st.phase != PHASE_DRAW:
            return R.WRONG_PHASE
        return None if st.stock else R.STOCK_EMPTY
    if isinstance(move, End):
        return _end_reason(st)
    if isinstance(move, Ask):
        return _ask_reason(st)
    seat = st.to_move
    assert seat is not None
    hand = st.hands[seat]
    if isinstance(move, Discard):
        codes = _resolve(hand, (move.card,))
        if codes is None:
            return R.NOT_IN_HAND if st.phase == PLAY else R.WRONG_PHASE
        return _discard_reason(st, codes[0])
    if isinstance(move, Take):
        if st.phase != PHASE_DRAW:
            return R.WRONG_PHASE
        codes = _resolve(hand, move.cards)
        if codes is None:
            return R.NOT_IN_HAND
        split = _split(codes)
        top_rank = st.pile[-1] >> 2 if st.pile else None
        if split is None or (split[0] is not None and split[0] != top_rank):
            return R.WRONG_RANK
        return _take_reason(st, split[1], split[2], split[3])
    if isinstance(move, MeldCards | LayOff):
        if st.phase != PLAY:
            return R.WRONG_PHASE
        codes = _resolve(hand, move.cards)
        if codes is None:
            return R.NOT_IN_HAND
        split = _split(codes)
        if split is None:
            return R.WRONG_RANK
        rank, k, twos, jokers = split
        if isinstance(move, LayOff):
            target = WILD_RANK if move.target == "*" else RANKS.index(move.target)
            if target == WILD_RANK:
                if k:
                    return R.WRONG_RANK
            elif rank is not None and rank != target:
                return R.WRONG_RANK
            if target == THREE:
                return R.NO_SUCH_MELD
            return _play_reason(st, True, target, k, twos, jokers)
        if rank is None:
            rank = WILD_RANK
        elif rank == THREE and any(c in (9, 10) for c in codes):
            return R.INVALID_MELD  # red threes are never melded (spec §2.6)
        return _play_reason(st, False, rank, k, twos, jokers)
    return R.WRONG_PHASE  # pragma: no cover - every Move subclass is handled above


# --------------------------------------------------------------------------------------
# The legal-move generator


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


@cache
def _wild_splits(twos: int, jokers: int, most: int) -> tuple[tuple[int, int], ...]:
    """Every (twos, jokers) pair of at most ``most`` wild cards from those held."""
    return tuple(
        (t, j) for t in range(min(twos, most) + 1) for j in range(min(jokers, most - t) + 1)
    )


def _take_moves(st: GameState) -> list[Move]:
    if not st.pile or st.variant.blocks_pile(st.pile[-1]):
        return []
    counts = st.counts()
    rank = st.pile[-1] >> 2
    moves: list[Move] = []
    melds = st.melds[st.variant.side_of(st.to_move or 0)]
    # A bare ``take`` lays the top card off: only onto a meld of its rank (T3c).
    if any(m.rank == rank for m in melds) and _take_reason(st, 0, 0, 0) is None:
        moves.append(TAKE_LAYOFF)
    most = st.variant.max_wilds_per_meld
    for k in range(1, counts[rank] + 1):
        for t, j in _wild_splits(counts[TWO], counts[JOKER_RANK], most):
            if _take_reason(st, k, t, j) is None:
                moves.append(_move("take", rank, k, t, j))
    return moves


def _opening_conceivable(st: GameState, counts: list[int]) -> bool:
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
            best += counts[rank] * _VALUES[rank]
            biggest = max(biggest, counts[rank])
    if best >= variant.initial_minimum(st.scores[variant.side_of(seat)]):
        return True
    return biggest + wilds >= 7 or wilds >= 7 or bool(st.turn.groups)


def _play_moves(st: GameState) -> list[Move]:
    ctx = _context(st)
    counts = ctx.counts
    variant = st.variant
    melds = ctx.melds
    twos, jokers = counts[TWO], counts[JOKER_RANK]
    most = variant.max_wilds_per_meld
    wild_splits = _wild_splits(twos, jokers, most)
    moves: list[Move] = []
    if not ctx.opened and not st.turn.must_go_out and not _opening_conceivable(st, counts):
        return moves
    for rank in _MELD_ORDER:
        for k in range(2, counts[rank] + 1):
            for t, j in wild_splits:
                # Spec §2.4: a new meld has at least three cards (no need to ask).
                if k + t + j >= 3 and _placement_reason(st, ctx, False, rank, k, t, j) is None:
                    moves.append(_move("meld", rank, k, t, j))
    if variant.has_wild_melds and twos + jokers:
        for t in range(twos + 1):
            for j in range(jokers + 1):
                if t + j and _placement_reason(st, ctx, False, WILD_RANK, 0, t, j) is None:
                    moves.append(_move("meld", WILD_RANK, 0, t, j))
    on_table = {m.rank for m in melds}
    for rank in _ADD_ORDER:
        if rank not in on_table:
            continue
        naturals = 0 if rank == WILD_RANK else counts[rank]
        splits = _wild_splits(twos, jokers, twos + jokers) if rank == WILD_RANK else wild_splits
        for k in range(naturals + 1):
            for t, j in splits:
                if k + t + j and _placement_reason(st, ctx, True, rank, k, t, j) is None:
                    moves.append(_move("add", rank, k, t, j))
    return moves


def legal_moves(st: GameState) -> tuple[Move, ...]:
    """Every legal move, suit-free, each play once, in the order of the module docstring."""
    phase = st.phase
    if phase == OVER:
        return ()
    if phase == ANSWER:
        return (YES, NO)
    moves: list[Move] = []
    if phase == PHASE_DRAW:
        if st.stock:
            moves.append(DRAW)
        moves.extend(_take_moves(st))
        if _end_reason(st) is None:
            moves.append(END)
        return tuple(moves)
    if _ask_reason(st) is None:
        moves.append(ASK)
    moves.extend(_play_moves(st))
    counts = st.counts()
    if _discard_block(st) is None:
        if not st.variant.restricts_discards:
            moves.extend(_DISCARDS[rank] for rank in _DISCARD_ORDER if counts[rank])
        else:
            hand = st.hands[st.to_move or 0]
            for rank in _DISCARD_ORDER:
                if counts[rank]:
                    code = next(c for c in hand if c >> 2 == rank)
                    if rank == THREE:
                        code = next((c for c in hand if c in (8, 11)), code)
                    if _discard_reason(st, code) is None:
                        moves.append(_DISCARDS[rank])
    if _end_reason(st) is None:
        moves.append(END)
    return tuple(moves)


# --------------------------------------------------------------------------------------
# Transitions


def _remove(hand: tuple[int, ...], codes: list[int]) -> tuple[int, ...]:
    rest = list(hand)
    for code in codes:
        rest.remove(code)
    return tuple(rest)


def _set(items: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    return items[:index] + (value,) + items[index + 1 :]


def begin_turn(st: GameState, seat: int, **changes: object) -> GameState:
    """Start ``seat``'s turn (applying ``changes`` too); with ``red_three_declare=first_turn``
    its threes go down first."""
    variant = st.variant
    st = evolve(st, to_move=seat, phase=PHASE_DRAW, turn=NEW_TURN, **changes)
    if variant.red_three_declare == "first_turn":
        st = declare_threes(st, seat)
    return st


def declare_threes(st: GameState, seat: int) -> GameState:
    """Lay every three of the variant's kind from ``seat``'s hand face up and replace it."""
    variant = st.variant
    laid = variant.laid_out_threes
    hand = st.hands[seat]
    if not any(c in laid for c in hand):
        return st
    side = variant.side_of(seat)
    stock = st.stock
    threes = st.threes[side]
    cards = [c for c in hand if c not in laid]
    pending = [c for c in hand if c in laid]
    while pending:
        threes += (pending.pop(),)
        if not stock:
            break
        drawn, stock = stock[0], stock[1:]
        (pending if drawn in laid else cards).append(drawn)
    return evolve(
        st,
        hands=_set(st.hands, seat, tuple(sorted(cards))),
        stock=stock,
        threes=_set(st.threes, side, tuple(threes)),
    )


def _over(st: GameState, went_out: int | None = None, concealed: bool = False) -> GameState:
    return evolve(st, phase=OVER, to_move=None, went_out=went_out, concealed=concealed)


def _draw(st: GameState, seat: int) -> GameState:
    variant = st.variant
    laid = variant.laid_out_threes
    side = variant.side_of(seat)
    stock = st.stock
    hand = list(st.hands[seat])
    threes = st.threes[side]
    wanted = variant.draw_count
    last_three = False
    # Spec §2.3 (a): each three drawn goes face up and is replaced; §2.12 (4): a single last
    # card is a complete draw.
    while wanted and stock:
        card, stock = stock[0], stock[1:]
        if card in laid:
            if not stock:
                last_three = True
                if variant.last_stock_three == "keep_and_end":
                    hand.append(card)  # spec §3.5.2: stays in hand, the deal ends
                    break
            threes += (card,)
            continue
        hand.append(card)
        wanted -= 1
    st = evolve(
        st,
        stock=stock,
        hands=_set(st.hands, seat, tuple(sorted(hand))),
        threes=_set(st.threes, side, threes),
        phase=PLAY,
    )
    if last_three:
        mode = variant.last_stock_three
        if mode in ("keep_and_end", "end_immediately"):
            return _over(st)
        if mode == "meld_no_discard":
            st = evolve(st, turn=evolve(st.turn, no_discard=True))
    return st


def _join_waiting(st: GameState, seat: int, hand: tuple[int, ...]) -> GameState:
    """Spec §2.7 procedure (2): the rest of the pile joins the hand; threes go face up."""
    variant = st.variant
    waiting = st.turn.waiting
    side = variant.side_of(seat)
    threes = st.threes[side] + tuple(c for c in waiting if c in variant.laid_out_threes)
    joined = hand + tuple(c for c in waiting if c not in variant.laid_out_threes)
    return evolve(
        st,
        hands=_set(st.hands, seat, tuple(sorted(joined))),
        threes=_set(st.threes, side, threes),
        turn=evolve(st.turn, waiting=()),
    )


def _after_meld(
    st: GameState, seat: int, hand: tuple[int, ...], melds: tuple[Meld, ...], turn: Turn
) -> GameState:
    """Common tail of take, meld and lay-off: opening, pile joining, going out."""
    variant = st.variant
    side = variant.side_of(seat)
    opened = st.opened
    st = evolve(
        st,
        hands=_set(st.hands, seat, hand),
        melds=_set(st.melds, side, melds),
        turn=turn,
        phase=PLAY,
    )
    if not opened[side]:
        minimum = variant.initial_minimum(st.scores[side])
        if variant.opening_done(turn.opening, minimum, _group_flags(turn.groups)):
            st = evolve(st, opened=_opened_with_partner(st, _set(opened, side, True), side))
            st = _join_waiting(st, seat, hand)
            hand = st.hands[seat]
    elif turn.waiting:
        st = _join_waiting(st, seat, hand)
        hand = st.hands[seat]
    if not hand:
        return _over(st, seat, _is_concealed(st, seat))
    return st


def _cutthroat_partner(st: GameState, seat: int) -> int | None:
    """Spec §3.3 cutthroat: the partner of ``seat`` once the lone hand is known."""
    lone = st.lone
    if lone is None or seat == lone:
        return None
    return next(s for s in range(st.variant.players) if s not in (seat, lone))


def _opened_with_partner(st: GameState, opened: tuple[bool, ...], side: int) -> tuple[bool, ...]:
    """Spec §3.3 cutthroat: once one partner has met the minimum, the other is free."""
    partner = _cutthroat_partner(st, side)
    if partner is not None and opened[side]:
        return _set(opened, partner, True)
    return opened


def _is_concealed(st: GameState, seat: int) -> bool:
    turn = st.turn
    return _concealed_possible(st, seat, turn) and _concealed_done(st.variant, turn.groups)


def _sorted_melds(melds: tuple[Meld, ...]) -> tuple[Meld, ...]:
    return tuple(sorted(melds, key=lambda m: (m.rank == WILD_RANK, m.rank, -m.size)))


def apply(st: GameState, move: Move) -> GameState:
    """The state after a legal ``move`` (the caller has checked it)."""
    seat = st.to_move
    assert seat is not None
    variant = st.variant
    if isinstance(move, Draw):
        return _draw(st, seat)
    if isinstance(move, Answer):
        asker = (seat - variant.sides) % variant.players
        turn = evolve(st.turn, permission=move.yes, must_go_out=move.yes)
        return evolve(st, to_move=asker, phase=PLAY, turn=turn)
    if isinstance(move, Ask):
        partner = (seat + variant.sides) % variant.players
        asked = list(st.asked)
        asked[seat] += 1
        return evolve(
            st,
            to_move=partner,
            phase=ANSWER,
            turn=evolve(st.turn, asked=True),
            asked=tuple(asked),
        )
    if isinstance(move, End):
        return _over(st)
    hand = st.hands[seat]
    side = variant.side_of(seat)
    if isinstance(move, Discard):
        codes = _resolve(hand, (move.card,))
        assert codes is not None
        code = codes[0]
        rest = _remove(hand, codes)
        hands = _set(st.hands, seat, rest)
        pile = (*st.pile, code)
        frozen = st.frozen or variant.freezes_pile(code)
        if not rest:
            st = evolve(st, hands=hands, pile=pile, frozen=frozen)
            return _over(st, seat, _is_concealed(st, seat))
        turn = st.turn
        melded_seats = st.melded_seats
        if turn.melded or turn.took_pile:
            melded_seats = _set(melded_seats, seat, True)
        if not st.stock and variant.stock_exhausted_mode == "end_after_turn":
            st = evolve(st, hands=hands, pile=pile, frozen=frozen, melded_seats=melded_seats)
            return _over(st)
        return begin_turn(
            st,
            (seat + 1) % variant.players,
            hands=hands,
            pile=pile,
            frozen=frozen,
            melded_seats=melded_seats,
        )
    melds = st.melds[side]
    if isinstance(move, Take):
        top = st.pile[-1]
        rank = top >> 2
        codes = _resolve(hand, move.cards)
        assert codes is not None
        rest = _remove(hand, codes)
        target = _growable(variant, melds, rank)
        new_cards = (top, *codes)
        if target is not None:
            melds = _set(melds, melds.index(target), target.plus(new_cards))
        else:
            melds = _sorted_melds((*melds, Meld.of(rank, tuple(sorted(new_cards)))))
        wilds = sum(1 for c in codes if c == JOKER or c >> 2 == TWO)
        turn = Turn(
            took_pile=True,
            waiting=st.pile[:-1],
            groups=(Group(rank, len(codes) - wilds + 1, wilds, False),) if codes else (),
            laid_off=not codes,
        )
        if not st.opened[side]:
            hand_value = sum(card_value(c) for c in codes)
            turn = evolve(turn, opening=variant.pickup_opening_value(card_value(top), hand_value))
        st = evolve(st, pile=(), frozen=False)
        if variant.cutthroat and st.lone is None:
            # Spec §3.3: the first player to take the pile becomes the lone hand.
            st = evolve(st, lone=seat)
            partners = [s for s in range(variant.players) if s != seat]
            if any(st.opened[s] for s in partners):
                st = evolve(st, opened=tuple(o or s in partners for s, o in enumerate(st.opened)))
        return _after_meld(st, seat, rest, melds, turn)
    assert isinstance(move, MeldCards | LayOff)
    codes = _resolve(hand, move.cards)
    assert codes is not None
    split = _split(codes)
    assert split is not None
    natural_rank, k, twos, jokers = split
    if isinstance(move, LayOff):
        rank = WILD_RANK if move.target == "*" else RANKS.index(move.target)
    else:
        rank = WILD_RANK if natural_rank is None else natural_rank
    rest = _remove(hand, codes)
    target = None
    if isinstance(move, LayOff):
        target = _lay_off_target(variant, melds, rank)
    elif rank != THREE:
        target = _growable(variant, melds, rank)
    if target is not None:
        melds = _set(melds, melds.index(target), target.plus(tuple(codes)))
    else:
        melds = _sorted_melds((*melds, Meld.of(rank, tuple(sorted(codes)))))
    turn = st.turn
    wilds = twos + jokers
    own = any(g.rank == rank for g in turn.groups)
    if isinstance(move, LayOff) and not own:
        turn = evolve(turn, laid_off=True, melded=True)
    else:
        groups = _with_group(turn.groups, rank, k, wilds, True, isinstance(move, MeldCards))
        turn = evolve(turn, melded=True, groups=groups)
    if rank == THREE or (target is not None and target.size + len(codes) > variant.max_meld_size):
        turn = evolve(turn, must_go_out=True)
    if not st.opened[side]:
        value = sum(card_value(c) for c in codes)
        turn = evolve(turn, opening=turn.opening + value)
    return _after_meld(st, seat, rest, melds, turn)
