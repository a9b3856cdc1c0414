"""The position format: ``GameState.to_dict`` and ``GameState.from_dict``.

A position is the table (`canasta.table.Table`) and what the table remembers
(`canasta.table.Memory`: the keys ``known`` and ``discarded``), so a reloaded deal observes
like the original. Input is checked thoroughly; any problem raises `PositionError` saying
what is wrong, and nothing partial is ever returned.
"""
# api.md §6.

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

import attrs

from canasta._input import json_excerpt
from canasta._rules.facts import hand_counts
from canasta._rules.generate import legal_moves
from canasta._rules.legality import Decision
from canasta._rules.transitions import commit
from canasta.cards import (
    CARDS,
    JOKER,
    NATURAL_RANKS,
    RANKS,
    RED_THREES,
    THREE,
    TWO,
    format_codes,
    parse_codes,
)
from canasta.errors import CanastaError, NotationError, PositionError
from canasta.moves import NO, YES, Moves
from canasta.table import (
    ANSWER,
    DRAW,
    NEW_TURN,
    NO_CLUB,
    OVER,
    PLAY,
    TURN_CARD_DEPTH,
    WILD_RANK,
    Club,
    Group,
    Meld,
    Memory,
    Table,
    Turn,
    TurnProgress,
    turn_progress,
)
from canasta.variants import from_config, get
from canasta.variants.base import Variant, canonical

__all__: list[str] = []

_KEYS = {
    "variant",
    "scores",
    "dealer",
    "to_move",
    "phase",
    "hands",
    "pile",
    "stock",
    "melds",
    "threes",
    "seed",
    "melded_seats",
    "turn",
    "asked",
    "went_out",
    "concealed",
    "pile_covered",
    "opened",
    "lone",
    "special_hand",
    "courtesy",
    "last_three",
    "openings",
    "talon_taken",
    "talons",
    "turn_card",
    "known",
    "discarded",
}
_TURN_KEYS = frozenset(attrs.fields_dict(TurnProgress))


def _variant_entry(variant: Variant) -> str | dict[str, Any]:
    config = variant.to_config()
    return variant.name if len(config) == 1 else config


def to_dict(st: Table, memory: Memory) -> dict[str, Any]:
    data: dict[str, Any] = {
        "variant": _variant_entry(st.variant),
        "scores": list(st.scores),
        "dealer": st.dealer,
        "to_move": st.to_move,
        "phase": st.phase,
        "hands": [format_codes(h) for h in st.hands],
        "pile": format_codes(st.pile),
        "stock": format_codes(st.stock),
        "melds": [[str(m) for m in side] for side in st.melds],
        "threes": [format_codes(t) for t in st.threes],
    }
    if any(st.melded_seats):
        data["melded_seats"] = [s for s, melded in enumerate(st.melded_seats) if melded]
    if any(st.asked):
        data["asked"] = list(st.asked)
    if st.opened != _derived_opened(st.melds):
        data["opened"] = list(st.opened)
    if st.turn != NEW_TURN:
        data["turn"] = turn_progress(st.turn).to_dict()
    if st.lone is not None:
        data["lone"] = st.lone
    if st.courtesy is not None:
        data["courtesy"] = st.courtesy
    if st.last_three is not None:
        data["last_three"] = st.last_three
    if st.special is not None:
        data["special_hand"] = st.special
    club = st.club or NO_CLUB
    if club.openings:
        data["openings"] = list(club.openings)
    if any(club.talon_taken):
        data["talon_taken"] = list(club.talon_taken)
    if club.talons:
        sizes = st.variant.talon_sizes
        data["talons"] = {
            str(size): None if talon is None else format_codes(talon)
            for size, talon in zip(sizes, club.talons, strict=True)
        }
    if club.turn_card is not None:
        data["turn_card"] = str(CARDS[club.turn_card])
    if st.phase == OVER:
        data["went_out"] = st.went_out
        data["concealed"] = st.concealed
        if st.pile_covered:
            data["pile_covered"] = True
    if any(memory.known):
        data["known"] = [format_codes(k) for k in memory.known]
    if any(memory.discarded):
        data["discarded"] = [format_codes(d) for d in memory.discarded]
    return data


def _derived_opened(melds: tuple[tuple[Meld, ...], ...]) -> tuple[bool, ...]:
    return tuple(bool(side) for side in melds)


def _fail(message: str) -> PositionError:
    return PositionError(message)


def _cards(value: Any, what: str) -> tuple[int, ...]:
    try:
        if isinstance(value, str):
            return parse_codes(value)
        if isinstance(value, list | tuple) and all(isinstance(item, str) for item in value):
            return tuple(c for item in value for c in parse_codes(item))
    except NotationError as exc:
        raise _fail(f"{what}: {exc}") from None
    raise _fail(f"{what} must be a card string or a list of cards, got {json_excerpt(value)}")


def _int(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    if type(value) is not int:
        raise _fail(f"{what} must be an integer, got {json_excerpt(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        bound = f"at least {low}" if high is None else f"from {low} to {high}"
        raise _fail(f"{what} must be {bound}, got {json_excerpt(value)}")
    return value


def _list(value: Any, what: str, length: int) -> list[Any]:
    if not isinstance(value, list | tuple) or len(value) != length:
        raise _fail(f"{what} must be a list of {length} entries, got {json_excerpt(value)}")
    return list(value)


def _meld(variant: Variant, codes: tuple[int, ...], what: str, merged: bool = False) -> Meld:
    """The meld of ``codes``; ``merged``: it may be two melds merged into one, which may
    hold more wild cards than one meld may take."""
    naturals = {c >> 2 for c in codes if c != JOKER and c >> 2 != TWO}
    wilds = sum(1 for c in codes if c == JOKER or c >> 2 == TWO)
    if not naturals:
        if variant.wild_meld_reason(0, wilds) is not None and not (
            variant.has_wild_melds and wilds >= 1
        ):
            raise _fail(f"{what}: a meld of wild cards only is not allowed in this variant")
        return Meld.of(WILD_RANK, tuple(sorted(codes)))
    if len(naturals) > 1:
        raise _fail(f"{what}: mixes ranks {json_excerpt(format_codes(codes))}")
    rank = naturals.pop()
    if rank == THREE:
        if any(c in RED_THREES for c in codes) or variant.black_three_meld_reason(
            len(codes) - wilds, wilds
        ):
            raise _fail(
                f"{what}: not a valid meld of black threes: {json_excerpt(format_codes(codes))}"
            )
    elif (
        variant.natural_meld_reason(rank, len(codes) - wilds, wilds, 0, 0, True)
        if merged
        else variant.natural_meld_reason(rank, 0, 0, len(codes) - wilds, wilds, True)
    ) is not None:
        raise _fail(f"{what}: invalid meld {json_excerpt(format_codes(codes))}")
    return Meld.of(rank, tuple(sorted(codes)))


def _resolve_variant(value: Any) -> Variant:
    try:
        if isinstance(value, Variant):
            return canonical(value)
        if isinstance(value, str):
            return get(value)
        if isinstance(value, Mapping):
            return from_config(value)
    except CanastaError as exc:
        raise _fail(f"variant: {exc}") from None
    raise _fail(f"variant must be a name or a config mapping, got {json_excerpt(value)}")


def _turn(value: Any) -> Turn:
    if not isinstance(value, Mapping):
        raise _fail(f"turn must be a mapping, got {json_excerpt(value)}")
    unknown = set(value) - _TURN_KEYS
    if unknown:
        raise _fail(f"turn has unknown keys: {', '.join(sorted(unknown))}")
    fields: dict[str, Any] = {}
    for key, item in value.items():
        if key == "waiting":
            fields[key] = _cards(item, "turn.waiting")
        elif key == "groups":
            fields[key] = _groups(item)
        elif key == "opening":
            fields[key] = _int(item, "turn.opening", 0)
        elif key == "permission":
            if item is not None and type(item) is not bool:
                raise _fail(
                    f"turn.permission must be true, false or null, got {json_excerpt(item)}"
                )
            fields[key] = item
        else:
            if type(item) is not bool:
                raise _fail(f"turn.{key} must be true or false, got {json_excerpt(item)}")
            fields[key] = item
    turn = Turn(**fields)
    if turn.waiting and not turn.took_pile:
        raise _fail("turn.waiting holds pile cards, so turn.took_pile must be true")
    return turn


#: The ranks a turn's group may have, as written: the natural ranks, black threes, ``*``.
_GROUP_RANKS = {RANKS[r]: r for r in (*NATURAL_RANKS, THREE)} | {"*": WILD_RANK}


def _groups(value: Any) -> tuple[Group, ...]:
    if not isinstance(value, list | tuple):
        raise _fail(f"turn.groups must be a list, got {json_excerpt(value)}")
    groups: list[Group] = []
    for g in value:
        if not (isinstance(g, list | tuple) and len(g) == 4):
            raise _fail(
                f"turn.groups entries are [rank, naturals, wilds, from_hand], got {json_excerpt(g)}"
            )
        rank = _GROUP_RANKS.get(g[0]) if isinstance(g[0], str) else None
        if rank is None:
            raise _fail(f"turn.groups: {json_excerpt(g[0])} is not a meld rank (A, 3 to K, or *)")
        if type(g[3]) is not bool:
            raise _fail(f"turn.groups: from_hand must be true or false, got {json_excerpt(g[3])}")
        naturals = _int(g[1], "turn.groups naturals", 0, 99)
        wilds = _int(g[2], "turn.groups wilds", 0, 99)
        if rank in {r.rank for r in groups}:
            raise _fail(f"turn.groups: rank {g[0]} is given twice")
        groups.append(Group(rank, naturals, wilds, g[3]))
    return tuple(groups)


def _memory(data: Mapping[str, Any], hands: tuple[tuple[int, ...], ...]) -> Memory:
    """The keys ``known`` and ``discarded``: what the table remembers of the deal."""
    players = len(hands)
    known: list[tuple[int, ...]] = []
    for seat, entry in enumerate(_list(data.get("known", [""] * players), "known", players)):
        cards = tuple(sorted(_cards(entry, f"known[{seat}]")))
        if Counter(cards) - Counter(hands[seat]):
            raise _fail(f"known[{seat}] holds cards that are not in hands[{seat}]")
        known.append(cards)
    discarded = tuple(
        _cards(entry, f"discarded[{seat}]")
        for seat, entry in enumerate(
            _list(data.get("discarded", [""] * players), "discarded", players)
        )
    )
    return Memory(known=tuple(known), discarded=discarded)


def from_dict(data: Any) -> tuple[Table, Memory, Moves]:
    """The table and memory of a position, and its legal moves (checked on the way)."""
    if not isinstance(data, Mapping):
        raise _fail(f"a position must be a mapping, got {type(data).__name__}")
    unknown = set(data) - _KEYS
    if unknown:
        raise _fail(f"unknown keys in position: {', '.join(sorted(unknown))}")
    if "variant" not in data:
        raise _fail("position needs the key 'variant'")
    variant = _resolve_variant(data["variant"])
    players, sides = variant.players, variant.sides
    scores = tuple(
        _int(s, f"scores[{i}]")
        for i, s in enumerate(_list(data.get("scores", [0] * sides), "scores", sides))
    )
    phase = data.get("phase", DRAW)
    if phase not in (DRAW, PLAY, ANSWER, OVER):
        raise _fail(f"phase must be draw, play, answer or over, got {json_excerpt(phase)}")
    to_move: int | None = None
    if phase != OVER:
        to_move = _int(data.get("to_move", 0), "to_move", 0, players - 1)
    elif data.get("to_move") is not None:
        raise _fail("to_move must be null when the phase is over")
    default_dealer = ((to_move if to_move is not None else 0) - 1) % players
    dealer = _int(data.get("dealer", default_dealer), "dealer", 0, players - 1)
    if "hands" not in data:
        raise _fail("position needs the key 'hands'")
    hands = tuple(
        tuple(sorted(_cards(h, f"hands[{i}]")))
        for i, h in enumerate(_list(data["hands"], "hands", players))
    )
    if phase != OVER:
        # Spec §2.6, §3.5.2: such threes never stay in a hand during play (with
        # red_three_declare=first_turn, a seat that has not played yet may still hold them).
        for seat, hand in enumerate(hands):
            held = any(c in variant.laid_out_threes for c in hand)
            if (
                held
                and not variant.holds_three
                and (seat == to_move or variant.declares_threes_at_deal)
            ):
                raise _fail(f"hands[{seat}] holds a three that must be laid face up")
    pile = _cards(data.get("pile", ""), "pile")
    lone = data.get("lone")
    if lone is not None:
        if not variant.lone_hand_on_first_pickup:
            raise _fail("lone is only allowed in a cutthroat variant")
        lone = _int(lone, "lone", 0, players - 1)
    melds_in = _list(data.get("melds", [[] for _ in range(sides)]), "melds", sides)
    melds: list[tuple[Meld, ...]] = []
    for s, side in enumerate(melds_in):
        if not isinstance(side, list | tuple):
            raise _fail(f"melds[{s}] must be a list of melds, got {json_excerpt(side)}")
        # Spec §3.3: a cutthroat partnership's melds, kept under the first partner's seat,
        # may be merged melds past the wild-card limit.
        merged = lone is not None and s != lone
        built = [_meld(variant, _cards(m, f"melds[{s}]"), f"melds[{s}]", merged) for m in side]
        built.sort(key=lambda m: (m.rank == WILD_RANK, m.rank, -m.size))
        if variant.merges_same_rank:
            # Several black-three melds can exist with 3 decks (each of 3 or 4 threes).
            ranks = [m.rank for m in built if m.rank != THREE]
            if len(ranks) != len(set(ranks)):
                raise _fail(f"melds[{s}]: two melds of the same rank")
        melds.append(tuple(built))
    if lone is not None:
        partners = [s for s in range(players) if s != lone]
        if melds[partners[1]]:
            raise _fail(
                f"melds[{partners[1]}] must be empty: once the lone hand is known, the "
                f"partners' melds are listed under seat {partners[0]}"
            )
    threes_in = _list(data.get("threes", [""] * sides), "threes", sides)
    threes = tuple(_cards(t, f"threes[{s}]") for s, t in enumerate(threes_in))
    for s, laid in enumerate(threes):
        if any(c not in variant.laid_out_threes for c in laid):
            raise _fail(f"threes[{s}] may only hold threes laid face up in this variant")
    turn = _turn(data["turn"]) if "turn" in data else NEW_TURN
    # Positions in which play would be stuck: nobody asked, or a player has no card (a
    # player whose hand empties goes out, which ends the deal).
    if phase == ANSWER and not turn.asked:
        raise _fail("phase answer needs a question to answer: turn.asked must be true")
    if phase == DRAW and turn != NEW_TURN:
        raise _fail("turn: a turn's progress starts after the draw (phase draw has none)")
    if phase != OVER:
        for seat, hand in enumerate(hands):
            if not hand:
                raise _fail(f"hands[{seat}] is empty, but the deal is not over")
    opened = _derived_opened(tuple(melds))
    if "opened" in data:
        opened = tuple(_list(data["opened"], "opened", sides))
        if any(type(o) is not bool for o in opened):
            raise _fail(
                f"opened must hold true or false per side, got {json_excerpt(data['opened'])}"
            )
    openings, talon_taken = _openings(variant, data, opened)
    talons = _talons(variant, data, openings, talon_taken)
    used = Counter(
        [c for h in hands for c in h]
        + list(pile)
        + [c for side in melds for m in side for c in m.codes]
        + [c for t in threes for c in t]
        + list(turn.waiting)
        + [c for t in talons if t is not None for c in t]
    )
    limit = Counter({c: variant.decks for c in range(52)} | {JOKER: 2 * variant.decks})
    # A stock given is counted first: talons dealt here take none of its cards.
    given = _cards(data["stock"], "stock") if "stock" in data else None
    if given is not None:
        used.update(given)
    rest: list[int] = []
    deal_talons = variant.talons_set_aside and "talons" not in data
    if given is None or deal_talons:
        rest = list((limit - used).elements())
        random.Random(data.get("seed")).shuffle(rest)
    if deal_talons:
        # Untaken talons not given: dealt from the unseen cards, as the stock is.
        dealt: list[tuple[int, ...] | None] = []
        for talon, size in zip(talons, variant.talon_sizes, strict=True):
            dealt.append(None if talon is None else tuple(rest[:size]))
            del rest[: size if talon is not None else 0]
        talons = tuple(dealt)
        used.update(c for t in talons if t is not None for c in t)
    stock = given
    if stock is None:
        stock = tuple(rest)
        used.update(stock)
    for code, count in used.items():
        if count > limit[code]:
            raise _fail(
                f"card {CARDS[code]} appears {count} times; "
                f"{variant.decks} deck(s) hold {limit[code]}"
            )
    melded_seats = [False] * players
    listed = data.get("melded_seats", [])
    if not isinstance(listed, list | tuple):
        raise _fail(f"melded_seats must be a list of seats, got {json_excerpt(listed)}")
    for i, seat in enumerate(listed):
        melded_seats[_int(seat, f"melded_seats[{i}]", 0, players - 1)] = True
    asked = tuple(
        _int(a, f"asked[{i}]", 0)
        for i, a in enumerate(_list(data.get("asked", [0] * players), "asked", players))
    )
    if variant.holds_three and phase != OVER:
        _check_held_threes(variant, hands, opened, to_move, phase)
    went_out = data.get("went_out")
    special = data.get("special_hand")
    if went_out is not None:
        if phase != OVER:
            raise _fail("went_out is only allowed when the phase is over")
        went_out = _int(went_out, "went_out", 0, players - 1)
        if special is not None:
            _check_special(variant, special, hands[went_out])
        elif hands[went_out]:
            raise _fail(f"seat {went_out} went out but still holds cards")
    elif special is not None:
        raise _fail("special_hand needs went_out: the seat that showed it")
    courtesy = data.get("courtesy")
    if courtesy is not None:
        if not variant.special_hand_courtesy:
            raise _fail("courtesy is only allowed where mac_special_hand_courtesy is on")
        courtesy = _int(courtesy, "courtesy", 0, players - 1)
        if not opened[variant.side_of(courtesy)]:
            raise _fail("courtesy: the seat's side has not opened, so no courtesy is due")
    last_three = data.get("last_three")
    if last_three is not None:
        last_three = _int(last_three, "last_three", 0, players - 1)
        if phase != OVER or stock or not any(c >> 2 == THREE for c in hands[last_three]):
            raise _fail(
                "last_three: the seat must hold a three drawn as the last stock card, in a "
                "deal that is over"
            )
    turn_card = _turn_card(variant, data, stock)
    concealed = data.get("concealed", False)
    if type(concealed) is not bool:
        raise _fail(f"concealed must be true or false, got {json_excerpt(concealed)}")
    if concealed and phase != OVER:
        raise _fail("concealed is only allowed when the phase is over")
    if turn.waiting and opened[variant.side_of(to_move or 0)]:
        raise _fail("turn.waiting: the pile's cards join an opened side's hand at once")
    for key in ("seed",):
        if key in data and data[key] is not None and type(data[key]) is not int:
            raise _fail(f"seed must be an integer, got {json_excerpt(data[key])}")
    table = Table(
        variant=variant,
        scores=scores,
        dealer=dealer,
        to_move=to_move,
        phase=phase,
        hands=hands,
        pile=pile,
        stock=stock,
        melds=tuple(melds),
        threes=threes,
        frozen=any(variant.freezes_pile(c) for c in pile),
        opened=opened,
        melded_seats=tuple(melded_seats),
        turn=turn,
        asked=asked,
        went_out=went_out,
        concealed=concealed,
        lone=lone,
        special=special,
        courtesy=courtesy,
        last_three=last_three,
        club=(
            Club(openings, talon_taken, talons, turn_card)
            if variant.talon_sizes or variant.shows_turn_card
            else None
        ),
    )
    _check_opening_melds(table)
    memory = _memory(data, hands)
    _check_covered(table, memory, data.get("pile_covered"))
    legal = legal_moves(table)
    if phase != OVER and not legal:
        # What no position reached by play can be: its player can neither play nor end.
        raise _fail(
            f"seat {to_move} has no legal move and the deal is not over (for example it "
            "holds one card it may not go out with, or must go out and cannot)"
        )
    if phase == ANSWER:
        # Spec §2.11: a player asks only when able to go out, so either answer leaves them
        # a legal move.
        for answer in (YES, NO):
            if not legal_moves(commit(table, Decision(answer, (), None))):
                raise _fail(f"phase answer: the seat that asked could not play on after {answer}")
    return table, memory, legal


def _openings(
    variant: Variant, data: Mapping[str, Any], opened: tuple[bool, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The keys ``openings`` (the sides in the order they opened) and ``talon_taken`` (per
    side, the size of the talon it took) where talons are played."""
    # Spec §3.5.11.1, §3.5.11.7.
    sizes = variant.talon_sizes
    sides = len(opened)
    if not sizes:
        for key in ("openings", "talon_taken", "talons"):
            if key in data:
                raise _fail(f"{key} is only allowed where talons are played (mac_talons)")
        return (), ()
    open_sides = [side for side in range(sides) if opened[side]]
    if "openings" in data:
        listed = data["openings"]
        if not isinstance(listed, list | tuple):
            raise _fail(f"openings must be a list of sides, got {json_excerpt(listed)}")
        openings = tuple(
            _int(side, f"openings[{i}]", 0, sides - 1) for i, side in enumerate(listed)
        )
        if len(set(openings)) != len(openings) or sorted(openings) != open_sides:
            raise _fail(
                f"openings must list each opened side once, in the order they opened "
                f"(opened sides: {open_sides}), got {json_excerpt(listed)}"
            )
    elif len(open_sides) > 1:
        raise _fail(
            "openings is needed: more than one side has opened (their order sets the talons)"
        )
    else:
        openings = tuple(open_sides)
    taken = tuple(
        _int(size, f"talon_taken[{side}]", 0)
        for side, size in enumerate(
            _list(data.get("talon_taken", [0] * sides), "talon_taken", sides)
        )
    )
    for side, size in enumerate(taken):
        if size and (side not in openings or size != sizes[openings.index(side)]):
            raise _fail(
                f"talon_taken[{side}]: side {side} can only have taken the talon of its place "
                f"in openings (sizes {', '.join(map(str, sizes))} in the order of opening)"
            )
    return openings, taken


def _talons(
    variant: Variant,
    data: Mapping[str, Any],
    openings: tuple[int, ...],
    taken: tuple[int, ...],
) -> tuple[tuple[int, ...] | None, ...]:
    """The key ``talons`` (talons dealt face down): by size, the cards of each talon not
    taken yet, or null once taken; an untaken talon not given is left empty here (and
    dealt from the unseen cards)."""
    # D31, spec §3.5.11.7.
    sizes = variant.talon_sizes
    if not variant.talons_set_aside:
        if "talons" in data:
            raise _fail("talons is only allowed where the talons are set aside (mac_talon_source)")
        return ()
    # A talon is gone once the side that opened in its place took it.
    gone = [order < len(openings) and bool(taken[openings[order]]) for order in range(len(sizes))]
    if "talons" not in data:
        return tuple(None if was_taken else () for was_taken in gone)
    given = data["talons"]
    keys = [str(size) for size in sizes]
    if not isinstance(given, Mapping) or sorted(given) != sorted(keys):
        raise _fail(
            f"talons must map {' and '.join(repr(k) for k in keys)} to cards or null, got "
            f"{json_excerpt(given)}"
        )
    talons: list[tuple[int, ...] | None] = []
    for key, size, was_taken in zip(keys, sizes, gone, strict=True):
        entry = given[key]
        if entry is None:
            if not was_taken:
                raise _fail(f"talons[{key!r}] is null, but no side has taken it (talon_taken)")
            talons.append(None)
            continue
        if was_taken:
            raise _fail(f"talons[{key!r}] was taken (talon_taken), so it must be null")
        cards = _cards(entry, f"talons[{key!r}]")
        if len(cards) != size:
            raise _fail(f"talons[{key!r}] must hold {size} cards, got {len(cards)}")
        talons.append(cards)
    return tuple(talons)


def _turn_card(variant: Variant, data: Mapping[str, Any], stock: tuple[int, ...]) -> int | None:
    """The key ``turn_card``: the turn card once drawn from the stock (it stays public)."""
    # Spec §3.5.11.2 TC1, TC3.
    if "turn_card" not in data:
        if variant.shows_turn_card and len(stock) < TURN_CARD_DEPTH:
            raise _fail(
                f"turn_card is needed: the stock holds fewer than {TURN_CARD_DEPTH} cards, "
                "so the turn card has been drawn and shown"
            )
        return None
    if not variant.shows_turn_card:
        raise _fail("turn_card is only allowed where the turn card is played (mac_turn_card)")
    if len(stock) >= TURN_CARD_DEPTH:
        raise _fail(
            f"turn_card: the stock still holds {len(stock)} cards, so the turn card is in it "
            f"(the {TURN_CARD_DEPTH}th from the bottom)"
        )
    cards = _cards(data["turn_card"], "turn_card")
    if len(cards) != 1:
        raise _fail(f"turn_card must be one card, got {json_excerpt(data['turn_card'])}")
    return cards[0]


def _check_held_threes(
    variant: Variant,
    hands: tuple[tuple[int, ...], ...],
    opened: tuple[bool, ...],
    to_move: int | None,
    phase: str,
) -> None:
    """One three at most stays in a hand, only while the side has not opened or until
    the holder's next turn (it goes down before the draw)."""
    # Spec §3.5.11.4 H1, H3.
    for seat, hand in enumerate(hands):
        held = sum(1 for c in hand if c in variant.laid_out_threes)
        if held > 1:
            raise _fail(f"hands[{seat}] holds {held} threes; a player may hold one")
        if held and opened[variant.side_of(seat)] and seat == to_move and phase == DRAW:
            raise _fail(f"hands[{seat}] holds a three, but its side has opened")


def _check_covered(table: Table, memory: Memory, given: Any) -> None:
    """The key ``pile_covered`` says what the rules make of the deal's end: the discard
    that went out lies face down where the variant covers it, and only then."""
    # Spec §3.5.11.5 CD1, §3.5.11.7.
    if given is not None and type(given) is not bool:
        raise _fail(f"pile_covered must be true or false, got {json_excerpt(given)}")
    covered = table.pile_covered
    if given and not covered:
        if not table.variant.covers_last_discard:
            raise _fail("pile_covered is only allowed where mac_covered_last_discard is on")
        raise _fail(
            "pile_covered: only the discard that went out lies face down, so the phase must "
            "be over with went_out set (and no special hand shown)"
        )
    if given is False and covered:
        raise _fail(
            "pile_covered must be true: with mac_covered_last_discard the discard that went "
            "out lies face down"
        )
    if not covered:
        return
    assert table.went_out is not None
    if not table.pile:
        raise _fail(
            "pile: the discard that went out must be on the pile (mac_covered_last_discard)"
        )
    discards = memory.discarded[table.went_out]
    if discards and discards[-1] != table.pile[-1]:
        raise _fail(
            f"discarded[{table.went_out}] must end with the discard that went out, the "
            "pile's top card"
        )


def _check_special(variant: Variant, special: Any, hand: tuple[int, ...]) -> None:
    shown = variant.special_hand(hand_counts(hand))
    if shown is None or shown[0] != special:
        raise _fail(
            f"special_hand: the hand of the seat that went out is not the special hand "
            f"{json_excerpt(special)}"
        )


def _check_opening_melds(table: Table) -> None:
    """A side that has not opened has melds only in the middle of its opening turn: then
    they are exactly the groups the player made this turn (the player to move, or in the
    answer phase the player's partner, who answers for the same melds). Or the deal is
    over and they are the groups with which that player went out concealed, where a
    concealed going out is exempt from the minimum."""
    # Spec §2.8; §2.11: a player who took the pile may ask before melding more; D12.
    made = sorted((g.rank, g.naturals, g.wilds) for g in table.turn.groups)
    mover = table.to_move
    phases: tuple[str, ...] = (PLAY, ANSWER)
    if table.phase == OVER and table.concealed and table.variant.concealed_exempt:
        mover, phases = table.went_out, (OVER,)
    for side, melds in enumerate(table.melds):
        if not melds or table.opened[side]:
            continue
        if (
            table.phase not in phases
            or mover is None
            or table.meld_side(mover) != side
            or sorted((m.rank, m.naturals, m.wilds) for m in melds) != made
        ):
            raise _fail(
                f"opened[{side}] is false, but side {side} has melds that are not the "
                "groups of an opening the player to move is making this turn (or, the "
                "deal over, of a concealed going out exempt from the minimum)"
            )
