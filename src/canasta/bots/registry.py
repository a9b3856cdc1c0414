"""The built-in bots by name: `BOTS` and `make_bot` (the names the command line takes)."""

from __future__ import annotations

from collections.abc import Callable

from canasta.bots.base import Bot, RandomBot
from canasta.bots.greedy import GreedyBot


def _quick(seed: int | None = None) -> Bot:
    return GreedyBot(seed, lookahead=False)


#: The built-in bots by name: each builds a bot from a seed (or None).
BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "quick": _quick,
}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name (``"random"``, ``"greedy"`` or ``"quick"``, a greedy bot without
    look-ahead).

    Raises:
        ValueError: an unknown name (the message lists the known ones).
    """
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(BOTS)}") from None
    return factory(seed)
