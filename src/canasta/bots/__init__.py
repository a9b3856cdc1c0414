"""Computer players: `RandomBot`, `GreedyBot`, `SearchBot`, and loops that let bots play.

A bot sees only an `Observation` (what its seat may know) and
answers with one move from ``observation.legal_moves``::

    move = bot.choose(state.observe(seat))

`play_deal` and `play_match` run a deal or a whole match with one bot per seat;
`make_bot` builds a bot by its name in `BOTS`; `canasta.bots.ladder` ranks bots over
duplicate deals.
"""

from canasta.bots.base import Bot, NoLegalMoveError, RandomBot, play_deal, play_match
from canasta.bots.greedy import GreedyBot
from canasta.bots.registry import BOTS, make_bot
from canasta.bots.search import SearchBot

__all__ = [
    "BOTS",
    "Bot",
    "GreedyBot",
    "NoLegalMoveError",
    "RandomBot",
    "SearchBot",
    "make_bot",
    "play_deal",
    "play_match",
]
