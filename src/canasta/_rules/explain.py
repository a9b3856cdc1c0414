"""Refusals in words, for error messages only: the reason stays the machine's answer.

`explain` says why a move that `canasta._rules.legality.check` refused is refused: the
reason's phrase, or for a meld, a wild card kept out of a meld and a Modern American
discard what exactly is wrong. `canasta.state` asks it for the message of the error it
raises.
"""

from __future__ import annotations

from canasta._rules.facts import lay_off_target, wild_incomplete
from canasta.cards import RANKS, THREE, Card
from canasta.errors import IllegalReason as R
from canasta.moves import Discard, LayOff, MeldCards, Move, Take
from canasta.table import WILD_RANK, Table


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
