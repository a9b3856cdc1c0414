"""Scoring a finished deal with an explained breakdown (spec §2.13, §3.3, §3.5.9).

Each side gets named `ScoreLine` rows that add up to its score; rows worth 0 are
left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import attrs

from canasta.cards import ACE, SEVEN, THREE, card_value
from canasta.table import WILD_RANK, Meld

if TYPE_CHECKING:
    from canasta.state import GameState


class ScoreLine(NamedTuple):
    """One named row of a side's deal score."""

    label: str
    points: int


@attrs.frozen
class Outcome:
    """The result of a deal."""

    #: each side's score for this deal
    scores: tuple[int, ...]
    #: each side's named rows (they add up to its score)
    breakdown: tuple[tuple[ScoreLine, ...], ...]
    #: the seat that went out, or None
    went_out: int | None
    concealed: bool

    def lines(self, side: int) -> dict[str, int]:
        """A side's rows as a mapping from label to points."""
        return dict(self.breakdown[side])


def _rows(*rows: tuple[str, int]) -> tuple[ScoreLine, ...]:
    return tuple(ScoreLine(label, points) for label, points in rows if points)


def classic_side(
    st: GameState, side: int, seats: tuple[int, ...] | None = None
) -> tuple[ScoreLine, ...]:
    """Spec §2.13 for one side (D17, D19 and D1 included).

    ``seats`` (3-player cutthroat) scores several seats' melds and hands as one side.
    """
    variant: Any = st.variant  # a ClassicVariant
    if seats is None:
        seats = variant.seats_of(side)
    sides = sorted({variant.side_of(s) for s in seats})
    melds: tuple[Meld, ...] = tuple(m for s in sides for m in st.melds[s])
    natural = sum(1 for m in melds if m.is_canasta and m.is_natural and m.rank != WILD_RANK)
    mixed = sum(1 for m in melds if m.is_canasta and not m.is_natural and m.rank != WILD_RANK)
    wild = sum(1 for m in melds if m.is_canasta and m.rank == WILD_RANK)
    # Red threes still in a hand (red_three_declare=first_turn, no turn yet) count as laid.
    red = sum(len(st.threes[s]) for s in sides) + sum(
        1 for s in seats for c in st.hands[s] if c in variant.laid_out_threes
    )
    magnitude = variant.red_three_scores[red]  # one entry per possible count (validated)
    sign = 1 if melds else -1
    cards_sign = (
        -1
        if (
            variant.unopened_or_no_canasta_melds_negative == "no_canasta"
            and not (natural + mixed + wild)
        )
        else 1
    )
    went_out = st.went_out is not None and st.went_out in seats
    in_hands = sum(
        card_value(c) for s in seats for c in st.hands[s] if c not in variant.laid_out_threes
    )
    return _rows(
        ("melded cards", cards_sign * sum(m.value for m in melds)),
        ("natural canastas", natural * variant.natural_canasta_bonus),
        ("mixed canastas", mixed * variant.mixed_canasta_bonus),
        ("wild canastas", wild * variant.classic_wild_canasta_bonus),
        ("red threes", sign * magnitude),
        ("red three cards", cards_sign * red * variant.red_three_card_value),
        ("going out", variant.going_out_bonus if went_out else 0),
        ("concealed", variant.concealed_bonus if went_out and st.concealed else 0),
        ("cards in hand", -in_hands),
    )


def cutthroat_rows(st: GameState) -> tuple[tuple[ScoreLine, ...], ...]:
    """Spec §3.3 cutthroat: the lone hand scores its own result; each partner is credited
    the whole partnership result (melds and hands combined), plus its own red threes."""
    lone = st.lone if st.lone is not None else st.went_out
    players = st.variant.players
    if lone is None:
        return tuple(classic_side(st, seat) for seat in range(players))
    partners = tuple(s for s in range(players) if s != lone)
    shared = tuple(line for line in classic_side(st, 0, partners) if line.label != "red threes")
    rows: list[tuple[ScoreLine, ...]] = []
    for seat in range(players):
        if seat == lone:
            rows.append(classic_side(st, seat))
            continue
        own = [line for line in classic_side(st, seat) if line.label == "red threes"]
        rows.append(shared + tuple(own))
    return tuple(rows)


def score_deal(st: GameState) -> Outcome:
    """The outcome of a finished deal, by the variant's scoring rules."""
    breakdown = st.variant.score_rows(st)
    return Outcome(
        scores=tuple(sum(line.points for line in rows) for rows in breakdown),
        breakdown=breakdown,
        went_out=st.went_out,
        concealed=st.concealed,
    )


def modern_side(st: GameState, side: int) -> tuple[ScoreLine, ...]:
    """Spec §3.5.9 for one side of Modern American Canasta."""
    from canasta.variants.modern import THREES_BY_COUNT

    variant: Any = st.variant
    melds: tuple[Meld, ...] = st.melds[side]
    seats = variant.seats_of(side)
    canastas = [m for m in melds if m.is_canasta]
    natural = sevens = aces = mixed = wild = 0
    for m in canastas:
        if m.rank == WILD_RANK:
            if m.jokers == 0:
                wild += variant.wild_canasta_twos_bonus
            elif m.jokers == 4:
                wild += variant.wild_canasta_four_jokers_bonus
            else:
                wild += variant.wild_canasta_bonus
        elif not m.is_natural:
            mixed += variant.mixed_canasta_bonus
        elif m.rank == SEVEN:
            sevens += variant.natural_seven_bonus
        elif m.rank == ACE:
            aces += variant.natural_ace_bonus
        else:
            natural += variant.natural_canasta_bonus
    red = sum(1 for c in st.threes[side] if c in (9, 10))
    black = len(st.threes[side]) - red
    threes = THREES_BY_COUNT[red] + THREES_BY_COUNT[black]  # two decks: at most 4 each
    sign = 1 if len(canastas) >= 2 else 0 if len(canastas) == 1 else -1
    unfinished = 0
    for m in melds:
        if m.is_canasta:
            continue
        if m.rank == WILD_RANK:
            unfinished += (
                variant.mac_wild_meld_penalty_four_jokers
                if m.jokers == 4
                else variant.unfinished_wild_penalty
            )
        elif m.is_natural and m.rank in (SEVEN, ACE):
            unfinished += variant.unfinished_pure_penalty
    held = 0
    in_hands = 0
    for seat in seats:
        hand = st.hands[seat]
        # A three left in hand (drawn as the last stock card) counts 5 (spec §3.5.2).
        in_hands += sum(5 if c >> 2 == THREE else card_value(c) for c in hand)
        ranks = [c >> 2 for c in hand]
        held += variant.held_aces_sevens_penalty * (
            (ranks.count(ACE) >= 3) + (ranks.count(SEVEN) >= 3)
        )
    went_out = st.went_out is not None and variant.side_of(st.went_out) == side
    return _rows(
        ("going out", variant.going_out_bonus if went_out else 0),
        ("natural canastas", natural),
        ("mixed canastas", mixed),
        ("natural sevens", sevens),
        ("natural aces", aces),
        ("wild canastas", wild),
        ("threes", sign * threes),
        ("unfinished melds", -unfinished),
        ("melded cards", (1 if canastas else -1) * sum(m.value for m in melds)),
        ("cards in hand", -in_hands),
        ("aces and sevens held", -held),
    )
