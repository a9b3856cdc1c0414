"""Hostile input: each reproduction of the fuzzing campaign (issue 17) as a test.

Moves and cards validate what they hold; move text reads back as the move it came from;
a record's deck is exactly the variant's cards; JSON and TOML input is bounded in depth,
integer size and length; files are read with a bound; long names and move texts cost
little. Every failure is a documented `CanastaError` naming the input.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import canasta
from canasta import (
    Answer,
    ArgumentError,
    Card,
    Discard,
    LayOff,
    MeldCards,
    NotationError,
    PositionError,
    RecordError,
    Take,
    UnknownVariantError,
    VariantError,
    parse_cards,
    parse_move,
    records,
    variants,
)
from canasta.cli import main
from canasta.rl import (
    ActionSpace,
    ObservationEncoder,
    RLError,
    max_deal_moves,
    reward_bound,
    reward_scale,
    rewards,
)

# -- finding 4: moves and cards validate what they hold ------------------------------------

K = Card.parse("KH")


@pytest.mark.parametrize(
    "build",
    [
        lambda: Card("X", "S"),
        lambda: Card("K", "Z"),
        lambda: Card("*", "S"),
        lambda: Card("KK"),
        lambda: Card(""),
        lambda: Card(5),  # type: ignore[arg-type]
        lambda: Card(["K"]),  # type: ignore[arg-type]
        lambda: LayOff("K", ()),
        lambda: LayOff("X", (K,)),
        lambda: LayOff("KK", (K,)),
        lambda: LayOff(None, (K,)),  # type: ignore[arg-type]
        lambda: MeldCards(()),
        lambda: MeldCards("KKK"),  # type: ignore[arg-type]
        lambda: MeldCards((K, "KS")),  # type: ignore[arg-type]
        lambda: MeldCards(None),  # type: ignore[arg-type]
        lambda: Take(("K",)),  # type: ignore[arg-type]
        lambda: Take((K,) * 2000),
        lambda: Discard("K"),  # type: ignore[arg-type]
        lambda: Discard(None),  # type: ignore[arg-type]
        lambda: Answer(1),  # type: ignore[arg-type]
    ],
)
def test_constructors_refuse_what_no_text_can_show(build: Callable[[], object]) -> None:
    with pytest.raises(NotationError):
        build()


def test_card_values_evaluate_back() -> None:
    for card in parse_cards("AS 2C 3H TD JK KC"):
        assert eval(repr(card), {"Card": Card}) == card
    assert parse_move("discard:K") == Discard(Card("K"))  # a rank pattern is a valid card


def test_every_legal_move_evaluates_back() -> None:
    state = canasta.new_game("modern-american", seed=3)
    seen = 0
    for _ in range(60):
        if state.is_over:
            break
        for move in state.legal_moves():
            assert eval(repr(move), {"parse_move": parse_move}) == move
            seen += 1
        state = state.apply(state.legal_moves()[-1])
    assert seen > 60


# -- finding 5: the notation round trip; "JK" is a joker only where it cannot be misread ----


def test_jack_and_king_in_move_text() -> None:
    jack, king = Card("J"), Card("K")
    assert parse_move("meld:JK") == MeldCards((jack, king))
    assert parse_move("meld:JKH") == MeldCards((jack, Card.parse("KH")))
    assert parse_move("take:JK*") == Take((jack, king, Card.parse("*")))
    # A single card, or a rank, cannot be a jack and a king: there JK is the joker.
    assert parse_move("discard:JK") == Discard(Card.parse("*"))
    assert parse_move("add:JK+2") == LayOff("*", (Card("2"),))
    # Card text holds suited cards only, so JK is the joker there.
    assert Card.parse("JK") == Card.parse("*")
    assert parse_cards("JK 7S") == parse_cards("* 7S")


PIECES = ("J", "K", "JK", "KH", "JH", "*", "2", "10", "T", "A")


@pytest.mark.parametrize("kind", ["meld:", "take:", "add:K+", "add:*+", "discard:"])
def test_every_move_that_parses_reads_back_from_its_text(kind: str) -> None:
    parsed = 0
    for size in (1, 2, 3):
        for pieces in itertools.product(PIECES, repeat=size):
            try:
                move = parse_move(kind + "".join(pieces))
            except NotationError:
                continue
            parsed += 1
            assert parse_move(str(move)) == move, (pieces, str(move))
    assert parsed > 50 if kind != "discard:" else parsed > 5


def test_moves_built_from_patterns_read_back() -> None:
    patterns = [Card(r) for r in "A3456789TJQK2"] + [Card.parse("*")]
    for a, b in itertools.product(patterns, repeat=2):
        for move in (MeldCards((a, b)), Take((a, b)), LayOff("J", (a, b))):
            assert parse_move(str(move)) == move, str(move)


# -- finding 6: a record's deck is exactly the variant's cards -----------------------------


def deal_record(deck: str, moves: str = "", variant: str = "classic-2p") -> str:
    return f'[Game "deal"]\n[Variant "{variant}"]\n[Deck "{deck}"]\n\n{moves}\n'


def full_deck_text(variant: str) -> list[str]:
    one = [f"{r}{s}" for r in "A23456789TJQK" for s in "SHDC"] + ["*", "*"]
    return one * variants.get(variant).decks


def test_a_deck_of_two_hundred_aces_is_refused() -> None:
    with pytest.raises(RecordError) as error:
        records.loads(deal_record(" ".join(["AS"] * 200)))
    assert error.value.line == 3
    assert "extra AS x198" in str(error.value)


# Six red threes for seat 0 and a short stock: the deal ends, and scoring six red threes
# in two decks used to crash with IndexError.
SIX_RED_THREES = deal_record(
    "3H 4S 3D 4S 3H 4S 3D 4S 3H 4S 3D 4S" + " 5C" * 23,
    "take:55 meld:555 meld:555 meld:555 discard:5 take:55 meld:444 meld:444 meld:555 "
    "add:5+5 add:5+5 discard:5 end",
)


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d[:-1],  # one card short
        lambda d: [*d, "KH"],  # one card extra
        lambda d: ["3H", *d[1:]],  # a third 3H instead of an ace of spades
        lambda d: d + d,  # twice the decks
    ],
)
def test_a_deck_that_is_not_the_variants_cards_is_refused(
    change: Callable[[list[str]], list[str]],
) -> None:
    deck = full_deck_text("classic-2p")
    assert isinstance(records.loads(deal_record(" ".join(deck))), canasta.GameState)
    with pytest.raises(RecordError, match="Deck must hold the 108 cards"):
        records.loads(deal_record(" ".join(change(deck))))


def test_six_red_threes_in_two_decks_are_refused(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="extra 3H x1, 3D x1"):
        records.loads(SIX_RED_THREES)
    path = tmp_path / "six.txt"
    path.write_text(SIX_RED_THREES, encoding="utf-8")
    assert main(["validate", str(path)]) == 1


# -- finding 7: bounded nesting and integers in JSON, TOML and configs ---------------------

DEEP_JSON = "[" * 100_000
DEEP_OBJECT = '{"a": ' * 20_000
BIG = "9" * 5000


@pytest.mark.parametrize(
    ("tag", "value", "needle"),
    [
        ("Variant", '{"v": ' * 20_000, "nested more than"),
        ("Variant", '{"variant": "classic", "target_score": ' + BIG + "}", "digits"),
        ("Variant", '{"variant": "classic", "target_score": 1e999}', "out of range"),
        ("Variant", '{"variant": "classic", "target_score": NaN}', "NaN"),
        ("Variant", '{"variant": "classic", "variant": "classic"}', "given twice"),
        ("Position", DEEP_JSON, "nested more than"),
        ("Position", '{"variant": "classic", "scores": [' + BIG + ", 0]}", "digits"),
        ("Seed", "9" * 4000, "Seed must be an integer"),
        ("StartScores", "9" * 4000 + " 0", "StartScores must hold"),
    ],
)
def test_record_tags_are_bounded(tag: str, value: str, needle: str) -> None:
    variant = "classic" if tag != "Variant" else value.replace('"', '\\"')
    text = f'[Game "deal"]\n[Variant "{variant}"]\n'
    if tag != "Variant":
        escaped = value.replace('"', '\\"')
        text += f'[{tag} "{escaped}"]\n' + ('[Seed "1"]\n' if tag == "StartScores" else "")
    with pytest.raises(RecordError, match=needle) as error:
        records.loads(text)
    assert error.value.line == (2 if tag == "Variant" else 3)
    assert len(str(error.value)) < 300


@pytest.mark.parametrize(
    ("name", "content", "needle"),
    [
        ("deep.json", DEEP_JSON, "nested more than"),
        ("deep-object.json", DEEP_OBJECT, "nested more than"),
        ("big.json", '{"variant": "classic", "target_score": ' + BIG + "}", "digits"),
        ("deep.toml", 'variant = "classic"\ntarget_score = ' + "[" * 100_000, "malformed"),
        ("deep-ok.toml", 'variant = "classic"\nt = ' + "[" * 40 + "]" * 40, "nested more"),
        ("big.toml", 'variant = "classic"\ntarget_score = ' + BIG, "malformed"),
        ("bigger.toml", 'variant = "classic"\ntarget_score = ' + "9" * 4000, "digits"),
    ],
)
def test_variant_files_are_bounded(tmp_path: Path, name: str, content: str, needle: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(VariantError, match=needle) as error:
        variants.load(path)
    assert name in str(error.value)
    assert len(str(error.value)) < 400


@pytest.mark.parametrize("path", [None, 3, b"x.toml", "x\0.toml", Path("x\0.json")])
def test_variant_load_refuses_what_is_not_a_file_name(path: Any) -> None:
    with pytest.raises(VariantError):
        variants.load(path)


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("target_score", nested(100_000)),
        ("minimum_table", nested(100_000)),
        ("target_score", 10**5000),
        ("target_score", 10**30),
        ("red_three_scores", [0, 100, 200, 300, 10**25]),
        ("minimum_table", [[0, 50], [-(10**25), 90]]),
    ],
    ids=["deep", "deep-table", "5000-digits", "31-digits", "in-a-list", "in-a-table"],
)
def test_from_config_bounds_depth_and_integers(option: str, value: Any) -> None:
    with pytest.raises(VariantError, match=option):
        variants.from_config({"variant": "classic", option: value})
    with pytest.raises(VariantError, match=option):
        variants.get("classic", **{option: value})


def test_accepted_large_values_still_write() -> None:
    """The largest integers accepted are written back by to_json and records."""
    variant = variants.from_config({"variant": "classic", "target_score": 10**20 - 1})
    state = canasta.new_game(variant, seed=4)
    assert json.loads(state.to_json())["variant"]["target_score"] == 10**20 - 1
    text = records.dumps(canasta.Match.new(variant, seed=4))
    assert records.loads(text).variant == variant


# -- finding 9: long names and tokens cost little ------------------------------------------


def peak_bytes(action: Callable[[], object]) -> int:
    """The peak memory (traced) of ``action``, which must raise a CanastaError."""
    tracemalloc.start()
    try:
        with pytest.raises(canasta.CanastaError) as error:
            action()
        assert len(str(error.value)) < 1000
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


MB = 1024 * 1024


def test_a_five_megabyte_variant_name() -> None:
    name = "classic" * (5 * MB // 7)
    # The name itself is 5 MB; the search must not add much more.
    assert peak_bytes(lambda: variants.get(name)) < 2 * MB
    with pytest.raises(UnknownVariantError, match="did you mean 'classic-2p'"):
        variants.get("clasic-2p")


@pytest.mark.parametrize(
    "text", ["meld:" + "K" * (2 * MB), "take:" + "KH" * MB, "add:K+" + "K" * (2 * MB)]
)
def test_a_two_megabyte_move(text: str) -> None:
    assert peak_bytes(lambda: parse_move(text)) < MB
    record = '[Variant "classic"]\n[Seed "1"]\n' + text
    # The record is 2 MB; reading its lines copies it a few times, never per card.
    assert peak_bytes(lambda: records.loads(record)) < 12 * MB


def test_the_longest_legal_move_still_parses() -> None:
    """Four decks of cards, every one written as ``10S``: well inside the bound."""
    move = parse_move("meld:" + "10S" * 216)
    assert isinstance(move, MeldCards) and len(move.cards) == 216
    assert parse_move(str(move)) == move


# -- finding 12: files of any size ----------------------------------------------------------


def test_record_and_config_files_are_read_with_a_bound(tmp_path: Path) -> None:
    for name in ("zero.txt", "zero.json", "zero.toml"):
        (tmp_path / name).symlink_to("/dev/zero")
    with pytest.raises(RecordError, match="larger than"):
        records.load(tmp_path / "zero.txt")
    for name in ("zero.json", "zero.toml"):
        with pytest.raises(VariantError, match="larger than"):
            variants.load(tmp_path / name)


@pytest.mark.parametrize("path", [None, "x\0.txt", "/no/such/record.txt", "."])
def test_records_load_refuses_unreadable_paths(path: Any) -> None:
    with pytest.raises(RecordError):
        records.load(path)


def test_a_record_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes('[Variant "clássico"]\n'.encode("latin-1"))
    with pytest.raises(RecordError, match="not UTF-8"):
        records.load(path)


# -- records like PGN: the new syntax is bounded too ----------------------------------------


@pytest.mark.parametrize(
    "players",
    [
        "," * MB,
        '"' * MB,
        '"' + "A" * MB + '"',
        "\\" * (MB // 8),
        ", ".join(["Ann"] * 20_000),
        '"\\u0000", B',
        '"' + "[" * 100_000 + '"',
    ],
)
def test_a_hostile_players_tag(players: str) -> None:
    text = f'[Game "deal"]\n[Variant "classic"]\n[Seed "1"]\n[Players "{players}"]\n'
    # The tag itself is about 1 MB; reading its names adds little.
    assert peak_bytes(lambda: records.loads(text)) < 24 * MB


@pytest.mark.parametrize(
    "text",
    [
        '[Variant "classic"]\n\n' * 10_000,  # ten thousand records
        '[Variant "classic"]\n[Seed "1"]\n{' + "\n" * 50_000,  # a comment never closed
        '[Variant "classic"]\n[Seed "1"]\n' + "{ x }" * 20_000 + "\n[Date",
        '[Variant "classic"]\n[Seed "1"]\n' + "; x\n" * 20_000 + "\n[Date",
    ],
)
def test_many_records_and_comments_cost_little(text: str) -> None:
    assert peak_bytes(lambda: records.parse(text)) < 64 * MB


# -- arguments of the wrong kind at the API's doors ------------------------------------------

_STATE = canasta.new_game("classic", seed=1).play("draw")
_RANDOM = canasta.bots.RandomBot(seed=0)
_ENCODER = ObservationEncoder(variants.get("classic"), numpy=False)


def _(value: object) -> Any:
    """``value`` past the type checker: the cases below pass what the annotations refuse."""
    return value


_WRONG_KIND: list[tuple[str, Callable[[], object], type[Exception], str]] = [
    ("play", lambda: _STATE.play(_(None)), NotationError, "expected moves, got None"),
    ("play", lambda: _STATE.play(_(5)), NotationError, "expected moves, got 5"),
    (
        "deck",
        lambda: canasta.new_game("classic", deck=_(3)),
        PositionError,
        "expected cards, got 3",
    ),
    (
        "stock top",
        lambda: _STATE.with_stock_top(_(None)),
        ArgumentError,
        "expected cards, got None",
    ),
    ("sample", lambda: canasta.sample_state(_(_STATE)), ArgumentError, "got GameState"),
    ("rng", lambda: canasta.sample_state(_STATE.observe(0), _(5)), ArgumentError, "random.Random"),
    ("choose", lambda: _RANDOM.choose(_(_STATE)), ArgumentError, "state.observe(seat)"),
    ("greedy", lambda: canasta.bots.GreedyBot().choose(_(None)), ArgumentError, "got NoneType"),
    ("seed", lambda: canasta.bots.RandomBot(seed=_([1])), ArgumentError, "seed"),
    ("seed", lambda: canasta.bots.GreedyBot(seed=_({})), ArgumentError, "seed"),
    ("budget", lambda: canasta.bots.SearchBot(simulations=_("8")), ArgumentError, "simulations"),
    ("budget", lambda: canasta.bots.SearchBot(seconds=_("1")), ArgumentError, "seconds"),
    ("budget", lambda: canasta.bots.SearchBot(seconds=math.inf), ArgumentError, "seconds"),
    ("bot", lambda: canasta.bots.make_bot(_(["greedy"])), ArgumentError, "unknown bot"),
    ("level", lambda: canasta.bots.make_bot("search", level=_([1])), ArgumentError, "level"),
    ("deal", lambda: canasta.bots.play_deal(_(None), [_RANDOM] * 4), ArgumentError, "GameState"),
    ("bots", lambda: canasta.bots.play_deal(_STATE, _(None)), ArgumentError, "sequence of bots"),
    ("bots", lambda: canasta.bots.play_deal(_STATE, _([1, 2, 3, 4])), ArgumentError, "choose"),
    ("match", lambda: canasta.bots.play_match(_(_STATE), [_RANDOM] * 4), ArgumentError, "Match"),
    ("dumps", lambda: records.dumps(_(None)), ArgumentError, "got NoneType"),
    ("space", lambda: ActionSpace(_("classic")), RLError, "made for a Variant"),
    ("space", lambda: ActionSpace(variants.get("classic")).mask(_(None)), RLError, "GameState"),
    ("encoder", lambda: ObservationEncoder(_(None), numpy=False), RLError, "made for a Variant"),
    ("encoder", lambda: _ENCODER.encode(_(_STATE)), RLError, "expected an Observation"),
    ("encoder", lambda: _ENCODER.encode(_STATE.observe(0), out=0), RLError, "out holds None"),
    ("encoder", lambda: _ENCODER.section([], _(["hand"])), RLError, "no section"),
    ("rewards", lambda: rewards(variants.get("classic"), (1, 2, 3)), RLError, "expected 2 scores"),
    ("rewards", lambda: rewards(variants.get("classic"), _("12")), RLError, "expected 2 scores"),
    ("rewards", lambda: rewards(_(None), (1, 2)), RLError, "made for a Variant"),
    ("bound", lambda: max_deal_moves(_("classic")), RLError, "made for a Variant"),
    ("bound", lambda: reward_bound(_(None)), RLError, "made for a Variant"),
    ("scale", lambda: reward_scale(_(None)), RLError, "made for a Variant"),
]


@pytest.mark.parametrize(
    ("call", "error", "needle"),
    [case[1:] for case in _WRONG_KIND],
    ids=[f"{case[0]}-{i}" for i, case in enumerate(_WRONG_KIND)],
)
def test_an_argument_of_the_wrong_kind_gets_a_documented_error(
    call: Callable[[], object], error: type[Exception], needle: str
) -> None:
    """A value of the wrong type where the API takes states, observations, bots, seeds or
    variants: an error of the documented family naming what was wrong, not a TypeError or
    an AttributeError from inside the library."""
    with pytest.raises(error, match=re.escape(needle)):
        call()
