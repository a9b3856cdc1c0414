"""Melds and lay-offs by counts, and the position after a play.

`meld_verdict` decides a meld or lay-off of "k naturals of rank R, t twos, j jokers" in
the play phase by counts, and `play_effect` turns it into its effect (`Play`: which meld
it goes to, what it obliges) or why it is invalid; `opens` says whether it completes the
initial meld. `after_reason` then looks at the position after any play, a pickup of the
pile included (`take_after_reason`): the hand left, the initial meld still reachable,
going out still possible when due (the questions of `canasta._rules.lookahead`).

The generator asks these for each candidate play, without building a move first;
`canasta._rules.pile` for each pickup, `canasta._rules.legality` for a move as written,
and `canasta._rules.transitions` for the turn after a play (`play_turn`).
"""

from __future__ import annotations

from collections.abc import Container
from functools import cache
from typing import NamedTuple

from canasta._rules import lookahead
from canasta._rules.facts import (
    Context,
    concealed_done,
    concealed_possible,
    context,
    group,
    joined,
    lay_off_target,
    may_go_out,
    new_ok,
    opening_complete,
    opening_in_hand,
    out_impossible,
    query,
    replaced,
    talon_due,
    waiting_cards,
    with_group,
)
from canasta.cards import JOKER, JOKER_RANK, NATURAL_RANKS, RANK_VALUES, THREE, TWO, card_value
from canasta.errors import IllegalReason as R
from canasta.table import NEW_TURN, PLAY, WILD_RANK, Meld, Table, Turn, evolved
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


#: The positions after plays that `_continues` has judged in one search, by their counts,
#: melds and turn: whether a play can follow.
Seen = dict[tuple[object, ...], bool]


def after_reason(st: Table, ctx: Context, play: Play, seen: Seen | None = None) -> R | None:
    """The checks that look at the position after ``play``: the
    hand left, the initial meld still reachable, going out still possible when due
    (``seen``: for the searches of `_continues`, which ask this again)."""
    # Spec §2.8, §2.9, §2.11.
    if play.kind == "take":
        return take_after_reason(st, ctx.opened, play)
    hand_after = play.hand_after
    if ctx.opened and not play.obliged and hand_after >= 2:
        return None  # nothing below can fail: skip building the position after
    reason = _after_position_reason(st, ctx, play, hand_after, seen)
    if play.rank == THREE and play.kind == "meld" and reason in (R.MUST_GO_OUT, R.HAND_SIZE):
        return R.BLACK_THREES  # spec §2.6: only in the turn the player goes out
    return reason


def _waiting_reason(
    st: Table,
    ctx: Context,
    play: Play,
    counts_after: list[int],
    melds_after: tuple[Meld, ...],
    turn_after: Turn,
    in_hand: bool,
    seen: Seen | None,
) -> R | None:
    """`after_reason` for a play after which pile cards still wait to join the hand, the
    initial meld incomplete (the pickup's turn), and two cards or more stay in hand.

    The pile's other cards join the hand once the initial meld is complete, and a going
    out must meld them too; the look-ahead judges the hand alone. So it answers only for
    an opening that keeps cards in hand. Otherwise, going out (which the play may oblige,
    or which alone completes the opening: black threes, a meld past the cap), another play
    must be able to follow this one: the position after it is searched play by play, each
    judged as the generator judges it, down to the one that completes the opening, after
    which the waiting cards are in hand (`_continues`)."""
    # Spec §2.8, §2.6, D28.
    refused = R.MUST_GO_OUT if play.obliged else R.INITIAL_MINIMUM
    if not play.obliged:
        if in_hand:
            return None
        outlook = _waiting_outlook(st, counts_after, melds_after, turn_after)
        if outlook is not None:
            return None if outlook else refused
    elif not _out_with_waiting(st, counts_after, melds_after, turn_after):
        # The player must go out this turn, melding the waiting cards too: that must be
        # possible at all (the search below is long where it is not).
        return refused
    if _continues(
        st, ctx.seat, counts_after, melds_after, turn_after, {} if seen is None else seen
    ):
        return None
    return refused


def _waiting_outlook(
    st: Table, counts: list[int], melds: tuple[Meld, ...], turn: Turn
) -> bool | None:
    """While pile cards wait to join the hand: True if the player can complete the
    initial meld this turn keeping cards in hand, False if not and no going out could
    complete it either, None if only a going out (which melds the waiting cards too)
    could, as the order of the plays allows.

    A going out adds ways to complete the opening only where it melds what nothing else
    may (`lookahead.going_out_may_open`), or with a single waiting card, which may then
    be the discard that goes out."""
    q = query(st, lookahead.OPEN, counts, melds, turn, False, False)
    variant = st.variant
    if lookahead.reachable_without_going_out(variant, q):
        return True
    may_open = lookahead.going_out_may_open(variant, q) or waiting_cards(st, turn.waiting) == 1
    return None if may_open and _out_with_waiting(st, counts, melds, turn) else False


def _out_with_waiting(st: Table, counts: list[int], melds: tuple[Meld, ...], turn: Turn) -> bool:
    """Could the player go out this turn with ``counts`` in hand, the side's ``melds`` and
    the pile's waiting cards, all in hand as if the initial meld were complete? (A
    condition for going out in the turn of a pickup opening: the order aside.)"""
    every = joined(st, counts, turn.waiting)
    return not out_impossible(st, every, melds) and lookahead.feasible(
        st.variant, query(st, lookahead.OUT, every, melds, turn, True, False)
    )


def _continues(
    st: Table,
    seat: int,
    counts: list[int],
    melds: tuple[Meld, ...],
    turn: Turn,
    seen: Seen,
) -> bool:
    """May ``seat`` make some play in the position after a play (the hand by ``counts``,
    the side's ``melds``, ``turn``)? Each is judged as the generator judges it, which for
    a play of the same kind asks this again, one play further (``seen``: the answers of
    this search)."""
    key = (tuple(counts), tuple(sorted((m.rank, m.naturals, m.wilds) for m in melds)), turn)
    known = seen.get(key)
    if known is not None:
        return known
    hand = _hand_of(counts)
    after = evolved(
        st,
        {
            "hands": replaced(st.hands, seat, hand),
            "melds": replaced(st.melds, st.meld_side(seat), melds),
            "turn": turn,
            "phase": PLAY,
        },
    )
    found = seen[key] = _any_play(after, seen)
    return found


def _hand_of(counts: list[int]) -> tuple[int, ...]:
    """A hand of these counts by rank, in card codes (suits never matter to the rules)."""
    return tuple(code for rank, n in enumerate(counts) for code in _placeholder(rank, n, 0, 0))


def _any_play(st: Table, seen: Seen) -> bool:
    """Is some meld or lay-off legal in ``st`` (the search of `_continues`)?"""
    ctx = context(st)
    counts = ctx.counts
    variant = st.variant
    twos, jokers = counts[TWO], counts[JOKER_RANK]
    on_table = {m.rank for m in ctx.melds}
    most = min(twos + jokers, variant.max_wilds_per_meld)
    # Most cards first: the plays likeliest to complete the opening.
    candidates = [(False, rank, counts[rank], most) for rank in (*NATURAL_RANKS, THREE)]
    candidates += [(True, rank, counts[rank], most) for rank in NATURAL_RANKS if rank in on_table]
    candidates.append((False, WILD_RANK, 0, twos + jokers))
    if WILD_RANK in on_table:
        candidates.append((True, WILD_RANK, 0, twos + jokers))
    for add, rank, naturals, wilds in candidates:
        for k in range(naturals, -1, -1):
            for w in range(wilds, -1, -1):
                for t in range(min(w, twos), max(w - jokers, 0) - 1, -1):
                    if not k + w:
                        continue
                    play = play_effect(st, ctx, add, rank, k, t, w - t)
                    if not isinstance(play, R) and after_reason(st, ctx, play, seen) is None:
                        return True
    return False


def take_after_reason(st: Table, opened: bool, play: Play) -> R | None:
    """`after_reason` for a pickup by a side that has ``opened`` or not: the player's
    Context is built only where the position after it is looked at (a side that has not
    opened, or one left with fewer than two cards), not for every pickup weighed."""
    hand_after = after_pickup(st, opened, play.hand_after)
    if hand_after is None:
        return None  # nothing can fail: skip building the position after
    return _after_position_reason(st, context(st), play, hand_after)


def after_pickup(st: Table, opened: bool, hand_after: int) -> int | None:
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


def opening_reachable(st: Table, ctx: Context) -> bool:
    """Can the player, whose side has not opened, still complete the initial meld this
    turn from the table as it is (or go out concealed)?

    If not, no meld or lay-off is legal: a play that left the opening reachable, followed
    by the plays that complete it, would be a way to complete it from here. So one search
    answers for every candidate play, each of which would otherwise search on its own.
    """
    # Spec §2.8, D12.
    turn = st.turn
    if waiting_cards(st, turn.waiting):
        # Where pile cards wait to join the hand, a play is legal when after it the
        # opening can be completed keeping cards in hand, or when going out with the
        # waiting cards could follow (`_waiting_reason`); neither is possible after any
        # play unless it is possible now.
        return _waiting_outlook(st, ctx.counts, ctx.melds, turn) is not False
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


def _after_position_reason(
    st: Table, ctx: Context, play: Play, hand_after: int, seen: Seen | None = None
) -> R | None:
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
    joining = 0
    if done and not opened:
        # The pile's cards join the hand once the initial meld is complete (spec §2.8).
        joining = waiting_cards(st, st.turn.waiting if took is None else took.waiting)
        hand_after += joining
        if hand_after >= 2 and not play.obliged:
            return None  # the play completes the opening and nothing below can fail
    turn_after = play_turn(st, play) if took is None else took
    # The position after the play, by counts: placeholder codes of the right ranks.
    counts_after = ctx.counts.copy()
    if rank != WILD_RANK:
        counts_after[rank] -= k
    counts_after[TWO] -= twos
    counts_after[JOKER_RANK] -= jokers
    if joining:
        # Going out, which the play obliges, must meld the joining cards too.
        counts_after = joined(st, counts_after, turn_after.waiting)
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
    if not done and waiting_cards(st, turn_after.waiting):
        return _waiting_reason(st, ctx, play, counts_after, melds_after, turn_after, in_hand, seen)
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
