"""What the table sees of each move: its public event, and the memory it leaves.

Every move is made face up except the cards drawn from the stock: the cards melded, laid
off or discarded, the pile taken, the threes laid out. `event` records that for the log,
and `remember` carries the table's memory forward one move, so that what a seat knows
never has to be rebuilt from the whole history.
"""

from __future__ import annotations

from canasta._rules.legality import Decision
from canasta.moves import Discard, Draw, Take
from canasta.table import TURN_CARD_DEPTH, Memory, RawNote, Step, Table

#: Build a `Step` and a `Memory` from their fields in order, without the Python frame of
#: the named tuple's own constructor (every move applied makes one of each).
_new_step = _new_memory = tuple.__new__


def fresh_memory(table: Table) -> Memory:
    """The memory at the start of a deal (or of a position read with none): nothing known."""
    empty = ((),) * table.variant.players
    return Memory(known=empty, discarded=empty)


def step(log: Step | None, before: Table, decision: Decision, after: Table) -> Step:
    """``log`` with the public event of ``decision``, which led from ``before`` to
    ``after``."""
    seat = before.to_move
    assert seat is not None
    move = decision.move
    laid: tuple[int, ...] = ()
    notes: tuple[RawNote, ...] = ()
    # Most moves lay no three out: the threes are the same tuple before and after.
    if after.threes is not before.threes:
        answers = before.variant.answers
        side = answers.side[seat]
        threes = after.threes[side]
        if threes is not before.threes[side]:
            laid = threes[len(before.threes[side]) :]
        if answers.holds_three and after.to_move is not None:
            # Spec §3.5.11.4 H3: the next player's held three went down as the turn began.
            other = answers.side[after.to_move]
            if other != side and after.threes[other] is not before.threes[other]:
                held = after.threes[other][len(before.threes[other]) :]
                notes = (("three", after.to_move, held, 0),)
    if after.club is not before.club:
        notes = _club_notes(before, after, seat, notes)
    return _new_step(
        Step,
        (
            log,
            1 if log is None else log.length + 1,
            seat,
            move,
            decision.codes,
            before.pile if type(move) is Take else (),
            laid,
            notes,
        ),
    )


def _club_notes(
    before: Table, after: Table, seat: int, notes: tuple[RawNote, ...]
) -> tuple[RawNote, ...]:
    """``notes`` with the talon ``seat`` took and the turn card shown during the move."""
    was, club = before.club, after.club
    assert was is not None and club is not None
    if club.talon_taken != was.talon_taken:
        # Spec §3.5.11.1 TL3: the opener took the talon; the others see its size only.
        size = club.talon_taken[before.variant.side_of(seat)]
        notes = (("talon", seat, (), size), *notes)
    turn_card = club.turn_card
    if turn_card is not None and was.turn_card is None:
        # Spec §3.5.11.2 TC3: whoever took the turn card announced it.
        notes = (*notes, ("turn_card", _turn_card_taker(before, after, seat), (turn_card,), 0))
    return notes


def _turn_card_taker(before: Table, after: Table, seat: int) -> int:
    """The seat that took the turn card during ``seat``'s move: the mover, or the next
    player when the card came as the replacement of a held three laid out as that
    player's turn began (the move's last draws from the stock)."""
    # Spec §3.5.11.2 TC3, §3.5.11.4 H3.
    after_seat = after.to_move
    if after_seat is None or after_seat == seat:
        return seat
    variant = before.variant
    other = variant.side_of(after_seat)
    # The next player drew one card per three laid out, as far as the stock lasted.
    laid = len(after.threes[other]) - len(before.threes[other])
    drawn = len(after.hands[after_seat]) - len(before.hands[after_seat]) + laid
    return after_seat if len(after.stock) + drawn >= TURN_CARD_DEPTH else seat


def _shown_turn_card(memory: Memory, before: Table, after: Table) -> Memory:
    """The memory with the turn card known to be in the hand that took it, if the move
    showed it (a three goes face up instead)."""
    # Spec §3.5.11.2 TC3.
    was, club = before.club, after.club
    if was is None or club is None or club.turn_card is was.turn_card:
        return memory
    code = club.turn_card
    assert code is not None and before.to_move is not None
    taker = _turn_card_taker(before, after, before.to_move)
    if code not in after.hands[taker]:
        return memory
    own = tuple(sorted((*memory.known[taker], code)))
    known = memory.known[:taker] + (own,) + memory.known[taker + 1 :]
    return _new_memory(Memory, (known, memory.discarded))


def _without(known: tuple[int, ...], codes: tuple[int, ...]) -> tuple[int, ...]:
    rest = list(known)
    for code in codes:
        if code in rest:
            rest.remove(code)
    return tuple(rest)


def remember(memory: Memory, before: Table, decision: Decision, after: Table) -> Memory:
    """The memory after ``decision``: cards known in hands (taken from the pile or shown
    as the turn card, not played since) and each seat's discards."""
    move = decision.move
    kind = type(move)
    # The turn card goes into a hand last of all in a move (after a discard, a lay-out).
    shown = after.club is not before.club
    if kind is Draw:
        # Nobody sees the cards drawn, the turn card aside.
        return _shown_turn_card(memory, before, after) if shown else memory
    seat = before.to_move
    assert seat is not None
    codes = decision.codes
    if kind is Discard:
        # A discard: its card leaves the hand (and what was known of it) for the pile.
        known = memory.known
        own = known[seat]
        if own and codes[0] in own:
            known = known[:seat] + (_without(own, codes),) + known[seat + 1 :]
        discarded = memory.discarded
        discarded = discarded[:seat] + (discarded[seat] + codes,) + discarded[seat + 1 :]
        memory = _new_memory(Memory, (known, discarded))
    else:
        # The pile cards that the move sent into the hand: at once for an opened side, or
        # when the initial meld completes (spec §2.7, §2.8).
        waiting = before.pile[:-1] if kind is Take else before.turn.waiting
        joined = waiting and not after.turn.waiting
        own = memory.known[seat]
        if joined or (own and codes):
            own = _without(own, codes)
            if joined:
                laid = before.variant.laid_out_threes
                own = tuple(sorted(own + tuple(c for c in waiting if c not in laid)))
            known = memory.known[:seat] + (own,) + memory.known[seat + 1 :]
            memory = _new_memory(Memory, (known, memory.discarded))
    if after.threes is not before.threes:
        # A held three exposed (spec §3.5.11.4 H2), or threes that went down as a turn
        # ended (the opener's or the next player's held three, H3).
        memory = _without_laid_threes(memory, after)
    return _shown_turn_card(memory, before, after) if shown else memory


def _without_laid_threes(memory: Memory, after: Table) -> Memory:
    """The memory without the known threes that left their hands face up: a three known
    to be in a hand (the turn card that hand took, held as its one three) is known no
    longer once it goes down among the side's threes."""
    # Spec §3.5.11.2 TC3, §3.5.11.4 H1.
    laid = after.variant.laid_out_threes
    known = list(memory.known)
    for seat, own in enumerate(known):
        if laid.isdisjoint(own):
            continue  # no three known in this hand (nearly always)
        hand = after.hands[seat]
        # With two decks a hand may hold a copy of the three that went down: only the
        # copies beyond the hand's are forgotten.
        gone = [c for c in laid.intersection(own) for _ in range(own.count(c) - hand.count(c))]
        known[seat] = _without(own, tuple(gone))
    return _new_memory(Memory, (tuple(known), memory.discarded))
