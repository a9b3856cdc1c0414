"""Game records: writing, reading, replaying and their errors (api.md §7, docs/records.md)."""

from __future__ import annotations

from pathlib import Path

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
    with pytest.raises(TypeError):
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
