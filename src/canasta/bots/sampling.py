"""Sampled deals for bots that look ahead: full states that agree with an observation,
the cards the seat cannot see dealt at random by `canasta.sample_state`, and the
small caches that let every estimate of one decision share them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

from canasta.observation import Observation
from canasta.sampling import sample_state
from canasta.state import GameState
from canasta.table import Table, evolve

__all__: list[str] = []

_V = TypeVar("_V")
#: Entries a bot keeps per cache; the estimates of one decision fit many times over.
_MEMO_SIZE = 64


def obs_key(obs: Observation) -> tuple[object, ...]:
    """What an estimate made from ``obs`` depends on: the observation, memory included."""
    return (obs,)


def _progress(obs: Observation) -> int:
    """How far the deal has come, from what a saved position keeps too (not the history,
    which starts afresh when a position is read)."""
    return obs.stock_size * 1009 + obs.pile_size * 31 + sum(len(d) for d in obs.discarded)


def memo(
    store: dict[tuple[object, ...], _V], key: tuple[object, ...], make: Callable[[], _V]
) -> _V:
    """``store[key]``, made by ``make`` on a miss; the store is emptied when it is full."""
    value = store.get(key)
    if value is None:
        if len(store) > _MEMO_SIZE:
            store.clear()
        value = store[key] = make()
    return value


class Worlds:
    """Full states that agree with an observation, the hidden cards dealt at random,
    dealt on demand and kept: every estimate made from the same observation shares them.

    The dealing is seeded by the deal's progress and ``salt``, so a bot stays
    deterministic. It stops for good if `sample_state` cannot complete the observation
    (it raises ValueError for an upcard red three hidden under a wild card once the stock
    is empty), so callers must cope with fewer states, or none.
    """

    def __init__(self, obs: Observation, salt: int) -> None:
        self.obs = obs
        self.rng = random.Random(_progress(obs) * 31 + salt)
        self.states: list[GameState] = []
        self.complete = True

    def first(self, count: int) -> list[GameState]:
        """Up to ``count`` states, the same ones on every call."""
        while self.complete and len(self.states) < count:
            try:
                self.states.append(sample_state(self.obs, self.rng))
            except ValueError:
                self.complete = False
        return self.states[:count]


def margin(state: GameState | Table, side: int) -> float:
    """``side``'s deal score minus the best other side's, scored by the variant as if the
    deal ended in ``state`` (a state, or the record `gone_out` makes)."""
    table = state._table if isinstance(state, GameState) else state
    rows = table.variant.score_rows(table)
    scores = [sum(line.points for line in lines) for lines in rows]
    return float(scores[side] - max(v for s, v in enumerate(scores) if s != side))


def gone_out(state: GameState, seat: int) -> Table:
    """``state``'s table as if ``seat`` went out now: its hand emptied, the other hands
    as they are (a record to score, not to play on)."""
    # The engine has no move for "go out now"; the score rows only read the hands, the
    # table and who went out.
    table = state._table
    hands = tuple(() if s == seat else h for s, h in enumerate(table.hands))
    return evolve(table, hands=hands, went_out=seat)
