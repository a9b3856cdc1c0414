"""Printing the table: ``print(state)`` and ``print(observation)`` draw it as ``canasta play``
does, in the notation's letters; ``repr`` stays one short line."""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

import pytest

import canasta
from canasta.bots import RandomBot
from canasta.cli import main
from canasta.display import LETTERS, Style, draw_observation, draw_state, style_for


def played(variant: str, seed: int, plies: int) -> canasta.GameState:
    """The state after ``plies`` random moves (or the end of the deal)."""
    state = canasta.new_game(variant, seed=seed)
    bot = RandomBot(seed=seed)
    for _ in range(plies):
        if state.is_over:
            break
        seat = state.to_move
        assert seat is not None
        state = state.apply(bot.choose(state.observe(seat)))
    return state


def drawn_cards(line: str) -> list[str]:
    """The cards of a hand drawn grouped by rank (``A: AS AD   7: 7H``), without the labels."""
    return sorted(word for word in line.split() if not word.endswith(":"))


def test_str_of_a_state_shows_every_hand_and_the_public_table() -> None:
    state = played("classic", seed=5, plies=30)
    text = str(state)
    assert text == draw_state(state, LETTERS)
    lines = text.splitlines()
    for seat in range(state.players):
        hand = state.hand(seat)
        [line] = [x for x in lines if x.startswith(f"    seat {seat}, {len(hand)} cards: ")]
        assert drawn_cards(line.split(" cards: ", 1)[1]) == sorted(map(str, hand))
    obs = state.observe(0)
    assert f"top {obs.pile_top}" in text and f"Stock: {obs.stock_size}" in text
    for side, melds in enumerate(obs.melds):
        for meld in melds:
            assert " ".join(map(str, meld.cards)) in text, (side, meld)
    assert f"To move: seat {state.to_move} ({state.phase})" in text


def test_str_of_an_observation_is_the_seats_view_only() -> None:
    state = played("classic", seed=11, plies=25)
    for seat in range(state.players):
        obs = state.observe(seat)
        text = str(obs)
        assert text == draw_observation(obs, LETTERS)
        lines = text.splitlines()
        mine = lines.index(f"Your hand (seat {seat}, {len(obs.hand)} cards):")
        assert drawn_cards(lines[mine + 1]) == sorted(map(str, obs.hand))
        # What the seat cannot see does not change the drawing.
        for sample in range(3):
            other = canasta.sample_state(obs, random.Random(sample))
            assert str(other.observe(seat)) == text


def test_the_drawings_differ_where_the_views_differ() -> None:
    state = played("classic", seed=2, plies=12)
    views = {str(state.observe(seat)) for seat in range(state.players)}
    assert len(views) == state.players
    assert str(state) not in views


def test_str_of_a_finished_deal_says_who_went_out() -> None:
    state = played("classic-2p", seed=3, plies=10_000)
    assert state.is_over
    text = str(state)
    outcome = state.outcome()
    assert outcome is not None
    if outcome.went_out is None:
        assert "The deal is over: nobody went out." in text
    else:
        assert f"The deal is over: seat {outcome.went_out} went out." in text
    assert "To move" not in text


@pytest.mark.parametrize("variant", ["classic", "classic-3p", "classic-6p", "modern-american"])
def test_printing_is_plain_ascii_in_every_variant(variant: str) -> None:
    for plies in (0, 15, 60):
        state = played(variant, seed=plies + 1, plies=plies)
        assert str(state).isascii()
        assert all(str(state.observe(s)).isascii() for s in range(state.players))


def test_canasta_play_draws_the_observation_that_print_shows(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--seed", "3", "--ascii"]) == 0
    out = capsys.readouterr().out
    obs = canasta.Match.new("classic", seed=3).state.observe(0)
    heading = "Deal 1 of a classic match (seed 3)"
    # The drawing canasta play shows is str(observation) with the deal's heading added.
    expected = str(obs).splitlines()
    expected.insert(1, heading)
    assert "\n".join(expected) in out


def test_symbols_are_a_style_of_the_same_drawing() -> None:
    state = played("classic", seed=4, plies=20)
    obs = state.observe(1)
    symbols = draw_observation(obs, Style(symbols=True))
    assert not symbols.isascii()
    letters_of_symbols = symbols
    for letter, symbol in (("S", "♠"), ("H", "♥"), ("D", "♦"), ("C", "♣")):
        letters_of_symbols = letters_of_symbols.replace(symbol, letter)
    letters_of_symbols = letters_of_symbols.replace("★", "*").replace("10", "T")
    assert letters_of_symbols == str(obs).replace("10", "T")
    assert style_for(io.StringIO(), ascii_only=True) == LETTERS


def test_repr_stays_one_short_line() -> None:
    state = played("modern-american", seed=8, plies=40)
    for value in (state, state.observe(0), state.observe(1)):
        text = repr(value)
        assert "\n" not in text and len(text) <= 100, text
        assert text.startswith(f"<{type(value).__name__} modern-american ")
        assert repr(value) != str(value)


def test_the_drawing_shown_in_the_docs_is_real() -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "concepts.md").read_text("utf-8")
    marker = '<!-- the drawing of new_game("classic", seed=7).observe(0)'
    block = page.split(marker, 1)[1].split("```text\n", 1)[1].split("\n```", 1)[0]
    assert block == str(canasta.new_game("classic", seed=7).observe(0))


def test_a_rank_is_labelled_as_its_cards_are_written() -> None:
    obs = canasta.new_game("classic", seed=7).observe(0)
    assert canasta.Card.parse("TD") in obs.hand
    [letters] = [line for line in str(obs).splitlines() if "TD" in line]
    assert "T: TD" in letters and "10" not in letters
    [symbols] = [line for line in draw_observation(obs, Style()).splitlines() if "10♦" in line]
    assert "10: 10♦" in symbols


def test_a_meld_shows_its_cards_not_engine_codes() -> None:
    state = canasta.new_game("classic", seed=7).play("draw meld:AA* discard:6")
    meld = state.melds[0][0]
    assert repr(meld) == "<Meld A: AS AD *>"
    assert [str(c) for c in meld.cards] == ["AS", "AD", "*"]
