"""Observation tensors: an `Observation` as a fixed-size vector of floats.

`ObservationEncoder` reads only the public `Observation` of one seat, so nothing hidden
can leak into the vector. Everything is relative to the observing seat: seats are
rotated so that index 0 is the observer (1 the next seat in turn order, ...), and sides
likewise (0 is the observer's side). Counts are divided by how many such cards the decks
hold, so most entries lie between 0 and 1. `ObservationEncoder.layout` names the
sections; the documentation page "Reinforcement learning" lists them.
"""

from __future__ import annotations

import functools
from typing import Any

from canasta.cards import Card
from canasta.observation import Observation
from canasta.rl.actions import Block, RLError
from canasta.rl.rewards import max_deal_moves
from canasta.variants.base import Variant

__all__ = ["ObservationEncoder"]

#: Card ranks in tensor order: A, 2, 3 .. K, joker (`Card.rank_index`).
RANK_LETTERS = "A23456789TJQK*"
RANKS = len(RANK_LETTERS)
#: Meld ranks in tensor order: A, 3 (the black threes of a going-out meld), 4 .. K.
MELD_RANKS = "A3456789TJQK"
#: Per meld rank: naturals, twos, jokers, natural canastas, mixed canastas.
MELD_FEATURES = 5
_PHASES = ("draw", "play", "answer", "over")
#: Scores (in target scores) and minimums (in the minimum at the target) are clipped here:
#: a match is decided long before, and the vector stays bounded.
SCORE_CLIP = 4.0
#: Questions to partner are counted up to this (only the first ones change the rules).
ASKED_CLIP = 3
#: The public progress of the turn, one entry each.
TURN_FIELDS = (
    "took_pile",
    "opening",
    "waiting",
    "laid_off",
    "melded",
    "asked",
    "permission_yes",
    "permission_no",
    "must_go_out",
    "no_discard",
)


@functools.cache
def _numpy() -> Any:
    """NumPy if it can be imported, else None (it is an optional extra)."""
    try:
        import numpy
    except ImportError:
        return None
    return numpy


class ObservationEncoder:
    """Encodes the observations of ``variant`` as vectors of `size` floats.

    Args:
        variant: the rules; the vector's size depends on the seats, sides and decks.
        numpy: True for NumPy ``float32`` arrays, False for lists of floats; None (the
            default) for arrays when NumPy is installed (the ``canasta[numpy]`` extra).
    """

    def __init__(self, variant: Variant, *, numpy: bool | None = None) -> None:
        self.variant = variant
        if numpy and _numpy() is None:
            raise RLError("numpy=True, but NumPy is not installed (canasta[numpy])")
        self._numpy = _numpy() is not None if numpy is None else numpy
        players, sides = variant.players, variant.sides
        sections = (
            ("hand", RANKS),
            ("hand_sizes", players),
            ("known", (players - 1) * RANKS),
            ("melds", sides * len(MELD_RANKS) * MELD_FEATURES),
            ("wild_melds", sides * 3),
            ("threes", sides * 2),
            ("opened", sides),
            ("melded", players),
            ("pile_top", RANKS),
            ("pile", 3),
            ("pile_seen", RANKS),
            ("stock", 1),
            ("scores", sides),
            ("minimums", sides),
            ("phase", len(_PHASES)),
            ("to_move", players),
            ("dealer", players),
            ("turn", len(TURN_FIELDS)),
            ("asked", players),
            ("lone", players),
            ("discards", players * RANKS),
        )
        blocks: list[Block] = []
        offset = 0
        for name, length in sections:
            blocks.append(Block(name, offset, length))
            offset += length
        self._layout = tuple(blocks)
        self._at = {b.name: b.offset for b in blocks}
        self._size = offset
        decks = variant.decks
        # How many cards of each rank index the decks hold (jokers: two a deck).
        self._copies = tuple(2.0 * decks if r == RANKS - 1 else 4.0 * decks for r in range(RANKS))
        # By rank letter: the rank index and what one card adds to a count.
        self._weight = {
            rank: (index, 1.0 / self._copies[index]) for index, rank in enumerate(RANK_LETTERS)
        }
        self._minimums: dict[int, float] = {}
        self._cards = 54.0 * decks
        self._minimum_scale = float(max(variant.initial_minimum(variant.target_score), 1))
        self._bounds = self._section_bounds()

    def _section_bounds(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """The least and greatest value of every entry (see `bounds`)."""
        variant = self.variant
        cards, hand_size = self._cards, variant.hand_size
        canastas = cards / 7  # per rank, or wild melds per side: seven cards each
        turns = float(max_deal_moves(variant))  # a seat discards at most once a turn
        turn_high = [1.0] * len(TURN_FIELDS)
        turn_high[TURN_FIELDS.index("opening")] = 50 * cards / self._minimum_scale
        turn_high[TURN_FIELDS.index("waiting")] = cards / hand_size
        high_by_section: dict[str, list[float]] = {
            "hand_sizes": [cards / hand_size],
            "melds": [1.0, 1.0, 1.0, canastas, canastas],
            "wild_melds": [1.0, 1.0, canastas],
            "scores": [SCORE_CLIP],
            "minimums": [SCORE_CLIP],
            "turn": turn_high,
            "asked": [ASKED_CLIP],
            "discards": [turns / c for c in self._copies],
        }
        low: list[float] = []
        high: list[float] = []
        for block in self._layout:
            pattern = high_by_section.get(block.name, [1.0])
            high.extend(pattern[i % len(pattern)] for i in range(block.length))
            least = -SCORE_CLIP if block.name == "scores" else 0.0
            low.extend([least] * block.length)
        return tuple(low), tuple(high)

    @property
    def size(self) -> int:
        """The length of every vector."""
        return self._size

    @property
    def layout(self) -> tuple[Block, ...]:
        """The named sections of the vector, in order; their lengths add up to `size`."""
        return self._layout

    @property
    def bounds(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """The least and the greatest value of each entry, derived from the rules (for a
        ``gymnasium.spaces.Box``)."""
        return self._bounds

    def section(self, vector: Any, name: str) -> Any:
        """The part of an encoded ``vector`` that section ``name`` covers."""
        for block in self._layout:
            if block.name == name:
                return vector[block.offset : block.offset + block.length]
        raise RLError(f"no section {name!r}; sections: {[b.name for b in self._layout]}")

    def encode(self, observation: Observation, out: Any = None) -> Any:
        """The vector of ``observation``: a NumPy ``float32`` array or a list of floats.

        Args:
            observation: a seat's observation of a deal of this encoder's variant.
            out: a buffer of `size` floats to fill instead of making a new vector (a
                NumPy array or a list); it is returned.

        Raises:
            RLError: the observation is of another variant, or ``out`` has another
                size.
        """
        if observation.variant != self.variant:
            raise RLError(
                f"the observation is of variant {observation.variant.name!r}, but this "
                f"encoder is for {self.variant.name!r}"
            )
        if out is not None and len(out) != self._size:
            raise RLError(f"out holds {len(out)} values, the encoder writes {self._size}")
        values = self._values(observation)
        if out is not None:
            out[:] = values
            return out
        if self._numpy:
            return _numpy().asarray(values, dtype=_numpy().float32)
        return values

    def _values(self, obs: Observation) -> list[float]:
        variant = self.variant
        players, sides = variant.players, variant.sides
        seat, side = obs.seat, obs.side
        weight = self._weight
        at = self._at
        v = [0.0] * self._size

        def count(base: int, cards: tuple[Card, ...]) -> None:
            for card in cards:
                rank, share = weight[card.rank]
                v[base + rank] += share

        count(at["hand"], obs.hand)
        hand_size = variant.hand_size
        discards = obs.discarded
        for rel in range(players):
            other = (seat + rel) % players
            v[at["hand_sizes"] + rel] = obs.hand_sizes[other] / hand_size
            if rel:
                count(at["known"] + (rel - 1) * RANKS, obs.known[other])
            v[at["melded"] + rel] = float(obs.melded_seats[other])
            v[at["asked"] + rel] = float(min(obs.asked[other], ASKED_CLIP))
            count(at["discards"] + rel * RANKS, discards[other])
        if obs.to_move is not None:
            v[at["to_move"] + (obs.to_move - seat) % players] = 1.0
        v[at["dealer"] + (obs.dealer - seat) % players] = 1.0
        if obs.lone is not None:
            v[at["lone"] + (obs.lone - seat) % players] = 1.0
        two_share, joker_share = weight["2"][1], weight["*"][1]
        for rel in range(sides):
            other = (side + rel) % sides
            base = at["melds"] + rel * len(MELD_RANKS) * MELD_FEATURES
            wild = at["wild_melds"] + rel * 3
            for meld in obs.melds[other]:
                joker_count = meld.jokers
                two_count = meld.wilds - joker_count
                if meld.is_wild_meld:
                    v[wild] += two_count * two_share
                    v[wild + 1] += joker_count * joker_share
                    v[wild + 2] += float(meld.is_canasta)
                    continue
                at_rank = base + MELD_RANKS.index(meld.rank_text) * MELD_FEATURES
                v[at_rank] += meld.naturals * two_share  # as many naturals of a rank as twos
                v[at_rank + 1] += two_count * two_share
                v[at_rank + 2] += joker_count * joker_share
                if meld.is_canasta:
                    v[at_rank + (3 if meld.is_natural else 4)] += 1.0
            threes = at["threes"] + rel * 2
            for card in obs.threes[other]:
                v[threes + (0 if card.suit in ("H", "D") else 1)] += joker_share
            v[at["opened"] + rel] = float(obs.opened[other])
            score = obs.scores[other]
            v[at["scores"] + rel] = max(-SCORE_CLIP, min(score / variant.target_score, SCORE_CLIP))
            v[at["minimums"] + rel] = self._minimum(score)
        top = obs.pile_top
        if top is not None:
            v[at["pile_top"] + weight[top.rank][0]] = 1.0
        pile = at["pile"]
        v[pile] = obs.pile_size / self._cards
        v[pile + 1] = float(obs.frozen)
        v[pile + 2] = float(obs.blocked)
        count(at["pile_seen"], obs.pile_seen)
        v[at["stock"]] = obs.stock_size / self._cards
        v[at["phase"] + _PHASES.index(obs.phase)] = 1.0
        turn = obs.turn
        flags = (
            float(turn.took_pile),
            turn.opening / self._minimum_scale,
            len(turn.waiting) / hand_size,
            float(turn.laid_off),
            float(turn.melded),
            float(turn.asked),
            float(turn.permission is True),
            float(turn.permission is False),
            float(turn.must_go_out),
            float(turn.no_discard),
        )
        v[at["turn"] : at["turn"] + len(flags)] = flags
        return v

    def _minimum(self, score: int) -> float:
        """A side's initial-meld minimum for its score, scaled and clipped (cached)."""
        scaled = self._minimums.get(score)
        if scaled is None:
            minimum = self.variant.initial_minimum(score) / self._minimum_scale
            scaled = self._minimums[score] = min(minimum, SCORE_CLIP)
        return scaled

    def __repr__(self) -> str:
        return f"<ObservationEncoder {self.variant.name} size={self.size}>"
