"""The built-in bots by name: `BOTS`, `make_bot` and the search levels (the names and
levels the command line takes)."""

from __future__ import annotations

from collections.abc import Callable

from canasta._input import excerpt
from canasta.bots.base import Bot, RandomBot
from canasta.bots.greedy import GreedyBot
from canasta.bots.search import SearchBot
from canasta.errors import ArgumentError

__all__ = ["BOTS", "make_bot"]


def _quick(seed: int | None = None) -> Bot:
    return GreedyBot(seed, lookahead=False)


#: The built-in bots by name: each builds a bot from a seed (or None).
BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "quick": _quick,
    "search": SearchBot,
}

#: Simulations per decision of `SearchBot` at each level of ``make_bot("search", level=N)``.
SEARCH_LEVELS: dict[int, int] = {1: 8, 2: 16, 3: 32, 4: 64, 5: 128, 6: 256}


def make_bot(name: str, seed: int | None = None, level: int | None = None) -> Bot:
    """A bot by name: ``"random"``, ``"greedy"``, ``"quick"`` (a greedy bot without
    look-ahead) or ``"search"``.

    ``level`` sets the search bot's budget per decision (``SEARCH_LEVELS``: from 1, 8
    simulations, to 6, 256; the default is 4, 64 simulations); the other bots take none.

    Raises:
        ValueError: an unknown name or level (the message lists the known ones).
    """
    factory = BOTS.get(name) if isinstance(name, str) else None
    if factory is None:
        raise ArgumentError(f"unknown bot {excerpt(name)}; known bots: {', '.join(BOTS)}")
    if level is None:
        return factory(seed)
    if name != "search":
        raise ArgumentError(f"bot {name!r} has no levels (only 'search' has)")
    if type(level) is not int or level not in SEARCH_LEVELS:
        known = ", ".join(map(str, SEARCH_LEVELS))
        raise ArgumentError(f"unknown search level {level!r}; known levels: {known}")
    return SearchBot(seed, simulations=SEARCH_LEVELS[level])
