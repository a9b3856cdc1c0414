"""The bot API and the loops that let bots play: `Bot`, `RandomBot`, `play_deal`,
`play_match`.

A bot sees only an `Observation` (what its seat may know) and answers with one move from
``observation.legal_moves``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from canasta._input import excerpt
from canasta.errors import ArgumentError, CanastaError
from canasta.match import Match
from canasta.moves import Move, parse_move
from canasta.observation import Observation
from canasta.state import GameState

__all__ = ["Bot", "NoLegalMoveError", "RandomBot", "play_deal", "play_match"]


class NoLegalMoveError(CanastaError):
    """A bot was asked to move with no legal move to choose from.

    Either the seat is not to act, or the engine reached a position without legal moves
    (which the rules never allow: please report the position).
    """


@runtime_checkable
class Bot(Protocol):
    """Anything with ``choose(observation) -> Move``."""

    def choose(self, observation: Observation) -> Move:
        """One move from ``observation.legal_moves``."""
        ...


def choices(observation: Observation) -> tuple[Move, ...]:
    """The moves a bot may choose from: ``observation.legal_moves``, never empty.

    Raises:
        ArgumentError: ``observation`` is not an `Observation`.
        NoLegalMoveError: the seat is not to act, or has no legal move.
    """
    if not isinstance(observation, Observation):
        # A bot sees what its seat may see, never the state itself.
        raise ArgumentError(
            "a bot chooses from an Observation (state.observe(seat)), "
            f"got {type(observation).__name__}"
        )
    moves = observation.legal_moves
    if not moves:
        if observation.to_move != observation.seat:
            raise NoLegalMoveError(
                f"seat {observation.seat} is not to act (to move: {observation.to_move})"
            )
        raise NoLegalMoveError(
            f"seat {observation.seat} has no legal move in phase {observation.phase!r}"
        )
    return moves


def seeded(seed: int | float | str | bytes | None) -> random.Random:
    """A bot's random generator, seeded with ``seed``.

    Raises:
        ArgumentError: a seed ``random.Random`` cannot take.
    """
    try:
        return random.Random(seed)
    except TypeError:
        raise ArgumentError(
            f"a bot's seed is None, an int, a float, a str or bytes, got {excerpt(seed)}"
        ) from None


class RandomBot:
    """Plays a legal move chosen uniformly at random.

    Args:
        seed: seeds the bot's own random generator (None: unpredictable).
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = seeded(seed)

    def choose(self, observation: Observation) -> Move:
        """A uniformly random legal move."""
        return self.rng.choice(choices(observation))

    def __repr__(self) -> str:
        return "RandomBot()"


class TimedBot:
    """Wraps a bot and adds up the time its decisions take (for benchmarks).

    Attributes:
        bot: the bot that decides.
        seconds: wall-clock seconds spent in ``bot.choose`` so far.
        decisions: how many times it chose.
    """

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.seconds = 0.0
        self.decisions = 0

    def choose(self, observation: Observation) -> Move:
        """``bot``'s move, timed."""
        start = time.perf_counter()
        move = self.bot.choose(observation)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return move


def _seat_bots(bots: Sequence[Bot], players: int) -> Sequence[Bot]:
    try:
        count = len(bots)
    except TypeError:
        raise ArgumentError(f"need a sequence of bots, one per seat, got {excerpt(bots)}") from None
    if count != players:
        raise ArgumentError(f"need one bot per seat ({players}), got {count}")
    for bot in bots:
        if not callable(getattr(bot, "choose", None)):
            raise ArgumentError(f"a bot needs a method choose(observation), got {excerpt(bot)}")
    return bots


def play_deal(state: GameState, bots: Sequence[Bot]) -> GameState:
    """Let the bots (one per seat) play ``state`` to the end of the deal.

    Raises:
        ArgumentError: ``state`` is not a `GameState`, or ``bots`` not one bot per seat.
        NoLegalMoveError: a seat to act had no legal move.
    """
    if not isinstance(state, GameState):
        raise ArgumentError(f"play_deal plays a GameState, got {type(state).__name__}")
    bots = _seat_bots(bots, state.variant.players)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        state = state.apply(parse_move(bots[seat].choose(state.observe(seat))))
    return state


def play_match(match: Match, bots: Sequence[Bot], max_deals: int | None = None) -> Match:
    """Let the bots (one per seat) play ``match`` to its end, or for ``max_deals`` deals.

    Raises:
        ArgumentError: ``match`` is not a `Match`, ``bots`` not one bot per seat, or
            ``max_deals`` not an integer.
        NoLegalMoveError: a seat to act had no legal move.
    """
    if not isinstance(match, Match):
        raise ArgumentError(f"play_match plays a Match, got {type(match).__name__}")
    if max_deals is not None and (type(max_deals) is not int):
        raise ArgumentError(f"max_deals must be an integer or None, got {excerpt(max_deals)}")
    bots = _seat_bots(bots, match.variant.players)
    while not match.is_over:
        if max_deals is not None and len(match.deals) >= max_deals:
            break
        state = match.state
        seat = state.to_move
        assert seat is not None
        match = match.apply(parse_move(bots[seat].choose(state.observe(seat))))
    return match
