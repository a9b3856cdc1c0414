"""Shared builders and assertions for the Modern American Canasta tests.

Rules: spec §3.5 (MAC), D22-D28 of §4, the MAC rows of §5 and the examples EX-40 … EX-55 of
§6.7 (``shared/rules/canasta-rules.md``). Only the public API is used
(``GameState.from_dict``, ``check``, ``is_legal``, ``apply``, ``play``, ``legal_moves``,
``outcome``, ``to_dict``, ``parse_cards``, ``parse_move``, ``variants.get``).

MAC positions: 4 seats, side 0 = seats 0 and 2, side 1 = seats 1 and 3. Every position is
checked to be physically possible (at most two copies of each suited card, at most four
jokers) before the engine sees it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

import canasta

VARIANT = "modern-american"
SIDES = 2
SEATS = 4

#: Breakdown labels of a MAC outcome (engine contract).
MAC_LABELS = frozenset(
    {
        "going out",
        "natural canastas",
        "mixed canastas",
        "natural sevens",
        "natural aces",
        "wild canastas",
        "threes",
        "unfinished melds",
        "melded cards",
        "cards in hand",
        "aces and sevens held",
        "special hand",
    }
)


# -- cards -----------------------------------------------------------------------------


def tokens(cards: str | Iterable[str]) -> list[str]:
    """Canonical card texts (``"TS"``, ``"*"``) of a card string or list of card texts."""
    text = cards if isinstance(cards, str) else " ".join(cards)
    return [str(c) for c in canasta.parse_cards(text)]


def bag(cards: str | Iterable[str]) -> Counter[str]:
    return Counter(tokens(cards))


def shape(cards: str | Iterable[str]) -> str:
    """The ranks of a meld, sorted: ``shape("AS AH JK") == shape("AA*")``.

    A string without spaces and suit letters is a rank pattern (``"KK*"``, ``"TTT"``).
    """
    if isinstance(cards, str) and " " not in cards and not any(s in cards for s in "SHDC"):
        return "".join(sorted(cards))
    return "".join(sorted(c.rank for c in canasta.parse_cards(" ".join(tokens(cards)))))


def value(cards: str | Iterable[str]) -> int:
    """Sum of card values (spec §1.2)."""
    return sum(c.value for c in canasta.parse_cards(" ".join(tokens(cards))))


def assert_physical(d: Mapping[str, Any]) -> None:
    """Fail if the test position uses a card more often than two decks hold."""
    used: Counter[str] = Counter()
    for text in d["hands"]:
        used += bag(text)
    for key in ("pile", "stock"):
        used += bag(d.get(key, ""))
    for side in d.get("melds", ()):
        for meld in side:
            used += bag(meld)
    for text in d.get("threes", ()):
        used += bag(text)
    too_many = {c: n for c, n in used.items() if n > (4 if c == "*" else 2)}
    assert not too_many, f"test data is physically impossible: {too_many}"


# -- positions -------------------------------------------------------------------------


def mac(**flags: Any) -> Any:
    """The MAC variant with these option flags (spec §5)."""
    return canasta.variants.get(VARIANT, **flags)


def position_dict(
    hands: Sequence[str],
    *,
    melds: Sequence[Sequence[str]] = ((), ()),
    threes: Sequence[str] = ("", ""),
    pile: str = "",
    stock: str = "TC 4H 6H",
    to_move: int | None = 0,
    phase: str = "play",
    scores: Sequence[int] = (0, 0),
    flags: Mapping[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    assert len(hands) == SEATS
    d: dict[str, Any] = {
        "variant": mac(**(flags or {})).to_config(),
        "scores": list(scores),
        "to_move": to_move,
        "phase": phase,
        "hands": list(hands),
        "pile": pile,
        "stock": stock,
        "melds": [list(side) for side in melds],
        "threes": list(threes),
    }
    d.update(extra)
    assert_physical(d)
    return d


def position(hands: Sequence[str], **kwargs: Any) -> canasta.GameState:
    """A MAC position (api.md §6); ``phase`` defaults to ``"play"`` (after the draw)."""
    flags = kwargs.get("flags") or {}
    state = canasta.GameState.from_dict(position_dict(hands, **kwargs))
    assert state.variant == mac(**flags)
    return state


def finished(
    hands: Sequence[str],
    *,
    went_out: int | None,
    melds: Sequence[Sequence[str]],
    threes: Sequence[str] = ("", ""),
    pile: str = "4D TC",
    stock: str = "TH 4C",
    flags: Mapping[str, Any] | None = None,
) -> canasta.GameState:
    """A finished MAC deal (``"phase": "over"``) whose outcome can be read directly."""
    extra: dict[str, Any] = {}
    if went_out is not None:
        extra["went_out"] = went_out
        extra["concealed"] = False
    state = position(
        hands,
        melds=melds,
        threes=threes,
        pile=pile,
        stock=stock,
        to_move=None,
        phase="over",
        flags=flags,
        **extra,
    )
    assert state.is_over
    return state


# -- reading states --------------------------------------------------------------------


def hand(state: canasta.GameState, seat: int) -> Counter[str]:
    return bag(state.to_dict()["hands"][seat])


def pile_of(state: canasta.GameState) -> list[str]:
    return tokens(state.to_dict().get("pile") or "")


def threes_of(state: canasta.GameState, side: int) -> Counter[str]:
    return bag(state.to_dict()["threes"][side])


def meld_shapes(state: canasta.GameState, side: int) -> list[str]:
    """The side's melds as sorted rank strings, sorted (see :func:`shape`)."""
    return sorted(shape(m) for m in state.to_dict()["melds"][side])


def shapes(*melds: str) -> list[str]:
    return sorted(shape(m) for m in melds)


# -- moves -----------------------------------------------------------------------------


def has_suit(move: str) -> bool:
    """True if the move names a card with its suit (``discard:7H``), not just a rank."""
    head, sep, arg = move.partition(":")
    if not sep:
        return False
    cards = arg.partition("+")[2] if head.lower() == "add" else arg
    return any(ch in "SHDC" for ch in cards.upper())


def move_texts(state: canasta.GameState) -> set[str]:
    """``legal_moves()`` as texts; also checks that they are listed without suits."""
    texts = [str(m) for m in state.legal_moves()]
    assert len(texts) == len(set(texts)), f"legal_moves() lists a play twice: {texts}"
    suited = [t for t in texts if has_suit(t)]
    assert not suited, f"legal_moves() must be suit-free: {suited}"
    return set(texts)


def listed(state: canasta.GameState, move: str) -> bool:
    return canasta.parse_move(move) in state.legal_moves()


def assert_legal(state: canasta.GameState, move: str) -> canasta.GameState:
    """Assert ``move`` is legal (and listed, when written without suits); apply it."""
    reason = state.check(move)
    assert reason is None, f"{move} should be legal, engine says: {reason}"
    assert state.is_legal(move)
    if not has_suit(move):
        assert listed(state, move), f"{move} missing from legal_moves(): {move_texts(state)}"
    return state.apply(move)


def assert_illegal(state: canasta.GameState, move: str, *reasons: Any) -> Any:
    """Assert ``move`` is illegal everywhere: ``check``, ``is_legal``, ``legal_moves`` and
    ``apply`` (which raises ``IllegalMoveError`` and leaves the state unchanged). With
    ``reasons``, the reported reason must be one of them. Returns the reason.
    """
    before = state.to_dict()
    reason = state.check(move)
    assert reason is not None, f"{move} should be illegal"
    assert isinstance(reason, canasta.IllegalReason)
    assert not state.is_legal(move)
    if reasons:
        assert reason in reasons, f"{move}: reason {reason}, expected one of {reasons}"
    if not has_suit(move):
        assert not listed(state, move), f"{move} is listed by legal_moves()"
    with pytest.raises(canasta.IllegalMoveError) as info:
        state.apply(move)
    assert info.value.reason == reason
    assert state.to_dict() == before
    return reason


def play(state: canasta.GameState, moves: str) -> canasta.GameState:
    """Apply a space-separated sequence, each move checked by :func:`assert_legal`."""
    for move in moves.split():
        state = assert_legal(state, move)
    return state


def assert_turn_fails(state: canasta.GameState, moves: str) -> int:
    """Assert that the sequence cannot be played as a whole: ``state.play`` raises
    ``ReplayError`` at some ply, every move before that ply is legal and the move at it is
    rejected (state unchanged). Returns the ply.
    """
    before = state.to_dict()
    seq = moves.split()
    with pytest.raises(canasta.ReplayError) as info:
        state.play(moves)
    assert state.to_dict() == before
    ply = info.value.ply
    assert 0 <= ply < len(seq)
    current = state
    for move in seq[:ply]:
        current = assert_legal(current, move)
    assert_illegal(current, seq[ply])
    return ply


def meld_moves(state: canasta.GameState) -> set[str]:
    """The meld, lay-off and take moves of ``legal_moves()``."""
    return {t for t in move_texts(state) if t.split(":")[0] in ("meld", "add", "take")}


def discards(state: canasta.GameState) -> set[str]:
    return {t for t in move_texts(state) if t.startswith("discard:")}


# -- outcomes --------------------------------------------------------------------------


def assert_score(state: canasta.GameState, side: int, total: int, **lines: int) -> None:
    """Check one side's deal score and breakdown lines (``melded_cards=185`` stands for the
    label ``"melded cards"``). Every non-zero line must be given: lines not given must be
    absent or 0. The breakdown must add up to the score and use only the MAC labels.
    """
    outcome = state.outcome()
    assert outcome is not None
    got = dict(outcome.breakdown[side])
    assert len(got) == len(outcome.breakdown[side]), "a breakdown label appears twice"
    assert set(got) <= MAC_LABELS, f"unknown labels {set(got) - MAC_LABELS}"
    assert sum(points for _, points in outcome.breakdown[side]) == outcome.scores[side]
    want = {label.replace("_", " "): points for label, points in lines.items()}
    nonzero = {label: points for label, points in got.items() if points}
    assert nonzero == {k: v for k, v in want.items() if v}, f"side {side} breakdown"
    assert outcome.scores[side] == total
