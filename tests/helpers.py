"""Shared helpers for the worked-example tests (rules spec §6).

Positions are plain dicts in the format of api.md §6, built by :func:`position`, which
fills the seats a test does not care about with inert hands (no pairs, no wilds, no threes)
and gives a short explicit stock, so every position is deterministic. Every position is
checked to be physically possible (at most ``decks`` copies of each suited card and
``2 * decks`` jokers) before the engine sees it, so a test can never pass on impossible data.

Only the public API is used: ``GameState.from_dict``, ``check``, ``is_legal``, ``apply``,
``play``, ``legal_moves``, ``outcome``, ``to_dict``, ``parse_cards`` and ``parse_move``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

import canasta

SEATS = {
    "classic": 4,
    "classic-2p": 2,
    "classic-3p": 3,
    "classic-3p-cutthroat": 3,
    "classic-6p": 6,
    "dutch-s4": 4,
}
DECKS = {"classic-6p": 3}
NATURAL_RANKS = "456789TJQKA"
SUITS = "SHDC"
_FILL_SUITS = "CDHS"  # filler hands take clubs first, spades last


# -- cards -----------------------------------------------------------------------------


def tokens(cards: str | Iterable[str]) -> list[str]:
    """Canonical card tokens (``"TS"``, ``"*"``) of a card string or list of card texts."""
    text = cards if isinstance(cards, str) else " ".join(cards)
    return [str(c) for c in canasta.parse_cards(text)]


def bag(cards: str | Iterable[str]) -> Counter[str]:
    """The multiset of a card string or list of card texts."""
    return Counter(tokens(cards))


def value(cards: str | Iterable[str]) -> int:
    """Sum of card values (spec §1.2, red three = 0)."""
    return sum(c.value for c in canasta.parse_cards(" ".join(tokens(cards))))


def _pool(decks: int) -> Counter[str]:
    pool: Counter[str] = Counter()
    for rank in "A23456789TJQK":
        for suit in SUITS:
            pool[rank + suit] = decks
    pool["*"] = 2 * decks
    return pool


def _all_cards(d: Mapping[str, Any]) -> Counter[str]:
    used: Counter[str] = Counter()
    for hand in d.get("hands", []):
        used += bag(hand)
    for key in ("pile", "stock"):
        if key in d:
            used += bag(d[key])
    for side in d.get("melds", []):
        for meld in side:
            used += bag(meld)
    for threes in d.get("threes", []):
        used += bag(threes)
    return used


def assert_physical(d: Mapping[str, Any], decks: int = 2) -> None:
    """Fail if the position uses any card more often than ``decks`` decks hold (spec §0.1)."""
    pool = _pool(decks)
    too_many = {c: n for c, n in _all_cards(d).items() if n > pool[c]}
    assert not too_many, f"test data is physically impossible: {too_many}"


# -- positions -------------------------------------------------------------------------


def _variant_name(variant: Any) -> str:
    if isinstance(variant, str):
        return variant
    if isinstance(variant, Mapping):
        return str(variant.get("variant", "classic"))
    return str(variant.to_config().get("variant", "classic"))


def position(
    *,
    hands: Mapping[int, str] | None = None,
    variant: Any = "classic",
    seats: int | None = None,
    decks: int | None = None,
    pile: str = "",
    stock: str | None = None,
    melds: Iterable[Iterable[str]] | None = None,
    threes: Iterable[str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A position dict (api.md §6), 4-player classic unless ``variant`` says otherwise.

    ``hands`` maps seats to card strings; every other seat gets an inert filler hand of
    eleven cards of distinct natural ranks. Without ``stock`` the stock is eight inert
    natural cards. ``variant`` may be a name, a config mapping or a ``Variant`` (then pass
    ``seats``/``decks`` when they differ from the classic 4-player game). Any further keyword
    (``to_move``, ``phase``, ``scores``, ``melded_seats``, ``went_out``, ...) is copied in.
    """
    name = _variant_name(variant)
    n_seats = seats if seats is not None else SEATS.get(name, 4)
    n_decks = decks if decks is not None else DECKS.get(name, 2)
    n_sides = {2: 2, 3: 3, 4: 2, 6: 2}[n_seats]
    given = dict(hands or {})
    d: dict[str, Any] = {
        "variant": variant if isinstance(variant, str | Mapping) else variant.to_config(),
        "hands": [given.get(s, "") for s in range(n_seats)],
        "pile": pile,
        "melds": [list(m) for m in melds] if melds is not None else [[] for _ in range(n_sides)],
        "threes": list(threes) if threes is not None else ["" for _ in range(n_sides)],
    }
    if stock is not None:
        d["stock"] = stock
    d.setdefault("to_move", 0)
    d.setdefault("phase", "draw")
    d.update(extra)

    free = _pool(n_decks) - _all_cards(d)

    def take_inert(count: int) -> list[str]:
        out: list[str] = []
        while len(out) < count:
            before = len(out)
            for rank in NATURAL_RANKS:
                for suit in _FILL_SUITS:
                    card = rank + suit
                    if free[card] > 0 and len(out) < count:
                        free[card] -= 1
                        out.append(card)
                        break
            assert len(out) > before, "no cards left for filler hands"
        return out

    for s in range(n_seats):
        if s not in given:
            d["hands"][s] = " ".join(take_inert(11))
    if stock is None:
        d["stock"] = " ".join(take_inert(8))
    assert_physical(d, n_decks)
    return d


def state_of(d: Mapping[str, Any]) -> canasta.GameState:
    return canasta.GameState.from_dict(dict(d))


def hand(state: canasta.GameState, seat: int) -> Counter[str]:
    return bag(state.to_dict()["hands"][seat])


def pile(state: canasta.GameState) -> list[str]:
    return tokens(state.to_dict().get("pile") or "")


def stock(state: canasta.GameState) -> list[str]:
    return tokens(state.to_dict().get("stock") or "")


def threes(state: canasta.GameState, side: int) -> Counter[str]:
    return bag(state.to_dict()["threes"][side])


def melds(state: canasta.GameState, side: int) -> list[Counter[str]]:
    return [bag(m) for m in state.to_dict()["melds"][side]]


def meld_of(state: canasta.GameState, side: int, rank: str) -> Counter[str]:
    """The side's meld of natural rank ``rank`` (exactly one must exist)."""
    found = [m for m in melds(state, side) if any(c[0] == rank for c in m)]
    assert len(found) == 1, f"side {side} has {len(found)} melds of rank {rank}: {found}"
    return found[0]


# -- moves -----------------------------------------------------------------------------

_SUIT_AFTER_RANK = re.compile(r"(?<=[A2-9TJQK])[SHDC]")


def suitless(move: str) -> str:
    """The suit-free form of a move as ``legal_moves()`` lists it: ``take:5H2D`` -> ``take:52``."""
    head, sep, arg = move.partition(":")
    if not sep:
        return move
    if head == "add":
        target, _, cards = arg.partition("+")
        return f"add:{target}+{_SUIT_AFTER_RANK.sub('', cards)}"
    return f"{head}:{_SUIT_AFTER_RANK.sub('', arg)}"


def listed(state: canasta.GameState, move: str) -> bool:
    """True if ``move`` (written without suits) is among ``state.legal_moves()``."""
    return canasta.parse_move(move) in state.legal_moves()


def move_texts(state: canasta.GameState) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def assert_legal(
    state: canasta.GameState, move: str, *, check_listed: bool = True
) -> canasta.GameState:
    """Assert ``move`` is legal (and its suit-free form is listed); return the new state."""
    assert state.check(move) is None, f"{move} should be legal, engine says {state.check(move)}"
    assert state.is_legal(move)
    if check_listed:
        pattern = suitless(move)
        assert listed(state, pattern), f"{pattern} missing from legal_moves(): {move_texts(state)}"
    return state.apply(move)


def assert_illegal(
    state: canasta.GameState,
    move: str,
    *reasons: Any,
    check_pattern: bool = True,
) -> None:
    """Assert ``move`` is illegal: ``check``/``is_legal`` agree, ``apply`` raises
    ``IllegalMoveError`` and the state is unchanged, and (unless ``check_pattern`` is
    false) the suit-free form is neither legal nor listed. With ``reasons``, the
    reported reason must be one of them.
    """
    before = state.to_dict()
    reason = state.check(move)
    assert reason is not None, f"{move} should be illegal"
    assert not state.is_legal(move)
    if reasons:
        assert reason in reasons, f"{move}: reason {reason}, expected one of {reasons}"
    with pytest.raises(canasta.IllegalMoveError) as info:
        state.apply(move)
    assert info.value.reason == reason
    assert state.to_dict() == before
    assert canasta.GameState.from_dict(before) == state
    if check_pattern:
        pattern = suitless(move)
        assert not state.is_legal(pattern), f"{pattern} should be illegal"
        assert not listed(state, pattern), f"{pattern} listed by legal_moves()"


def play(state: canasta.GameState, *moves: str) -> canasta.GameState:
    """Apply moves one by one, each checked with :func:`assert_legal`."""
    for move in moves:
        state = assert_legal(state, move)
    return state


def action_is_legal(state: canasta.GameState, moves: Iterable[str]) -> bool:
    """True if every move of ``moves`` is legal in turn (the last usually a discard)."""
    for move in moves:
        if not state.is_legal(move):
            return False
        state = state.apply(move)
    return True


def no_meld_moves(state: canasta.GameState) -> bool:
    """True if ``legal_moves()`` holds no meld, lay-off or take."""
    return not any(t.split(":")[0] in ("meld", "add", "take") for t in move_texts(state))


# -- outcomes --------------------------------------------------------------------------


def line(state: canasta.GameState, side: int, label: str) -> int:
    """Points of one breakdown line (0 when the engine omits a zero line)."""
    outcome = state.outcome()
    assert outcome is not None
    return int(dict(outcome.breakdown[side]).get(label, 0))


def assert_breakdown_adds_up(state: canasta.GameState) -> None:
    outcome = state.outcome()
    assert outcome is not None
    for side, score in enumerate(outcome.scores):
        assert sum(points for _, points in outcome.breakdown[side]) == score
