"""Zero-sum rewards for a finished deal, and the bounds that learning libraries ask for.

Both integrations (`canasta.envs.pettingzoo`, `canasta.envs.openspiel`) pay the same
rewards, so an agent trained in one scores the same in the other. The bounds are derived
from the rules (never from random play), so no deal can exceed them.
"""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Real

from canasta._input import excerpt
from canasta.rl.actions import RLError, rl_variant
from canasta.variants.base import Variant

__all__ = ["max_deal_moves", "reward_bound", "reward_scale", "rewards"]

# Option fields that count things rather than points; every other integer option of a
# variant is a bonus, a penalty or a score table.
_NOT_POINTS = frozenset(
    {
        "players",
        "sides",
        "decks",
        "hand_size",
        "draw_count",
        "canastas_to_go_out",
        "target_score",
        "max_wilds_per_meld",
    }
)


def _cards(variant: Variant) -> int:
    return 54 * variant.decks


def max_deal_moves(variant: Variant) -> int:
    """An upper bound on the number of moves in one deal of ``variant``.

    Every turn starts with a draw or a take and holds at most one discard (or ``end``),
    one ``ask`` and one answer. A draw takes at least one card from the stock; a take and
    every meld or lay-off put at least one card into a meld, and cards never leave the
    melds. So a deal has at most ``stock`` draws and ``cards`` takes and melds together,
    and at most ``4 * (stock + cards) + 1`` moves, where ``stock`` is what is left after
    the hands are dealt.
    """
    cards = _cards(rl_variant(variant, "a bound"))
    stock = cards - variant.players * variant.hand_size
    return 4 * (stock + cards) + 1


def _largest_points_option(variant: Variant) -> int:
    largest = 0
    for name, spec in variant.option_specs().items():
        if name in _NOT_POINTS or spec.kind not in ("int", "choice", "ints"):
            continue
        value = getattr(variant, name)
        values = value if isinstance(value, tuple) else (value,)
        largest = max([largest, *(abs(v) for v in values if type(v) is int)])
    return largest


def _score_bound(variant: Variant) -> int:
    """A bound on the absolute score of one side in one deal.

    A deal score adds card values (at most 50 a card, each card counted once), at most one
    bonus or penalty per meld (a meld holds at least three cards) and a few rows per side
    and per seat (threes, going out, concealed, cards held), each at most the variant's
    largest points option; doubled because a 3-player cutthroat partner is credited the
    whole partnership's result.
    """
    cards = _cards(variant)
    rows = cards // 3 + 1 + 4 + 2 * variant.players
    return 2 * (50 * cards + rows * max(_largest_points_option(variant), 1000))


def reward_scale(variant: Variant) -> float:
    """The points that make a reward of 1: the variant's target score."""
    return float(rl_variant(variant, "a reward scale").target_score)


def reward_bound(variant: Variant) -> float:
    """No reward of one deal is larger than this in absolute value."""
    return 2 * _score_bound(rl_variant(variant, "a bound")) / reward_scale(variant)


def rewards(variant: Variant, scores: Sequence[int]) -> tuple[float, ...]:
    """Each seat's reward for a deal whose sides scored ``scores`` (an outcome's scores).

    A side's reward is its score minus the mean score of the other sides, divided by
    `reward_scale`; partners share their side's reward. The rewards of the sides add up
    to zero, and so do the seats' (every side has as many seats).

    Raises:
        RLError: ``scores`` are not one number for each side of ``variant``.
    """
    sides = rl_variant(variant, "a reward").sides
    try:
        values = tuple(scores)
    except TypeError:  # not a sequence at all
        values = ()
    if (
        isinstance(scores, str | bytes)
        or len(values) != sides
        or not all(isinstance(value, Real) for value in values)
    ):
        raise RLError(f"expected {sides} scores, one for each side, got {excerpt(scores)}")
    total, scale = sum(values), reward_scale(variant)
    side_rewards = [(score - (total - score) / (sides - 1)) / scale for score in values]
    return tuple(side_rewards[variant.side_of(seat)] for seat in range(variant.players))
