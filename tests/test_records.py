"""Game records: writing, reading, replaying and their errors (api.md §7, docs/records.md)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import canasta
from canasta import records
from canasta.bots import GreedyBot, RandomBot, play_deal, play_match
from canasta.match import Match
from canasta.records import RecordReplayError

DATE = "2026.11.29"


def _mixed_bots(players: int) -> list[GreedyBot | RandomBot]:
    return [GreedyBot() if seat % 2 == 0 else RandomBot(seat) for seat in range(players)]


@pytest.fixture(scope="module")
def short_match() -> Match:
    variant = canasta.variants.get("classic", target_score=2500)
    match = play_match(Match.new(variant, seed=5), _mixed_bots(4))
    assert len(match.deals) >= 2  # the tests below need a later deal
    return match


def _states_while_playing(
    match: Match, bots: list[GreedyBot | RandomBot]
) -> list[canasta.GameState]:
    """Play ``match`` with ``bots``, collecting every GameState as a record replays them."""
    seen = [match.state]
    while not match.is_over:
        state = match.state
        seat = state.to_move
        assert seat is not None
        move = bots[seat].choose(state.observe(seat))
        after = match.apply(move)
        if len(after.deals) > len(match.deals):
            seen.append(state.apply(move))
            if not after.is_over:
                seen.append(after.state)
        else:
            seen.append(after.state)
        match = after
    return seen


# -- round trips -------------------------------------------------------------------------


def test_match_round_trip(short_match: Match) -> None:
    text = records.dumps(short_match, players=["Ann", "Bob", "Cy", "Di"], date=DATE)
    assert text.startswith('[Game "match"]\n')
    assert '[Players "Ann, Bob, Cy, Di"]' in text
    assert f'[Result "{short_match.winner}"]' in text
    again = records.loads(text)
    assert again == short_match
    assert records.dumps(again, players=["Ann", "Bob", "Cy", "Di"], date=DATE) == text


def test_replaying_reproduces_every_state() -> None:
    variant = canasta.variants.get("classic-2p", target_score=2500)
    bots = _mixed_bots(2)
    start = Match.new(variant, seed=8)
    expected = _states_while_playing(start, bots)
    match = play_match(start, _mixed_bots(2))
    record = records.parse(records.dumps(match, date=DATE))
    assert list(record.states()) == expected
    assert len(record.moves) == sum(len(d.moves) for d in match.deals)


def test_unfinished_match_round_trip() -> None:
    match = Match.new("modern-american", seed=3).play("draw")
    text = records.dumps(match, date=DATE)
    assert '[Result "*"]' in text
    assert records.loads(text) == match


def test_variant_options_are_written_as_json() -> None:
    variant = canasta.variants.get("classic", target_score=3000, meld_wild_ratio="n_ge_w")
    match = Match.new(variant, seed=1).play("draw")
    text = records.dumps(match, date=DATE)
    record = records.parse(text)
    assert record.variant == variant
    assert records.loads(text) == match


def test_deal_recorded_by_its_seed() -> None:
    start = canasta.new_game("classic", seed=11, scores=(1500, 20), dealer=1)
    final = play_deal(start, _mixed_bots(4))
    text = records.dumps(final, seed=11, date=DATE)
    assert '[Game "deal"]' in text and '[Seed "11"]' in text
    assert '[Dealer "1"]' in text and '[StartScores "1500 20"]' in text
    outcome = final.outcome()
    assert outcome is not None
    assert f'[Result "{" ".join(map(str, outcome.scores))}"]' in text
    assert records.loads(text) == final
    states = list(records.parse(text).states())
    assert states[0] == start and states[-1] == final
    assert len(states) == len(final.history()) + 1


def test_deal_recorded_from_its_start_state() -> None:
    start = canasta.new_game("classic-3p", seed=4)
    final = play_deal(start, _mixed_bots(3))
    text = records.dumps(final, start=start, date=DATE)
    assert "[Seed" not in text
    assert "[Deck" in text or "[Position" in text
    assert records.loads(text) == final


def test_a_deck_that_deals_the_start_is_written_as_deck() -> None:
    # A deal without red threes in the hands can be written as its exact deck.
    for seed in range(50):
        start = canasta.new_game("classic", seed=seed)
        if not any(start.threes):
            break
    text = records.dumps(start, date=DATE)
    assert "[Deck" in text and "[Position" not in text
    assert records.loads(text) == start


def test_position_read_with_from_dict_is_recorded_exactly() -> None:
    played = canasta.new_game("classic", seed=2).play("draw discard:6")
    position = canasta.GameState.from_dict(played.to_dict())
    after = position.apply("draw")
    text = records.dumps(after, start=position, date=DATE)
    assert "[Position" in text
    assert records.loads(text) == after
    # A state with no moves is its own start.
    assert records.loads(records.dumps(position, date=DATE)) == position


def test_a_deal_with_moves_and_no_start_is_refused() -> None:
    state = canasta.new_game("classic", seed=2).play("draw")
    with pytest.raises(canasta.RecordError, match="seed="):
        records.dumps(state)


def test_a_wrong_seed_is_refused() -> None:
    state = canasta.new_game("classic", seed=2).play("draw")
    with pytest.raises(canasta.RecordError):
        records.dumps(state, seed=3)


def test_dumps_needs_a_match_or_a_state() -> None:
    with pytest.raises(canasta.ArgumentError, match="got str"):
        records.dumps("not a game")  # type: ignore[arg-type]


def test_load_reads_a_file(tmp_path: Path, short_match: Match) -> None:
    path = tmp_path / "game.txt"
    path.write_text(records.dumps(short_match, date=DATE), encoding="utf-8")
    assert records.load(path) == short_match


# -- reading the format ------------------------------------------------------------------

RECORD = """\
[Game "deal"]
[Variant "classic"]
[Seed "7"]
[Dealer "3"]

; comments run to the end of the line
1. S0: draw {a comment} discard:8
2. S1: draw {a comment
spanning lines} discard:6
"""


def test_comments_turn_numbers_and_seat_markers() -> None:
    record = records.parse(RECORD)
    assert record.kind == "deal"
    assert [str(m) for m in record.moves] == ["draw", "discard:8", "draw", "discard:6"]
    assert record.places[1] == (7, 25)
    assert record.seats == (0, None, 1, None)
    state = record.replay()
    assert isinstance(state, canasta.GameState)
    assert state == canasta.new_game("classic", seed=7).play("draw discard:8 draw discard:6")


def test_moves_without_turn_numbers_or_seats() -> None:
    text = '[Game "deal"]\n[Variant "classic"]\n[Seed "7"]\n\ndraw discard:8 draw\n'
    state = records.loads(text)
    assert state == canasta.new_game("classic", seed=7).play("draw discard:8 draw")


def test_tag_values_may_hold_escaped_quotes() -> None:
    text = '[Game "deal"]\n[Variant "classic"]\n[Seed "7"]\n[Event "A \\"Ace\\" B"]\n'
    assert records.parse(text).tag("Event") == 'A "Ace" B'


def test_match_is_the_default_game() -> None:
    text = '[Variant "classic"]\n[Seed "7"]\n\ndraw\n'
    match = records.loads(text)
    assert isinstance(match, Match) and match == Match.new("classic", seed=7).play("draw")


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ('[Variant "classic"\n', 1, 1, "bad tag"),
        ('[Variant "classic"]\n[Variant "classic"]\n', 2, 1, "twice"),
        (
            '[Variant "classic"]\n[Seed "1"]\ndraw\n[Result "*"]\n',
            4,
            1,
            "a tag after the moves starts the next record",
        ),
        ('[Variant "classic"]\n[Seed "1"]\n1. S0: draw meld:KQ!\n', 3, 13, "meld:KQ!"),
        ('[Variant "classic"]\n[Seed "1"]\ndraw {never closed\n', 3, 6, "never closed"),
        ('[Variant "classic"]\n[Seed "1"]\ndraw }\n', 3, 6, "without"),
        ('[Variant "classic"]\n[Seed "1"]\ndraw S0: discard:3\n', 3, 6, "must start"),
        ('[Seed "1"]\ndraw\n', 1, 1, "no Variant"),
    ],
)
def test_malformed_records(text: str, line: int, column: int, message: str) -> None:
    with pytest.raises(canasta.RecordError, match=message) as info:
        records.loads(text)
    assert (info.value.line, info.value.column) == (line, column)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ('[Variant "clasic"]\n[Seed "1"]\n', 1, "unknown variant"),
        ('[Variant "{\\"variant\\": \\"classic\\", \\"bogus\\": 1}"]\n[Seed "1"]\n', 1, "bogus"),
        ('[Variant "{oops"]\n[Seed "1"]\n', 1, "JSON"),
        ('[Variant "classic"]\n[Seed "x"]\n', 2, "integer"),
        ('[Variant "classic"]\n', 1, "Seed"),
        ('[Game "deal"]\n[Variant "classic"]\n', 1, "Seed, Deck or Position"),
        ('[Game "tournament"]\n[Variant "classic"]\n[Seed "1"]\n', 1, "match"),
        ('[Game "deal"]\n[Variant "classic"]\n[Seed "1"]\n[Dealer "9"]\n', 4, "Dealer"),
        ('[Game "deal"]\n[Variant "classic"]\n[Seed "1"]\n[StartScores "1"]\n', 4, "2 integers"),
        ('[Game "deal"]\n[Variant "classic"]\n[Deck "KH QX"]\n', 3, "Deck"),
        ('[Game "deal"]\n[Variant "classic"]\n[Position "{}"]\n', 3, "Position"),
    ],
)
def test_bad_tags(text: str, line: int, message: str) -> None:
    with pytest.raises(canasta.RecordError, match=message) as info:
        records.loads(text)
    assert info.value.line == line


def test_illegal_move_names_its_ply_place_and_reason() -> None:
    text = '[Game "deal"]\n[Variant "classic"]\n[Seed "7"]\n\n1. S0: draw meld:QQQ\n'
    with pytest.raises(RecordReplayError) as info:
        records.loads(text)
    error = info.value
    assert isinstance(error, canasta.ReplayError)
    assert (error.ply, error.line, error.column, error.deal) == (1, 5, 13, None)
    assert error.reason is canasta.IllegalReason.NOT_IN_HAND
    assert str(error.move) == "meld:QQQ"
    assert "line 5, column 13" in str(error) and "ply 1" in str(error)


def test_illegal_move_in_a_later_deal_names_the_deal(short_match: Match) -> None:
    text = records.dumps(short_match, date=DATE)
    lines = text.splitlines()
    # Spoil the first move of the second deal.
    index = next(i for i, line in enumerate(lines) if line.startswith("; deal 2:")) + 1
    lines[index] = lines[index].replace(": draw", ": discard:K", 1).replace(": take", ": end", 1)
    with pytest.raises(RecordReplayError) as info:
        records.loads("\n".join(lines))
    assert info.value.deal == 2
    assert info.value.ply == len(short_match.deals[0].moves)
    assert info.value.line == index + 1


def test_seat_markers_are_checked() -> None:
    text = '[Game "deal"]\n[Variant "classic"]\n[Seed "7"]\n\n1. S2: draw\n'
    with pytest.raises(canasta.RecordError, match="marked S2") as info:
        records.loads(text)
    assert info.value.line == 5


def test_result_and_scores_must_agree_with_the_moves(short_match: Match) -> None:
    text = records.dumps(short_match, date=DATE)
    wrong = text.replace(f'[Result "{short_match.winner}"]', '[Result "*"]')
    with pytest.raises(canasta.RecordError, match="Result") as info:
        records.loads(wrong)
    assert info.value.line == wrong.splitlines().index('[Result "*"]') + 1
    scores = " ".join(map(str, short_match.scores))
    wrong = text.replace(f'[Scores "{scores}"]', '[Scores "1 2"]')
    with pytest.raises(canasta.RecordError, match="Scores"):
        records.loads(wrong)


def test_not_text() -> None:
    with pytest.raises(canasta.RecordError):
        records.parse(b"[Variant]")  # type: ignore[arg-type]


# -- records like PGN: several games, comments, files, byte order marks, names and dates -----


def _finished_match() -> Match:
    return play_match(Match.new("classic-2p", seed=4), [GreedyBot(), GreedyBot()], max_deals=2)


def test_several_records_in_one_text(tmp_path: Path) -> None:
    match = _finished_match()
    deal = play_deal(canasta.new_game("classic", seed=8), [GreedyBot() for _ in range(4)])
    first = records.dumps(match, date="2026.01.01")
    second = records.dumps(deal, seed=8, date="2026.01.02")
    text = first + "\n" + second
    found = records.parse_all(text)
    assert [r.kind for r in found] == ["match", "deal"]
    assert [r.tag("Date") for r in found] == ["2026.01.01", "2026.01.02"]
    assert records.loads_all(text) == (match, deal)
    path = tmp_path / "games.txt"
    path.write_text(text, encoding="utf-8")
    assert records.load_all(path) == (match, deal)
    second_line = first.count("\n") + 2  # the blank line between them, then its tags
    for read in (lambda: records.parse(text), lambda: records.load(path)):
        with pytest.raises(canasta.RecordError, match="holds 2 records; read them with") as info:
            read()
        assert info.value.line == second_line
    # An illegal move in the second record is placed in the whole text.
    bad = first + "\n" + second.replace(": draw", ": discard:K", 1)
    with pytest.raises(records.RecordReplayError) as error:
        records.loads_all(bad)
    assert error.value.ply == 0 and error.value.line > second_line


COMMENTED = """\
; before the tags: kept with the first move
[Game "deal"]
[Variant "classic"]
[Seed "3"]

; the opening
1. S0: draw { a good card } meld:555 meld:QQ2 discard:A
2. S1: draw {a comment
over two lines} meld:44* discard:A ; the rest of the line
; at the end
"""


def test_comments_are_kept_when_read() -> None:
    record = records.parse(COMMENTED)
    assert record.comments == (
        records.Comment(0, "before the tags: kept with the first move"),
        records.Comment(0, "the opening"),
        records.Comment(1, "a good card", braced=True),
        records.Comment(5, "a comment\nover two lines", braced=True),
        records.Comment(7, "the rest of the line"),
        records.Comment(7, "at the end"),
    )
    assert [str(m) for m in record.moves[:5]] == [
        "draw",
        "meld:555",
        "meld:QQ2",
        "discard:A",
        "draw",
    ]


def test_comments_are_written_back() -> None:
    record = records.parse(COMMENTED)
    text = records.dumps(record)
    again = records.parse(text)
    assert again.comments == record.comments and again.moves == record.moves
    assert again.tags == record.tags
    assert "1. S0: draw { a good card } meld:555 meld:QQ2 discard:A" in text.splitlines()
    assert records.dumps(again) == text


def test_a_match_record_reads_back_to_the_same_text() -> None:
    text = records.dumps(_finished_match(), players=["Ann", "Ben"], date="2026.01.01")
    record = records.parse(text)
    assert records.dumps(record) == text  # the writer's own deal comments are not doubled
    lines = text.splitlines()
    lines.insert(lines.index("; deal 2: dealer 0, scores 1525 2420") + 1, "; a second deal")
    commented = "\n".join(lines) + "\n"
    assert records.dumps(records.parse(commented)) == commented


def test_a_comment_that_cannot_be_written_is_refused() -> None:
    for text, braced in (("a } b", True), ("a\nb", False), (5, False)):
        with pytest.raises(canasta.RecordError):
            records.Comment(0, text, braced)  # type: ignore[arg-type]


def test_dump_and_load_a_file(tmp_path: Path) -> None:
    final = play_deal(canasta.new_game("classic", seed=11), [GreedyBot() for _ in range(4)])
    path = tmp_path / "deal.txt"
    records.dump(final, path, seed=11, players=["Ann", "Ben", "Cleo", "Dan"])
    assert records.load(path) == final
    assert records.parse(path.read_text(encoding="utf-8")).players == ("Ann", "Ben", "Cleo", "Dan")
    record = records.parse(path.read_text(encoding="utf-8"))
    records.dump(record, tmp_path / "again.txt")
    assert (tmp_path / "again.txt").read_text(encoding="utf-8") == path.read_text(encoding="utf-8")
    with pytest.raises(canasta.RecordError, match="cannot write record"):
        records.dump(final, tmp_path / "missing" / "deal.txt", seed=11)


def test_a_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    text = records.dumps(Match.new("classic", seed=2).play("draw"), date="2026.01.01")
    assert records.loads("\ufeff" + text) == records.loads(text)
    path = tmp_path / "bom.txt"
    path.write_text(text, encoding="utf-8-sig")  # as some editors save it
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    assert records.load(path) == records.loads(text)


def test_player_names_with_commas_and_quotes_are_quoted() -> None:
    names = ["Smith, Bob", 'Ann "the Ace"', " Cleo ", "Dan"]
    text = records.dumps(canasta.new_game("classic", seed=1), players=names, date="2026.01.01")
    assert (
        '[Players "\\"Smith, Bob\\", \\"Ann \\\\\\"the Ace\\\\\\"\\", \\" Cleo \\", Dan"]' in text
    )
    assert records.parse(text).players == tuple(names)
    plain = re.sub(r"\[Players .*\]", '[Players "Ann, Ben,Cleo ,  Dan"]', text)
    assert records.parse(plain).players == ("Ann", "Ben", "Cleo", "Dan")


@pytest.mark.parametrize(
    ("tag", "message"),
    [
        ('[Players "Ann, , Cleo, Dan"]', "a player's name must be printable text"),
        ('[Players "Ann, Ben"]', "Players must name 4 players (one per seat), got 2"),
        ('[Players "Ann, Ben \\"x\\", Cleo, Dan"]', "Players: bad name list"),
        ('[Players "\\"Ann, Ben, Cleo, Dan"]', "Players: bad name list"),
        ('[Date "2026-11-29"]', "Date must be YYYY.MM.DD"),
        ('[Date "2026.02.30"]', "Date must be YYYY.MM.DD"),
        ('[Date "2026.1.1"]', "Date must be YYYY.MM.DD"),
    ],
)
def test_players_and_date_tags_are_checked(tag: str, message: str) -> None:
    text = f'[Game "deal"]\n[Variant "classic"]\n[Seed "1"]\n{tag}\n\ndraw\n'
    with pytest.raises(canasta.RecordError, match=re.escape(message)) as info:
        records.loads(text)
    assert info.value.line == 4


@pytest.mark.parametrize("date", ["2026.??.??", "????.??.??", "2024.02.29"])
def test_dates_known_in_part_are_accepted(date: str) -> None:
    text = records.dumps(canasta.new_game("classic", seed=1), date=date)
    assert records.parse(text).tag("Date") == date


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": ["Ann", ""]}, "a player's name"),
        ({"players": ["Ann\nBen"]}, "a player's name"),
        ({"players": ["x" * 101]}, "a player's name"),
        ({"date": "29.11.2026"}, "Date must be"),
    ],
)
def test_dumps_refuses_names_and_dates_it_could_not_read_back(
    options: dict[str, Any], message: str
) -> None:
    with pytest.raises(canasta.RecordError, match=message):
        records.dumps(canasta.new_game("classic", seed=1), **options)
