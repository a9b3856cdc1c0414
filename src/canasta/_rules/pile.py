"""Taking the pile: which pickups are valid, and what each does.

`take_verdict` decides a pickup with "k naturals, t twos, j jokers" from hand by counts,
and `take_effect` turns it into its effect (`Play`) or why the pile may not be taken.
`take_options` lists every legal pickup for the generator, asking
`canasta._rules.plays` about the position after those that need it;
`canasta._rules.legality.decide` asks `take_effect` for a pickup as written.
"""

from __future__ import annotations

from bisect import bisect_left
from functools import cache, lru_cache

from canasta._rules.facts import closed_ranks, growable, new_ok
from canasta._rules.plays import Play, after_pickup, take_after_reason
from canasta.cards import JOKER, TWO
from canasta.errors import IllegalReason as R
from canasta.table import Meld, Table
from canasta.variants.base import Variant


def take_effect(st: Table, k: int, twos: int, jokers: int, listed: bool = False) -> R | Play:
    """The effect of taking the pile with k naturals, twos and jokers from hand (known
    to be there), or why it may not be taken (``listed``: one of the generator's pickups,
    which `take_options` found allowed, so the rules that only refuse are not asked again).

    Read off the table, not the player's `Context`: a pickup changes the melds, so the
    table after it builds a context of its own."""
    seat = st.to_move
    assert seat is not None
    hand_len = len(st.hands[seat])
    rank = st.pile[-1] >> 2
    variant = st.variant
    melds = st.melds[st.meld_side(seat)]
    target = growable(variant, melds, rank)
    if not listed:
        opened = st.opened[variant.answers.side[seat]]
        facts = _pile_facts(st, hand_len, melds, opened, closed_ranks(st), target)
        reason = take_verdict(variant, k, twos + jokers, *facts)
        if reason is not None:
            return reason
    return Play("take", rank, k, twos, jokers, target, False, hand_len - k - twos - jokers)


#: What the pickup rules read besides the cards from hand (`_pile_facts`).
PileFacts = tuple[int, bool, bool, tuple[int, int, int] | None, bool, bool, bool]


def _pile_facts(
    st: Table,
    hand_len: int,
    melds: tuple[Meld, ...],
    opened: bool,
    closed: frozenset[int],
    target: Meld | None,
) -> PileFacts:
    """The arguments of `take_verdict` after the counts: the top card's rank, the pile
    frozen, the side opened, its ``target`` meld of the rank that can grow as (naturals,
    wilds, size) or None, may it start a new meld of the rank, is the rank closed, is the
    pile a single card refused to a single card in hand."""
    rank = st.pile[-1] >> 2
    # T5, D16.
    one_card = len(st.pile) == 1 and hand_len == 1 and not st.variant.one_card_pile_allowed
    if target is None:
        # `new_ok` is read only where no meld grows: elsewhere one value shares the keys.
        return (
            rank,
            st.frozen,
            opened,
            None,
            new_ok(st.variant, melds, rank, closed),
            rank in closed,
            one_card,
        )
    return (
        rank,
        st.frozen,
        opened,
        (target.naturals, target.wilds, target.size),
        False,
        rank in closed,
        one_card,
    )


def take_verdict(
    variant: Variant,
    k: int,
    wilds: int,
    rank: int,
    frozen: bool,
    opened: bool,
    target: tuple[int, int, int] | None,
    may_start: bool,
    closed: bool,
    one_card: bool,
) -> R | None:
    """Why taking the pile with ``k`` naturals and ``wilds`` wild cards from hand is
    invalid (the look-ahead aside), the pile described by `_pile_facts`; None if it is
    valid. A pure function of its arguments, so the generator can cache it."""
    # Spec §2.7 (T1–T6) and §3.5.5.
    if one_card:
        return R.ONE_CARD_PILE  # T5, D16
    if closed:
        return R.CLOSED_RANK
    frozen_for = variant.pile_always_frozen or frozen or not opened
    if k + wilds == 0:
        # T3c: lay the top card off.
        if frozen_for or not variant.pickup_layoff_allowed:
            return R.PILE_FROZEN if frozen else R.NATURAL_PAIR_NEEDED
        if target is None:
            return R.NO_SUCH_MELD
        return variant.natural_meld_reason(rank, target[0], target[1], 1, 0, False)
    reason = variant.pickup_reason(k, wilds, frozen, opened)
    if reason is not None:
        return reason
    reason = variant.natural_meld_reason(rank, 0, 0, k + 1, wilds, not opened)
    if reason is not None:
        return reason
    if target is not None:
        if target[2] > variant.pickup_join_limit:
            return R.MELD_TOO_LARGE  # spec §3.5.5: joins only a meld of 3 or 4
        return variant.natural_meld_reason(rank, target[0], target[1], k + 1, wilds, not opened)
    if not may_start:
        return R.INVALID_MELD
    return None


def pile_reason(st: Table) -> R | None:
    """Why the pile may not be taken at all in the draw phase (its callers, the pickups
    of the generator and of `decide`, ask in that phase only)."""
    if not st.pile:
        return R.PILE_EMPTY
    if st.variant.answers.blocks[st.pile[-1]]:
        return R.PILE_BLOCKED
    return None


def take_options(st: Table) -> list[tuple[int, int, int]]:
    """Every legal pickup as (naturals, twos, jokers) from hand, in the generator's order:
    the bare take first, then by naturals, twos and jokers."""
    if pile_reason(st) is not None:
        return []
    seat = st.to_move
    assert seat is not None
    hand = st.hands[seat]
    rank = st.pile[-1] >> 2
    # The hand is sorted: the cards of a rank lie together. The counts are read off it
    # for the three ranks a pickup uses, not for the whole hand (`Context.counts`).
    start = bisect_left(hand, rank << 2)
    naturals = bisect_left(hand, (rank + 1) << 2, start) - start
    variant = st.variant
    melds = st.melds[st.meld_side(seat)]
    target = growable(variant, melds, rank)
    if not naturals and target is None:
        return []  # the top card joins no meld and has no natural to pair with: no pickup
    twos = jokers = 0  # without a natural only the bare take is possible: no wilds needed
    if naturals:
        most = variant.max_wilds_per_meld
        twos = min(bisect_left(hand, (TWO + 1) << 2) - bisect_left(hand, TWO << 2), most)
        jokers = min(len(hand) - bisect_left(hand, JOKER), most)
    opened = st.opened[variant.answers.side[seat]]
    hand_len = len(hand)
    facts = _pile_facts(st, hand_len, melds, opened, closed_ranks(st), target)
    candidates = _take_candidates(variant, naturals, twos, jokers, facts)
    if not candidates or after_pickup(st, opened, hand_len - naturals - twos - jokers) is None:
        # None, or every pickup leaves enough cards that the position after it need not be
        # looked at (the fewest cards any of them leaves decides: most draw phases).
        return list(candidates)
    # Only the pickups the rules allow by counts are asked about the position after them.
    options = []
    for k, t, j in candidates:
        play = Play("take", rank, k, t, j, target, False, hand_len - k - t - j)
        if take_after_reason(st, opened, play) is None:
            options.append((k, t, j))
    return options


@lru_cache(maxsize=1 << 12)
def _take_candidates(
    variant: Variant, naturals: int, twos: int, jokers: int, facts: PileFacts
) -> tuple[tuple[int, int, int], ...]:
    """The pickups as (naturals, twos, jokers) that `take_verdict` allows from a hand
    holding ``naturals`` of the top card's rank, ``twos`` and ``jokers``, the pile as
    `_pile_facts` describes it, in the generator's order: the bare take first.

    The look-ahead aside, they depend only on these counts, so random play and search ask
    the same few questions again and again: they are cached.
    """
    found = [(0, 0, 0)] if take_verdict(variant, 0, 0, *facts) is None else []
    # The verdict depends on the number of wild cards, not on which: one per number.
    splits = wild_splits(twos, jokers, variant.max_wilds_per_meld)
    valid: dict[int, bool] = {}
    for k in range(1, naturals + 1):
        valid.clear()
        for t, j in splits:
            ok = valid.get(t + j)
            if ok is None:
                ok = valid[t + j] = take_verdict(variant, k, t + j, *facts) is None
            if ok:
                found.append((k, t, j))
    return tuple(found)


@cache
def wild_splits(twos: int, jokers: int, most: int) -> tuple[tuple[int, int], ...]:
    """Every (twos, jokers) pair of at most ``most`` wild cards from those held."""
    return tuple(
        (t, j) for t in range(min(twos, most) + 1) for j in range(min(jokers, most - t) + 1)
    )
