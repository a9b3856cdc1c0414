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
import operator
from itertools import compress
from typing import Any

from canasta.cards import Card
from canasta.observation import Observation
from canasta.rl.actions import Block, RLError
from canasta.rl.rewards import max_deal_moves
from canasta.table import Meld
from canasta.variants.base import Variant

__all__ = ["ObservationEncoder"]

#: Card ranks in tensor order: A, 2, 3 .. K, joker (`Card.rank_index`).
_RANK_LETTERS = "A23456789TJQK*"
_RANKS = len(_RANK_LETTERS)
#: Meld ranks in tensor order: A, 3 (the black threes of a going-out meld), 4 .. K.
_MELD_RANKS = "A3456789TJQK"
#: Per meld rank: naturals, twos, jokers, natural canastas, mixed canastas.
_MELD_FEATURES = 5
_PHASES = ("draw", "play", "answer", "over")
#: Scores (in target scores) and minimums (in the minimum at the target) are clipped here:
#: a match is decided long before, and the vector stays bounded.
_SCORE_CLIP = 4.0
#: Questions to partner are counted up to this (only the first ones change the rules).
_ASKED_CLIP = 3
#: The public progress of the turn, one entry each.
_TURN_FIELDS = (
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


_RANK = operator.attrgetter("rank")
_SUIT = operator.attrgetter("suit")
#: How many card tuples and melds an encoder keeps the entries of (a few deals' worth).
_KEPT = 4096
#: The turn's entries with a value (the others are flags).
_TURN_VALUES = ("opening", "waiting")


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

    Successive observations of a deal share most of their card tuples and melds, so an
    encoder keeps what it read from the last few thousand it saw (by identity) and reads
    only what changed: one encoder per environment, reused, is the fast way.

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
            ("hand", _RANKS),
            ("hand_sizes", players),
            ("known", (players - 1) * _RANKS),
            ("melds", sides * len(_MELD_RANKS) * _MELD_FEATURES),
            ("wild_melds", sides * 3),
            ("threes", sides * 2),
            ("opened", sides),
            ("melded", players),
            ("pile_top", _RANKS),
            ("pile", 3),
            ("pile_seen", _RANKS),
            ("stock", 1),
            ("scores", sides),
            ("minimums", sides),
            ("phase", len(_PHASES)),
            ("to_move", players),
            ("dealer", players),
            ("turn", len(_TURN_FIELDS)),
            ("asked", players),
            ("lone", players),
            ("discards", players * _RANKS),
        )
        blocks: list[Block] = []
        offset = 0
        for name, length in sections:
            blocks.append(Block(name, offset, length))
            offset += length
        self._layout = tuple(blocks)
        self._blocks = {b.name: b for b in blocks}
        self._at = {b.name: b.offset for b in blocks}
        self._size = offset
        decks = variant.decks
        # How many cards of each rank index the decks hold (jokers: two a deck).
        self._copies = tuple(2.0 * decks if r == _RANKS - 1 else 4.0 * decks for r in range(_RANKS))
        self._minimums: dict[int, float] = {}
        self._cards = 54.0 * decks
        self._minimum_scale = float(max(variant.initial_minimum(variant.target_score), 1))
        self._bounds = self._section_bounds()
        self._tables()

    def _tables(self) -> None:
        """Index tables, so that encoding reads each card once, mostly in C.

        An observation becomes a list of the entries that a card or a flag raises by one
        (counts, scaled by `_scale` at the end), and the values of the entries in
        `_valued` (sizes, scores, minimums).
        """
        players, sides = self.variant.players, self.variant.sides
        at = self._at
        self._per_rank = {
            name: tuple(
                {rank: at[name] + slot * _RANKS + i for i, rank in enumerate(_RANK_LETTERS)}
                for slot in range(self._blocks[name].length // _RANKS)
            )
            for name in ("hand", "known", "pile_top", "pile_seen", "discards")
        }
        # Threes by suit, per side: red first, then black.
        self._three_at = tuple(
            {suit: at["threes"] + 2 * rel + (suit in "SC") for suit in "SHDC"}
            for rel in range(sides)
        )
        self._meld_at = {rank: _MELD_RANKS.index(rank) * _MELD_FEATURES for rank in _MELD_RANKS}
        self._melded_at = tuple(at["melded"] + rel for rel in range(players))
        self._asked_at = tuple(at["asked"] + rel for rel in range(players))
        self._opened_at = tuple(at["opened"] + rel for rel in range(sides))
        # The flags `_entries` lists: the pile's, then the turn's (but its two values).
        self._flag_at = (at["pile"] + 1, at["pile"] + 2) + tuple(
            at["turn"] + i for i, name in enumerate(_TURN_FIELDS) if name not in _TURN_VALUES
        )
        # The entries with a value of their own, in the order `_entries` lists the values.
        valued = [at["hand_sizes"] + rel for rel in range(players)]
        valued += (at[name] + rel for name in ("scores", "minimums") for rel in range(sides))
        valued += (at["pile"], at["stock"])
        valued += (at["turn"] + _TURN_FIELDS.index(name) for name in _TURN_VALUES)
        self._valued = valued
        scale = [1.0] * self._size
        for name in ("hand", "known", "pile_seen", "discards"):
            block = self._blocks[name]
            for i in range(block.length):
                scale[block.offset + i] = 1.0 / self._copies[i % _RANKS]
        two_share, joker_share = 1.0 / self._copies[1], 1.0 / self._copies[_RANKS - 1]
        for rel in range(sides):
            scale[at["threes"] + 2 * rel] = scale[at["threes"] + 2 * rel + 1] = joker_share
            wild = at["wild_melds"] + 3 * rel
            scale[wild], scale[wild + 1] = two_share, joker_share
            for rank in range(len(_MELD_RANKS)):
                base = at["melds"] + (rel * len(_MELD_RANKS) + rank) * _MELD_FEATURES
                # As many naturals of a rank as twos: both count in fours a deck.
                scale[base : base + 3] = (two_share, two_share, joker_share)
        self._scale = scale
        if self._numpy:
            np = _numpy()
            self._scale_array = np.asarray(scale)
            self._valued_array = np.asarray(valued, dtype=np.intp)
        # Observations share their card tuples and melds from state to state (equal cards
        # come as the same tuple): their entries are kept by identity.
        self._kept: dict[tuple[int, ...], tuple[Any, list[int]]] = {}

    def _section_bounds(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """The least and greatest value of every entry (see `bounds`)."""
        variant = self.variant
        cards, hand_size = self._cards, variant.hand_size
        canastas = cards / 7  # per rank, or wild melds per side: seven cards each
        turns = float(max_deal_moves(variant))  # a seat discards at most once a turn
        turn_high = [1.0] * len(_TURN_FIELDS)
        turn_high[_TURN_FIELDS.index("opening")] = 50 * cards / self._minimum_scale
        turn_high[_TURN_FIELDS.index("waiting")] = cards / hand_size
        high_by_section: dict[str, list[float]] = {
            "hand_sizes": [cards / hand_size],
            "melds": [1.0, 1.0, 1.0, canastas, canastas],
            "wild_melds": [1.0, 1.0, canastas],
            "scores": [_SCORE_CLIP],
            "minimums": [_SCORE_CLIP],
            "turn": turn_high,
            "asked": [_ASKED_CLIP],
            "discards": [turns / c for c in self._copies],
        }
        low: list[float] = []
        high: list[float] = []
        for block in self._layout:
            pattern = high_by_section.get(block.name, [1.0])
            high.extend(pattern[i % len(pattern)] for i in range(block.length))
            least = -_SCORE_CLIP if block.name == "scores" else 0.0
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
        block = self._blocks.get(name)
        if block is None:
            raise RLError(f"no section {name!r}; sections: {[b.name for b in self._layout]}")
        return vector[block.offset : block.offset + block.length]

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
        variant = observation.variant
        if variant is not self.variant and variant != self.variant:
            raise RLError(
                f"the observation is of variant {variant.name!r}, but this "
                f"encoder is for {self.variant.name!r}"
            )
        if out is not None and len(out) != self._size:
            raise RLError(f"out holds {len(out)} values, the encoder writes {self._size}")
        ones, values = self._entries(observation)
        np = _numpy() if self._numpy else None
        if np is not None and (out is None or isinstance(out, np.ndarray)):
            # Count the entries and scale the counts in C.
            counts = np.bincount(ones, minlength=self._size)
            if out is None:
                out = np.empty(self._size, dtype=np.float32)
            np.multiply(counts, self._scale_array, out=out, casting="unsafe")
            out[self._valued_array] = values
            return out
        vector = [0.0] * self._size
        for i in ones:
            vector[i] += 1.0
        vector = [x * k for x, k in zip(vector, self._scale, strict=True)]
        for i, value in zip(self._valued, values, strict=True):
            vector[i] = value
        if out is None:
            return vector
        out[:] = vector
        return out

    def _entries(self, obs: Observation) -> tuple[list[int], list[float]]:
        """The entries that the observation's cards and flags raise by one (repeated for
        a count), and the values of the entries in `_valued`."""
        variant = self.variant
        players = variant.players
        seat, side = obs.seat, obs.side
        at = self._at
        per_rank = self._per_rank
        indices = self._indices
        ones = indices(obs.hand, per_rank["hand"][0], _RANK)
        ones = ones + indices(obs.pile_seen, per_rank["pile_seen"][0], _RANK)
        ones += self._seat_cards(obs.known, obs.discarded, seat)
        melded, asked = obs.melded_seats, obs.asked
        ones += compress(self._melded_at, melded[seat:] + melded[:seat])
        if any(asked):
            for entry, questions in zip(self._asked_at, asked[seat:] + asked[:seat], strict=True):
                ones += [entry] * min(questions, _ASKED_CLIP)
        to_move, lone = obs.to_move, obs.lone
        if to_move is not None:
            ones.append(at["to_move"] + (to_move - seat) % players)
        ones.append(at["dealer"] + (obs.dealer - seat) % players)
        if lone is not None:
            ones.append(at["lone"] + (lone - seat) % players)
        ones += self._side_cards(obs.melds, obs.threes, side)
        opened = obs.opened
        ones += compress(self._opened_at, opened[side:] + opened[:side])
        top = obs.pile_top
        if top is not None:
            ones.append(per_rank["pile_top"][0][top.rank])
        ones.append(at["phase"] + _PHASES.index(obs.phase))
        turn = obs.turn
        permission = turn.permission
        ones += compress(
            self._flag_at,
            (
                obs.frozen,
                obs.blocked,
                turn.took_pile,
                turn.laid_off,
                turn.melded,
                turn.asked,
                permission is True,
                permission is False,
                turn.must_go_out,
                turn.no_discard,
            ),
        )
        hand_size, target, sizes = variant.hand_size, variant.target_score, obs.hand_sizes
        scores = obs.scores
        scores = scores[side:] + scores[:side]
        values = [size / hand_size for size in sizes[seat:] + sizes[:seat]]
        values += [max(-_SCORE_CLIP, min(score / target, _SCORE_CLIP)) for score in scores]
        values += map(self._minimum, scores)
        values += (
            obs.pile_size / self._cards,
            obs.stock_size / self._cards,
            turn.opening / self._minimum_scale,
            len(turn.waiting) / hand_size,
        )
        return ones, values

    def _seat_cards(
        self,
        known: tuple[tuple[Card, ...], ...],
        discarded: tuple[tuple[Card, ...], ...],
        seat: int,
    ) -> list[int]:
        """The entries of the cards known in the other hands and of every seat's discards,
        seen from ``seat``; kept by the tuples' identity (they change only when a seat
        discards or takes the pile)."""
        key = (id(known), id(discarded), seat)
        kept = self._kept.get(key)
        if kept is not None and kept[0][0] is known and kept[0][1] is discarded:
            return kept[1]
        per_rank, indices = self._per_rank, self._indices
        found: list[int] = []
        # Seats from the observer's: the per-seat tuples rotated.
        for cards, ranks in zip(known[seat + 1 :] + known[:seat], per_rank["known"], strict=True):
            if cards:
                found += indices(cards, ranks, _RANK)
        for cards, ranks in zip(
            discarded[seat:] + discarded[:seat], per_rank["discards"], strict=True
        ):
            if cards:
                found += indices(cards, ranks, _RANK)
        self._keep(key, (known, discarded), found)
        return found

    def _side_cards(
        self, melds: tuple[tuple[Meld, ...], ...], threes: tuple[tuple[Card, ...], ...], side: int
    ) -> list[int]:
        """The entries of every side's melds and threes, seen from ``side``; kept by the
        tuples' identity."""
        key = (id(melds), id(threes), -1 - side)
        kept = self._kept.get(key)
        if kept is not None and kept[0][0] is melds and kept[0][1] is threes:
            return kept[1]
        found: list[int] = []
        for rel, (side_melds, side_threes) in enumerate(
            zip(melds[side:] + melds[:side], threes[side:] + threes[:side], strict=True)
        ):
            if side_melds:
                found += self._melds(side_melds, rel)
            if side_threes:
                found += self._indices(side_threes, self._three_at[rel], _SUIT)
        self._keep(key, (melds, threes), found)
        return found

    def _indices(self, cards: tuple[Card, ...], table: dict[str, int], key: Any) -> list[int]:
        """The entries of ``cards``, each looked up in ``table`` by ``key`` (its rank or
        suit); kept by the tuple's identity."""
        kept = self._kept.get((id(cards), id(table)))
        if kept is not None and kept[0] is cards:
            return kept[1]
        found = list(map(table.__getitem__, map(key, cards)))
        self._keep((id(cards), id(table)), cards, found)
        return found

    def _melds(self, melds: tuple[Meld, ...], rel: int) -> list[int]:
        """The entries of one side's melds, ``rel`` sides from the observer's (a count
        repeats its entry); kept by the tuple's identity."""
        key = (id(melds), -1 - rel)
        kept = self._kept.get(key)
        if kept is not None and kept[0] is melds:
            return kept[1]
        at = self._at
        base = at["melds"] + rel * len(_MELD_RANKS) * _MELD_FEATURES
        wild = at["wild_melds"] + rel * 3
        found: list[int] = []
        for meld in melds:
            jokers = meld.jokers
            twos = meld.wilds - jokers
            if meld.is_wild_meld:
                found += [wild] * twos + [wild + 1] * jokers
                if meld.is_canasta:
                    found.append(wild + 2)
                continue
            at_rank = base + self._meld_at[meld.rank_text]
            found += [at_rank] * meld.naturals + [at_rank + 1] * twos + [at_rank + 2] * jokers
            if meld.is_canasta:
                found.append(at_rank + (3 if meld.is_natural else 4))
        self._keep(key, melds, found)
        return found

    def _keep(self, key: tuple[int, ...], value: Any, found: list[int]) -> None:
        # The kept value holds the tuple, so its id cannot be reused while it is kept.
        if len(self._kept) >= _KEPT:
            self._kept.clear()
        self._kept[key] = (value, found)

    def _minimum(self, score: int) -> float:
        """A side's initial-meld minimum for its score, scaled and clipped (cached)."""
        scaled = self._minimums.get(score)
        if scaled is None:
            minimum = self.variant.initial_minimum(score) / self._minimum_scale
            scaled = self._minimums[score] = min(minimum, _SCORE_CLIP)
        return scaled

    def __repr__(self) -> str:
        return f"<ObservationEncoder {self.variant.name} size={self.size}>"
