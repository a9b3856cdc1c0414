"""canasta: the rules of Canasta as an importable library.

Start with `new_game`, ask `GameState.legal_moves`, and `GameState.apply`
moves; see the documentation for variants, observations, records and bots.
"""

from canasta import bots, records, variants
from canasta.cards import Card, parse_cards
from canasta.deal import new_game
from canasta.errors import (
    ArgumentError,
    CanastaError,
    IllegalMoveError,
    IllegalReason,
    NotationError,
    PositionError,
    RecordError,
    ReplayError,
    UnknownVariantError,
    VariantError,
)
from canasta.match import Match
from canasta.moves import (
    Answer,
    Ask,
    Discard,
    Draw,
    End,
    Expose,
    LayOff,
    MeldCards,
    Move,
    Moves,
    Special,
    Take,
    parse_move,
    parse_moves,
)
from canasta.observation import Observation
from canasta.sampling import sample_state
from canasta.scoring import Outcome, ScoreLine
from canasta.state import GameState
from canasta.table import Meld
from canasta.variants.base import Variant

__version__ = "0.1.0"

__all__ = [
    "Answer",
    "ArgumentError",
    "Ask",
    "CanastaError",
    "Card",
    "Discard",
    "Draw",
    "End",
    "Expose",
    "GameState",
    "IllegalMoveError",
    "IllegalReason",
    "LayOff",
    "Match",
    "Meld",
    "MeldCards",
    "Move",
    "Moves",
    "NotationError",
    "Observation",
    "Outcome",
    "PositionError",
    "RecordError",
    "ReplayError",
    "ScoreLine",
    "Special",
    "Take",
    "UnknownVariantError",
    "Variant",
    "VariantError",
    "__version__",
    "bots",
    "new_game",
    "parse_cards",
    "parse_move",
    "parse_moves",
    "records",
    "sample_state",
    "variants",
]
