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
import struct
from itertools import chain
from typing import Any

from canasta.cards import Card
from canasta.observation import Observation
from canasta.rl.actions import Block, RLError
from canasta.rl.rewards import max_deal_moves
from canasta.table import Meld, TurnProgress
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


#: How many card tuples and melds an encoder keeps the entries of (a few deals' worth).
_KEPT = 4096
#: What a kept entry was read from (the first item of its key).
_COUNTS, _KNOWN, _DISCARDS, _MELDS, _SIDE_MELDS, _THREES, _TURN = range(7)
#: A kept entry: what it was read from, the values read, and their float32 bytes (for
#: NumPy output).
_Kept = tuple[Any, list[float], bytes]
_RANK = operator.attrgetter("rank")
#: A flag's value in the vector, by the flag.
_FLAG = (0.0, 1.0)


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
        club = self._club_sections(variant)
        self._plays_club = bool(club)
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
            # The Modern American club features, where the variant plays them.
            *club,
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

    @staticmethod
    def _club_sections(variant: Variant) -> tuple[tuple[str, int], ...]:
        """The sections of the club features the variant plays: talons, set-aside talons,
        the turn card, the covered last discard."""
        sections: list[tuple[str, int]] = []
        if variant.talon_sizes:
            sections.append(("talon_taken", variant.sides))
            if variant.talons_set_aside:
                sections.append(("talons_left", len(variant.talon_sizes)))
        if variant.shows_turn_card:
            sections.append(("turn_card", _RANKS + 1))
        if variant.covers_last_discard:
            sections.append(("pile_covered", 1))
        return tuple(sections)

    def _club(self, obs: Observation) -> list[float]:
        """The club sections of ``obs`` (see `_club_sections`), in order."""
        variant = self.variant
        values: list[float] = []
        if variant.talon_sizes:
            most = self._talon_most
            taken, side = obs.talon_taken, obs.side
            values += [size / most for size in taken[side:] + taken[:side]]
            if variant.talons_set_aside:
                values += [size / most for size in obs.talons_left]
        if variant.shows_turn_card:
            card = obs.turn_card
            values += self._no_ranks if card is None else self._one_rank[card.rank]
            values.append(_FLAG[obs.turn_card_drawn])
        if variant.covers_last_discard:
            values.append(_FLAG[obs.pile_covered])
        return values

    def _tables(self) -> None:
        """What encoding reads and writes through, so that it reads each card once.

        The vector is five runs of sections: (1) the hand and the hand sizes, (2) the
        known cards, (3) the melds, wild melds and threes, (4) the small sections from
        ``opened`` to ``lone``, (5) the discards. Runs 2, 3 and 5 change only when a seat
        discards, takes the pile or melds: they are kept, by the identity of the
        observation's tuples (successive observations share them). Runs 1 and 4 are
        listed afresh, from pieces kept likewise (the hand's and the pile's counts).
        """
        players = self.variant.players
        names = [b.name for b in self._layout]
        runs = [
            ["hand", "hand_sizes"],
            ["known"],
            ["melds", "wild_melds", "threes"],
            names[names.index("opened") : names.index("discards")],
            ["discards"],
        ]
        # The runs cover the layout in order: the fresh lists and kept arrays join as they are.
        assert [name for run in runs for name in run] == names
        self._head = sum(self._blocks[name].length for name in runs[0])
        fresh = self._head + sum(self._blocks[name].length for name in runs[3])
        self._pack = struct.Struct(f"={fresh}f").pack
        self._unpack = struct.Struct(f"={self._size}f").unpack
        # Per rank index: a card's share of its rank's copies in the decks.
        self._rank_share = tuple(1.0 / c for c in self._copies)
        self._meld_at = {rank: i * _MELD_FEATURES for i, rank in enumerate(_MELD_RANKS)}
        self._side_length = len(_MELD_RANKS) * _MELD_FEATURES
        two_share, joker_share = self._rank_share[1], self._rank_share[_RANKS - 1]
        # As many naturals of a rank as twos: both count in fours a deck. Canastas count
        # as they are.
        self._meld_share = (two_share, two_share, joker_share, 1.0, 1.0) * len(_MELD_RANKS)
        self._wild_share = (two_share, joker_share, 1.0)
        self._three_share = joker_share  # two red threes a deck, and two black
        self._no_ranks = (0.0,) * _RANKS
        self._one_rank = {
            rank: tuple(1.0 if j == i else 0.0 for j in range(_RANKS))
            for i, rank in enumerate(_RANK_LETTERS)
        }
        self._no_seat = (0.0,) * players
        self._one_seat = tuple(
            tuple(1.0 if j == rel else 0.0 for j in range(players)) for rel in range(players)
        )
        self._one_phase = {
            phase: tuple(1.0 if other == phase else 0.0 for other in _PHASES) for phase in _PHASES
        }
        hand_size, cards = self.variant.hand_size, int(self._cards)
        # Sizes as shares, by size: of the hand size (hands), of the decks (pile, stock).
        self._of_hand = tuple(n / hand_size for n in range(cards + 1))
        self._of_cards = tuple(n / self._cards for n in range(cards + 1))
        self._score_runs: dict[tuple[tuple[int, ...], int], list[float]] = {}
        # Talon sizes as shares of the largest talon (4): 1 for the first side to open.
        self._talon_most = float(max(self.variant.talon_sizes, default=1))
        # What the encoder read from card tuples and melds, by the identity of the
        # tuples it read: a kept entry holds them, so their ids are not reused meanwhile.
        self._kept: dict[tuple[int, ...], _Kept] = {}

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
        seat, side = observation.seat, observation.side
        known = self._known(observation.known, seat)
        melds = self._side_cards(observation.melds, observation.threes, side)
        discards = self._discards(observation.discarded, seat)
        fresh = self._fresh(observation)
        head = self._head
        np = _numpy() if self._numpy else None
        if np is not None and (out is None or isinstance(out, np.ndarray)):
            # The runs as float32 bytes, joined: far cheaper than NumPy calls on vectors
            # this small.
            packed = self._pack(*fresh)
            cut = 4 * head
            data = b"".join((packed[:cut], known[2], melds[2], packed[cut:], discards[2]))
            if out is None:
                return np.frombuffer(bytearray(data), dtype=np.float32)
            out[:] = np.frombuffer(data, dtype=np.float32)
            return out
        if self._numpy:
            # A list buffer of a NumPy encoder: its kept runs are bytes only.
            packed = self._pack(*fresh)
            cut = 4 * head
            data = b"".join((packed[:cut], known[2], melds[2], packed[cut:], discards[2]))
            out[:] = self._unpack(data)
            return out
        vector = fresh[:head] + known[1] + melds[1] + fresh[head:] + discards[1]
        if out is None:
            return vector
        out[:] = vector
        return out

    def _fresh(self, obs: Observation) -> list[float]:
        """Runs 1 and 4 of the vector (see `_tables`), one after the other."""
        players = self.variant.players
        seat, side = obs.seat, obs.side
        sizes, opened, melded, asked = obs.hand_sizes, obs.opened, obs.melded_seats, obs.asked
        to_move, lone, top = obs.to_move, obs.lone, obs.pile_top
        of_cards, one_seat = self._of_cards, self._one_seat
        fresh = self._counted(obs.hand)[1][:]
        fresh += map(self._of_hand.__getitem__, sizes[seat:] + sizes[:seat])
        fresh += map(_FLAG.__getitem__, opened[side:] + opened[:side])
        fresh += map(_FLAG.__getitem__, melded[seat:] + melded[:seat])
        fresh += self._no_ranks if top is None else self._one_rank[top.rank]
        fresh += (of_cards[obs.pile_size], _FLAG[obs.frozen], _FLAG[obs.blocked])
        fresh += self._counted(obs.pile_seen)[1]
        fresh.append(of_cards[obs.stock_size])
        fresh += self._scores(obs.scores, side)
        fresh += self._one_phase[obs.phase]
        fresh += self._no_seat if to_move is None else one_seat[(to_move - seat) % players]
        fresh += one_seat[(obs.dealer - seat) % players]
        fresh += self._turn(obs.turn)
        if any(asked):
            fresh += [float(min(n, _ASKED_CLIP)) for n in asked[seat:] + asked[:seat]]
        else:
            fresh += self._no_seat
        fresh += self._no_seat if lone is None else one_seat[(lone - seat) % players]
        if self._plays_club:
            fresh += self._club(obs)
        return fresh

    def _scores(self, scores: tuple[int, ...], side: int) -> list[float]:
        """The scores and minimums seen from ``side`` (kept: they last the deal)."""
        key = (scores, side)
        found = self._score_runs.get(key)
        if found is None:
            scores = scores[side:] + scores[:side]
            target = self.variant.target_score
            found = [max(-_SCORE_CLIP, min(score / target, _SCORE_CLIP)) for score in scores]
            found += map(self._minimum, scores)
            if len(self._score_runs) >= _KEPT:
                self._score_runs.clear()
            self._score_runs[key] = found
        return found

    def _turn(self, turn: TurnProgress) -> list[float]:
        """The turn section (kept by the turn's identity: most states share a few)."""
        kept = self._kept.get((_TURN, id(turn)))
        if kept is not None and kept[0] is turn:
            return kept[1]
        permission = turn.permission
        found = [
            _FLAG[turn.took_pile],
            turn.opening / self._minimum_scale,
            self._of_hand[len(turn.waiting)],
            _FLAG[turn.laid_off],
            _FLAG[turn.melded],
            _FLAG[turn.asked],
            _FLAG[permission is True],
            _FLAG[permission is False],
            _FLAG[turn.must_go_out],
            _FLAG[turn.no_discard],
        ]
        return self._store((_TURN, id(turn)), (turn, found, b""))[1]

    def _counted(self, cards: tuple[Card, ...]) -> _Kept:
        """The entry of ``cards``: their counts by rank index, each scaled by the rank's
        copies in the decks (the caller copies the list to change it)."""
        key = (_COUNTS, id(cards))
        kept = self._kept.get(key)
        if kept is not None and kept[0] is cards:
            return kept
        # The ranks as one text, counted letter by letter in C.
        ranks = "".join(map(_RANK, cards))
        counts = map(ranks.count, _RANK_LETTERS)
        return self._keep(key, cards, list(map(operator.mul, counts, self._rank_share)))

    def _known(self, known: tuple[tuple[Card, ...], ...], seat: int) -> _Kept:
        """Run 2: the cards known in the other hands, seen from ``seat``."""
        key = (_KNOWN, id(known), seat)
        kept = self._kept.get(key)
        if kept is not None and kept[0] is known:
            return kept
        counted = [self._counted(cards) for cards in known[seat + 1 :] + known[:seat]]
        return self._join(key, known, [(c[1], c[2]) for c in counted])

    def _discards(self, discarded: tuple[tuple[Card, ...], ...], seat: int) -> _Kept:
        """Run 5: every seat's discards, seen from ``seat``."""
        key = (_DISCARDS, id(discarded), seat)
        kept = self._kept.get(key)
        if kept is not None and kept[0] is discarded:
            return kept
        counted = [self._counted(cards) for cards in discarded[seat:] + discarded[:seat]]
        return self._join(key, discarded, [(c[1], c[2]) for c in counted])

    def _side_cards(
        self, melds: tuple[tuple[Meld, ...], ...], threes: tuple[tuple[Card, ...], ...], side: int
    ) -> _Kept:
        """Run 3: every side's melds, wild melds and threes, seen from ``side``."""
        key = (_MELDS, id(melds), id(threes), side)
        kept = self._kept.get(key)
        if kept is not None and kept[0][0] is melds and kept[0][1] is threes:
            return kept
        of_sides = [self._melds(side_melds) for side_melds in melds[side:] + melds[:side]]
        cut = self._side_length
        pieces = [(m[1][:cut], m[2][: 4 * cut]) for m in of_sides]
        pieces += [(m[1][cut:], m[2][4 * cut :]) for m in of_sides]
        for side_threes in threes[side:] + threes[:side]:
            counted = self._threes(side_threes)
            pieces.append((counted[1], counted[2]))
        return self._join(key, (melds, threes), pieces)

    def _melds(self, melds: tuple[Meld, ...]) -> _Kept:
        """The entry of one side's melds: the features of each natural rank, then those
        of the wild melds."""
        key = (_SIDE_MELDS, id(melds))
        kept = self._kept.get(key)
        if kept is not None and kept[0] is melds:
            return kept
        counts = [0] * self._side_length
        wild = [0, 0, 0]
        for meld in melds:
            jokers = meld.jokers
            twos = meld.wilds - jokers
            if meld.is_wild_meld:
                wild[0] += twos
                wild[1] += jokers
                wild[2] += meld.is_canasta
                continue
            at = self._meld_at[meld.rank_text]
            counts[at] += meld.naturals
            counts[at + 1] += twos
            counts[at + 2] += jokers
            if meld.is_canasta:
                counts[at + (3 if meld.is_natural else 4)] += 1
        found = list(map(operator.mul, counts, self._meld_share))
        found += map(operator.mul, wild, self._wild_share)
        return self._keep(key, melds, found)

    def _threes(self, threes: tuple[Card, ...]) -> _Kept:
        """The entry of one side's threes: red, then black."""
        key = (_THREES, id(threes))
        kept = self._kept.get(key)
        if kept is not None and kept[0] is threes:
            return kept
        black = sum(1 for card in threes if card.suit in ("S", "C"))
        share = self._three_share
        return self._keep(key, threes, [share * (len(threes) - black), share * black])

    def _keep(self, key: tuple[int, ...], value: Any, found: list[float]) -> _Kept:
        """Keep ``found``, read from ``value``, under ``key`` (with its float32 bytes for
        NumPy output); returns the entry."""
        data = struct.pack(f"={len(found)}f", *found) if self._numpy else b""
        return self._store(key, (value, found, data))

    def _join(
        self, key: tuple[int, ...], value: Any, pieces: list[tuple[list[float], bytes]]
    ) -> _Kept:
        """Keep the run of ``pieces`` (lists and their bytes), read from ``value``: as bytes
        for NumPy output, else as a list."""
        if self._numpy:
            return self._store(key, (value, [], b"".join(piece[1] for piece in pieces)))
        found = list(chain.from_iterable(piece[0] for piece in pieces))
        return self._store(key, (value, found, b""))

    def _store(self, key: tuple[int, ...], kept: _Kept) -> _Kept:
        # A kept entry holds what it was read from, so that no other tuple can have the
        # same id while it is kept.
        if len(self._kept) >= _KEPT:
            self._kept.clear()
        self._kept[key] = kept
        return kept

    def _minimum(self, score: int) -> float:
        """A side's initial-meld minimum for its score, scaled and clipped (cached)."""
        scaled = self._minimums.get(score)
        if scaled is None:
            minimum = self.variant.initial_minimum(score) / self._minimum_scale
            scaled = self._minimums[score] = min(minimum, _SCORE_CLIP)
        return scaled

    def __repr__(self) -> str:
        return f"<ObservationEncoder {self.variant.name} size={self.size}>"
