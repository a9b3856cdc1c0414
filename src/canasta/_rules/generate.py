"""The legal-move generator: every legal play once, suit-free, in a fixed order.

Plays are enumerated by counts ("k naturals of rank R, t twos, j jokers"), never by
subsets of the hand, and each candidate is decided by the same functions as `check`
(`canasta._rules.plays`, `pile` and `legality`), so ``legal_moves()`` and ``check()``
cannot disagree.

Order of ``legal_moves()``: ``draw``; ``take`` moves (bare ``take`` first, then by number of
naturals, twos, jokers); ``special``; ``expose:3``; ``ask``; ``meld`` moves by rank (A,
4..K, black threes, wild meld); ``add`` moves by the target meld's rank; ``discard`` moves
by rank (A, 3..K, 2, joker); ``end``; ``yes`` then ``no`` when answering.
"""

from __future__ import annotations

from itertools import compress
from operator import itemgetter

from canasta._rules.facts import context
from canasta._rules.legality import (
    ask_reason,
    discard_block,
    discard_ranks,
    end_reason,
    expose_reason,
    held_three,
    special_reason,
)
from canasta._rules.pile import take_options, wild_splits
from canasta._rules.plays import (
    OBLIGES,
    OpeningGoal,
    after_reason,
    legal_play,
    meld_verdict,
    opening_goal,
    opening_reachable,
    opens,
    rank_facts,
)
from canasta.cards import (
    JOKER_RANK,
    NATURAL_RANKS,
    RANK_VALUES,
    RANKS,
    THREE,
    TWO,
    Card,
)
from canasta.errors import IllegalReason
from canasta.moves import (
    ASK,
    END,
    NO,
    PATTERNS,
    SPECIAL,
    TAKE_LAYOFF,
    YES,
    Discard,
    Expose,
    LayOff,
    MeldCards,
    Move,
    Moves,
    Take,
)
from canasta.moves import (
    DRAW as DRAW_MOVE,
)
from canasta.table import ANSWER, CANASTA_SIZE, DRAW, OVER, WILD_RANK, Table
from canasta.variants.base import Variant

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


#: ``expose:3``: lay out the held three (spec §3.5.11.4).
_EXPOSE = Expose(PATTERNS[THREE])

#: ``discard:R`` for each rank index.
_DISCARDS: tuple[Move, ...] = tuple(_move("discard", rank, 0, 0, 0) for rank in range(14))

#: The ``discard:R`` moves in discard order, and the hand's counts in that order: every
#: play phase lists the ranks held, which `compress` picks without a Python loop.
_ORDERED_DISCARDS = tuple(_DISCARDS[rank] for rank in _DISCARD_ORDER)
_DISCARD_COUNTS = itemgetter(*_DISCARD_ORDER)


def _opening_conceivable(st: Table, counts: list[int]) -> bool:
    """Optimistic bound for an unopened side: could any initial meld be completed?

    Every natural of a rank held at least twice plus every wild, against the minimum; or a
    seven-card group, which may waive the minimum. Only a shortcut: the
    solver decides each move.
    """
    # D12, spec §3.5.4.
    variant = st.variant
    seat = st.to_move
    assert seat is not None
    # No builtin calls (sum, max): asked in every play phase of a side that has not opened.
    wilds = counts[TWO] + counts[JOKER_RANK]
    best = (
        st.turn.opening
        + counts[TWO] * RANK_VALUES[TWO]
        + counts[JOKER_RANK] * RANK_VALUES[JOKER_RANK]
    )
    biggest = 0
    for rank in NATURAL_RANKS:
        count = counts[rank]
        if count >= 2:
            best += count * RANK_VALUES[rank]
            if count > biggest:
                biggest = count
    if best >= variant.initial_minimum(st.scores[variant.side_of(seat)]):
        return True
    return biggest + wilds >= CANASTA_SIZE or wilds >= CANASTA_SIZE or bool(st.turn.groups)


#: A play after the first that `_rank_options` leaves to the look-ahead: (naturals, twos,
#: jokers, `meld_verdict` flags), the flags `_SURE` where the play is known to be legal.
Later = tuple[int, int, int, int]
_SURE = -1
#: What `_rank_options` answers: the plays known to be legal, then the `Later` ones.
Options = tuple[tuple[Move, ...], tuple[Later, ...]]
#: `rank_facts`' answer, a part of the key of `_OPTIONS`.
Facts = tuple[tuple[int, int] | None, tuple[int, int] | None, bool, bool]

#: The answers of `_rank_options`, one dict for each variant and the facts that are the
#: same for every rank of a play phase (the side's wild meld unfinished, the side opening,
#: the opening goal), keyed by the rest of its arguments: the variant and those facts are
#: hashed once per play phase, not once per rank. Random play and search ask the same few
#: questions again and again. Bounded: a dict is emptied when it reaches `_OPTIONS_SIZE`
#: keys, and all of them when `_OPTIONS_DICTS` dicts exist (variants built one after another).
_OPTIONS: dict[
    tuple[Variant, bool, bool, OpeningGoal | None],
    dict[tuple[bool, int, int, int, int, Facts, int], Options],
] = {}
_OPTIONS_SIZE = 1 << 14
_OPTIONS_DICTS = 256


def _rank_options(
    variant: Variant,
    add: bool,
    rank: int,
    naturals: int,
    twos: int,
    jokers: int,
    facts: Facts,
    wild_incomplete: bool,
    opening: bool,
    goal: OpeningGoal | None,
    short: int,
) -> Options:
    """The melds or lay-offs on ``rank`` that the meld rules allow, in the generator's
    order: first the moves known to be legal without a look-ahead (not obliged to go out,
    ``short`` cards or fewer from hand: two stay in it; while ``opening``, completing the
    initial meld, ``goal`` as `opening_goal` gives it, or none without a goal), then the
    rest from the first that `plays.after_reason` must decide on, as `Later` plays.

    The look-ahead aside, legality depends only on these counts: `_play_moves` keeps the
    answers (`_OPTIONS`).
    """
    if rank == WILD_RANK:
        splits = wild_splits(twos, jokers, twos + jokers)
        counts: range = range(1)
        least = 1
    else:
        splits = wild_splits(twos, jokers, variant.max_wilds_per_meld)
        # Spec §2.4: a new meld has two naturals and three cards at least.
        counts = range(naturals + 1) if add else range(2, naturals + 1)
        least = 1 if add else 3
    grow, full, may_start, closed = facts
    kind = "add" if add else "meld"
    sure: list[Move] = []
    rest: list[Later] = []
    verdicts: dict[int, IllegalReason | int] = {}
    for k in counts:
        verdicts.clear()
        for t, j in splits:
            if k + t + j < least:
                continue
            verdict = verdicts.get(t + j)
            if verdict is None:
                verdict = verdicts[t + j] = meld_verdict(
                    variant, add, rank, k, t + j, grow, full, may_start, closed,
                    wild_incomplete, opening,
                )  # fmt: skip
            if isinstance(verdict, IllegalReason):
                continue
            if (
                k + t + j <= short
                and not verdict & OBLIGES
                and (not opening or (goal is not None and opens(variant, add, rank, k, t, j, goal)))
            ):
                if rest:
                    rest.append((k, t, j, _SURE))  # the generator's order: after the first
                else:
                    sure.append(_move(kind, rank, k, t, j))
            else:
                rest.append((k, t, j, verdict))
    return tuple(sure), tuple(rest)


def _refused_with(
    variant: Variant,
    rank: int,
    base: tuple[int, int],
    wild_incomplete: bool,
    k: int,
    twos: int,
    jokers: int,
    refused: list[tuple[int, int, int]],
) -> bool:
    """Is the play of ``k`` naturals of ``rank``, ``twos`` and ``jokers`` by a side that
    has not opened, leaving two cards and obliging nothing, refused for leaving the
    initial meld out of reach, as one of the ``refused`` plays of the rank (counts in the
    same order; all join a meld of ``base`` naturals and wilds, (0, 0) for a new one)
    shows?

    It is where it holds the cards of a refused play and more that a lay-off on that
    play's meld may take (`meld_verdict`): it then leaves the position that the refused
    play followed by that lay-off leaves, which the look-ahead that found no way to the
    opening after the refused play has tried. The caller asks only for a natural rank of
    which the play leaves at most two naturals in hand: the look-ahead melds all of a
    rank's naturals in hand, all but one or two, or none more
    (`lookahead._naturals_choices`; `lookahead._held_back` adds placements only for more
    than three naturals, and only adds), so only then is each way it tries after the
    bigger play (melding none more of the rank among them) one it tried after the refused
    play.
    """
    for k0, t0, j0 in refused:
        if k < k0 or twos < t0 or jokers < j0:
            continue
        verdict = meld_verdict(
            variant, True, rank, k - k0, twos + jokers - t0 - j0,
            (base[0] + k0, base[1] + t0 + j0), None, True, False, wild_incomplete, True,
        )  # fmt: skip
        if not isinstance(verdict, IllegalReason) and not verdict & OBLIGES:
            return True
    return False


def _play_moves(st: Table) -> list[Move]:
    """The ``meld`` and ``add`` moves, in the generator's order."""
    ctx = context(st)
    counts = ctx.counts
    variant = st.variant
    twos, jokers = counts[TWO], counts[JOKER_RANK]
    moves: list[Move] = []
    opening = not ctx.opened
    if opening and not st.turn.must_go_out and not _opening_conceivable(st, counts):
        return moves
    # Not obliged to go out: a play that leaves two cards in hand, and for a side that has
    # not opened completes the opening, needs no look-ahead (plays.after_reason). A side
    # that has not opened asks only in the turn's first play (no pile taken, so no pile
    # cards wait for the opening), which has the most candidates: later plays would
    # multiply the cache's keys by the value so far.
    turn = st.turn
    fast = not turn.must_go_out and not (opening and (turn.opening or turn.groups))
    goal = None
    if opening and fast:
        # No groups yet: the goal is the same for every rank.
        goal = opening_goal(turn, WILD_RANK, variant.initial_minimum(st.scores[ctx.side]))
    wild_incomplete = ctx.wild_incomplete
    options = _OPTIONS.get((variant, wild_incomplete, opening, goal))
    if options is None:
        if len(_OPTIONS) >= _OPTIONS_DICTS:
            _OPTIONS.clear()
        options = _OPTIONS[variant, wild_incomplete, opening, goal] = {}
    held = twos + jokers
    most = variant.max_wilds_per_meld
    # A play of naturals takes at most `most` wild cards: hands holding more share the
    # cache's keys (big hands, read from positions, hit it far more often).
    key_twos, key_jokers, usable = twos, jokers, held
    if held > most:
        key_twos, key_jokers, usable = min(twos, most), min(jokers, most), most
    # The cards a play may take and leave two in hand; each play's ``short`` is capped at
    # what it can take, so that more positions share a key.
    keep = ctx.hand_len - 2 if fast else -1
    on_table = {m.rank for m in ctx.melds}
    # The candidates in the generator's order: melds of the ranks held twice, a meld of
    # wild cards, lay-offs on the side's melds (a natural of the rank or a wild card).
    # Loops, not comprehensions: a comprehension is a call of its own.
    candidates: list[tuple[bool, int, int]] = []
    for rank in _MELD_ORDER:
        if counts[rank] >= 2:
            candidates.append((False, rank, counts[rank]))
    if variant.answers.has_wild_melds and held:
        candidates.append((False, WILD_RANK, 0))
    for rank in _ADD_ORDER:
        if rank in on_table:
            naturals = 0 if rank == WILD_RANK else counts[rank]
            if naturals or held:
                candidates.append((True, rank, naturals))
    asked = False  # `opening_reachable` asked
    for add, rank, naturals in candidates:
        facts = rank_facts(variant, ctx, rank, on_table)
        if rank == WILD_RANK:
            short = held if held < keep else keep
            key = (add, rank, 0, twos, jokers, facts, short)
        else:
            short = naturals + usable
            if short > keep:
                short = keep
            key = (add, rank, naturals, key_twos, key_jokers, facts, short)
        found = options.get(key)
        if found is None:
            if len(options) >= _OPTIONS_SIZE:
                options.clear()
            found = options[key] = _rank_options(
                variant, *key[:6], wild_incomplete, opening, goal, short
            )
        sure, rest = found
        moves += sure
        if not rest:
            continue
        kind = "add" if add else "meld"
        # The plays refused for leaving the initial meld out of reach, and the meld they
        # join (naturals, wilds): a later play of a natural rank that holds more cards
        # and leaves at most two of its naturals may be refused without a search
        # (`_refused_with`).
        refused: list[tuple[int, int, int]] = []
        base = (0, 0)
        for k, t, j, verdict in rest:
            if verdict == _SURE:
                moves.append(_move(kind, rank, k, t, j))
                continue
            if (
                refused
                and not verdict & OBLIGES
                and ctx.hand_len - k - t - j >= 2
                and naturals - k <= 2
                and rank != WILD_RANK
                and not turn.must_go_out
                and _refused_with(variant, rank, base, wild_incomplete, k, t, j, refused)
            ):
                continue
            play = legal_play(st, ctx, add, rank, k, t, j, verdict)
            reason = after_reason(st, ctx, play)
            if reason is None:
                moves.append(_move(kind, rank, k, t, j))
            elif reason is IllegalReason.INITIAL_MINIMUM:
                if not refused and play.target is not None:
                    base = (play.target.naturals, play.target.wilds)
                refused.append((k, t, j))
                if not asked and not moves:
                    # The first play refused for leaving the initial meld out of reach,
                    # none listed yet (a listed play shows the opening is in reach): one
                    # search from the table as it is may refuse all the others at once.
                    asked = True
                    if not opening_reachable(st, ctx):
                        return moves
    return moves


_NONE, _ANSWERS = Moves(), Moves((YES, NO))


def legal_moves(st: Table) -> Moves:
    """Every legal move, suit-free, each play once, in the order of the module docstring."""
    phase = st.phase
    if phase == OVER:
        return _NONE
    if phase == ANSWER:
        return _ANSWERS
    moves: list[Move] = []
    variant = st.variant
    if phase == DRAW:
        if st.stock:
            moves.append(DRAW_MOVE)
        for k, t, j in take_options(st):
            moves.append(TAKE_LAYOFF if not k + t + j else _move("take", st.pile[-1] >> 2, k, t, j))
        if variant.answers.holds_three and expose_reason(st, held_three(st)) is None:
            moves.append(_EXPOSE)
        if end_reason(st) is None:
            moves.append(END)
        return Moves(moves)
    if variant.answers.has_special_hands:
        if special_reason(st) is None:
            moves.append(SPECIAL)
        if expose_reason(st, held_three(st)) is None:
            moves.append(_EXPOSE)
    if ask_reason(st) is None:
        moves.append(ASK)
    moves.extend(_play_moves(st))
    if discard_block(st) is None:
        if variant.restricts_discards:
            moves.extend(_DISCARDS[rank] for rank in discard_ranks(st, _DISCARD_ORDER))
        else:
            moves += compress(_ORDERED_DISCARDS, _DISCARD_COUNTS(context(st).counts))
    if end_reason(st) is None:
        moves.append(END)
    return Moves(moves)
