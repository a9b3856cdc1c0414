"""Modern American special hands: fourteen cards that go out at once.

A special hand is judged by counts alone: the hand counted by rank index (the joker last),
so suits never matter. Each set of hands is a table of names, values and tests;
`classify` finds the most valuable hand the cards fit.
"""
# Spec §3.5.11.3; the sets are D34, the wild pair D35, the highest value SH4.

from __future__ import annotations

from collections.abc import Callable, Sequence

from canasta.cards import ACE, JOKER_RANK, NATURAL_RANKS, SEVEN, THREE, TWO

#: Every special hand is exactly this many cards: an unopened hand after the draw.
SPECIAL_HAND_SIZE = 14

_Counts = Sequence[int]
_Test = Callable[[_Counts, bool], bool]


def _natural_groups(counts: _Counts) -> list[int]:
    """The sizes of the natural groups (A, 4 to K), largest first."""
    return sorted((counts[r] for r in NATURAL_RANKS if counts[r]), reverse=True)


def _wild_groups(counts: _Counts) -> list[int]:
    """The wild groups: all the twos, and all the jokers (one group of each at most)."""
    return [n for n in (counts[TWO], counts[JOKER_RANK]) if n]


def _wild_pair(counts: _Counts, jokers_allowed: bool) -> bool:
    """One wild pair, ``2 2`` or (where allowed) ``JK JK``, never both."""
    twos, jokers = counts[TWO], counts[JOKER_RANK]
    return (twos, jokers) == (2, 0) or (jokers_allowed and (twos, jokers) == (0, 2))


def _groups(pattern: Sequence[int], wilds: bool) -> _Test:
    """The groups of ``pattern`` (sizes), of natural cards or (``wilds``) with wild groups."""
    wanted = sorted(pattern, reverse=True)

    def test(counts: _Counts, _jokers_allowed: bool) -> bool:
        wild = _wild_groups(counts)
        if wild and not wilds:
            return False
        return sorted(_natural_groups(counts) + wild, reverse=True) == wanted

    return test


def _straight(counts: _Counts, _jokers_allowed: bool) -> bool:
    # One card of each rank A to K (the three included) and one joker.
    return all(n == 1 for n in counts)


def _pairs_with(required: tuple[int, ...], wild: Callable[[_Counts, bool], bool]) -> _Test:
    """Seven pairs of different ranks holding a pair of each ``required`` rank, with the
    wild cards ``wild`` accepts."""

    def test(counts: _Counts, jokers_allowed: bool) -> bool:
        if not wild(counts, jokers_allowed) or any(counts[r] != 2 for r in required):
            return False
        return _natural_groups(counts) + _wild_groups(counts) == [2] * 7

    return test


def _natural_and_wild(pattern: Sequence[int], wild: Callable[[_Counts, bool], bool]) -> _Test:
    """Natural groups of ``pattern`` and the wild cards ``wild`` accepts."""
    wanted = sorted(pattern, reverse=True)

    def test(counts: _Counts, jokers_allowed: bool) -> bool:
        return wild(counts, jokers_allowed) and _natural_groups(counts) == wanted

    return test


def _no_wilds(counts: _Counts, _jokers_allowed: bool) -> bool:
    return counts[TWO] + counts[JOKER_RANK] == 0


def _one_wild_group(size: int) -> Callable[[_Counts, bool], bool]:
    def test(counts: _Counts, _jokers_allowed: bool) -> bool:
        return _wild_groups(counts) == [size]

    return test


def _wilds(total: int) -> Callable[[_Counts, bool], bool]:
    def test(counts: _Counts, _jokers_allowed: bool) -> bool:
        return counts[TWO] + counts[JOKER_RANK] == total

    return test


def _miami(counts: _Counts, _jokers_allowed: bool) -> bool:
    return counts[TWO] == 2 and counts[JOKER_RANK] == 2


#: The special hands of each set (D34): name, points, test; the dream hands win the game.
SETS: dict[str, tuple[tuple[str, int, _Test], ...]] = {
    "pagat": (
        ("straight", 3000, _straight),
        ("pairs", 2500, _pairs_with((), _no_wilds)),
        ("pairs with wilds", 2000, _pairs_with((ACE, SEVEN), _wild_pair)),
        ("garbage", 2000, _groups((4, 4, 3, 3), wilds=False)),
    ),
    "cla": (
        ("pairs", 2500, _pairs_with((), _no_wilds)),
        ("wild pairs", 2000, _pairs_with((ACE, SEVEN), _wild_pair)),
        ("miami pairs", 2500, _pairs_with((ACE, SEVEN), _miami)),
        ("zip code", 2500, _groups((2, 2, 3, 3, 4), wilds=True)),
        ("straight", 3000, _straight),
        ("garbage", 3000, _groups((4, 4, 3, 3), wilds=False)),
        ("blast off", 3000, _groups((5, 4, 3, 2), wilds=True)),
        ("triples", 3500, _natural_and_wild((3, 3, 3, 3), _wild_pair)),
        ("quads", 3500, _natural_and_wild((4, 4, 4), _wild_pair)),
        ("dream hand plus 4", 8500, _natural_and_wild((5, 5), _one_wild_group(4))),
        ("dream hand plus 5", 8500, _natural_and_wild((5, 4), _wilds(5))),
    ),
}

#: SH6: the hands that win the game for the side that shows one.
GAME_WINNING = frozenset({"dream hand plus 4", "dream hand plus 5"})


#: The names of the hands of every set, each once (in the sets' order).
ALL_HAND_NAMES = tuple(dict.fromkeys(name for hands in SETS.values() for name, _, _ in hands))


def hand_names(hand_set: str) -> tuple[str, ...]:
    """The names of the hands of ``hand_set``, in the table's order."""
    return tuple(name for name, _points, _test in SETS[hand_set])


def classify(
    counts: _Counts, hand_set: str, values: dict[str, int], jokers_allowed: bool
) -> tuple[str, int] | None:
    """The most valuable special hand of ``hand_set`` that these 14 cards (counted by rank
    index) form, with its points (``values`` overrides the set's), or None (SH4)."""
    if sum(counts) != SPECIAL_HAND_SIZE:
        return None
    best: tuple[str, int] | None = None
    for name, points, test in SETS[hand_set]:
        # Spec §3.5.11.3: a three only in the straight.
        if counts[THREE] and test is not _straight:
            continue
        if test(counts, jokers_allowed):
            points = values.get(name, points)
            if best is None or points > best[1]:
                best = (name, points)
    return best
