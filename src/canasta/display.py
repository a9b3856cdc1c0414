"""Plain-text drawings of the table: ``print(state)``, ``print(observation)`` and
``canasta play`` draw it with these functions.

Cards are written with suit symbols (``K♥``, joker ``★``) or as letters, in the notation
(``KH``, ``*``): `style_for` picks the symbols when the output can encode them.
``str(state)`` and ``str(observation)`` always use letters, which every output can show.

This module sits below the observations and the game state: it reads them only through
their public attributes, so both can draw themselves with it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, TextIO

import attrs

from canasta.cards import Card
from canasta.moves import Move
from canasta.table import Meld

if TYPE_CHECKING:
    from canasta.observation import Observation
    from canasta.scoring import Outcome
    from canasta.state import GameState

__all__ = [
    "LETTERS",
    "Style",
    "draw_observation",
    "draw_outcome",
    "draw_state",
    "format_moves",
    "style_for",
]

_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_RANK_ORDER = "A3456789TJQK2*"
_BAR = "=" * 72
_RULE = "-" * 72


@attrs.frozen
class Style:
    """How cards are written: with suit symbols or with letters.

    Args:
        symbols: write ``K♥`` and ``★`` instead of ``KH`` and ``*``.
    """

    symbols: bool = True

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
        text = self.cards(meld.cards)
        if meld.is_canasta:
            kind = "natural" if meld.is_natural else "mixed"
            if meld.is_wild_meld:
                kind = "wild"
            return f"[{text}] ({meld.size}, {kind} canasta)"
        return f"[{text}] ({meld.size})"


#: Cards as letters, in the notation: the style of ``str(state)`` and ``str(observation)``.
LETTERS = Style(symbols=False)


def style_for(stream: TextIO | None = None, ascii_only: bool = False) -> Style:
    """Symbols when ``stream`` (default stdout) can encode them and ``ascii_only`` is false."""
    if ascii_only:
        return LETTERS
    stream = stream if stream is not None else sys.stdout
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        "♠♥♦♣★".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return LETTERS
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
        label = "10" if key == "T" and style.symbols else key  # as the style writes the rank
        parts.append(f"{label}: {style.cards(groups[key])}")
    return "   ".join(parts) if parts else "(empty)"


def _seat_label(seat: int, names: Sequence[str] | None) -> str:
    name = names[seat] if names is not None else None
    label = f"seat {seat}" + (f" ({name})" if name else "")
    return label


def _public_lines(obs: Observation, style: Style, heading: str, you: int | None) -> list[str]:
    """The opening lines of a drawing, what the whole table sees: the scores, the pile and
    the stock, and each side's melds and threes (``you``: the side marked as the viewer's)."""
    variant = obs.variant
    lines = [_BAR]
    if heading:
        lines.append(heading)
    scores = "   ".join(
        f"side {side}{' (you)' if side == you else ''}: {score}"
        for side, score in enumerate(obs.scores)
    )
    lines.append(f"Scores before this deal: {scores}   (target {variant.target_score})")
    # A covered top card (Modern American) is "?" to the seats that did not discard it.
    hidden = "?" if obs.pile_covered else "-"
    top = style.card(obs.pile_top) if obs.pile_top is not None else hidden
    flags = ["top face down"] if obs.pile_covered else []
    if obs.frozen or variant.pile_always_frozen:
        flags.append("frozen")
    if obs.blocked and obs.pile_top is not None:
        flags.append("blocked")
    pile = f"Pile: {obs.pile_size} card{'s' if obs.pile_size != 1 else ''}, top {top}"
    if flags:
        pile += f" ({', '.join(flags)})"
    stock = f"Stock: {obs.stock_size}"
    if obs.turn_card is not None:
        # Modern American: the turn card, once public (spec §3.5.11.2).
        where = "drawn" if obs.turn_card_drawn else "on top"
        stock += f" (turn card {style.card(obs.turn_card)}, {where})"
    if any(obs.talons_left):
        stock += "    Talons face down: " + ", ".join(str(n) for n in obs.talons_left if n)
    lines.append(f"{pile}    {stock}")
    lines.append(_RULE)
    for side in range(variant.sides):
        seats = ", ".join(str(s) for s in variant.seats_of(side))
        yours = " - your side" if side == you else ""
        opened = "opened" if obs.opened[side] else f"not opened (needs {obs.minimum(side)})"
        lines.append(f"Side {side} (seats {seats}){yours}: {opened}")
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
        if obs.talon_taken and obs.talon_taken[side]:
            lines.append(f"    talon taken: {obs.talon_taken[side]} cards")
    lines.append(_RULE)
    return lines


def draw_observation(
    obs: Observation,
    style: Style | None = None,
    names: Sequence[str] | None = None,
    heading: str = "",
) -> str:
    """The table as one seat sees it: scores, pile, stock, melds and threes per side,
    hand sizes, and the seat's own hand grouped by rank. ``str(observation)`` is this
    drawing in `LETTERS`, and ``canasta play`` shows it before each of your moves.

    Args:
        obs: the observation to draw.
        style: card style (default: symbols).
        names: a name per seat (optional).
        heading: a first line (for example the deal number).
    """
    style = style or Style()
    lines = _public_lines(obs, style, heading, you=obs.side)
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
        # Modern American: the turn card drawn is known too (spec §3.5.11.2).
        source = "the pile, the turn card" if obs.variant.shows_turn_card else "the pile"
        lines.append(f"Known from {source}: " + "; ".join(known))
    lines.append(f"Your hand ({_seat_label(obs.seat, names)}, {len(obs.hand)} cards):")
    lines.append("    " + _grouped_hand(obs.hand, style))
    if obs.turn.waiting:
        waiting = style.cards(obs.turn.waiting)
        lines.append(f"Pile cards waiting for your opening: {waiting}")
    if obs.to_move is not None and obs.to_move != obs.seat:
        lines.append(f"To move: {_seat_label(obs.to_move, names)} ({obs.phase})")
    lines.append(_BAR)
    return "\n".join(lines)


def draw_state(
    state: GameState,
    style: Style | None = None,
    names: Sequence[str] | None = None,
    heading: str = "",
) -> str:
    """The whole table, as nobody at it sees it: what `draw_observation` shows, with every
    seat's hand grouped by rank in place of one seat's view, and who is to move.
    ``str(state)`` is this drawing in `LETTERS`.

    Args:
        state: the state to draw.
        style: card style (default: symbols).
        names: a name per seat (optional).
        heading: a first line (for example the deal number).
    """
    style = style or Style()
    mover = state.to_move
    # Every seat sees the same public part; the seat to move's observation is the one whose
    # legal moves the state has cached anyway.
    obs = state.observe(mover if mover is not None else 0)
    lines = _public_lines(obs, style, heading, you=None)
    lines.append("Hands:")
    for seat in range(state.players):
        hand = state.hand(seat)
        lines.append(
            f"    {_seat_label(seat, names)}, {len(hand)} cards: {_grouped_hand(hand, style)}"
        )
    if mover is None:
        went_out = obs.went_out
        how = "nobody went out" if went_out is None else f"{_seat_label(went_out, names)} went out"
        lines.append(f"The deal is over: {how}.")
    else:
        lines.append(f"To move: {_seat_label(mover, names)} ({obs.phase})")
        if obs.turn.waiting:
            waiting = style.cards(obs.turn.waiting)
            lines.append(f"Pile cards waiting for the opening: {waiting}")
    lines.append(_BAR)
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
