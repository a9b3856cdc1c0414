"""What the table sees of each move: its public event, and the memory it leaves.

Every move is made face up except the cards drawn from the stock: the cards melded, laid
off or discarded, the pile taken, the threes laid out. `event` records that for the log,
and `remember` carries the table's memory forward one move, so that what a seat knows
never has to be rebuilt from the whole history.
"""

from __future__ import annotations

from canasta._rules.legality import Decision
from canasta.moves import Discard, Draw, Take
from canasta.table import Memory, Step, Table


def fresh_memory(table: Table) -> Memory:
    """The memory at the start of a deal (or of a position read with none): nothing known."""
    empty = ((),) * table.variant.players
    return Memory(known=empty, discarded=empty)


def step(log: Step | None, before: Table, decision: Decision, after: Table) -> Step:
    """``log`` with the public event of ``decision``, which led from ``before`` to
    ``after``."""
    seat = before.to_move
    assert seat is not None
    side = before.variant.side_of(seat)
    move = decision.move
    threes = after.threes[side]
    notes: tuple[tuple[str, int, tuple[int, ...]], ...] = ()
    if before.variant.holds_three and after.to_move is not None:
        # Spec §3.5.11.4 H3: the next player's held three went down as the turn began.
        other = before.variant.side_of(after.to_move)
        if other != side and after.threes[other] is not before.threes[other]:
            laid = after.threes[other][len(before.threes[other]) :]
            notes = (("three", after.to_move, laid),)
    return Step(
        log,
        1 if log is None else log.length + 1,
        seat,
        move,
        decision.codes,
        before.pile if type(move) is Take else (),
        threes[len(before.threes[side]) :] if threes is not before.threes[side] else (),
        notes,
    )


def _without(known: tuple[int, ...], codes: tuple[int, ...]) -> tuple[int, ...]:
    rest = list(known)
    for code in codes:
        if code in rest:
            rest.remove(code)
    return tuple(rest)


def remember(memory: Memory, before: Table, decision: Decision, after: Table) -> Memory:
    """The memory after ``decision``: cards known in hands (taken from the pile, not
    played since) and each seat's discards."""
    move = decision.move
    kind = type(move)
    if kind is Draw:
        return memory  # nobody sees the cards drawn
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
        return Memory(known=known, discarded=discarded)
    # The pile cards that the move sent into the hand: at once for an opened side, or
    # when the initial meld completes (spec §2.7, §2.8).
    waiting = before.pile[:-1] if kind is Take else before.turn.waiting
    joined = waiting and not after.turn.waiting
    own = memory.known[seat]
    if not joined and not (own and codes):
        return memory
    own = _without(own, codes)
    if joined:
        laid = before.variant.laid_out_threes
        own = tuple(sorted(own + tuple(c for c in waiting if c not in laid)))
    known = memory.known[:seat] + (own,) + memory.known[seat + 1 :]
    return Memory(known=known, discarded=memory.discarded)
