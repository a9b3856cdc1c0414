"""Legality: what a move does, and whether it may be made.

`decide` turns a move into its effect (`Play` for a meld, lay-off or pickup): which
cards, which meld it goes to, what it obliges. `check` validates that effect, and
`canasta._rules.transitions` commits it, so every rule is decided once. The melds and
lay-offs and the position after a play are decided in `canasta._rules.plays`, taking the
pile in `canasta._rules.pile`, by counts: that is what the generator asks for each
candidate play, without building a move first. Here are the other moves (discarding,
asking partner, ending, a special hand, a held three), also asked by the generator, and
the moves as written; `canasta._rules.explain` puts a refusal in words.
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import accumulate
from typing import NamedTuple

from canasta._rules import lookahead
from canasta._rules.facts import (
    Context,
    concealed_done,
    concealed_possible,
    context,
    may_go_out,
    opening_talon,
    out_impossible,
    pattern_at,
    query,
    resolve,
    resolve_card,
    split,
    waiting_cards,
)
from canasta._rules.pile import pile_reason, take_effect, take_options
from canasta._rules.plays import Play, after_reason, play_effect
from canasta.cards import RANKS, RED_THREES, THREE
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
from canasta.table import ANSWER, DRAW, OVER, PLAY, WILD_RANK, Table, evolve


class Decision(NamedTuple):
    """A move with what it takes from the hand: the codes and, for plays, their effect."""

    move: Move
    codes: tuple[int, ...]
    play: Play | None


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
    if not ctx.opened and waiting_cards(st, turn.waiting):
        # [LIB] the pile's other cards join the hand once the opening is complete, and
        # going out would have to meld them too, after the opening: the look-ahead judges
        # the hand alone, so it cannot promise that "yes" can be honoured.
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
    if not lookahead.feasible(variant, q):
        return R.ASK_NOT_ALLOWED
    if ctx.opened or not turn.took_pile:
        return None  # after "no" the player discards, as in any turn
    # [LIB] and "no" too: a player who took the pile must complete the opening this turn,
    # so it needs a way to do so without going out (where only going out would complete
    # it, "no" would leave no legal move).
    q = query(
        st, lookahead.OPEN, ctx.counts, ctx.melds, evolve(turn, permission=False), False, False
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
            reason = pile_reason(st)
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
