"""Observation tensors: an `Observation` as a fixed-size vector of floats.

`ObservationEncoder` reads only the `Observation` of one seat (its fields, and the
hidden-card-free records its card fields are made from), so nothing hidden can leak into
the vector. Everything is relative to the observing seat: seats are
rotated so that index 0 is the observer (1 the next seat in turn order, ...), and sides
likewise (0 is the observer's side). Counts are divided by how many such cards the decks
hold, so most entries lie between 0 and 1. `ObservationEncoder.layout` names the
sections; the documentation page "Reinforcement learning" lists them.
"""

from __future__ import annotations

import functools
import itertools
import operator
import struct
from collections.abc import Callable, Iterable
from itertools import chain
from typing import Any

from canasta._identity import keep
from canasta.cards import BLACK_THREES, CARDS
from canasta.observation import Observation
from canasta.rl.actions import Block, RLError, rl_variant
from canasta.rl.rewards import max_deal_moves
from canasta.table import NO_CLUB, Meld, Turn
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


#: How many card tuples, melds and turns an encoder keeps what it read from (a few
#: deals' worth).
_KEPT = 4096
#: Values as an encoder's vectors hold them: float32 bytes (NumPy output) or floats.
_Piece = bytes | list[float]
#: The rank index of each card code.
_RANK_OF_CODE = tuple(card.rank_index for card in CARDS)
#: A flag's value in the vector, by the flag.
_FLAG = (0.0, 1.0)


def _length(out: Any) -> int | None:
    """The length of a buffer given to fill, None where it has none."""
    try:
        return len(out)
    except TypeError:
        return None


class _Unseen:
    """Stands for the last observation of a seat that an encoder has not encoded yet: each
    of its attributes and items is itself, so it differs from every value of an
    observation, and encoding writes every section."""

    def __getattr__(self, name: str) -> _Unseen:
        return self

    def __getitem__(self, index: int) -> _Unseen:
        return self


_UNSEEN = _Unseen()


@functools.cache
def _float32s(length: int) -> Callable[..., bytes]:
    """Packs ``length`` floats as float32 bytes."""
    return struct.Struct(f"={length}f").pack


def _chained(pieces: Iterable[list[float]]) -> list[float]:
    return list(chain.from_iterable(pieces))


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

    Successive observations of a deal differ in a few sections and share most of their
    card tuples and melds, so an encoder keeps the last vector of each seat and rewrites
    only the sections that changed, reading only the tuples and melds it has not read yet:
    one encoder per environment, reused, is the fast way.

    Args:
        variant: the rules; the vector's size depends on the seats, sides and decks.
        numpy: True for NumPy ``float32`` arrays, False for lists of floats; None (the
            default) for arrays when NumPy is installed (the ``canasta[numpy]`` extra).
    """

    def __init__(self, variant: Variant, *, numpy: bool | None = None) -> None:
        self.variant = variant = rl_variant(variant, "an encoder")
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

    def _tables(self) -> None:
        """Where encoding writes, and the pieces it writes, worked out once.

        An encoder keeps, for each seat, the last vector it made and the observation it
        made it from, and rewrites only the sections whose values changed since: most
        change little from move to move. What it reads from card tuples, melds and turns
        it keeps by their identity, for every seat (successive observations share them).
        """
        variant = self.variant
        players, sides = variant.players, variant.sides
        # A float is 4 bytes of a NumPy encoder's float32 buffer, one item of a list.
        unit = 4 if self._numpy else 1
        self._at = {
            b.name: slice(unit * b.offset, unit * (b.offset + b.length)) for b in self._layout
        }
        self._scores_at = slice(self._at["scores"].start, self._at["minimums"].stop)
        # The entries of section ``pile``: its size, frozen, blocked.
        pile = self._blocks["pile"].offset
        self._pile_size_at, self._frozen_at, self._blocked_at = (
            slice(unit * entry, unit * (entry + 1)) for entry in range(pile, pile + 3)
        )

        def rows(name: str, parts: int) -> list[slice]:
            """The slices of the ``parts`` equal rows of section ``name``."""
            block = self._blocks[name]
            length = block.length // parts
            offsets = range(block.offset, block.offset + block.length, length)
            return [slice(unit * start, unit * (start + length)) for start in offsets]

        seats = [[(seat + rel) % players for rel in range(players)] for seat in range(players)]
        self._side_of = tuple(variant.side_of(seat) for seat in range(players))
        # Seat and side values in the order the observer sees them (itself first).
        self._by_seat = tuple(operator.itemgetter(*order) for order in seats)
        self._by_side = tuple(
            operator.itemgetter(*((side + rel) % sides for rel in range(sides)))
            for side in range(sides)
        )
        # Per observer: (seat or side, the rows it is written to).
        self._known_rows = tuple(
            tuple(zip(order[1:], rows("known", players - 1), strict=True)) for order in seats
        )
        self._discard_rows = tuple(
            tuple(zip(order, rows("discards", players), strict=True)) for order in seats
        )
        self._side_rows = tuple(
            tuple(
                zip(
                    [(side + rel) % sides for rel in range(sides)],
                    rows("melds", sides),
                    rows("wild_melds", sides),
                    rows("threes", sides),
                    strict=True,
                )
            )
            for side in range(sides)
        )
        self._join: Callable[[Iterable[Any]], _Piece] = b"".join if self._numpy else _chained
        # A section of one value per seat, side or rank joins such values: 4 bytes each for
        # NumPy output, floats for lists.
        self._join_values: Callable[[Iterable[Any]], _Piece] = b"".join if self._numpy else list
        # Per rank index: a card's share of its rank's copies in the decks.
        self._rank_share = tuple(1.0 / c for c in self._copies)
        # A side's melds are rows of features: one row per natural rank (its row of the
        # section ``melds``), then one for the wild melds (the side's ``wild_melds``).
        self._meld_row_of = {rank: i for i, rank in enumerate(_MELD_RANKS)}
        two_share, joker_share = self._rank_share[1], self._rank_share[_RANKS - 1]
        # As many naturals of a rank as twos: both count in fours a deck. Canastas count
        # as they are. The wild melds' features follow the natural ranks' (see
        # `_meld_row`).
        natural = (two_share, two_share, joker_share, 1.0, 1.0)
        self._row_share = (natural,) * len(_MELD_RANKS) + ((two_share, joker_share, 1.0),)
        self._three_share = joker_share  # two red threes a deck, and two black
        piece = self._piece
        self._no_meld_rows = tuple(piece([0.0] * len(share)) for share in self._row_share)

        def value(entry: float) -> Any:
            """``entry`` as `_join_values` joins it."""
            one = piece([entry])
            return one if self._numpy else one[0]

        # Per rank index, per count: the count's share, so that a section of counts is
        # picked, not computed. In one tuple, rank after rank, each rank's values from its
        # offset on (`_counted` counts from the offsets). A seat may discard a card again
        # after taking it with the pile, so its discards of a rank may outnumber the decks'
        # copies: the counts go up to the discards of a seat, at most one a turn. Ranks of
        # as many copies share their values.
        most = max(max_deal_moves(variant), *map(int, self._copies))
        values_of = {
            copies: [value(count * share) for count in range(most + 1)]
            for copies, share in zip(self._copies, self._rank_share, strict=True)
        }
        by_rank = [values_of[copies] for copies in self._copies]
        self._count_values = tuple(chain.from_iterable(by_rank))
        self._count_offsets = tuple(
            itertools.accumulate((len(values) for values in by_rank[:-1]), initial=0)
        )
        self._flag = tuple(piece([flag]) for flag in _FLAG)
        self._flag_values = tuple(map(value, _FLAG))
        self._no_ranks = piece([0.0] * _RANKS)
        self._one_rank = {
            rank: piece([1.0 if j == i else 0.0 for j in range(_RANKS)])
            for i, rank in enumerate(_RANK_LETTERS)
        }
        self._no_seat = piece([0.0] * players)
        self._one_seat = tuple(
            piece([1.0 if j == rel else 0.0 for j in range(players)]) for rel in range(players)
        )
        self._one_phase = {
            phase: piece([1.0 if other == phase else 0.0 for other in _PHASES]) for phase in _PHASES
        }
        hand_size, cards = variant.hand_size, int(self._cards)
        # Sizes as shares, by size: of the hand size (hands), of the decks (pile, stock).
        self._of_hand = tuple(n / hand_size for n in range(cards + 1))
        self._of_cards = tuple(n / self._cards for n in range(cards + 1))
        self._hand_sizes = tuple(map(value, self._of_hand))
        # The stock's and the pile's sizes.
        self._stock = tuple(piece([share]) for share in self._of_cards)
        # Talon sizes as shares of the largest talon (4): 1 for the first side to open.
        self._talon_most = float(max(variant.talon_sizes, default=1))
        # What the encoder read from card tuples, melds and turns, by the identity of
        # what it read: a kept entry holds that, so its id is not reused meanwhile.
        self._counts: dict[int, tuple[Any, _Piece]] = {}
        self._meld_counts: dict[int, tuple[Any, tuple[_Piece, _Piece]]] = {}
        self._rows: dict[int, tuple[Any, tuple[int, tuple[int, ...], _Piece]]] = {}
        self._threes_counts: dict[int, tuple[Any, _Piece]] = {}
        self._turns: dict[int, tuple[Any, _Piece]] = {}
        # Per seat: the last observation encoded for it (or _UNSEEN) and its vector.
        self._last: dict[int, list[Any]] = {}

    def _piece(self, values: list[float]) -> _Piece:
        """``values`` as the vectors hold them (float32 bytes for NumPy output)."""
        if self._numpy:
            return _float32s(len(values))(*values)
        return values

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
        block = self._blocks.get(name) if isinstance(name, str) else None
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
            RLError: ``observation`` is not an observation, or one of another variant;
                or ``out`` has another size.
        """
        if not isinstance(observation, Observation):
            raise RLError(f"expected an Observation, got {type(observation).__name__}")
        variant = observation.variant
        if variant is not self.variant and variant != self.variant:
            raise RLError(
                f"the observation is of variant {variant.name!r}, but this "
                f"encoder is for {self.variant.name!r}"
            )
        if out is not None and _length(out) != self._size:
            raise RLError(f"out holds {_length(out)} values, the encoder writes {self._size}")
        seat = observation.seat
        last = self._last.get(seat)
        if last is None:
            last = self._last[seat] = [_UNSEEN, *self._new_vector()]
        seen, vector, array = last
        if seen is not observation:
            # Forgotten first: should the update stop half-way, the next one writes all.
            last[0] = _UNSEEN
            self._update(observation, seen, vector)
            last[0] = observation
        if array is None:
            if out is None:
                return vector[:]
            out[:] = vector
            return out
        if out is None:
            return array.copy()
        out[:] = array if isinstance(out, _numpy().ndarray) else array.tolist()
        return out

    def _new_vector(self) -> tuple[Any, Any]:
        """A vector to keep for a seat, as `_update` writes it, and as a NumPy array (None
        for lists)."""
        if not self._numpy:
            return [0.0] * self._size, None
        array = _numpy().zeros(self._size, dtype=_numpy().float32)
        # Its bytes: slices of a memoryview take float32 bytes far faster than the array
        # takes values.
        return memoryview(array).cast("B"), array

    def __getstate__(self) -> dict[str, Any]:
        # The kept vectors are views of arrays (which do not pickle), and only a cache. What
        # was read by identity is left behind too: a copy's entries would hold copies, not
        # the values whose ids they are kept under.
        forgotten = ("_last", "_counts", "_meld_counts", "_rows", "_threes_counts", "_turns")
        return {**self.__dict__, **{name: {} for name in forgotten}}

    def _update(self, obs: Observation, old: Any, vector: Any) -> None:
        """Rewrite in ``vector``, the vector of ``old`` (an observation of the same seat, or
        `_UNSEEN`), the sections whose values differ in ``obs``."""
        at = self._at
        seat = obs.seat
        side = self._side_of[seat]
        players = self.variant.players
        by_seat, by_side = self._by_seat[seat], self._by_side[side]
        # The card sections are read from the records the observation's card fields are
        # made from (its table without hidden cards, and the table's memory): an
        # observation makes those fields only when they are read, and successive
        # observations share the records that did not change.
        table, was_table = obs._template, old._template
        memory, was_memory = obs._memory, old._memory
        hand = table.hands[seat]
        if hand is not was_table.hands[seat]:
            vector[at["hand"]] = self._count(hand)
        sizes = obs.hand_sizes
        if sizes != old.hand_sizes:
            # One itemgetter call picks them all (see `_counted`); there are at least two.
            pick = operator.itemgetter(*by_seat(sizes))
            vector[at["hand_sizes"]] = self._join_values(pick(self._hand_sizes))
        known, was = memory.known, was_memory.known
        if known is not was:
            for other, row in self._known_rows[seat]:
                if known[other] is not was[other]:
                    vector[row] = self._counted(known[other])
        melds, was = table.melds, was_table.melds
        if melds is not was:
            for of_side, naturals, wild, _ in self._side_rows[side]:
                if melds[of_side] is not was[of_side]:
                    vector[naturals], vector[wild] = self._melds(melds[of_side])
        threes, was = table.threes, was_table.threes
        if threes is not was:
            for of_side, _, _, row in self._side_rows[side]:
                if threes[of_side] is not was[of_side]:
                    vector[row] = self._threes(threes[of_side])
        # Flags are 0 and 1, indices of their values (seats and sides are at least two, so
        # itemgetter gives a tuple).
        flags = self._flag_values
        if table.opened != was_table.opened:
            pick = operator.itemgetter(*by_side(table.opened))
            vector[at["opened"]] = self._join_values(pick(flags))
        if table.melded_seats != was_table.melded_seats:
            pick = operator.itemgetter(*by_seat(table.melded_seats))
            vector[at["melded"]] = self._join_values(pick(flags))
        top = obs.pile_top
        if top is not old.pile_top:
            vector[at["pile_top"]] = self._no_ranks if top is None else self._one_rank[top.rank]
            vector[self._blocked_at] = self._flag[obs.blocked]
        if obs.pile_size != old.pile_size:
            vector[self._pile_size_at] = self._stock[obs.pile_size]
        if table.frozen != was_table.frozen:
            vector[self._frozen_at] = self._flag[table.frozen]
        if table.pile is not was_table.pile:
            vector[at["pile_seen"]] = self._counted(table.pile)
        if obs.stock_size != old.stock_size:
            vector[at["stock"]] = self._stock[obs.stock_size]
        if table.scores != was_table.scores:
            vector[self._scores_at] = self._scores(by_side(table.scores))
        if table.phase != was_table.phase:
            vector[at["phase"]] = self._one_phase[table.phase]
        to_move = table.to_move
        if to_move != was_table.to_move:
            vector[at["to_move"]] = (
                self._no_seat if to_move is None else self._one_seat[(to_move - seat) % players]
            )
        if table.dealer != was_table.dealer:
            vector[at["dealer"]] = self._one_seat[(table.dealer - seat) % players]
        if table.turn is not was_table.turn:
            vector[at["turn"]] = self._turn(table.turn)
        asked = table.asked
        if asked != was_table.asked:
            # Empty where the variant does not count questions.
            vector[at["asked"]] = (
                self._piece([float(min(n, _ASKED_CLIP)) for n in by_seat(asked)])
                if any(asked)
                else self._no_seat
            )
        lone = table.lone
        if lone != was_table.lone:
            vector[at["lone"]] = (
                self._no_seat if lone is None else self._one_seat[(lone - seat) % players]
            )
        if self._plays_club:
            self._club(obs, old, vector)
        discarded, was = memory.discarded, was_memory.discarded
        if discarded is not was:
            for other, row in self._discard_rows[seat]:
                if discarded[other] is not was[other]:
                    vector[row] = self._counted(discarded[other])

    def _club(self, obs: Observation, old: Any, vector: Any) -> None:
        """`_update` of the club sections (see `_club_sections`)."""
        variant, at = self.variant, self._at
        # The club records themselves, for the fields an observation makes when read.
        club, was = obs._template.club or NO_CLUB, old._template.club or NO_CLUB
        if variant.talon_sizes:
            most = self._talon_most
            if club.talon_taken != was.talon_taken:
                taken = self._by_side[self._side_of[obs.seat]](club.talon_taken)
                vector[at["talon_taken"]] = self._piece([size / most for size in taken])
            if variant.talons_set_aside and obs.talons_left != old.talons_left:
                vector[at["talons_left"]] = self._piece([size / most for size in obs.talons_left])
        if variant.shows_turn_card:
            card, drawn = obs.turn_card, club.turn_card is not None
            if card is not old.turn_card or drawn != (was.turn_card is not None):
                ranks = self._no_ranks if card is None else self._one_rank[card.rank]
                vector[at["turn_card"]] = self._join((ranks, self._flag[drawn]))
        if variant.covers_last_discard and obs.pile_covered != old.pile_covered:
            vector[at["pile_covered"]] = self._flag[obs.pile_covered]

    def _scores(self, scores: tuple[int, ...]) -> _Piece:
        """The scores and minimums of the sections ``scores`` and ``minimums``, the
        observer's side first."""
        target = self.variant.target_score
        values = [max(-_SCORE_CLIP, min(score / target, _SCORE_CLIP)) for score in scores]
        values += map(self._minimum, scores)
        return self._piece(values)

    def _turn(self, turn: Turn) -> _Piece:
        """The turn section, from the turn's record (the fields that ``Observation.turn``
        shows as they are; kept by the turn's identity: most states share a few)."""
        kept = self._turns.get(id(turn))
        if kept is not None:
            return kept[1]
        permission = turn.permission
        found = self._piece(
            [
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
        )
        return keep(self._turns, turn, found, _KEPT)

    def _counted(self, codes: tuple[int, ...]) -> _Piece:
        """The cards of ``codes`` counted by rank index, each count scaled by the rank's
        copies in the decks; kept by the identity of ``codes`` (the seats read the same
        tuples)."""
        kept = self._counts.get(id(codes))
        if kept is not None:
            return kept[1]
        return keep(self._counts, codes, self._count(codes), _KEPT)

    def _count(self, codes: tuple[int, ...]) -> _Piece:
        """`_counted` without keeping the piece: for the observer's own hand, which its
        every move changes (so that a hand is rarely read twice), while the other card
        tuples are read again by the other seats."""
        at = list(self._count_offsets)
        for code in codes:
            at[_RANK_OF_CODE[code]] += 1
        # One itemgetter call picks them all: far cheaper than a map over the ranks.
        return self._join_values(operator.itemgetter(*at)(self._count_values))

    def _melds(self, melds: tuple[Meld, ...]) -> tuple[_Piece, _Piece]:
        """One side's melds: the features of each natural rank (its row of ``melds``), and
        those of its wild melds (its row of ``wild_melds``)."""
        kept = self._meld_counts.get(id(melds))
        if kept is not None:
            return kept[1]
        rows = list(self._no_meld_rows)  # zeros in a row that no meld fills
        # The amounts of the rows a meld filled, by the row.
        filled: dict[int, tuple[int, ...]] = {}
        for meld in melds:
            row, amounts, piece = self._meld_row(meld)
            earlier = filled.get(row)
            if earlier is not None:
                # Another meld of the row (where same-rank melds do not merge, or a second
                # wild meld): the amounts add up.
                amounts = tuple(map(operator.add, earlier, amounts))
                piece = self._row_piece(row, amounts)
            filled[row] = amounts
            rows[row] = piece
        found = (self._join(rows[:-1]), rows[-1])
        return keep(self._meld_counts, melds, found, _KEPT)

    def _meld_row(self, meld: Meld) -> tuple[int, tuple[int, ...], _Piece]:
        """The row ``meld`` fills among its side's rows (see `_melds`), its amounts there,
        and those as a piece. Kept by the meld's identity: most melds last from move to
        move."""
        kept = self._rows.get(id(meld))
        if kept is not None:
            return kept[1]
        jokers = meld.jokers
        twos = meld.wilds - jokers
        canasta = int(meld.is_canasta)
        amounts: tuple[int, ...]
        if meld.is_wild_meld:
            row = len(_MELD_RANKS)
            amounts = (twos, jokers, canasta)
        else:
            row = self._meld_row_of[meld.rank_text]
            natural = int(meld.is_natural)
            amounts = (meld.naturals, twos, jokers, canasta * natural, canasta - canasta * natural)
        found = (row, amounts, self._row_piece(row, amounts))
        return keep(self._rows, meld, found, _KEPT)

    def _row_piece(self, row: int, amounts: tuple[int, ...]) -> _Piece:
        """The amounts of a row of a side's melds, scaled."""
        return self._piece(list(map(operator.mul, amounts, self._row_share[row])))

    def _threes(self, threes: tuple[int, ...]) -> _Piece:
        """One side's threes (their codes): red, then black."""
        kept = self._threes_counts.get(id(threes))
        if kept is not None:
            return kept[1]
        black = sum(1 for code in threes if code in BLACK_THREES)
        share = self._three_share
        found = self._piece([share * (len(threes) - black), share * black])
        return keep(self._threes_counts, threes, found, _KEPT)

    def _minimum(self, score: int) -> float:
        """A side's initial-meld minimum for its score, scaled and clipped (cached)."""
        scaled = self._minimums.get(score)
        if scaled is None:
            minimum = self.variant.initial_minimum(score) / self._minimum_scale
            scaled = self._minimums[score] = min(minimum, _SCORE_CLIP)
        return scaled

    def __repr__(self) -> str:
        return f"<ObservationEncoder {self.variant.name} size={self.size}>"


class _Float32Lists(ObservationEncoder):
    """An encoder of lists whose floats are float32 values, as a NumPy encoder's arrays
    hold them: what `canasta.envs.openspiel` hands out as tensors (OpenSpiel's are
    float32), without converting an array to a list each time. Without ``memory`` the
    seat's memory (the known cards and the discards) is left out: zeros."""

    def __init__(self, variant: Variant, *, memory: bool = True) -> None:
        super().__init__(variant, numpy=False)
        if not memory:
            # Without the seat's memory (an observation, not an information state): the
            # sections ``known`` and ``discards`` are never written, and stay zeros.
            self._known_rows = self._discard_rows = ((),) * variant.players

    def _piece(self, values: list[float]) -> _Piece:
        length = len(values)
        return list(_float32_values(length)(_float32s(length)(*values)))


@functools.cache
def _float32_values(length: int) -> Callable[[bytes], tuple[float, ...]]:
    """Reads ``length`` float32 values from their bytes."""
    return struct.Struct(f"={length}f").unpack
