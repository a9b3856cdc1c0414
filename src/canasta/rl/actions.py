"""A fixed action space: every legal move of a variant as one integer index.

Legal moves are suit-free, so a move reduces to its kind, its rank and how many naturals,
twos and jokers it holds. `ActionSpace` lays these tuples out one after the other in
blocks (see `ActionSpace.layout`); the ranges come from the variant's decks, its wild
card limit and its meld sizes, so every legal move of the variant has exactly one index.
The documentation page "Reinforcement learning" lists the blocks.
"""

from __future__ import annotations

import operator
import weakref
from collections.abc import Iterator
from typing import Any

import attrs

from canasta._input import excerpt
from canasta.cards import Card
from canasta.errors import CanastaError, IllegalMoveError, IllegalReason
from canasta.moves import (
    Answer,
    Ask,
    Discard,
    Draw,
    End,
    LayOff,
    MeldCards,
    Move,
    Take,
    parse_move,
)
from canasta.state import GameState
from canasta.variants.base import Variant

__all__ = ["LAYOUT_VERSION", "ActionSpace", "Block", "RLError"]

#: Changes whenever an index may come to mean another move (a new block, another order).
LAYOUT_VERSION = 1

#: The natural ranks of a meld, in notation order.
_MELD_RANKS = "A456789TJQK"
#: Discards by rank: A, 2, 3 (black threes, where they stay in hand), 4 .. K, joker.
_DISCARD_RANKS = "A23456789TJQK*"
#: In action names, the pile top's rank (a take melds it, whatever it is).
_TOP = "x"
_SIMPLE: tuple[tuple[str, Move], ...] = (
    ("draw", Draw()),
    ("end", End()),
    ("ask", Ask()),
    ("yes", Answer(True)),
    ("no", Answer(False)),
)
_BLACK_THREES = (Card("3", "S"), Card("3", "C"))
#: The moves whose key counts their cards (a tuple made once: ``Take | MeldCards | LayOff``
#: makes a union each time it is evaluated).
_WITH_CARDS = (Take, MeldCards, LayOff)

# The key of an index: (kind, rank, naturals, twos, jokers); rank "" for take and the
# moves without cards, "*" for the wild meld, "3" for the black threes.
_Key = tuple[str, str, int, int, int]


class RLError(CanastaError, ValueError):
    """A value the learning layer cannot take: an action index outside the action space,
    a move that no index stands for, an observation or buffer that does not fit an
    encoder, or an environment option that is not known."""


def rl_variant(variant: Variant, what: str) -> Variant:
    """``variant`` if it is a `Variant`, for ``what`` (named in the error); else RLError."""
    if not isinstance(variant, Variant):
        raise RLError(
            f"{what} is made for a Variant (canasta.variants.get(name)), got {excerpt(variant)}"
        )
    return variant


@attrs.frozen
class Block:
    """A named run of consecutive indices, in an action space or an observation tensor.

    Attributes:
        name: in an action space, the kind of move and its rank: ``"draw"``, ``"take"``,
            ``"meld:K"``, ``"meld:3"`` (black threes), ``"meld:*"`` (wild cards only),
            ``"add:K"``, ``"add:*"``, ``"discard"``, ...; in a tensor, the section
            (``"hand"``, ``"melds"``, ...).
        offset: the first index.
        length: the number of indices.
    """

    name: str
    offset: int
    length: int


def _wild_pairs(variant: Variant) -> list[tuple[int, int]]:
    """(twos, jokers) a natural meld may get in one move: at most the wild card limit."""
    limit = variant.max_wilds_per_meld
    twos, jokers = 4 * variant.decks, 2 * variant.decks
    return [
        (t, j)
        for t in range(min(limit, twos) + 1)
        for j in range(min(limit, jokers) + 1)
        if t + j <= limit
    ]


def _keys(variant: Variant) -> Iterator[tuple[str, _Key]]:
    """Every (block name, key) of the layout, in index order."""
    decks = variant.decks
    naturals = 4 * decks  # cards of one natural rank
    cards = 54 * decks
    # A meld grows past its size limit only where the variant allows it when going out.
    cap = cards if variant.oversize_when_going_out else variant.max_meld_size
    wild = _wild_pairs(variant)
    for name, _ in _SIMPLE:
        yield name, (name, "", 0, 0, 0)
    # A take melds the top card with naturals of its rank and wilds from hand.
    for n in range(naturals):
        for t, j in wild:
            if n + t + j + 1 <= cap:
                yield "take", ("take", "", n, t, j)
    for rank in _MELD_RANKS:
        for n in range(1, naturals + 1):
            for t, j in wild:
                if n + t + j <= cap:
                    yield f"meld:{rank}", ("meld", rank, n, t, j)
    if not any(c.code in variant.laid_out_threes for c in _BLACK_THREES):
        for n in range(1, 2 * decks + 1):
            for t, j in wild:
                if variant.black_three_meld_reason(n, t + j) is None:
                    yield "meld:3", ("meld", "3", n, t, j)
    all_wild = [
        (t, j)
        for t in range(4 * decks + 1)
        for j in range(2 * decks + 1)
        if 0 < t + j <= min(cap, 6 * decks)
    ]
    if variant.has_wild_melds:
        for t, j in all_wild:
            if variant.wild_meld_reason(0, t + j) is None:
                yield "meld:*", ("meld", "*", 0, t, j)
    # A lay-off joins a meld that holds at least one card of its rank already.
    for rank in _MELD_RANKS:
        for n in range(naturals):
            for t, j in wild:
                if 0 < n + t + j <= cap - 1:
                    yield f"add:{rank}", ("add", rank, n, t, j)
    if variant.has_wild_melds:
        for t, j in all_wild:
            room = 6 * decks - t - j
            if any(variant.wild_meld_reason(b, t + j) is None for b in range(1, room + 1)):
                yield "add:*", ("add", "*", 0, t, j)
    for rank in _DISCARD_RANKS:
        if rank != "3" or not any(c.code in variant.laid_out_threes for c in _BLACK_THREES):
            yield "discard", ("discard", rank, 0, 0, 0)
    # Modern American club features, last so that no other index moves.
    if variant.has_special_hands:
        yield "special", ("special", "", 0, 0, 0)
    if variant.holds_three:
        yield "expose", ("expose", "", 0, 0, 0)


def _key_name(key: _Key) -> str:
    kind, rank, n, t, j = key
    if kind == "discard":
        return f"discard:{rank}"
    wilds = "2" * t + "*" * j
    if kind == "take":
        return f"take:{_TOP * n}{wilds}" if n + t + j else "take"
    if kind == "meld":
        return f"meld:{'' if rank == '*' else rank * n}{wilds}"
    if kind == "add":
        return f"add:{rank}+{'' if rank == '*' else rank * n}{wilds}"
    if kind == "expose":
        return "expose:3"
    return kind


def _move_key(move: Move) -> _Key | None:
    """The key of ``move``, or None when no index can stand for it."""
    if isinstance(move, Discard):
        return ("discard", move.card.rank, 0, 0, 0)
    if isinstance(move, Answer):
        return ("yes" if move.yes else "no", "", 0, 0, 0)
    if not isinstance(move, _WITH_CARDS):
        return (move.kind, "", 0, 0, 0)
    # One pass over the cards: a new action space works this out for most moves it meets.
    rank = ""
    n = t = j = 0
    for card in move.cards:
        card_rank = card.rank
        if card_rank == "2":
            t += 1
        elif card_rank == "*":
            j += 1
        elif card_rank == rank or not rank:
            rank = card_rank
            n += 1
        else:
            return None  # naturals of two ranks
    if isinstance(move, Take):
        return ("take", "", n, t, j)
    if isinstance(move, MeldCards):
        return ("meld", rank or "*", n, t, j)
    if rank and rank != move.target:
        return None
    return ("add", move.target, n, t, j)


#: The indices of the legal moves met so far, by the move's id, and the moves themselves
#: (so that no other object takes one's id while its index is kept), for each variant: the
#: action spaces of equal variants have the same layout, and an environment makes a new
#: one for each game, which would otherwise work the moves out again.
_SEEN: weakref.WeakKeyDictionary[Variant, tuple[dict[int, int], list[Move]]] = (
    weakref.WeakKeyDictionary()
)


def _seen(variant: Variant) -> tuple[dict[int, int], list[Move]]:
    """The kept indices of ``variant``'s legal moves (see `_SEEN`)."""
    seen = _SEEN.get(variant)
    if seen is None:
        seen = _SEEN[variant] = ({}, [])
    return seen


class ActionSpace:
    """The actions of ``variant``: indices ``0 .. size - 1``, one for each kind of play.

    ``encode`` gives a move's index and ``decode`` the legal move an index stands for in a
    state. A take's index leaves out the rank (it is the pile top's); every other index
    names its rank. Suits are ignored: legal moves have none.

    Args:
        variant: the rules; every legal move of every deal of it has an index.
    """

    def __init__(self, variant: Variant) -> None:
        self.variant = rl_variant(variant, "an action space")
        keys: list[_Key] = []
        blocks: list[Block] = []
        for block, key in _keys(variant):
            if blocks and blocks[-1].name == block:
                last = blocks[-1]
                blocks[-1] = attrs.evolve(last, length=last.length + 1)
            else:
                blocks.append(Block(block, len(keys), 1))
            keys.append(key)
        self._keys = tuple(keys)
        self._index = {key: i for i, key in enumerate(keys)}
        self._names = tuple(_key_name(k) for k in keys)
        self._blocks = tuple(blocks)
        self._size = len(keys)
        # encode() of the moves legal_moves() gives: they repeat from state to state.
        self._cache: dict[Move, int] = {}
        # The engine hands out the same move objects from state to state: their indices
        # are kept by id, which is cheaper than hashing a move (shared, see `_SEEN`).
        self._by_id, self._kept = _seen(variant)
        # The last state asked about, its legal moves and their indices (in that order):
        # an environment asks for the mask, then decodes the action, of the same state.
        self._last: tuple[GameState, tuple[Move, ...], list[int]] | None = None

    def __getstate__(self) -> dict[str, Any]:
        # Ids mean nothing in another process: a copy finds the kept indices of its own.
        return {**self.__dict__, "_by_id": None, "_kept": None}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._by_id, self._kept = _seen(self.variant)

    @property
    def size(self) -> int:
        """The number of actions."""
        return self._size

    @property
    def layout(self) -> tuple[Block, ...]:
        """The blocks of indices, in order; their lengths add up to `size`."""
        return self._blocks

    def name(self, index: int) -> str:
        """The action as move text; in a take, ``x`` stands for the pile top's rank.

        Raises:
            RLError: ``index`` is not from 0 to ``size - 1``.
        """
        return self._names[self._check_index(index)]

    def encode(self, move: Move | str) -> int:
        """The index of ``move`` (a `Move` or its text; suits are ignored).

        Raises:
            NotationError: the text is not a move.
            RLError: no index stands for the move (it is never legal in the variant,
                e.g. cards of two ranks in one meld).
        """
        parsed = parse_move(move)
        index = self._cache.get(parsed)
        if index is not None:
            return index
        key = _move_key(parsed)
        found = None if key is None else self._index.get(key)
        if found is None:
            raise RLError(
                f"no action of variant {self.variant.name!r} stands for move {str(parsed)!r}"
            )
        if len(self._cache) < 8 * self._size:
            self._cache[parsed] = found
        return found

    def legal(self, state: GameState) -> dict[int, Move]:
        """The legal moves of ``state`` by index, in increasing index order."""
        moves, indices = self._indexed(state)
        # Without strict=: the lengths are equal, and the keyword costs as much as a third
        # of the dict.
        pairs = zip(indices, moves)  # noqa: B905
        return dict(pairs if sorted(indices) == indices else sorted(pairs))

    def mask(self, state: GameState) -> bytearray:
        """One byte per action: 1 where the action is legal in ``state``, else 0."""
        mask = bytearray(self._size)
        for index in self._indexed(state)[1]:
            mask[index] = 1
        return mask

    def _sorted(self, state: GameState) -> list[int]:
        """The indices of the legal moves of ``state``, in increasing order."""
        return sorted(self._indexed(state)[1])

    def _indexed(self, state: GameState) -> tuple[tuple[Move, ...], list[int]]:
        """The legal moves of ``state`` and their indices, in the engine's order."""
        last = self._last
        if last is not None and last[0] is state:
            return last[1], last[2]
        self._check_state(state)
        moves = state.legal_moves()
        try:
            # One pass in C over the moves: the common case, every move seen before.
            indices = list(map(self._by_id.__getitem__, map(id, moves)))
        except KeyError:
            # Only the moves not seen before are worked out (a call each).
            by_id = self._by_id
            indices = [
                by_id[key] if (key := id(move)) in by_id else self._legal_index(move)
                for move in moves
            ]
        self._last = (state, moves, indices)
        return moves, indices

    def _legal_index(self, move: Move) -> int:
        """The index of ``move``, a legal move not seen before, kept by its id: from its
        key, without hashing the move (as `encode` does to keep indices by move)."""
        key = _move_key(move)
        found = None if key is None else self._index.get(key)
        index = self.encode(move) if found is None else found  # encode() tells what is wrong
        if len(self._kept) >= 8 * self._size:
            self._by_id.clear()
            self._kept.clear()
        self._by_id[id(move)] = index
        self._kept.append(move)
        return index

    def decode(self, state: GameState, index: int) -> Move:
        """The legal move of ``state`` that ``index`` stands for.

        Raises:
            RLError: ``index`` is not from 0 to ``size - 1``.
            IllegalMoveError: the action is not legal in ``state``; its ``reason`` says
                why, as `GameState.check` would.
        """
        if type(index) is not int or not 0 <= index < self._size:  # the common case, inline
            index = self._check_index(index)
        moves, indices = self._indexed(state)  # most often kept from the mask of the state
        try:
            return moves[indices.index(index)]
        except ValueError:
            pass  # not legal: find out why
        name = self._names[index]
        top = state.pile_top
        if _TOP in name:
            if top is None:
                raise IllegalMoveError(name, state.check("take") or IllegalReason.PILE_EMPTY)
            name = name.replace(_TOP, top.rank)
        candidate = parse_move(name)
        reason = state.check(candidate)
        if reason is None:
            return candidate
        raise IllegalMoveError(candidate, reason)

    def _check_index(self, index: int) -> int:
        # operator.index takes Python and NumPy integers, and refuses floats and text.
        try:
            if isinstance(index, bool):
                raise TypeError
            index = operator.index(index)
        except TypeError:
            raise RLError(f"an action index must be an integer, got {index!r}") from None
        if not 0 <= index < self._size:
            raise RLError(
                f"action {index} is outside the action space of variant "
                f"{self.variant.name!r} (0 to {self._size - 1})"
            )
        return index

    def _check_state(self, state: GameState) -> None:
        if not isinstance(state, GameState):
            raise RLError(f"expected a GameState, got {type(state).__name__}")
        variant = state.variant
        # Comparing every option of two variants costs more than the rest of legal().
        if variant is not self.variant and variant != self.variant:
            raise RLError(
                f"the state is a deal of variant {variant.name!r}, but this action "
                f"space is for {self.variant.name!r}"
            )

    def __repr__(self) -> str:
        return f"<ActionSpace {self.variant.name} size={self.size} v{LAYOUT_VERSION}>"
