"""Look-ahead for the rules that depend on what the player can still do this turn.

A meld is illegal when it leaves the initial-meld minimum unreachable; asking partner is
allowed only when going out is possible; a player who must go out (partner said yes, black
threes melded) may not make a move that rules it out; a concealed going out may skip the
minimum. All of these ask one question: *from this hand and this table, can the player
still reach a goal this turn?*

The search works on counts only (suits never matter for legality). It walks the natural
ranks, choosing for each how many naturals and which wild cards go to that rank's meld, then
places what is left in a wild-card meld where the variant has them. Each rank's allowed
placements are worked out once and shared by all searches; a search stops early where the
value still obtainable cannot reach the minimum or, going out, the wild cards cannot meld
what is left, and it remembers the states it found failing. Answers are not memoised: a
question seldom repeats.
The order of the moves inside the turn is not searched: the best order completes the
needed canastas first, smallest first, and the search checks that this order keeps the
two cards going out asks for.
"""
# Spec §2.8 [LIB], §2.11, §2.10 with D12, §2.9.

from __future__ import annotations

from functools import cache, lru_cache
from itertools import compress
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

#: The order in which a search walks the natural ranks: the answer does not depend on it,
#: but with the ranks worth most first the value bound stops hopeless openings sooner and
#: a way to the minimum is found sooner (3% fewer instructions in the look-ahead of
#: Modern American random play, measured with callgrind).
_SEARCH_ORDER = tuple(sorted(NATURAL_RANKS, key=lambda r: -RANK_VALUES[r]))

#: The indices of the query's entries by rank (the joker's included).
_RANK_INDICES = range(JOKER_RANK + 1)

#: Goals of the search.
OPEN, OUT = 0, 1

#: A flag beside the content flags, set by a play of two cards or more (`_rank`, `_puts`):
#: where the pile's waiting cards let an opening leave no card of the hand's own, the
#: opening's last play must be one (the plays before it keep two cards in hand). Never
#: passed to the variant's `opening_done`.
_BIG_PLAY = 1 << 10
#: The content flags, without `_BIG_PLAY`.
_CONTENT = _BIG_PLAY - 1

#: A value above every minimum, to ask whether the content rule alone can be met.
_UNBOUNDED = 1 << 30
#: More wild cards than any hand holds.
_NEVER = 1 << 20
#: Steps of a going-out search after which it bounds the wild cards it needs (64: asking
#: with a large hand mostly succeeds in a few dozen steps, before the bound would pay off).
_LONG = 64

#: Placements of a going-out search begun before the initial meld is complete that may be
#: played only inside it (`_Part`): where its rules allow them and those after the opening
#: do not (Modern American's rule of five, wild cards on aces); or wild cards on a natural
#: meld, which after the opening no incomplete wild meld may block (spec §3.5.3).
_IN_OPENING, _UNBLOCKED = 1, 2


class Query(NamedTuple):
    """Everything the search needs, as one record built per question."""

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


def going_out_may_open(variant: Variant, query: Query) -> bool:
    """Could going out this turn complete the initial meld where
    `reachable_without_going_out` finds no way (``query.goal`` is ``OPEN``)?"""
    # Going out completes the opening if it meets the minimum. Beyond the search of
    # `reachable_without_going_out`, that adds paths only with black threes, which are
    # melded and counted only then (spec §2.6, §2.8), or with a meld past the size cap
    # (D28).
    return bool(query.counts[THREE]) or _may_pass_cap(variant, query)


def reachable_without_going_out(variant: Variant, query: Query) -> bool:
    """Can the player complete the initial meld this turn and keep cards in hand
    (``query.goal`` is ``OPEN``)? `feasible` also counts the ways that go out."""
    return _search(variant, query, concealed_only=False)


def _feasible(variant: Variant, q: Query) -> bool:
    # Not memoised by query: a question seldom repeats (4% of them in classic random
    # play, 7% in Modern American), and a cache of them hashes every query, a deep tuple,
    # and the variant (an attrs-generated method, a Python call), and keeps tens of
    # thousands of queries alive for the garbage collector to walk.
    if q.goal == OPEN:
        if _search(variant, q, concealed_only=False):
            return True
        if going_out_may_open(variant, q):
            return _feasible(variant, q._replace(goal=OUT))
        # D12: a concealed going out may skip the minimum.
        return bool(q.concealed and variant.concealed_exempt and not q.no_out) and _search(
            variant, q._replace(goal=OUT), concealed_only=True
        )
    if q.no_out:
        return False
    if _search(variant, q, concealed_only=False):
        return True
    return bool(q.concealed and q.opening is not None and variant.concealed_exempt) and (
        _search(variant, q, concealed_only=True)
    )


def _may_pass_cap(variant: Variant, q: Query) -> bool:
    """Could a meld grow past ``max_meld_size`` with the hand's cards, as the variant's
    meld rules allow (Modern American refuses every such meld unless told otherwise)?"""
    # D28.
    counts, melds = q.counts, q.melds
    # Asked after every opening search that fails: the rank's cards and meld against the
    # cap less the wilds, before the meld's counts are unpacked.
    wilds = counts[TWO] + counts[JOKER_RANK]
    room = variant.max_meld_size - wilds
    for rank in NATURAL_RANKS:
        n0, w0 = melds[rank] or _NO_MELD
        count = counts[rank]
        if count + n0 + w0 > room and _passes_cap(variant, rank, n0, w0, count, wilds):
            return True
    return False


#: (naturals, wilds) of a rank without a meld that can grow (`_may_pass_cap`).
_NO_MELD = (0, 0)


@lru_cache(maxsize=1 << 12)
def _passes_cap(variant: Variant, rank: int, n0: int, w0: int, count: int, wilds: int) -> bool:
    """May a meld of ``rank`` holding ``n0`` naturals and ``w0`` wilds take some of
    ``count`` naturals and ``wilds`` wild cards and pass the size cap? (An OPEN search
    that fails asks this before a going-out search: the question repeats.)"""
    past = variant.max_meld_size - n0 - w0  # the cards to add beyond which it passes the cap
    return any(
        variant.natural_meld_reason(rank, n0, w0, k, w, True) is None
        for k in range(count + 1)
        for w in range(wilds + 1)
        if k + w > past
    )


class _Rank(NamedTuple):
    """What the search may do with one rank: its placements and bounds drawn from them."""

    #: (naturals, wilds, canastas completed, content flags, value of the naturals, and the
    #: `_Part` of it that may come only inside the initial meld, None where it may come at
    #: any time) of each allowed placement, leaving the rank untouched included; most
    #: naturals first
    options: tuple[tuple[int, int, int, int, int, _Part | None], ...]
    #: the content flags of those placements
    flags: frozenset[int]
    #: the most the naturals of any placement are worth
    best: int
    #: going out: the fewest wilds of a placement by (naturals left out, canasta completed),
    #: as index ``2 * left + completed``; None where no placement fits
    fewest: tuple[int | None, ...]
    #: the only placement leaves the rank untouched: nothing to search
    untouched_only: bool


#: `_rank`'s answers by variant and search mode, then by (rank, count, meld, may start,
#: group): searches of many positions share them. Dicts, not a cache on `_rank`, so a
#: search hashes the variant once, not once per rank.
#: A search mode: opening, concealed only, going out, the most wilds a placement takes,
#: and whether plays of two cards or more are marked (`_BIG_PLAY`).
_Mode = tuple[bool, bool, bool, int, bool]
_RANKS: dict[tuple[Variant, _Mode], dict[tuple[object, ...], _Rank]] = {}
#: Entries kept per variant and mode, and (variant, mode) pairs kept, before starting afresh.
_RANKS_KEPT, _MODES_KEPT = 1 << 14, 1 << 8


def _ranks_of(variant: Variant, mode: _Mode) -> dict[tuple[object, ...], _Rank]:
    """The known `_rank` answers for ``variant`` and ``mode``."""
    known = _RANKS.get((variant, mode))
    if known is None:
        if len(_RANKS) >= _MODES_KEPT:
            _RANKS.clear()
        known = _RANKS[variant, mode] = {}
    elif len(known) >= _RANKS_KEPT:
        known.clear()
    return known


def _rank(
    variant: Variant,
    rank: int,
    count: int,
    meld: tuple[int, int] | None,
    new_ok: bool,
    group: tuple[int, int, bool] | None,
    mode: _Mode,
) -> _Rank:
    """The placements on ``rank``: ``mode`` holds the search's flags (opening, concealed
    only, going out) and the most wild cards a placement may take.

    They depend on the rank's cards and meld alone, so searches of many positions share them.
    """
    opening, concealed_only, out, wilds, marks_big = mode
    # Going out in the turn of the initial meld: the plays after it is complete follow the
    # rules after the opening (`_in_time`).
    late_rules = out and opening
    # What every placement of the rank shares, worked out once: the meld it goes on (if
    # any), the player's own group of the rank this turn.
    may_meld = meld is not None or new_ok
    n0, w0 = meld if meld is not None else (0, 0)
    size0 = n0 + w0
    cap = variant.max_meld_size
    gn, gw, from_hand = group if group is not None else (0, 0, True)
    # The player's own cards of the rank form a group of their own: a new meld, or a meld
    # the player started this turn.
    own = meld is None or group is not None
    reason = variant.natural_meld_reason
    value_each = RANK_VALUES[rank]
    options = []
    flags: set[int] = set()
    best = 0
    fewest: list[int | None] = [None] * 4
    pairs = _placements(count, out, wilds)
    if not out and count > 3:
        held = _held_back(
            count, wilds, cap - size0, CANASTA_SIZE - 1 - gn - gw if own else None, gw
        )
        if held:
            pairs = tuple(sorted(pairs + held, key=_most_first))
    for k, w in pairs:
        part: _Part | None = None
        if k == 0 and w == 0:
            # Untouched rank: its own group (if any) keeps its flags.
            completed = 0
            got = 0 if group is None else group_flags(rank, gn, gw, from_hand)
        else:
            if not may_meld or reason(rank, n0, w0, k, w, opening) is not None:
                continue
            if not out and size0 + k + w > cap:
                continue  # D28: beyond the cap only when going out
            # Spec §2.10 (3): the player's own cards of each rank form a valid meld alone.
            if concealed_only and reason(rank, 0, 0, gn + k, gw + w, opening) is not None:
                continue
            completed = 1 if size0 + k + w >= CANASTA_SIZE > size0 else 0
            got = group_flags(rank, gn + k, gw + w, from_hand) if own else 0
            if marks_big and k + w >= 2:
                got |= _BIG_PLAY
            if late_rules:
                when = 0
                if reason(rank, n0, w0, k, w, False) is not None:
                    when = _IN_OPENING
                elif w and variant.wild_meld_blocks_wilds:
                    when = _UNBLOCKED
                if when:
                    # The least part that must come inside: the wild cards with the fewest
                    # naturals that make a meld the initial meld allows, where the other
                    # naturals may be laid off after the opening.
                    least = next(
                        fewer
                        for fewer in range(k + 1)
                        if fewer == k
                        or (
                            reason(rank, n0, w0, fewer, w, True) is None
                            and reason(rank, n0 + fewer, w0 + w, k - fewer, 0, False) is None
                        )
                    )
                    part_flags = group_flags(rank, gn + least, gw + w, from_hand) if own else 0
                    part = (when, least * value_each, least + w, part_flags)
        value = k * value_each
        options.append((k, w, completed, got, value, part))
        flags.add(got)
        if value > best:
            best = value
        if out:
            at = 2 * (count - k) + completed
            known = fewest[at]
            fewest[at] = w if known is None or w < known else known
    return _Rank(
        tuple(options),
        frozenset(flags),
        best,
        tuple(fewest),
        len(options) == 1 and options[0][:2] == (0, 0),
    )


#: Going out in the turn of the initial meld: of the placements that only the initial meld
#: allows (`_IN_OPENING`), and then of those of wild cards on natural melds (`_UNBLOCKED`):
#: their value, the largest value, the content flags of all but the largest, its flags,
#: and their cards.
_Late = tuple[int, int, int, int, int, int, int, int, int, int]
_NOT_LATE: _Late = (0,) * 10


#: The part of a placement that may come only inside the initial meld: when (`_IN_OPENING`
#: or `_UNBLOCKED`), the value of its naturals, its cards, and its content flags. The rest
#: of the placement's naturals may follow after the opening, as a lay-off.
_Part = tuple[int, int, int, int]


def _later(late: _Late | None, part: _Part, wild_value: int) -> _Late | None:
    """``late`` with the ``part`` of a placement that may come only inside the initial
    meld, its wild cards worth ``wild_value``."""
    if late is None:
        return None
    when, value, cards, flags = part
    if when == _IN_OPENING:
        return (*_joined(late[:5], value + wild_value, flags, cards), *late[5:])
    return (*late[:5], *_joined(late[5:], value + wild_value, flags, cards))


def _joined(
    part: tuple[int, ...], value: int, flags: int, cards: int
) -> tuple[int, int, int, int, int]:
    """One part of `_Late` with a placement more."""
    total, largest, others, largest_flags, count = part
    if value > largest:
        return total + value, value, others | largest_flags, flags, count + cards
    return total + value, largest, others | flags, largest_flags, count + cards


def _in_time(
    variant: Variant, late: _Late, blocked: bool, spare: int, have: int, need: int, every: int
) -> bool:
    """Can the placements of a way out that only the initial meld allows all be played
    before it is complete? ``blocked``: an incomplete wild meld stays, so wild cards on
    natural melds are such placements too; ``spare``: the cards of the hand
    besides the smallest canasta-completing moves (see `_search`); ``have`` and ``every``:
    the opening's value and content flags of the turn so far.

    They come first, the largest of them last, then the other plays: a way if the opening
    is not complete without that largest one (and then without any fewer of them), and if
    the hand keeps two cards after them until the canastas are complete. Only a sufficient
    test (another order may do where this one does not): it never takes a way out that
    the moves cannot follow.
    """
    total, largest, others, largest_flags, cards = late[:5]
    if blocked and late[5]:
        total2, largest2, others2, largest_flags2, cards2 = late[5:]
        if largest2 > largest:
            others |= largest_flags | others2
            largest, largest_flags = largest2, largest_flags2
        else:
            others |= others2 | largest_flags2
        total += total2
        cards += cards2
    if not total:
        return True  # every placement may be played at any time
    if spare - cards < 2:
        return False
    return not variant.opening_done(have + total - largest, need, (every | others) & _CONTENT)


def _fewest_wilds(
    fewest: tuple[tuple[int | None, ...], ...], canastas: int
) -> tuple[tuple[int, ...], ...]:
    """Going out: the fewest wilds the ranks from each index on need to be melded.

    Entry ``[i][2 * c + l]``: the ranks ``i..`` with at most ``l`` (0 or 1) naturals left
    out and at least ``c`` canastas completed (``c`` up to ``canastas``); a large number
    where that cannot be done. A lower bound: the search stops where it exceeds the wilds.
    """
    width = 2 * (canastas + 1)
    table = [(0, 0) + (_NEVER,) * (width - 2)]
    for row in reversed(fewest):
        after = table[-1]
        here = []
        for c in range(canastas + 1):
            for left in range(2):
                best = _NEVER
                for out_left in range(left + 1):
                    for completed in range(2):
                        w = row[2 * out_left + completed]
                        if w is not None:
                            rest = after[2 * max(c - completed, 0) + left - out_left]
                            best = min(best, w + rest)
                here.append(best)
        table.append(tuple(here))
    table.reverse()
    return tuple(table)


def _search(variant: Variant, q: Query, concealed_only: bool) -> bool:
    counts = q.counts
    out = q.goal == OUT
    melds, new_ok, groups = q.melds, q.new_ok, q.groups
    needs_discard = variant.go_out_needs_discard
    # With concealed_only the minimum is waived (D12) but every own group must be valid alone.
    opening = None if concealed_only else q.opening
    opening_now = q.opening is not None
    have, need = opening if opening is not None else (0, 0)
    twos0, jokers0 = counts[TWO], counts[JOKER_RANK]
    wilds = twos0 + jokers0
    # The most wild cards a placement may take. Spec §3.5.3 [LIB]: none while an incomplete
    # wild meld blocks them (once the opening is complete).
    wilds_blocked = not opening_now and _wild_incomplete(q) and variant.wild_meld_blocks_wilds
    keeps = q.keeps  # 2, or 1 while a talon will fill the hand (spec §3.5.11.1 TL7)
    # Where the hand may keep none of its own cards (waiting pile cards join it, spec
    # §2.8, or a going out needs no discard), the plays before the last keep two.
    marks_big = not out and (not keeps or not (needs_discard or q.no_out))
    mode = (
        opening_now,
        concealed_only,
        out,
        0 if wilds_blocked else min(wilds, variant.max_wilds_per_meld),
        marks_big,
    )
    ranks: list[int] = []  # the ranks searched
    rests: list[int] = []  # their naturals in hand
    table: list[_Rank] = []  # their placements
    known = _ranks_of(variant, mode)
    # Value bound: ``total`` is the most the naturals of all ranks can add, ``earlier[i]``
    # what the ranks before index i can; so the ranks from i on can add total - earlier[i].
    total = 0
    earlier: list[int] = []
    biggest = 0  # the most cards a meld of one rank could hold
    # A rank whose only placement leaves it untouched (most ranks of a hand without wild
    # cards: one or two naturals) is not searched: its naturals are left out from the
    # start, and its own group's flags join ``base`` below, as that placement would do.
    untouched = 0
    for r in _SEARCH_ORDER:
        count, meld = counts[r], melds[r]
        if count or meld is not None:
            group = groups[r]
            key = (r, count, meld, new_ok[r], group)
            row = known.get(key)
            if row is None:
                row = known[key] = _rank(variant, r, count, meld, new_ok[r], group, mode)
            size = count + meld[0] + meld[1] if meld is not None else count
            if size > biggest:
                biggest = size
            if row.untouched_only:
                untouched += count
                continue
            ranks.append(r)
            rests.append(count)
            table.append(row)
            earlier.append(total)
            total += row.best
    earlier.append(total)
    # Content flags of the turn's groups: all of them, and those on ranks not searched.
    every = base = 0
    for r in compress(_RANK_INDICES, groups):  # the ranks with a group: C skips the Nones
        group = groups[r]
        assert group is not None
        flags = group_flags(r, *group)
        every |= flags
        if r not in ranks:
            base |= flags
    two_value, joker_value = RANK_VALUES[TWO], RANK_VALUES[JOKER_RANK]
    # The value bound prunes unless a canasta, which may waive the minimum, is in reach:
    # it stops where value - earlier[i] + the wilds' value < short.
    short = need - have - total
    # The wild meld the player started this turn is the player's own group: the wild cards
    # put on it join the group, a canasta from hand once it holds seven (spec §3.5.4).
    wild_group = groups[TWO]
    own_wilds = wild_group[1] if wild_group is not None else 0
    prune = (
        opening is not None
        and not out
        and not (
            variant.canasta_waives_minimum
            and (
                every & HAND_CANASTA
                or biggest + wilds >= CANASTA_SIZE
                or own_wilds + wilds >= CANASTA_SIZE
            )
        )
    )
    if prune and twos0 * two_value + jokers0 * joker_value < short:
        return False
    wild_meld_open = q.wild_meld is not None or q.new_wild_ok
    size0 = q.wild_meld or 0
    puts = _puts(variant, size0, wilds, wild_group, marks_big) if wild_meld_open else ()
    if (
        opening is not None
        and not variant.opening_done(_UNBOUNDED, need, 0)
        and not _content_reachable(variant, base, tuple([t.flags for t in table]), bool(puts), need)
    ):
        return False  # spec §3.5.4: the content rule cannot be met, whatever the value

    required = variant.canastas_to_go_out
    blocks_out = variant.wild_meld_blocks_going_out
    no_out, no_discard = q.no_out, q.no_discard
    # Going out: the cards left out may be none (no discard) or one, and the canastas still
    # missing come from the ranks or (one, for the wilds it lacks) from the wild meld.
    spare = 0 if no_discard else 1
    wild_canasta = wild_meld_open and size0 < CANASTA_SIZE
    wild_short = CANASTA_SIZE - size0
    missing = max(required - q.canastas, 0)
    # The bound costs more than a short search: it is built once a search runs long.
    fewest: tuple[tuple[int, ...], ...] | None = None
    steps = 0
    black = counts[THREE]
    # Spec §2.6: black threes are melded in the going-out turn; D6: two with a two.
    black_alone = out and black and variant.black_three_meld_reason(black, 0) is None
    black_pair = out and black == 2 and variant.black_three_meld_reason(2, 1) is None
    wild_incomplete = _wild_incomplete(q)
    # A memo entry is the highest value found failing; the value matters only below the
    # minimum, and the content flags only while the opening is incomplete (or, for a
    # concealed going out, whether a group is a canasta).
    memo: dict[tuple[int, int, int, int, int, int, tuple[int, ...], _Late | None], int] = {}
    mask = -1 if opening is not None else (OWN_CANASTA if concealed_only else 0)

    # Spec §2.9 orders the moves: until the side holds the canastas it needs, every meld
    # must leave 2 cards. Completing canastas first is best, smallest first; so the hand,
    # less the `track` smallest canasta-completing moves, must still hold 2 cards.
    track = max(0, required - q.canastas - 1)
    hand_size = sum(counts)
    # The value of the cheapest card in hand (see `accepts`).
    cheapest = (
        min((RANK_VALUES[r] for r in compress(_RANK_INDICES, counts)), default=0)
        if marks_big
        else 0
    )

    def accepts(
        cards_left: int, value: int, canastas: int, flags: int, incomplete: bool, kept: int
    ) -> bool:
        may_out = (
            canastas >= required
            and not no_out
            and not (blocks_out and incomplete)
            and hand_size - kept >= 2
        )
        done = opening is None or variant.opening_done(have + value, need, flags & _CONTENT)
        if out:
            if no_discard:
                if cards_left or needs_discard:
                    return False
            elif cards_left > 1 or (needs_discard and cards_left != 1):
                return False
            return may_out and done and not (concealed_only and not flags & OWN_CANASTA)
        # The hand keeps 2 cards (1 with a talon due, none of its own with 2 waiting cards
        # to join it) unless the player may go out (spec §2.9). Where it keeps none, every
        # play before the last kept two (§2.9 again, going out not yet allowed): the last
        # is one of 2 cards or more, or, all of one card, the cheapest, the opening
        # complete without it and the canastas held before.
        if not done:
            return False
        if cards_left >= keeps and (cards_left or flags & _BIG_PLAY):
            return True
        return may_out and (
            cards_left == 1
            or (
                not needs_discard
                and bool(
                    cards_left
                    or flags & _BIG_PLAY
                    or (
                        q.canastas >= required
                        and variant.opening_done(have + value - cheapest, need, flags & _CONTENT)
                    )
                )
            )
        )

    def walk(
        i: int,
        twos: int,
        jokers: int,
        left: int,
        value: int,
        canastas: int,
        flags: int,
        small: tuple[int, ...],
        late: _Late | None,
    ) -> bool:
        nonlocal fewest, steps
        if out:
            if left > spare:
                return False
            if fewest is None:
                steps += 1
                if steps > _LONG:
                    fewest = _fewest_wilds(tuple(t.fewest for t in table), missing)
            if fewest is not None:
                lacking = max(required - canastas, 0)
                needed = fewest[i][2 * lacking + spare - left]
                if lacking and wild_canasta:
                    needed = min(needed, fewest[i][2 * lacking - 2 + spare - left] + wild_short)
                if needed > twos + jokers:
                    return False
        if prune and value - earlier[i] + twos * two_value + jokers * joker_value < short:
            return False
        if i == last:
            # Every rank placed: the black threes, then the wild meld's share of the wilds
            # (here, not in a function of its own: each search would build its closure).
            if black_alone:
                value += 5 * black
            elif black_pair and twos:
                value += 30
                twos -= 1
            else:
                left += black
            kept = sum(small)
            if accepts(left + twos + jokers, value, canastas, flags, wild_incomplete, kept) and (
                late is None
                or _in_time(
                    variant, late, 0 < size0 < CANASTA_SIZE, rest_of_hand - kept, have, need, every
                )
            ):
                return True
            for put, size, own in puts:
                if put > twos + jokers:
                    break
                completes = size >= CANASTA_SIZE > size0
                for put_twos in range(max(put - jokers, 0), min(put, twos) + 1):
                    put_jokers = put - put_twos
                    put_kept = sum(_kept(small, put, track)) if completes else kept
                    if accepts(
                        left + twos + jokers - put,
                        value + put_twos * two_value + put_jokers * joker_value,
                        canastas + completes,
                        flags | own,
                        size < CANASTA_SIZE,
                        put_kept,
                    ) and (
                        late is None
                        or _in_time(
                            variant,
                            late,
                            size < CANASTA_SIZE,
                            rest_of_hand - put_kept,
                            have,
                            need,
                            every,
                        )
                    ):
                        return True
            return False
        worth = 0 if opening is None else (value if value < need else need)
        key = (i, twos, jokers, left if left < 2 else 2, canastas, flags & mask, small, late)
        failed = memo.get(key)
        if failed is not None and failed >= worth:
            return False
        rest = rests[i]
        held = twos + jokers
        for k, w, completed, got, natural_value, part in table[i].options:
            if not w:
                # Naturals alone (most placements tried): no wild cards to share out.
                if walk(  # noqa: F821 (as below)
                    i + 1,
                    twos,
                    jokers,
                    left + rest - k,
                    value + natural_value,
                    canastas + completed,
                    flags | got,
                    _kept(small, k, track) if completed else small,
                    late if part is None else _later(late, part, 0),
                ):
                    return True
                continue
            if w > held:
                continue  # more wild cards than are left: cheaper to skip than to try
            new_left = left + rest - k
            # The twos among the w wilds, most first (conditionals: cheaper than min/max).
            for t in range(w if w < twos else twos, (w - jokers if w > jokers else 0) - 1, -1):
                placed = natural_value + t * two_value + (w - t) * joker_value
                if walk(  # noqa: F821 (defined: the del below only unbinds it at the end)
                    i + 1,
                    twos - t,
                    jokers - w + t,
                    new_left,
                    value + placed,
                    canastas + completed,
                    flags | got,
                    _kept(small, k + w, track) if completed else small,
                    late if part is None else _later(late, part, placed - natural_value),
                ):
                    return True
        memo[key] = worth
        return False

    # Going out in the turn of the initial meld (spec §3.5.3 [LIB]): the initial meld is
    # complete once its value and content are, and the plays after it follow the rules
    # after the opening. The placements that only the initial meld allows are tracked
    # (`_Late`), and a way out counts only where they can all come before it is complete
    # (`_in_time`).
    late = _NOT_LATE if out and opening is not None else None
    # With canastas still to complete, the cards the hand holds besides the smallest
    # canasta-completing moves must keep it two cards until they are done (spec §2.9);
    # with none missing, going out is allowed all along.
    rest_of_hand = hand_size if q.canastas < required else _NEVER

    last = len(ranks)
    try:
        return walk(0, twos0, jokers0, untouched, 0, q.canastas, base, (), late)
    finally:
        # `walk` calls itself, so its closure holds it: a reference cycle that would keep
        # the search's cells until the garbage collector runs, and the garbage of
        # thousands of searches sets the collector off far more often. Unbinding it frees
        # the search as it ends.
        del walk


@lru_cache(maxsize=1 << 10)
def _puts(
    variant: Variant,
    size0: int,
    wilds: int,
    group: tuple[int, int, bool] | None,
    marks_big: bool,
) -> tuple[tuple[int, int, int], ...]:
    """The wild cards a wild meld of ``size0`` cards (0: none yet) can take at once from
    ``wilds`` in hand, by number: its size after, and the flags of the player's group of
    wild cards this turn (``group``, None if the player has none) with them, and
    `_BIG_PLAY` for two cards or more where ``marks_big``. (Every search asks, for few
    distinct sizes and hands.)"""
    # Spec §3.5.4, [LIB] §2.8: a wild meld started this turn and completed later in the turn
    # is a canasta laid from hand, like one laid at once.
    own, from_hand = (group[1], group[2]) if group is not None else (0, not size0)
    return tuple(
        (
            put,
            size0 + put,
            group_flags(TWO, 0, own + put, from_hand)
            | (_BIG_PLAY if marks_big and put >= 2 else 0),
        )
        for put in range(1, wilds + 1)
        if variant.wild_meld_reason(size0, put) is None
    )


@lru_cache(maxsize=1 << 14)
def _content_reachable(
    variant: Variant, base: int, steps: tuple[frozenset[int], ...], wild_meld: bool, need: int
) -> bool:
    """Could some sequence meet the opening's content rule, value aside?

    An opening search that cannot meet it is the longest kind, so `_search` asks this
    first. From the content flags each rank's placements could give (``steps``) and a
    wild-card meld where one can be laid, it collects every set of flags one placement per
    rank could give: a superset of what the search can reach, so a no is certain.
    """
    # Spec §3.5.4.
    reachable = {base}
    for flags in steps:
        reachable = {f | g for f in reachable for g in flags}
    if wild_meld:
        for own in (WILD_MELD, WILD_MELD | HAND_CANASTA | OWN_CANASTA):
            reachable |= {f | own for f in reachable}
    return any(variant.opening_done(_UNBOUNDED, need, f & _CONTENT) for f in reachable)


@cache
def _naturals_choices(count: int, out: bool) -> tuple[int, ...]:
    """How many of a rank's ``count`` naturals the search tries to meld, best first.

    Going out: all of them, or all but one (the discard). Otherwise: all, all but one, all
    but two, or none; `_held_back` adds where a limit stops the meld short of those.
    """
    if out:
        return (count, count - 1) if count else (0,)
    return tuple(sorted({count, max(count - 1, 0), max(count - 2, 0), 0}, reverse=True))


@cache
def _placements(count: int, out: bool, wilds: int) -> tuple[tuple[int, int], ...]:
    """The (naturals, wilds) placements `_rank` tries on a rank of ``count`` naturals in
    hand with up to ``wilds`` wild cards, most naturals, then most wilds, first (asked
    for every rank a search has not met: a table read)."""
    return tuple((k, w) for k in _naturals_choices(count, out) for w in range(wilds, -1, -1))


def _held_back(
    count: int, wilds: int, room: int, unmixed: int | None, group_wilds: int
) -> tuple[tuple[int, int], ...]:
    """Not going out: the (naturals, wilds) placements on a rank, beyond those of
    `_naturals_choices`, that keep three or more of its ``count`` naturals in hand because
    a limit stops the meld short of all but two: the size cap (``room``: the cards the meld
    may still take) or, for the player's own group (``unmixed``: the cards it may take and
    stay short of a canasta, None for a meld of an earlier turn; ``group_wilds`` in it),
    becoming a mixed canasta, which a variant may not allow in the initial meld.

    For each number of wilds, the most naturals under each limit: fewer are worth less,
    give no other content flags, and three naturals held already keep the hand's cards.
    """
    # Spec §3.5.3 (a meld stops at seven), §3.5.4 (a mixed canasta in the initial meld).
    held = set()
    for w in range(wilds + 1):
        k = room - w
        if 0 < k < count - 2:
            held.add((k, w))
        if unmixed is not None and group_wilds + w:
            k = unmixed - w
            if 0 < k < count - 2:
                held.add((k, w))
    return tuple(held)


def _most_first(placement: tuple[int, int]) -> tuple[int, int]:
    """Sort key of placements (naturals, wilds): most naturals, then most wilds, first
    (the order of `_Rank.options`)."""
    return -placement[0], -placement[1]


def _kept(small: tuple[int, ...], size: int, track: int) -> tuple[int, ...]:
    """The sizes of the ``track`` smallest canasta-completing moves among ``small`` and
    one of ``size`` cards (`_search`: the hand must keep 2 cards besides them)."""
    return tuple(sorted((*small, size)))[:track] if track else small


def _wild_incomplete(q: Query) -> bool:
    return q.wild_meld is not None and q.wild_meld < CANASTA_SIZE


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
