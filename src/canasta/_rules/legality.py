"""Legality: what a move does, and whether it may be made.

`decide` turns a move into its effect (`Play` for a meld, lay-off or pickup): which
cards, which meld it goes to, what it obliges. `check` validates that effect, and
`canasta._rules.transitions` commits it, so every rule is decided here, once. The count
functions (`play_effect`, `take_effect`) are what the generator asks for each candidate
play, without building a move first.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Container
from functools import cache, lru_cache
from itertools import accumulate
from typing import NamedTuple

from canasta._rules import lookahead
from canasta._rules.facts import (
    Context,
    closed_ranks,
    concealed_done,
    concealed_possible,
    context,
    group,
    growable,
    lay_off_target,
    may_go_out,
    new_ok,
    opening_complete,
    opening_in_hand,
    opening_talon,
    out_impossible,
    pattern_at,
    query,
    replaced,
    resolve,
    resolve_card,
    split,
    talon_due,
    wild_incomplete,
    with_group,
)
from canasta.cards import (
    JOKER,
    JOKER_RANK,
    RANK_VALUES,
    RANKS,
    RED_THREES,
    THREE,
    TWO,
    Card,
    card_value,
)
from canasta.errors import IllegalReason as R
from canasta.moves import (
    Answer,
    Ask,
    Discard,
    Draw,
    End,
    Expose,
    LayOff,
    MeldCards,
    Move,
    Special,
    Take,
)
from canasta.table import (
    ANSWER,
    DRAW,
    NEW_TURN,
    OVER,
    PLAY,
    WILD_RANK,
    Meld,
    Table,
    Turn,
    evolved,
)
from canasta.variants.base import Variant

#: From this many cards in hand, an opening search is worth a quick test first
#: (`opening_in_hand`). Measured with ``benchmarks/callgrind.py``: from 8 cards rather
#: than 14 it settles enough classic hands to save 1% of a decision; Modern American, whose
#: openings it settles less often, is unchanged.
_LARGE_HAND = 8


class Play(NamedTuple):
    """The effect of a meld, a lay-off or a pickup of the pile, decided by counts.

    ``kind`` is ``"meld"``, ``"add"`` or ``"take"``; ``k`` naturals of ``rank`` (for a
    pickup, from the hand: the pile's top card comes on top), ``twos`` and ``jokers``.
    """

    kind: str
    rank: int
    k: int
    twos: int
    jokers: int
    #: the side's meld the cards join, or None for a new meld
    target: Meld | None
    #: the play obliges the player to go out this turn (black threes, D28, partner's yes)
    obliged: bool
    #: the cards left in hand, before any pile cards join it
    hand_after: int


class Decision(NamedTuple):
    """A move with what it takes from the hand: the codes and, for plays, their effect."""

    move: Move
    codes: tuple[int, ...]
    play: Play | None


# --------------------------------------------------------------------------------------
# Melds and lay-offs in the play phase


def meld_verdict(
    variant: Variant,
    add: bool,
    rank: int,
    k: int,
    wilds: int,
    grow: tuple[int, int] | None,
    full: tuple[int, int] | None,
    may_start: bool,
    closed: bool,
    wild_incomplete: bool,
    opening: bool,
) -> R | int:
    """The meld rules for ``meld:`` (add=False) or ``add:`` (add=True) of ``k`` naturals of
    ``rank`` and ``wilds`` wild cards: why the play is invalid, or what it does (which wild
    cards they are never matters).

    The side's melds of the rank are given by counts: ``grow`` is (naturals, wilds) of the
    one that can still take cards, ``full`` of one past the size cap that a lay-off may
    still join; ``may_start`` says whether a new meld of the rank may be started. A pure
    function of its arguments, so the generator can cache it.

    Returns a reason, or flags: `OBLIGES` (the play obliges going out this turn: black
    threes, a meld past the cap) and `JOINS_FULL` (it joins the ``full`` meld).
    """
    # D28; spec §2.4, §3.5.3.
    verdict = 0
    if rank == THREE:
        if add:
            return R.NO_SUCH_MELD
        reason = variant.black_three_meld_reason(k, wilds)
        if reason is not None:
            return reason
        return OBLIGES  # spec §2.6: black threes are melded only when going out
    if rank == WILD_RANK:
        if add:
            if grow is None:
                return R.NO_SUCH_MELD
            reason = variant.wild_meld_reason(grow[0] + grow[1], wilds)
        else:
            if grow is not None or not variant.has_wild_melds:
                return R.INVALID_MELD
            reason = variant.wild_meld_reason(0, wilds)
        return reason if reason is not None else 0
    if closed:
        return R.CLOSED_RANK
    target = grow
    if add:
        if target is None:
            target = full
            verdict = JOINS_FULL
        if target is None:
            return R.NO_SUCH_MELD
    else:
        if not may_start:
            return R.INVALID_MELD
        # A meld: group must be valid on its own before merging (spec §2.4, §2.10).
        reason = variant.natural_meld_reason(rank, 0, 0, k, wilds, opening)
        if reason is not None:
            return reason
    n0, w0 = target if target is not None else (0, 0)
    if n0 + w0 or add:
        reason = variant.natural_meld_reason(rank, n0, w0, k, wilds, opening)
        if reason is not None:
            return reason
    # Spec §3.5.3 [LIB]: the block takes effect once the initial meld is complete, so the
    # order of an opening's melds never matters.
    if wilds and wild_incomplete and variant.wild_meld_blocks_wilds and not opening:
        return R.WILD_RULE
    if n0 + w0 + k + wilds > variant.max_meld_size:
        verdict |= OBLIGES  # D28: a meld beyond the cap only in the going-out turn
    return verdict


#: `meld_verdict` flags.
OBLIGES, JOINS_FULL = 1, 2


#: `rank_facts` of a rank of which the side has no meld and that is not closed: no meld
#: to grow or join, and a new one may start (`new_ok`).
_NO_MELD: tuple[None, None, bool, bool] = (None, None, True, False)


def rank_facts(
    variant: Variant, ctx: Context, rank: int, on_table: Container[int]
) -> tuple[tuple[int, int] | None, tuple[int, int] | None, bool, bool]:
    """The arguments of `meld_verdict` that describe the side's melds of ``rank``: the
    growable one, a full one a lay-off may join, may a new one start, is the rank closed
    (``on_table``: the ranks of the side's melds)."""
    if rank not in on_table and rank not in ctx.closed:
        return _NO_MELD  # asked for every rank a hand holds: most have no meld
    melds = ctx.melds
    target = ctx.growable[rank]
    grow = None if target is None else (target.naturals, target.wilds)
    full = None
    if target is None and rank != WILD_RANK:
        other = lay_off_target(variant, melds, rank, ctx.growable)
        full = None if other is None else (other.naturals, other.wilds)
    return grow, full, new_ok(variant, melds, rank, ctx.closed, ctx.growable), rank in ctx.closed


def play_effect(
    st: Table, ctx: Context, add: bool, rank: int, k: int, twos: int, jokers: int
) -> R | Play:
    """The effect of ``meld:`` (add=False) or ``add:`` (add=True) of cards known to be in
    hand, in the play phase; or why it is not a valid meld (the look-ahead aside)."""
    variant = st.variant
    grow, full, may_start, closed = rank_facts(variant, ctx, rank, [m.rank for m in ctx.melds])
    verdict = meld_verdict(
        variant,
        add,
        rank,
        k,
        twos + jokers,
        grow,
        full,
        may_start,
        closed,
        ctx.wild_incomplete,
        not ctx.opened,
    )
    if isinstance(verdict, R):
        return verdict
    return legal_play(st, ctx, add, rank, k, twos, jokers, verdict)


def legal_play(
    st: Table, ctx: Context, add: bool, rank: int, k: int, twos: int, jokers: int, verdict: int
) -> Play:
    """The `Play` of a valid meld or lay-off with its `meld_verdict` flags."""
    if rank == THREE:
        target = None
    elif verdict & JOINS_FULL:
        target = lay_off_target(st.variant, ctx.melds, rank, ctx.growable)
    else:
        target = ctx.growable[rank]
    obliged = bool(verdict & OBLIGES) or st.turn.must_go_out
    kind = "add" if add else "meld"
    return Play(kind, rank, k, twos, jokers, target, obliged, ctx.hand_len - k - twos - jokers)


#: `opening_goal`: the turn's opening value so far, the minimum, the content flags of the
#: turn's groups on other ranks, and its group on the play's rank (naturals, wilds, from
#: hand) or None.
OpeningGoal = tuple[int, int, int, tuple[int, int, bool] | None]


def opening_goal(turn: Turn, rank: int, minimum: int) -> OpeningGoal:
    """What a meld or lay-off on ``rank`` by a side that has not opened must add in
    ``turn`` to reach the initial meld's ``minimum`` (`opens`)."""
    if not turn.groups:
        return turn.opening, minimum, 0, None
    others = 0
    group = None
    for g in turn.groups:
        if g.rank == rank:
            group = (g.naturals, g.wilds, g.from_hand)
        else:
            others |= lookahead.group_flags(g.rank, g.naturals, g.wilds, g.from_hand)
    return turn.opening, minimum, others, group


def opens(
    variant: Variant, add: bool, rank: int, k: int, twos: int, jokers: int, goal: OpeningGoal
) -> bool:
    """Does a meld (add=False) or lay-off of these counts complete the initial meld, with
    the turn's groups after it as `play_turn` leaves them? A pure function of its
    arguments, so the generator can cache it."""
    # Spec §2.8, §3.5.4.
    have, need, flags, group = goal
    wilds = twos + jokers
    if group is not None:
        flags |= lookahead.group_flags(rank, group[0] + k, group[1] + wilds, group[2])
    elif not add:
        flags |= lookahead.group_flags(rank, k, wilds, True)  # a new group of the turn
    return variant.opening_done(have + _play_value(rank, k, twos, jokers), need, flags)


def _play_value(rank: int, k: int, twos: int, jokers: int) -> int:
    """The value of ``k`` naturals of ``rank``, ``twos`` and ``jokers``."""
    # Spec §1.2.
    return k * RANK_VALUES[rank] + twos * RANK_VALUES[TWO] + jokers * RANK_VALUES[JOKER_RANK]


def waiting_cards(st: Table, waiting: tuple[int, ...]) -> int:
    """How many of the pile's ``waiting`` cards join the hand once the initial meld is
    complete (the threes a variant lays out do not)."""
    # Spec §2.8.
    if not waiting:
        return 0  # the common case: no pile taken this turn
    return sum(1 for c in waiting if c not in st.variant.laid_out_threes)


# --------------------------------------------------------------------------------------
# Taking the pile


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


def _pile_reason(st: Table) -> R | None:
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
    if _pile_reason(st) is not None:
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
    if not candidates or _after_pickup(st, opened, hand_len - naturals - twos - jokers) is None:
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


def take_after_reason(st: Table, opened: bool, play: Play) -> R | None:
    """`after_reason` for a pickup by a side that has ``opened`` or not: the player's
    Context is built only where the position after it is looked at (a side that has not
    opened, or one left with fewer than two cards), not for every pickup weighed."""
    hand_after = _after_pickup(st, opened, play.hand_after)
    if hand_after is None:
        return None  # nothing can fail: skip building the position after
    return _after_position_reason(st, context(st), play, hand_after)


def _after_pickup(st: Table, opened: bool, hand_after: int) -> int | None:
    """The cards in hand after a pickup by a side that has ``opened`` or not, leaving
    ``hand_after`` cards from the hand, where the position after it must be looked at; None
    where nothing can fail (an opened side keeps two cards or more, counting the pile's
    cards, which join its hand at once). None for some ``hand_after`` is None for every
    larger one."""
    if opened:
        if hand_after < 2:
            # Counted only where they matter (the pile may be long).
            hand_after += waiting_cards(st, st.pile[:-1])
        if hand_after >= 2:
            return None
    return hand_after


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


# --------------------------------------------------------------------------------------
# The turn after a play, and the checks that look at it


def play_turn(st: Table, play: Play) -> Turn:
    """The turn's bookkeeping after ``play``: groups, lay-offs, the opening value, what
    the player must do."""
    # Spec §2.8, §2.10, §3.5.4.
    wilds = play.twos + play.jokers
    value = _play_value(play.rank, play.k, play.twos, play.jokers)
    if play.kind == "take":
        # A new turn's record: collected, copied once from the fresh one.
        taken: dict[str, object] = {"took_pile": True, "waiting": st.pile[:-1]}
        if play.k + wilds:
            taken["groups"] = (group(play.rank, play.k + 1, wilds, False),)
        else:
            taken["laid_off"] = True
        if not st.opened[st.variant.answers.side[st.to_move or 0]]:
            taken["opening"] = st.variant.pickup_opening_value(card_value(st.pile[-1]), value)
        return evolved(NEW_TURN, taken)
    turn = st.turn
    rank = play.rank
    # The changes are collected and the turn copied once: the generator asks this for
    # every candidate play of a side that has not opened.
    changes: dict[str, object] = {"melded": True}
    if play.kind == "add" and rank not in [g.rank for g in turn.groups]:
        changes["laid_off"] = True
    else:
        changes["groups"] = with_group(turn.groups, rank, play.k, wilds, True, play.kind == "meld")
    if play.obliged and not turn.must_go_out:
        changes["must_go_out"] = True
    if not st.opened[st.variant.answers.side[st.to_move or 0]]:
        changes["opening"] = turn.opening + value
    return evolved(turn, changes)


def after_reason(st: Table, ctx: Context, play: Play) -> R | None:
    """The checks that look at the position after ``play``: the
    hand left, the initial meld still reachable, going out still possible when due."""
    # Spec §2.8, §2.9, §2.11.
    if play.kind == "take":
        return take_after_reason(st, ctx.opened, play)
    hand_after = play.hand_after
    if ctx.opened and not play.obliged and hand_after >= 2:
        return None  # nothing below can fail: skip building the position after
    reason = _after_position_reason(st, ctx, play, hand_after)
    if play.rank == THREE and play.kind == "meld" and reason in (R.MUST_GO_OUT, R.HAND_SIZE):
        return R.BLACK_THREES  # spec §2.6: only in the turn the player goes out
    return reason


def opening_reachable(st: Table, ctx: Context) -> bool:
    """Can the player, whose side has not opened, still complete the initial meld this
    turn from the table as it is (or go out concealed)?

    If not, no meld or lay-off is legal: a play that left the opening reachable, followed
    by the plays that complete it, would be a way to complete it from here. So one search
    answers for every candidate play, each of which would otherwise search on its own.
    """
    # Spec §2.8, D12.
    turn = st.turn
    if ctx.hand_len >= _LARGE_HAND and opening_in_hand(
        st, ctx.side, ctx.counts, {m.rank for m in ctx.melds}, turn, ctx.hand_len
    ):
        return True  # the quick test settles most large hands, where a search is long
    q = query(
        st,
        lookahead.OPEN,
        ctx.counts,
        ctx.melds,
        turn,
        False,
        concealed_possible(st, ctx.seat, turn) and not turn.took_pile,
    )
    return lookahead.feasible(st.variant, q)


@cache
def _placeholder(rank: int, k: int, twos: int, jokers: int) -> tuple[int, ...]:
    """Codes of ``k`` naturals of ``rank``, ``twos`` and ``jokers`` for the position after
    a play (the look-ahead never looks at suits): one tuple for each count."""
    return (JOKER,) * jokers + (4,) * twos + (rank * 4,) * k


@cache
def _new_meld(rank: int, k: int, twos: int, jokers: int) -> Meld:
    """A new meld of `_placeholder` codes, one object for each count: the position after
    every candidate meld that needs the look-ahead has one (a Meld is costly to build)."""
    return Meld.of(rank, _placeholder(rank, k, twos, jokers))


def _after_position_reason(st: Table, ctx: Context, play: Play, hand_after: int) -> R | None:
    variant = st.variant
    rank, k, twos, jokers = play.rank, play.k, play.twos, play.jokers
    seat = ctx.seat
    opened = ctx.opened
    # The turn after a meld or lay-off is built only where the checks below need it: most
    # plays of a side that has not opened complete the opening, and return here.
    took = play_turn(st, play) if play.kind == "take" else None
    if opened:
        done = True
    elif took is not None:
        done = opening_complete(st, ctx.side, took)
    else:
        goal = opening_goal(st.turn, rank, variant.initial_minimum(st.scores[ctx.side]))
        done = opens(variant, play.kind == "add", rank, k, twos, jokers, goal)
    if done and not opened:
        # The pile's cards join the hand once the initial meld is complete (spec §2.8).
        hand_after += waiting_cards(st, st.turn.waiting if took is None else took.waiting)
        if hand_after >= 2 and not play.obliged:
            return None  # the play completes the opening and nothing below can fail
    turn_after = play_turn(st, play) if took is None else took
    # The position after the play, by counts: placeholder codes of the right ranks.
    counts_after = ctx.counts.copy()
    if rank != WILD_RANK:
        counts_after[rank] -= k
    counts_after[TWO] -= twos
    counts_after[JOKER_RANK] -= jokers
    # The quick test pays off only where the search is long: in hands of `_LARGE_HAND`
    # cards or more. It needs only the ranks on the table, so it runs before the melds
    # after the play are built.
    in_hand = (
        not done
        and hand_after >= _LARGE_HAND
        and opening_in_hand(
            st, ctx.side, counts_after, {rank, *(m.rank for m in ctx.melds)}, turn_after, hand_after
        )
    )
    if in_hand and not play.obliged:
        return None  # a large hand: the opening stays in reach, and nothing below can fail
    melds = ctx.melds
    target = play.target
    if target is None and play.kind != "take":
        melds_after = (*melds, _new_meld(rank, k, twos, jokers))  # the commonest: kept
    else:
        placeholder = _placeholder(rank, k, twos, jokers)
        if play.kind == "take":
            placeholder = (*placeholder, st.pile[-1])
        if target is not None:
            melds_after = replaced(melds, melds.index(target), target.plus(placeholder))
        else:
            melds_after = (*melds, Meld.of(rank, placeholder))
    if hand_after <= 1:
        if (
            hand_after
            and done
            and turn_after.opening  # the side opens in this turn
            and not play.obliged
            and not counts_after[THREE]
            and variant.talon_lowers_floor
            and talon_due(st, ctx.side, turn_after)
        ):
            return None  # TL7 (D33): the talon will fill the hand, one card to discard will do
        if play.obliged and hand_after and turn_after.no_discard:
            return R.MUST_GO_OUT  # the last card cannot be discarded this turn (D11)
        may_out = may_go_out(variant, melds_after, turn_after)
        if not done:
            # D12: an unopened player may still go out concealed without the minimum.
            may_out = may_out and (
                variant.concealed_exempt
                and not turn_after.took_pile
                and concealed_possible(st, seat, turn_after)
                and concealed_done(variant, turn_after.groups)
            )
        if not may_out:
            if turn_after.permission is False and hand_after == 0:
                return R.PERMISSION_DENIED
            return R.HAND_SIZE
        if hand_after == 0 and variant.go_out_needs_discard:
            return R.HAND_SIZE
        return None
    if not done and not in_hand:
        q = query(
            st,
            lookahead.OPEN,
            counts_after,
            melds_after,
            turn_after,
            False,
            concealed_possible(st, seat, turn_after) and not turn_after.took_pile,
        )
        if not lookahead.feasible(variant, q):
            return R.INITIAL_MINIMUM
    if play.obliged:
        if out_impossible(st, counts_after, melds_after):
            return R.MUST_GO_OUT
        q = query(
            st,
            lookahead.OUT,
            counts_after,
            melds_after,
            turn_after,
            done,
            concealed_possible(st, seat, turn_after),
        )
        if not lookahead.feasible(variant, q):
            return R.MUST_GO_OUT
    return None


# --------------------------------------------------------------------------------------
# Discards, asking partner, ending the deal


def discard_block(st: Table) -> R | None:
    """Why no card at all may be discarded now (the same answer for every card)."""
    if st.phase != PLAY:
        return R.WRONG_PHASE
    turn = st.turn
    if turn.no_discard:
        return R.NO_DISCARD
    # The player's facts from the context, which the generator has built by now (this
    # is asked in every play phase).
    ctx = context(st)
    going_out = ctx.hand_len == 1
    if not ctx.opened and (turn.melded or turn.took_pile):
        variant = st.variant
        exempt = (
            going_out
            and variant.concealed_exempt
            and not turn.took_pile
            and concealed_possible(st, ctx.seat, turn)
            and concealed_done(variant, turn.groups)
            and may_go_out(variant, ctx.melds, turn)
        )
        if not exempt:
            return R.OPENING_INCOMPLETE
    if going_out:
        if turn.permission is False or not may_go_out(st.variant, ctx.melds, turn):
            if not turn.must_go_out and opening_talon(st, ctx.seat):
                return None  # TL6: not going out, the talon fills the empty hand
            return R.PERMISSION_DENIED if turn.permission is False else R.CANNOT_GO_OUT
    elif turn.must_go_out:
        return R.MUST_GO_OUT
    return None


def discard_reason(st: Table, code: int) -> R | None:
    """May the card ``code`` (in the hand of the player to move) be discarded?"""
    reason = discard_block(st)
    if reason is not None or not st.variant.restricts_discards:
        return reason
    return st.variant.discard_reason(code, *_discard_facts(st, context(st)))


def _discard_facts(st: Table, ctx: Context) -> tuple[list[int], bool, bool, frozenset[int]]:
    """What the variant's discard rule reads besides the card: the hand by rank, the pile
    empty, the player going out with the discard, the closed ranks."""
    return ctx.counts, not st.pile, ctx.hand_len == 1, ctx.closed


def discard_ranks(st: Table, order: tuple[int, ...]) -> list[int]:
    """Where the variant restricts discards and no block stops them all (`discard_block`):
    the ranks in ``order`` of which the player to move may discard a card, each judged
    as `discard_reason` judges the card ``discard:R`` names (`pattern_at`)."""
    ctx = context(st)
    hand = st.hands[ctx.seat]
    # The facts once for all ranks (this runs in every play phase of such a variant).
    counts, pile_empty, going_out, closed = _discard_facts(st, ctx)
    rule = st.variant.discard_reason
    # Where each rank's cards start in the sorted hand: after those of the lower ranks.
    starts = (0, *accumulate(counts))
    ranks = []
    for rank in order:
        if counts[rank]:
            # The lowest card of the rank, as `pattern_at` finds it (which also puts black
            # threes before red ones): one call per rank fewer where the rank is no three.
            at = starts[rank] if rank != THREE else pattern_at(hand, rank)
            assert at is not None  # the hand holds a card of the rank
            if rule(hand[at], counts, pile_empty, going_out, closed) is None:
                ranks.append(rank)
    return ranks


def ask_reason(st: Table) -> R | None:
    if st.phase != PLAY:
        return R.WRONG_PHASE
    variant = st.variant
    turn = st.turn
    answers = variant.answers
    if turn.melded or turn.asked or turn.no_discard or not answers.has_partners:
        return R.ASK_NOT_ALLOWED
    ctx = context(st)
    if ctx.hand_len < 2:
        # [LIB] after "no" the player must end the turn with a card in hand: with one card
        # there would be no legal move left, so a single card cannot ask.
        return R.ASK_NOT_ALLOWED
    limit = answers.ask_limit
    if limit is not None and st.asked[ctx.seat] >= limit:
        return R.ASK_NOT_ALLOWED
    # Spec §2.11 [LIB]: only when a going-out sequence exists, so "yes" can be honoured.
    if out_impossible(st, ctx.counts, ctx.melds):
        return R.ASK_NOT_ALLOWED
    q = query(
        st,
        lookahead.OUT,
        ctx.counts,
        ctx.melds,
        turn,
        ctx.opened,
        concealed_possible(st, ctx.seat, turn),
    )
    return None if lookahead.feasible(variant, q) else R.ASK_NOT_ALLOWED


def end_reason(st: Table) -> R | None:
    if st.phase == DRAW:
        if st.stock:
            return R.END_NOT_ALLOWED
        variant = st.variant
        ctx = context(st)
        if (
            variant.pickup_forced_after_stock
            and st.pile
            and not (st.frozen or variant.pile_always_frozen or not ctx.opened)
            and any(m.rank == st.pile[-1] >> 2 for m in ctx.melds)
            and take_options(st)
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


def special_reason(st: Table) -> R | None:
    """May the player show the hand as a special hand?

    Right after a draw from the stock (a held three may have been exposed since), before
    any meld, not after partner said no, by a player whose side has not opened (or, with
    the courtesy option, on the first own turn after partner opened).
    """
    # Spec §3.5.11.3 SH1, SH2, SH4; D36.
    if st.phase != PLAY:
        return R.WRONG_PHASE
    turn = st.turn
    ctx = context(st)
    if turn.took_pile or turn.melded or turn.permission is False:
        return R.SPECIAL_NOT_ALLOWED
    if ctx.opened and st.courtesy != ctx.seat:
        return R.SPECIAL_NOT_ALLOWED
    if st.variant.special_hand(ctx.counts) is None:
        return R.NO_SPECIAL_HAND
    return None


def held_three(st: Table) -> int | None:
    """The three the player to move holds in hand, if any."""
    # Spec §3.5.11.4.
    if not st.variant.answers.holds_three:
        return None
    # The hand is sorted: its first three, if any, lies where the threes would start (a
    # search in C, where a scan of the hand would run a Python step a card, in every
    # phase of the variant).
    hand = st.hands[st.to_move or 0]
    at = bisect_left(hand, THREE << 2)
    return hand[at] if at < len(hand) and hand[at] >> 2 == THREE else None


def expose_reason(st: Table, code: int | None) -> R | None:
    """May the player lay the held three ``code`` out now (in an own turn, before or
    after the draw; the replacement keeps the hand's size)?"""
    # Spec §3.5.11.4 H2.
    if st.phase not in (DRAW, PLAY):
        return R.WRONG_PHASE
    if code is None:
        return R.NO_HELD_THREE
    if not st.stock and st.phase == PLAY and len(st.hands[st.to_move or 0]) <= 2:
        return R.HAND_SIZE  # no replacement: a card to hold and one to throw must stay
    return None


# --------------------------------------------------------------------------------------
# Moves as written


#: The moves that name no cards: listed, they are decided by their kind alone.
_PLAIN = frozenset({Draw, End, Ask, Answer})
#: Builds a `Decision` from its fields in order, without the Python frame of the named
#: tuple's own constructor (every move applied makes one).
_new_decision = tuple.__new__


def decide(st: Table, move: Move, listed: bool = False) -> R | Decision:
    """The move's effect with the cards it names resolved, or why it is illegal (every
    check but the look-ahead ones of `after_reason`).

    ``listed``: the move is one of the generator's legal moves, so the checks that only
    refuse (ending, asking, discarding, taking the pile) are skipped; the effect is the
    same.
    """
    if listed:
        if type(move) in _PLAIN:
            # Nothing to resolve, nothing to refuse.
            return _new_decision(Decision, (move, (), None))
        if type(move) is Discard:
            # The commonest listed move after the draw: a card of the hand in the play
            # phase, so only its code is to find (no phase to test, nothing to refuse).
            code = resolve_card(st.hands[st.to_move or 0], move.card)
            return _new_decision(Decision, (move, (code,), None))
    if st.phase == OVER:
        return R.GAME_OVER
    if st.phase == ANSWER:
        return (
            _new_decision(Decision, (move, (), None)) if isinstance(move, Answer) else R.WRONG_PHASE
        )
    hand = st.hands[st.to_move or 0]
    if isinstance(move, Discard):  # the commonest move after the draw: tested first
        code = resolve_card(hand, move.card)
        if code is None:
            return R.NOT_IN_HAND if st.phase == PLAY else R.WRONG_PHASE
        reason = None if listed else discard_reason(st, code)
        return reason if reason is not None else _new_decision(Decision, (move, (code,), None))
    if isinstance(move, Answer):
        return R.WRONG_PHASE
    if isinstance(move, Draw):
        if st.phase != DRAW:
            return R.WRONG_PHASE
        return _new_decision(Decision, (move, (), None)) if st.stock else R.STOCK_EMPTY
    if isinstance(move, Special):
        # The whole hand is shown (spec §3.5.11.3 SH3): the event shows its cards.
        reason = None if listed else special_reason(st)
        return reason if reason is not None else _new_decision(Decision, (move, hand, None))
    if isinstance(move, End | Ask):
        if listed:
            return _new_decision(Decision, (move, (), None))
        reason = end_reason(st) if isinstance(move, End) else ask_reason(st)
        return reason if reason is not None else _new_decision(Decision, (move, (), None))
    if isinstance(move, Expose):
        code = held_three(st)
        if code is not None and resolve_card(hand, move.card) is None:
            return R.NOT_IN_HAND
        reason = expose_reason(st, code)
        if reason is not None:
            return reason
        assert code is not None  # expose_reason refuses a hand without one
        return _new_decision(Decision, (move, (code,), None))
    if isinstance(move, Take):
        if st.phase != DRAW:
            return R.WRONG_PHASE
        codes = resolve(hand, move.cards)
        if codes is None:
            return R.NOT_IN_HAND
        parts = split(codes)
        if parts is None:
            return R.WRONG_RANK
        if not listed:
            top_rank = st.pile[-1] >> 2 if st.pile else None
            if parts[0] is not None and parts[0] != top_rank:
                return R.WRONG_RANK
            reason = _pile_reason(st)
            if reason is not None:
                return reason
        play = take_effect(st, parts[1], parts[2], parts[3], listed)
        return play if isinstance(play, R) else _new_decision(Decision, (move, tuple(codes), play))
    if isinstance(move, MeldCards | LayOff):
        if st.phase != PLAY:
            return R.WRONG_PHASE
        if not move.cards:
            return R.INVALID_MELD  # a play with no cards
        codes = resolve(hand, move.cards)
        if codes is None:
            return R.NOT_IN_HAND
        parts = split(codes)
        if parts is None:
            return R.WRONG_RANK
        rank, k, twos, jokers = parts
        add = isinstance(move, LayOff)
        if isinstance(move, LayOff):
            target = WILD_RANK if move.target == "*" else RANKS.index(move.target)
            if target == WILD_RANK:
                if k:
                    return R.WRONG_RANK
            elif rank is not None and rank != target:
                return R.WRONG_RANK
            if target == THREE:
                return R.NO_SUCH_MELD
            rank = target
        elif rank is None:
            rank = WILD_RANK
        elif rank == THREE and any(c in RED_THREES for c in codes):
            return R.INVALID_MELD  # red threes are never melded (spec §2.6)
        play = play_effect(st, context(st), add, rank, k, twos, jokers)
        return play if isinstance(play, R) else _new_decision(Decision, (move, tuple(codes), play))
    return R.WRONG_PHASE  # pragma: no cover - every Move subclass is handled above


def check(st: Table, move: Move) -> R | None:
    """None if ``move`` is legal in ``st``, else why not."""
    decision = decide(st, move)
    if isinstance(decision, R):
        return decision
    if decision.play is not None:
        return after_reason(st, context(st), decision.play)
    return None


# --------------------------------------------------------------------------------------
# Refusals in words (for error messages only: the reason stays the machine's answer)


def explain(st: Table, move: Move, reason: R) -> str:
    """Why ``move`` is refused in ``st``, in words: ``reason``'s phrase, or for a meld, a
    wild card kept out of a meld and a Modern American discard what exactly is wrong."""
    if isinstance(move, MeldCards | LayOff | Take) and reason in (R.INVALID_MELD, R.TOO_MANY_WILDS):
        return _meld_words(st, move) or reason.value
    if isinstance(move, MeldCards | LayOff) and reason is R.WILD_RULE:
        return _wild_words(st, move) or reason.value
    if (
        isinstance(move, Discard)
        and reason is R.DISCARD_NOT_ALLOWED
        and st.variant.family == "modern"
    ):
        return _discard_words(move.card)
    return reason.value


def _meld_cards(st: Table, move: MeldCards | LayOff | Take) -> tuple[int, int, int] | None:
    """The rank of the meld a play makes or grows, and the natural and wild cards it adds
    (a pickup's top card among them); None for a pickup of an empty pile."""
    naturals = [c for c in move.cards if not c.is_wild]
    k, wilds = len(naturals), len(move.cards) - len(naturals)
    if isinstance(move, Take):
        if not st.pile:
            return None
        return st.pile[-1] >> 2, k + 1, wilds  # the pile's top card joins the meld
    if isinstance(move, LayOff):
        return WILD_RANK if move.target == "*" else RANKS.index(move.target), k, wilds
    return RANKS.index(naturals[0].rank) if naturals else WILD_RANK, k, wilds


def _meld_words(st: Table, move: MeldCards | LayOff | Take) -> str:
    """What is wrong with the meld a play would make, with its counts; "" if unsure."""
    variant = st.variant
    cards = _meld_cards(st, move)
    if cards is None:
        return ""
    rank, k, wilds = cards
    if rank == WILD_RANK and not isinstance(move, LayOff) and not variant.has_wild_melds:
        return "wild cards alone do not make a meld: a meld needs at least 2 natural cards"
    if rank in (THREE, WILD_RANK):
        return ""  # threes and wild melds have rules of their own; the phrase says it
    opening = not st.opened[variant.side_of(st.to_move or 0)]
    target = None
    # A meld is judged alone before it joins the side's meld of its rank (if any).
    if (
        isinstance(move, LayOff)
        or variant.natural_meld_reason(rank, 0, 0, k, wilds, opening) is None
    ):
        target = lay_off_target(variant, st.melds[variant.side_of(st.to_move or 0)], rank)
    n = k + (target.naturals if target is not None else 0)
    w = wilds + (target.wilds if target is not None else 0)
    what = "this meld would have" if target is None else "the meld would then have"
    if n + w < 3:
        return f"too few cards: a meld needs at least 3, {what} {n + w}"
    if n < 2:
        return f"too few natural cards: a meld needs at least 2, {what} {n}"
    if w > variant.max_wilds_per_meld:
        return f"too many wild cards: a meld takes at most {variant.max_wilds_per_meld}, {what} {w}"
    ratio = getattr(variant, "meld_wild_ratio", "")
    if (ratio == "n_gt_w" and w >= n) or (ratio == "n_ge_w" and w > n):
        more = (
            "more natural cards than" if ratio == "n_gt_w" else "at least as many natural cards as"
        )
        return (
            f"too many wild cards: a meld needs {more} wild cards, {what} {n} natural and {w} wild"
        )
    return ""


def _wild_words(st: Table, move: MeldCards | LayOff) -> str:
    """Which rule keeps the wild cards of a play out of its meld, in words; "" if unsure."""
    variant = st.variant
    cards = _meld_cards(st, move)
    assert cards is not None  # a meld or lay-off
    rank, k, wilds = cards
    if rank in (THREE, WILD_RANK):
        return ""
    side = variant.side_of(st.to_move or 0)
    opening = not st.opened[side]
    melds = st.melds[st.meld_side(st.to_move or 0)]
    # As `meld_verdict` judges it: a new meld alone first, then the meld it grows.
    words = "" if isinstance(move, LayOff) else variant.wild_rule_why(rank, 0, 0, k, wilds, opening)
    target = lay_off_target(variant, melds, rank)
    if not words and target is not None:
        words = variant.wild_rule_why(rank, target.naturals, target.wilds, k, wilds, opening)
    if not words and variant.wild_meld_blocks_wilds and wild_incomplete(melds):
        # Spec §3.5.3.
        words = "while the side's meld of wild cards is unfinished, wild cards may go only into it"
    return words


def _discard_words(card: Card) -> str:
    """The Modern American rule that keeps ``card`` from being discarded."""
    # Spec §3.5.6.
    if card.rank == "3":
        return "a three may never be discarded"
    if card.is_wild:
        return "a wild card may be discarded only to go out, or from a hand of wild cards only"
    if card.rank in ("A", "7"):
        return (
            "on an empty pile an ace or a seven may be discarded only from a hand holding "
            "nothing but aces, sevens, threes and wild cards"
        )
    return "the rank is closed: its cards may be discarded only when no other card may be"
