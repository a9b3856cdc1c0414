"""Look-ahead for the rules that depend on what the player can still do this turn.

A meld is illegal when it leaves the initial-meld minimum unreachable; asking partner is
allowed only when going out is possible; a player who must go out (partner said yes, black
threes melded) may not make a move that rules it out; a concealed going out may skip the
minimum. All of these ask one question: *from this hand and this table, can the player
still reach a goal this turn?*

The search works on counts only (suits never matter for legality). It walks the natural
ranks, choosing for each how many naturals and which wild cards go to that rank's meld, then
places what is left in a wild-card meld where the variant has them. Results are memoised.
The order of the moves inside the turn is not searched: the best order completes the
needed canastas first, smallest first, and the search checks that this order keeps the
two cards going out asks for.
"""
# Spec §2.8 [LIB], §2.11, §2.10 with D12, §2.9.

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import TYPE_CHECKING, NamedTuple

from canasta.cards import JOKER_RANK, NATURAL_RANKS, RANK_VALUES, THREE, TWO
from canasta.table import CANASTA_SIZE
from canasta.variants.base import (
    CLEAN3,
    HAND_CANASTA,
    MIXED_CANASTA,
    NAT3,
    OWN_CANASTA,
    WILD_MELD,
)

if TYPE_CHECKING:
    from canasta.variants.base import Variant

#: Goals of the search.
OPEN, OUT = 0, 1

#: A value above every minimum, to ask whether the content rule alone can be met.
_UNBOUNDED = 1 << 30


class Query(NamedTuple):
    """Everything the search needs; hashable so results can be memoised."""

    goal: int
    counts: tuple[int, ...]  # the hand by rank index (14 entries)
    #: per rank index 0..12: (naturals, wilds) of the side's meld that can still grow
    melds: tuple[tuple[int, int] | None, ...]
    #: per rank index 0..12: may a new meld of that rank be started
    new_ok: tuple[bool, ...]
    #: size of the side's wild meld that can still grow, or None
    wild_meld: int | None
    new_wild_ok: bool
    canastas: int
    #: (value so far, minimum) while the initial meld is incomplete, else None
    opening: tuple[int, int] | None
    #: per rank index 0..13: (naturals, wilds, from_hand) of the player's own group this turn
    groups: tuple[tuple[int, int, bool] | None, ...]
    #: a concealed going out is still possible (spec §2.10)
    concealed: bool
    #: going out is forbidden this turn (partner said no)
    no_out: bool
    #: no discard this turn (a three drawn as the last stock card, D11): going out must
    #: meld every card
    no_discard: bool = False
    #: the cards the hand must keep when the player does not go out: 2, a card to hold and
    #: one to throw (spec §2.9); 1 while a talon will fill the hand (§3.5.11.1 TL7)
    keeps: int = 2


def feasible(variant: Variant, query: Query) -> bool:
    """Can the player reach ``query.goal`` this turn?"""
    return _feasible(variant, query)


@lru_cache(maxsize=1 << 16)
def _feasible(variant: Variant, q: Query) -> bool:
    if q.goal == OPEN:
        if _search(variant, q, concealed_only=False):
            return True
        out = q._replace(goal=OUT)
        # Going out this turn also completes the opening if it meets the minimum. Beyond
        # the search above, that adds paths only with black threes, which are melded and
        # counted only then (spec §2.6, §2.8), or with a meld past the size cap (D28).
        if q.counts[THREE] or _may_pass_cap(variant, q):
            return _feasible(variant, out)
        # D12: a concealed going out may skip the minimum.
        return bool(q.concealed and variant.concealed_exempt and not q.no_out) and _search(
            variant, out, concealed_only=True
        )
    if q.no_out:
        return False
    if _search(variant, q, concealed_only=False):
        return True
    return bool(q.concealed and q.opening is not None and variant.concealed_exempt) and (
        _search(variant, q, concealed_only=True)
    )


def _may_pass_cap(variant: Variant, q: Query) -> bool:
    """Could a meld grow past ``max_meld_size`` with the hand's cards?"""
    # D28.
    wilds = q.counts[TWO] + q.counts[JOKER_RANK]
    cap = variant.max_meld_size
    return any(
        q.counts[rank] + wilds + sum(q.melds[rank] or (0, 0)) > cap for rank in NATURAL_RANKS
    )


def _search(variant: Variant, q: Query, concealed_only: bool) -> bool:
    counts = q.counts
    out = q.goal == OUT
    ranks = [r for r in NATURAL_RANKS if counts[r] or q.melds[r] is not None]
    max_wilds = variant.max_wilds_per_meld
    needs_discard = variant.go_out_needs_discard
    # With concealed_only the minimum is waived (D12) but every own group must be valid alone.
    opening = None if concealed_only else q.opening
    opening_now = q.opening is not None
    cap = opening[1] if opening is not None else 0
    wilds = counts[TWO] + counts[JOKER_RANK]
    # The value bound prunes unless a canasta, which may waive the minimum, is in reach.
    prune = (
        opening is not None
        and not out
        and not (
            variant.canasta_waives_minimum
            and (
                _base_flags(q, ()) & HAND_CANASTA
                or wilds >= CANASTA_SIZE
                or any(
                    counts[r] + wilds + sum(q.melds[r] or (0, 0)) >= CANASTA_SIZE
                    for r in NATURAL_RANKS
                )
            )
        )
    )
    required = variant.canastas_to_go_out
    blocks_out = variant.wild_meld_blocks_going_out
    memo: dict[tuple[int, ...], bool] = {}
    # _place depends only on (rank, naturals, wilds) within one search.
    placed: dict[tuple[int, int, int], tuple[int, int] | None] = {}

    # Upper bound of the value still obtainable, for pruning the opening search.
    suffix = [0] * (len(ranks) + 1)
    for i in range(len(ranks) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + counts[ranks[i]] * RANK_VALUES[ranks[i]]

    # Spec §2.9 orders the moves: until the side holds the canastas it needs, every meld
    # must leave 2 cards. Completing canastas first is best, smallest first; so the hand,
    # less the `track` smallest canasta-completing moves, must still hold 2 cards.
    track = max(0, required - q.canastas - 1)
    hand_size = sum(counts)

    def keep(small: tuple[int, ...], size: int) -> tuple[int, ...]:
        return tuple(sorted((*small, size)))[:track] if track else small

    def finish(
        twos: int,
        jokers: int,
        left: int,
        value: int,
        canastas: int,
        flags: int,
        small: tuple[int, ...],
    ) -> bool:
        black = counts[THREE]
        if out and black and variant.black_three_meld_reason(black, 0) is None:
            # Spec §2.6: black threes are melded in the going-out turn.
            value += 5 * black
        elif out and black == 2 and variant.black_three_meld_reason(2, 1) is None and twos:
            value += 30  # D6: two black threes and a two
            twos -= 1
        else:
            left += black
        options = [(twos, jokers, value, canastas, flags, _wild_incomplete(q), small)]
        if twos + jokers and (q.wild_meld is not None or q.new_wild_ok):
            before = q.wild_meld or 0
            for put_twos in range(twos + 1):
                for put_jokers in range(jokers + 1):
                    put = put_twos + put_jokers
                    if put == 0 or variant.wild_meld_reason(before, put) is not None:
                        continue
                    size = before + put
                    completes = size >= CANASTA_SIZE > before
                    own = WILD_MELD | (
                        HAND_CANASTA | OWN_CANASTA if size >= CANASTA_SIZE and not before else 0
                    )
                    options.append(
                        (
                            twos - put_twos,
                            jokers - put_jokers,
                            value
                            + put_twos * RANK_VALUES[TWO]
                            + put_jokers * RANK_VALUES[JOKER_RANK],
                            canastas + completes,
                            flags | own,
                            size < CANASTA_SIZE,
                            keep(small, put) if completes else small,
                        )
                    )
        for t, j, v, c, f, wild_incomplete, sm in options:
            cards_left = left + t + j
            may_out = (
                c >= required
                and not q.no_out
                and not (blocks_out and wild_incomplete)
                and hand_size - sum(sm) >= 2
            )
            done = opening is None or variant.opening_done(opening[0] + v, opening[1], f)
            if out:
                if q.no_discard:
                    if cards_left or needs_discard:
                        continue
                elif cards_left > 1 or (needs_discard and cards_left != 1):
                    continue
                if not (may_out and done):
                    continue
                if concealed_only and not f & OWN_CANASTA:
                    continue
                return True
            # The hand keeps 2 cards unless the player may go out (spec §2.9).
            if done and (
                cards_left >= q.keeps or (may_out and (cards_left == 1 or not needs_discard))
            ):
                return True
        return False

    def walk(
        i: int,
        twos: int,
        jokers: int,
        left: int,
        value: int,
        canastas: int,
        flags: int,
        small: tuple[int, ...],
    ) -> bool:
        if out and left > 1:
            return False
        if (
            prune
            and have
            + value
            + suffix[i]
            + twos * RANK_VALUES[TWO]
            + jokers * RANK_VALUES[JOKER_RANK]
            < need
        ):
            return False
        if i == last:
            return finish(twos, jokers, left, value, canastas, flags, small)
        key = (
            i,
            twos,
            jokers,
            left if left < 2 else 2,
            value if value < cap else cap,
            canastas,
            flags,
            *small,
        )
        hit = memo.get(key)
        if hit is not None:
            return hit
        rank = ranks[i]
        count = counts[rank]
        result = False
        for k in _naturals_choices(count, out):
            new_left = left + count - k
            for t in range(min(twos, max_wilds), -1, -1):
                for j in range(min(jokers, max_wilds - t), -1, -1):
                    w = t + j
                    if k == 0 and w == 0:
                        # Untouched rank: its own group (if any) keeps its flags.
                        step: tuple[int, int] | None = (0, group_flags_of(q, rank))
                    else:
                        spot = (rank, k, w)
                        if spot in placed:
                            step = placed[spot]
                        else:
                            step = _place(
                                variant,
                                q,
                                rank,
                                q.melds[rank],
                                k,
                                w,
                                opening_now,
                                concealed_only,
                                out,
                            )
                            placed[spot] = step
                    if step is None:
                        continue
                    if walk(
                        i + 1,
                        twos - t,
                        jokers - j,
                        new_left,
                        value
                        + k * RANK_VALUES[rank]
                        + t * RANK_VALUES[TWO]
                        + j * RANK_VALUES[JOKER_RANK],
                        canastas + step[0],
                        flags | step[1],
                        keep(small, k + w) if step[0] else small,
                    ):
                        result = True
                        break
                if result:
                    break
            if result:
                break
        memo[key] = result
        return result

    have, need = opening if opening is not None else (0, 0)
    last = len(ranks)
    base = _base_flags(q, ranks)
    if (
        opening is not None
        and not variant.opening_done(_UNBOUNDED, need, 0)
        and not _content_reachable(variant, q, ranks, base, need, placed, concealed_only, out)
    ):
        return False  # spec §3.5.4: the content rule cannot be met, whatever the value
    return walk(0, counts[TWO], counts[JOKER_RANK], 0, 0, q.canastas, base, ())


def _content_reachable(
    variant: Variant,
    q: Query,
    ranks: Sequence[int],
    base: int,
    need: int,
    placed: dict[tuple[int, int, int], tuple[int, int] | None],
    concealed_only: bool,
    out: bool,
) -> bool:
    """Could some sequence meet the opening's content rule, value aside?

    An opening search that cannot meet it is the longest kind, so `_search` asks this
    first. It collects every set of content flags that one placement per rank, then a
    wild-card meld, could give: a superset of what the search can reach, so a no is
    certain. Placements go into the search's ``placed`` memo.
    """
    # Spec §3.5.4.
    counts = q.counts
    wilds = counts[TWO] + counts[JOKER_RANK]
    wild_counts = range(min(wilds, variant.max_wilds_per_meld) + 1)
    reachable = {base}
    for rank in ranks:
        steps = set()
        for k in _naturals_choices(counts[rank], out):
            for w in wild_counts:
                if k == 0 and w == 0:
                    steps.add(group_flags_of(q, rank))
                    continue
                spot = (rank, k, w)
                if spot in placed:
                    step = placed[spot]
                else:
                    step = _place(variant, q, rank, q.melds[rank], k, w, True, concealed_only, out)
                    placed[spot] = step
                if step is not None:
                    steps.add(step[1])
        reachable = {f | g for f in reachable for g in steps}
    before = q.wild_meld or 0
    if (q.wild_meld is not None or q.new_wild_ok) and any(
        variant.wild_meld_reason(before, put) is None for put in range(1, wilds + 1)
    ):
        for own in (WILD_MELD, WILD_MELD | HAND_CANASTA | OWN_CANASTA):
            reachable |= {f | own for f in reachable}
    return any(variant.opening_done(_UNBOUNDED, need, f) for f in reachable)


@cache
def _naturals_choices(count: int, out: bool) -> tuple[int, ...]:
    """How many of a rank's ``count`` naturals the search tries to meld, best first.

    Going out: all of them, or all but one (the discard). Otherwise: all, all but one, all
    but two, or none.
    """
    if out:
        return (count, count - 1) if count else (0,)
    return tuple(sorted({count, max(count - 1, 0), max(count - 2, 0), 0}, reverse=True))


def _wild_incomplete(q: Query) -> bool:
    return q.wild_meld is not None and q.wild_meld < CANASTA_SIZE


def _base_flags(q: Query, ranks: Sequence[int]) -> int:
    """Content flags of the turn's groups on ranks the search will not revisit."""
    flags = 0
    for rank, group in enumerate(q.groups):
        if group is not None and rank not in ranks:
            flags |= group_flags(rank, group[0], group[1], group[2])
    return flags


def group_flags_of(q: Query, rank: int) -> int:
    group = q.groups[rank]
    return 0 if group is None else group_flags(rank, group[0], group[1], group[2])


def group_flags(rank: int, naturals: int, wilds: int, from_hand: bool) -> int:
    """Opening content flags of one group."""
    # Spec §3.5.4, D22.
    if rank == TWO:
        return WILD_MELD | (
            HAND_CANASTA | OWN_CANASTA if wilds >= CANASTA_SIZE and from_hand else 0
        )
    flags = 0
    if naturals >= 3:
        flags |= NAT3
        if wilds == 0:
            flags |= CLEAN3
    if naturals + wilds >= CANASTA_SIZE:
        flags |= OWN_CANASTA
        if from_hand:
            flags |= HAND_CANASTA
        if wilds:
            flags |= MIXED_CANASTA
    return flags


def _place(
    variant: Variant,
    q: Query,
    rank: int,
    meld: tuple[int, int] | None,
    k: int,
    w: int,
    opening: bool,
    concealed_only: bool,
    out: bool,
) -> tuple[int, int] | None:
    """Put k naturals and w wilds on ``rank``; None if not allowed, else (new canastas, flags)."""
    if meld is None and not q.new_ok[rank]:
        return None
    n0, w0 = meld if meld is not None else (0, 0)
    if variant.natural_meld_reason(rank, n0, w0, k, w, opening) is not None:
        return None
    if not out and n0 + w0 + k + w > variant.max_meld_size:
        return None  # D28: beyond the cap only when going out
    if (
        w
        and not opening  # spec §3.5.3 [LIB]: the block starts once the opening is complete
        and q.wild_meld is not None
        and q.wild_meld < CANASTA_SIZE
        and variant.wild_meld_blocks_wilds
    ):
        return None
    group = q.groups[rank]
    gn, gw, from_hand = group if group is not None else (0, 0, True)
    gn, gw = gn + k, gw + w
    # Spec §2.10 (3): the player's own cards of each rank form a valid meld alone.
    if concealed_only and variant.natural_meld_reason(rank, 0, 0, gn, gw, opening) is not None:
        return None
    size0 = n0 + w0
    size = size0 + k + w
    new_canasta = 1 if size >= CANASTA_SIZE > size0 else 0
    flags = group_flags(rank, gn, gw, from_hand) if (meld is None or group is not None) else 0
    return new_canasta, flags
