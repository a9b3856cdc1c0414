"""Plain-text drawings of the table for terminals (used by ``canasta play`` and the demo).

Only the standard library is used. Suits are drawn as symbols (``♠ ♥ ♦ ♣``, joker ``★``)
when the output can encode them, else as letters (``KH``, ``*``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from typing import TextIO

from canasta.cards import CARDS, Card
from canasta.moves import Move
from canasta.observation import Observation
from canasta.scoring import Outcome
from canasta.table import Meld

__all__ = ["Style", "draw_observation", "draw_outcome", "format_moves", "style_for"]

_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_RANK_ORDER = "A3456789TJQK2*"


class Style:
    """How cards are written: with suit symbols or with letters.

    Args:
        symbols: write ``K♥`` and ``★`` instead of ``KH`` and ``*``.
    """

    def __init__(self, symbols: bool = True) -> None:
        self.symbols = symbols

    def card(self, card: Card) -> str:
        """One card."""
        if not self.symbols:
            return str(card)
        if card.is_joker:
            return "★"
        rank = "10" if card.rank == "T" else card.rank
        return rank + (_SYMBOLS[card.suit] if card.suit else "")

    def cards(self, cards: Iterable[Card]) -> str:
        """Cards separated by spaces."""
        return " ".join(self.card(c) for c in cards)

    def meld(self, meld: Meld) -> str:
        """A meld with its size, marked when it is a canasta."""
        text = self.cards(CARDS[c] for c in meld.codes)
        if meld.is_canasta:
            kind = "natural" if meld.is_natural else "mixed"
            if meld.is_wild_meld:
                kind = "wild"
            return f"[{text}] ({meld.size}, {kind} canasta)"
        return f"[{text}] ({meld.size})"


def style_for(stream: TextIO | None = None, ascii_only: bool = False) -> Style:
    """Symbols when ``stream`` (default stdout) can encode them and ``ascii_only`` is false."""
    if ascii_only:
        return Style(symbols=False)
    stream = stream if stream is not None else sys.stdout
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        "♠♥♦♣★".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return Style(symbols=False)
    return Style(symbols=True)


def _grouped_hand(hand: Sequence[Card], style: Style) -> str:
    """The hand grouped by rank (naturals A, 3..K, then wild cards)."""
    groups: dict[str, list[Card]] = {}
    for card in hand:
        key = "wild" if card.is_wild else card.rank
        groups.setdefault(key, []).append(card)
    order = sorted(groups, key=lambda k: _RANK_ORDER.index(k) if k != "wild" else len(_RANK_ORDER))
    parts = []
    for key in order:
        label = "10" if key == "T" else key
        parts.append(f"{label}: {style.cards(groups[key])}")
    return "   ".join(parts) if parts else "(empty)"


def _seat_label(seat: int, names: Sequence[str] | None) -> str:
    name = names[seat] if names is not None else None
    label = f"seat {seat}" + (f" ({name})" if name else "")
    return label


def draw_observation(
    obs: Observation,
    style: Style | None = None,
    names: Sequence[str] | None = None,
    heading: str = "",
) -> str:
    """The table as one seat sees it: scores, pile, stock, melds and threes per side,
    hand sizes, and the seat's own hand grouped by rank.

    Args:
        obs: the observation to draw.
        style: card style (default: symbols).
        names: a name per seat (optional).
        heading: a first line (for example the deal number).
    """
    style = style or Style()
    variant = obs.variant
    lines: list[str] = []
    bar = "=" * 72
    lines.append(bar)
    if heading:
        lines.append(heading)
    scores = "   ".join(
        f"side {side}{' (you)' if side == obs.side else ''}: {score}"
        for side, score in enumerate(obs.scores)
    )
    lines.append(f"Scores before this deal: {scores}   (target {variant.target_score})")
    top = style.card(obs.pile_top) if obs.pile_top is not None else "-"
    flags = []
    if obs.frozen or variant.pile_always_frozen:
        flags.append("frozen")
    if obs.blocked and obs.pile_top is not None:
        flags.append("blocked")
    pile = f"Pile: {obs.pile_size} card{'s' if obs.pile_size != 1 else ''}, top {top}"
    if flags:
        pile += f" ({', '.join(flags)})"
    lines.append(f"{pile}    Stock: {obs.stock_size}")
    lines.append("-" * 72)
    for side in range(variant.sides):
        seats = ", ".join(str(s) for s in variant.seats_of(side))
        you = " - your side" if side == obs.side else ""
        opened = "opened" if obs.opened[side] else f"not opened (needs {obs.minimum(side)})"
        lines.append(f"Side {side} (seats {seats}){you}: {opened}")
        melds = obs.melds[side]
        shared = obs.meld_side(side) if obs.lone is not None else side
        if shared != side:
            lines.append(f"    plays on side {shared}'s melds (cutthroat partners)")
        elif melds:
            for meld in melds:
                lines.append(f"    {style.meld(meld)}")
        else:
            lines.append("    no melds")
        if obs.threes[side]:
            lines.append(f"    threes: {style.cards(obs.threes[side])}")
    lines.append("-" * 72)
    sizes = "   ".join(
        f"{_seat_label(s, names)}: {n}" for s, n in enumerate(obs.hand_sizes) if s != obs.seat
    )
    lines.append(f"Cards in hand: {sizes}")
    known = [
        f"{_seat_label(s, names)} holds {style.cards(cards)}"
        for s, cards in enumerate(obs.known)
        if cards and s != obs.seat
    ]
    if known:
        lines.append("Known from the pile: " + "; ".join(known))
    lines.append(f"Your hand ({_seat_label(obs.seat, names)}, {len(obs.hand)} cards):")
    lines.append("    " + _grouped_hand(obs.hand, style))
    if obs.turn.waiting:
        waiting = style.cards(CARDS[c] for c in obs.turn.waiting)
        lines.append(f"Pile cards waiting for your opening: {waiting}")
    if obs.to_move is not None and obs.to_move != obs.seat:
        lines.append(f"To move: {_seat_label(obs.to_move, names)} ({obs.phase})")
    lines.append(bar)
    return "\n".join(lines)


def format_moves(moves: Sequence[Move], width: int = 72) -> str:
    """Numbered moves in columns: ``1) draw   2) take:KK ...``."""
    items = [f"{i}) {move}" for i, move in enumerate(moves, start=1)]
    if not items:
        return "(no legal moves)"
    column = max(len(item) for item in items) + 3
    per_line = max(1, width // column)
    rows = []
    for start in range(0, len(items), per_line):
        rows.append(
            "".join(item.ljust(column) for item in items[start : start + per_line]).rstrip()
        )
    return "\n".join(rows)


def draw_outcome(outcome: Outcome, sides_names: Sequence[str] | None = None) -> str:
    """Each side's score breakdown: one row per named line, and the total."""
    lines = []
    for side, rows in enumerate(outcome.breakdown):
        name = sides_names[side] if sides_names is not None else f"Side {side}"
        lines.append(f"{name}:")
        for label, points in rows:
            lines.append(f"    {label:<24}{points:>7}")
        lines.append(f"    {'total':<24}{outcome.scores[side]:>7}")
    if outcome.went_out is not None:
        how = " concealed" if outcome.concealed else ""
        lines.append(f"Seat {outcome.went_out} went out{how}.")
    else:
        lines.append("Nobody went out.")
    return "\n".join(lines)
