"""Facts about a table that the rules read: which meld a card can join, whether a rank is
closed, what going out needs, the player's context and the cards a move names.

Nothing here changes a table; `plays`, `pile` and `legality` decide with these facts and
`transitions` builds the next table.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Container, Iterable, Sequence
from functools import cache, lru_cache
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from canasta._rules import lookahead
from canasta.cards import (
    BLACK_THREES,
    JOKER,
    JOKER_RANK,
    NATURAL_RANKS,
    RANK_VALUES,
    RANKS,
    RED_THREES,
    THREE,
    TWO,
    Card,
)
from canasta.table import CANASTA_SIZE, TURN_CARD_DEPTH, WILD_RANK, Group, Meld, Table, Turn

if TYPE_CHECKING:
    from canasta.variants.base import Variant

_T = TypeVar("_T")
_RANK_INDEX = {rank: index for index, rank in enumerate(RANKS)}


def growable(variant: Variant, melds: tuple[Meld, ...], rank: int) -> Meld | None:
    """The side's meld of ``rank`` that can still take cards (classic: the only one)."""
    cap = variant.max_meld_size
    for meld in melds:
        if meld.rank == rank and meld.size < cap:
            return meld
    return None


def lay_off_target(
    variant: Variant,
    melds: tuple[Meld, ...],
    rank: int,
    known: Sequence[Meld | None] | None = None,
) -> Meld | None:
    """The meld an ``add:`` of ``rank`` goes to: the growable one, or a full one.

    ``known``: the side's `growable` meld of each rank, where the caller has them (the
    player's `Context`): the generator asks for every rank of every play phase.
    """
    # D28.
    target = growable(variant, melds, rank) if known is None else known[rank]
    if target is None and variant.oversize_when_going_out:
        target = next((m for m in melds if m.rank == rank), None)
    return target


#: No rank closed.
_NONE_CLOSED: frozenset[int] = frozenset()


def closed_ranks(st: Table) -> frozenset[int]:
    """Ranks closed by a natural canasta of either side, where they exist."""
    # Spec §3.5.3.
    if not st.variant.closes_ranks:
        return frozenset()
    melds = st.melds
    last_melds, last_closed = _LAST_CLOSED[0]
    if melds is last_melds:
        return last_closed
    closed = closed_after(_NONE_CLOSED, [m for side in melds for m in side])
    _LAST_CLOSED[0] = (melds, closed)
    return closed


def closed_after(closed: frozenset[int], melds: Iterable[Meld]) -> frozenset[int]:
    """The ranks ``closed`` and those of the natural canastas among ``melds``: after a
    play, one it completed closes its rank for the rest of the turn too (where ranks close
    at all: the callers ask only there)."""
    # Spec §3.5.3, D28: a natural canasta completed in this turn takes no more cards, even
    # where a meld may grow past its size to go out.
    completed = [
        m.rank
        for m in melds
        if m.is_canasta
        and m.is_natural
        and m.rank not in closed
        and m.rank not in (WILD_RANK, THREE)
    ]
    return closed.union(completed) if completed else closed


def closed_with(st: Table, melds: tuple[Meld, ...]) -> frozenset[int]:
    """The ranks closed once the side to move has ``melds`` (its melds now, or after a
    play, which may have completed a natural canasta)."""
    ctx = context(st)
    if melds is ctx.melds or not st.variant.closes_ranks:
        return ctx.closed
    return closed_after(ctx.closed, melds)


#: The melds `closed_ranks` read last and its answer. The tables of a deal share their
#: melds until a meld changes, and every position's context asks (Modern American, where
#: ranks close): one entry answers most of them. The melds are immutable, so the same
#: object has the same answer.
_LAST_CLOSED: list[tuple[tuple[tuple[Meld, ...], ...], frozenset[int]]] = [((), frozenset())]


def new_ok(
    variant: Variant,
    melds: tuple[Meld, ...],
    rank: int,
    closed: frozenset[int],
    known: Sequence[Meld | None] | None = None,
) -> bool:
    """May the side start a meld of ``rank`` (classic: it merges into the existing one)?
    ``known`` as for `lay_off_target`."""
    if rank in closed:
        return False
    if variant.merges_same_rank:
        return True
    if (growable(variant, melds, rank) if known is None else known[rank]) is not None:
        return False  # at most one incomplete meld of a rank (spec §3.5.3)
    if second_meld_ok(variant):
        return True
    for m in melds:  # noqa: SIM110 - a loop: cheaper than all() over a generator, and this
        if m.rank == rank:  # is asked for every rank of every play phase
            return False
    return True


def second_meld_ok(variant: Variant) -> bool:
    """May a side start a meld of a rank beside one of that rank that can no longer grow?"""
    # Spec §3.5.3: beside a canasta, where the variant allows it; classic merges them.
    return variant.merges_same_rank or variant.new_meld_after_canasta


def canastas(melds: tuple[Meld, ...]) -> int:
    return sum(1 for m in melds if m.is_canasta)


def wild_incomplete(melds: tuple[Meld, ...]) -> bool:
    for m in melds:  # noqa: SIM110 - a loop: cheaper than any() over a generator (per state)
        if m.rank == WILD_RANK and m.size < CANASTA_SIZE:
            return True
    return False


def may_go_out(variant: Variant, melds: tuple[Meld, ...], turn: Turn) -> bool:
    """Enough canastas, partner did not say no, no open wild meld."""
    # Spec §2.9, §3.5.7.
    if turn.permission is False or canastas(melds) < variant.canastas_to_go_out:
        return False
    return not (variant.wild_meld_blocks_going_out and wild_incomplete(melds))


def talon_due(st: Table, side: int, turn: Turn) -> int:
    """The size of the talon ``side``'s opener takes after the discard of this turn, in
    which the side completes its initial meld; 0 when none is due."""
    # Spec §3.5.11.1 TL1, TL2, TL4, TL5 (D32).
    variant = st.variant
    if turn.took_pile and not variant.talon_after_pickup:
        return 0
    if len(st.stock) < TURN_CARD_DEPTH:
        return 0  # TL4: the turn card has been drawn
    club = st.club
    assert club is not None  # a variant with talons deals one
    openings = club.openings
    order = openings.index(side) if side in openings else len(openings)
    if variant.talons_set_aside:
        talons = club.talons
        talon = talons[order] if order < len(talons) else None
        return len(talon) if talon is not None else 0
    sizes = variant.talon_sizes
    return sizes[order] if order < len(sizes) else 0


def opening_talon(st: Table, seat: int) -> int:
    """The size of the talon ``seat`` takes after its discard, this being the turn in which
    it completed its side's initial meld (the turn counted an opening value); 0 when none
    is due."""
    # Spec §3.5.11.1 TL3.
    variant = st.variant
    turn = st.turn
    if not variant.talon_sizes or not turn.opening:
        return 0
    side = variant.side_of(seat)
    return talon_due(st, side, turn) if st.opened[side] else 0


def concealed_possible(st: Table, seat: int, turn: Turn) -> bool:
    """No earlier meld by this player, nothing laid off."""
    # Spec §2.10 (1) and D13.
    if st.melded_seats[seat] or turn.laid_off:
        return False
    return not (turn.took_pile and not st.variant.concealed_after_pickup)


def concealed_done(variant: Variant, groups: tuple[Group, ...]) -> bool:
    """Every own group valid alone and one of them a canasta."""
    # Spec §2.10 (3)(4).
    if not groups or not any(g.naturals + g.wilds >= CANASTA_SIZE for g in groups):
        return False
    for g in groups:
        if g.rank == WILD_RANK:
            if variant.wild_meld_reason(0, g.wilds) is not None:
                return False
        elif variant.natural_meld_reason(g.rank, 0, 0, g.naturals, g.wilds, True) is not None:
            return False
    return True


def opening_complete(st: Table, side: int, turn: Turn) -> bool:
    """Has ``side`` completed its initial meld with this turn's value and groups?"""
    # Spec §2.8, §3.5.4.
    variant = st.variant
    minimum = variant.initial_minimum(st.scores[side])
    return variant.opening_done(turn.opening, minimum, _turn_flags(turn))


def _turn_flags(turn: Turn) -> int:
    """The opening content flags of the turn's groups so far."""
    # Spec §3.5.4.
    flags = 0
    for g in turn.groups:
        flags |= lookahead.group_flags(g.rank, g.naturals, g.wilds, g.from_hand)
    return flags


def opening_in_hand(
    st: Table, side: int, counts: list[int], on_table: Container[int], turn: Turn, hand: int
) -> bool:
    """A quick sufficient test for the opening look-ahead: can ``side`` complete its
    initial meld by melding, as new natural melds, ranks it holds three times or more
    (``on_table``: the ranks of its melds, which take no new meld), keeping two cards?

    Each such meld is a placement the look-ahead tries, so a yes here is a yes there; a no
    decides nothing. It settles most positions with a large hand at once. Without such a
    rank it says no at once (the turn as it is was judged by the caller): most hands.
    """
    # Spec §2.8.
    variant = st.variant
    closed = context(st).closed
    value = flags = 0
    for rank in NATURAL_RANKS:
        k = counts[rank]
        if k < 3 or hand - k < 2 or rank in on_table or rank in closed:
            continue
        meld_flags = _new_natural_melds(variant)[rank][k]
        if meld_flags is None:
            continue
        value += k * RANK_VALUES[rank]
        flags |= meld_flags
        hand -= k
    if not value:
        return False  # no new meld: nothing to add to the turn
    minimum = variant.initial_minimum(st.scores[side])
    return variant.opening_done(turn.opening + value, minimum, _turn_flags(turn) | flags)


@lru_cache(maxsize=64)
def _new_natural_melds(variant: Variant) -> tuple[tuple[int | None, ...], ...]:
    """For ``variant``, entry ``[rank][k]`` (a natural rank, ``k`` up to all the decks'
    cards of the rank): the opening content flags of a new meld of ``k`` naturals of
    ``rank`` from hand, or None where it is not a valid meld. (`opening_in_hand` asks for
    every rank of a large hand, for every candidate play: a table read once per question.)"""
    return tuple(
        tuple(_new_natural_meld(variant, rank, k) for k in range(4 * variant.decks + 1))
        if rank in NATURAL_RANKS
        else ()
        for rank in range(JOKER_RANK)
    )


def _new_natural_meld(variant: Variant, rank: int, k: int) -> int | None:
    """An entry of `_new_natural_melds`."""
    if k > variant.max_meld_size or variant.natural_meld_reason(rank, 0, 0, k, 0, True) is not None:
        return None
    return lookahead.group_flags(rank, k, 0, True)


def with_group(
    groups: tuple[Group, ...], rank: int, naturals: int, wilds: int, from_hand: bool, create: bool
) -> tuple[Group, ...]:
    """The turn's groups after adding cards of ``rank`` (``create``: a meld/take group)."""
    for i, g in enumerate(groups):
        if g.rank == rank:
            updated = group(rank, g.naturals + naturals, g.wilds + wilds, g.from_hand and from_hand)
            return groups[:i] + (updated,) + groups[i + 1 :]
    if create:
        return (*groups, group(rank, naturals, wilds, from_hand))
    return groups


@cache
def group(rank: int, naturals: int, wilds: int, from_hand: bool) -> Group:
    """The turn's `Group` of these counts, one object for each (a Group is costly to build,
    and the generator builds the turn after every candidate play that needs the
    look-ahead); a few hundred exist."""
    return Group(rank, naturals, wilds, from_hand)


def waiting_cards(st: Table, waiting: tuple[int, ...]) -> int:
    """How many of the pile's ``waiting`` cards join the hand once the initial meld is
    complete (the threes a variant lays out do not)."""
    # Spec §2.8.
    if not waiting:
        return 0  # the common case: no pile taken this turn
    return sum(1 for c in waiting if c not in st.variant.laid_out_threes)


def joined(st: Table, counts: list[int], waiting: tuple[int, ...]) -> list[int]:
    """``counts`` (a hand by rank) with the pile's ``waiting`` cards that join the hand
    once the initial meld is complete (as `waiting_cards` counts them)."""
    every = counts.copy()
    laid = st.variant.laid_out_threes
    for code in waiting:
        if code not in laid:
            every[code >> 2] += 1
    return every


def out_impossible(st: Table, counts: list[int], melds: tuple[Meld, ...]) -> bool:
    """A cheap necessary condition for going out: at most one card that no meld can take,
    and enough canastas within reach.

    A single natural without a meld of its rank can only be the discard (every meld needs
    two naturals); so can cards of a closed rank, and one or two black threes.
    """
    variant = st.variant
    # Black threes go down three or four together, or two with a two where D6 allows it
    # (spec §2.6); otherwise each is a card no meld takes.
    black = counts[THREE]
    paired = black == 2 and counts[TWO] and variant.black_three_meld_reason(2, 1) is None
    orphans = 0 if black >= 3 or paired else black
    if orphans > 1:
        return True
    closed = closed_with(st, melds)
    ranks = {m.rank for m in melds}
    wilds = counts[TWO] + counts[JOKER_RANK]
    # Enough canastas within reach: each meld that can still become one needs its missing
    # cards from the hand's naturals of its rank and at most the wilds a meld may hold; the
    # wilds in hand are shared. The cheapest completions first give the most canastas.
    cap = variant.max_wilds_per_meld
    required = variant.canastas_to_go_out
    reachable = 0
    needs: list[int] = []
    pairs = 0  # two naturals and no meld: a new meld needs a wild (or both are lost)
    # One pass over the ranks (this is asked for every play phase of a partnership and for
    # every play that obliges going out): the orphans, the pairs and the new melds' needs.
    for rank in NATURAL_RANKS:
        count = counts[rank]
        if not count:
            continue
        if rank in closed or (count == 1 and rank not in ranks):
            orphans += count
            if orphans > 1:
                return True
        elif rank not in ranks:
            if count == 2:
                pairs += 1
            short = CANASTA_SIZE - count if count < CANASTA_SIZE else 0
            if short <= cap:
                needs.append(short)
    if pairs > wilds:
        return True
    for m in melds:
        if m.is_canasta:
            reachable += 1
        elif m.rank == WILD_RANK:
            needs.append(CANASTA_SIZE - m.size)
        elif m.rank != THREE:
            short = max(CANASTA_SIZE - m.size - counts[m.rank], 0)
            if short <= cap - m.wilds:
                needs.append(short)
    if variant.has_wild_melds and WILD_RANK not in ranks:
        needs.append(CANASTA_SIZE)  # a new meld of wild cards only
    if reachable >= required:
        return False
    for short in sorted(needs):
        if short > wilds:
            break
        wilds -= short
        reachable += 1
    return reachable < required


#: Builds a `lookahead.Query` from its fields in order (as `_new_context` a `Context`).
_new_query = tuple.__new__


def query(
    st: Table,
    goal: int,
    counts: list[int],
    melds: tuple[Meld, ...],
    turn: Turn,
    opened: bool,
    concealed: bool,
) -> lookahead.Query:
    """The look-ahead's question for the player to move, with ``counts`` in hand and the
    side's ``melds``, in ``turn``: can it reach ``goal`` this turn?"""
    variant = st.variant
    closed = closed_with(st, melds)
    # One pass over the melds (a query is built for every candidate move that needs the
    # look-ahead): by rank, the meld that can still grow (`growable`) and the first one.
    cap = variant.max_meld_size
    grows: list[Meld | None] = [None] * 14
    first: list[Meld | None] = [None] * 14
    done = 0
    for m in melds:
        rank = m.rank
        if first[rank] is None:
            first[rank] = m
        if grows[rank] is None and m.size < cap:
            grows[rank] = m
        if m.is_canasta:
            done += 1
    # D28: going out, a full meld may take more (`lay_off_target`).
    oversize = goal == lookahead.OUT and variant.oversize_when_going_out
    growing: list[tuple[int, int] | None] = [None] * 13
    # A natural rank that is not closed and has no meld may start one (`new_ok`): only the
    # ranks of the melds (a few) need a closer look, not all 11 natural ranks.
    new_allowed = list(_startable(closed))
    second = second_meld_ok(variant)  # `new_ok` for a rank without a meld that can grow
    for m in melds:
        rank = m.rank
        if not new_allowed[rank]:
            continue  # not a natural rank, closed, or already seen with a meld that grows
        grow = grows[rank]
        if grow is None and oversize:
            grow = first[rank]
        if grow is not None:
            growing[rank] = (grow.naturals, grow.wilds)
            new_allowed[rank] = False
        else:
            new_allowed[rank] = second
    wild = grows[WILD_RANK]
    groups: list[tuple[int, int, bool] | None] = [None] * 14
    for g in turn.groups:
        groups[g.rank] = (g.naturals, g.wilds, g.from_hand)
    seat = st.to_move
    assert seat is not None
    opening = None
    keeps = 2
    if not opened:
        side = variant.side_of(seat)
        opening = (turn.opening, variant.initial_minimum(st.scores[side]))
        if (
            st.club is not None
            and not counts[THREE]
            and variant.talon_lowers_floor
            and talon_due(st, side, turn)
        ):
            keeps = 1  # TL7: the talon will fill the hand; a card to discard will do
        # Spec §2.8: the pile's other cards join the hand once the opening is complete, so
        # the hand keeps that many fewer of its own (as the play that completes it does).
        if turn.waiting:
            keeps = max(keeps - waiting_cards(st, turn.waiting), 0)
    # The fields in order, without the named tuple's constructor frame and its keywords (a
    # query is built for every candidate move that needs the look-ahead).
    return _new_query(
        lookahead.Query,
        (
            goal,
            tuple(counts),
            tuple(growing),
            tuple(new_allowed),
            None if wild is None else wild.size,
            wild is None and variant.has_wild_melds,
            done,
            opening,
            tuple(groups),
            concealed,
            turn.permission is False,
            turn.no_discard,
            keeps,
        ),
    )


@lru_cache(maxsize=256)
def _startable(closed: frozenset[int]) -> tuple[bool, ...]:
    """By rank index 0..12: a natural rank that is not closed (a new meld of it may start
    where the side has none of the rank); few sets of closed ranks occur."""
    return tuple(rank in NATURAL_RANKS and rank not in closed for rank in range(13))


def hand_counts(hand: tuple[int, ...]) -> list[int]:
    """A hand counted by rank index (14 entries: the joker last)."""
    counts = [0] * 14
    for code in hand:
        counts[code >> 2] += 1
    return counts


class Context(NamedTuple):
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


#: Builds a `Context` from its fields in order, without the Python frame of the named
#: tuple's own constructor (a new state asks for one).
_new_context = tuple.__new__


def context(st: Table) -> Context:
    ctx: Context | None = st._ctx
    if ctx is None:
        seat = st.to_move
        assert seat is not None
        variant = st.variant
        side = variant.answers.side[seat]
        melds = st.melds[st.meld_side(seat)]
        cap = variant.max_meld_size
        growable: list[Meld | None] = [None] * 14
        for meld in melds:
            if meld.size < cap and growable[meld.rank] is None:
                growable[meld.rank] = meld
        ctx = _new_context(
            Context,
            (
                seat,
                side,
                hand_counts(st.hands[seat]),
                melds,
                growable,
                closed_ranks(st),
                st.opened[side],
                len(st.hands[seat]),
                wild_incomplete(melds),
            ),
        )
        st.__dict__["_ctx"] = ctx  # a cache on the frozen state
    return ctx


# --------------------------------------------------------------------------------------
# Resolving the cards a move names


def resolve(hand: tuple[int, ...], cards: tuple[Card, ...]) -> list[int] | None:
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
        at = pattern_at(pool, rank)  # the hand is sorted, so the pool is
        if at is None:
            return None
        chosen.append(pool.pop(at))
    return chosen


def resolve_card(hand: tuple[int, ...], card: Card) -> int | None:
    """The hand code one card of a move stands for, as `resolve` finds it (a discard or an
    exposed three names one card: this skips the pool `resolve` keeps for several)."""
    if card.suit is None and card.rank != "*":
        at = pattern_at(hand, _RANK_INDEX[card.rank])
        return None if at is None else hand[at]
    code = card.code
    return code if code in hand else None


def pattern_at(codes: Sequence[int], rank: int) -> int | None:
    """Where the card that a pattern of ``rank`` (a card named by rank alone) stands for
    lies in the sorted ``codes``, or None when there is none: deterministically the lowest
    card of the rank, black threes before red ones."""
    at = bisect_left(codes, rank << 2)
    if at == len(codes) or codes[at] >> 2 != rank:
        return None
    if rank == THREE and codes[at] in RED_THREES:
        black = next((i for i in range(at, len(codes)) if codes[i] in BLACK_THREES), None)
        if black is not None:
            at = black
    return at


def split(codes: list[int]) -> tuple[int | None, int, int, int] | None:
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


def remove(hand: tuple[int, ...], codes: tuple[int, ...]) -> tuple[int, ...]:
    """``hand`` without ``codes`` (each code once)."""
    if len(codes) == 1:
        # One card leaves (every discard, many lay-offs): two slices, no list.
        at = hand.index(codes[0])
        return hand[:at] + hand[at + 1 :]
    rest = list(hand)
    for code in codes:
        rest.remove(code)
    return tuple(rest)


def replaced(items: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    return items[:index] + (value,) + items[index + 1 :]
