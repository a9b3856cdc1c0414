"""The ladder: duplicate deals, its statistics, and `canasta ladder`."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import canasta
from canasta.bots import GreedyBot, RandomBot
from canasta.bots.ladder import (
    bradley_terry,
    mean_interval,
    pair_result,
    parse_bot,
    play_game,
    run_ladder,
)
from canasta.bots.search import SearchBot
from canasta.cli import main


def test_mean_interval_is_the_normal_95_percent_interval() -> None:
    interval = mean_interval([0.0, 1.0, 0.5, 0.5])
    half = 1.96 * math.sqrt(1 / 6) / 2  # sample standard deviation of the four, over sqrt(4)
    assert interval.value == 0.5
    assert interval.low == pytest.approx(0.5 - half) and interval.high == pytest.approx(0.5 + half)
    single = mean_interval([3.0])
    assert single.low == single.value == single.high == 3.0


def test_bradley_terry_ratings_give_the_odds_of_winning() -> None:
    # 75 deals to 25, plus the one tied deal every pair gets: odds 75.5 to 25.5.
    ratings = bradley_terry(["a", "b"], {("a", "b"): 75.0, ("b", "a"): 25.0})
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * math.log10(75.5 / 25.5))
    assert ratings["a"] + ratings["b"] == pytest.approx(0.0)
    # Three bots in a chain: each beats the next; the order follows.
    chain = bradley_terry(
        ["x", "y", "z"],
        {("x", "y"): 7.0, ("y", "x"): 3.0, ("y", "z"): 7.0, ("z", "y"): 3.0},
    )
    assert chain["x"] > chain["y"] > chain["z"]


def test_duplicate_deals_swap_the_sides_over_the_same_cards() -> None:
    config = canasta.variants.get("classic").to_config()
    first = play_game((config, 4, "random", "quick"))
    second = play_game((config, 4, "quick", "random"))
    assert first["bots"] == ["random", "quick"] and second["bots"] == ["quick", "random"]
    result = pair_result([first, second], "random", "quick")
    expected = [first["scores"][0] - first["scores"][1], second["scores"][1] - second["scores"][0]]
    assert result.deals == 2 and result.margin.value == sum(expected) / 2
    assert result.won + result.lost + result.tied == 2
    assert first["decisions"][0] > 0 and first["decisions"][1] > 0


def test_a_bot_against_itself_comes_out_near_half_with_an_interval_covering_it() -> None:
    variant = canasta.variants.get("classic")
    ladder = run_ladder(variant, ["random", "random#2"], pairs=10, seed=0)
    (pair,) = ladder.pairs
    assert pair.deals == 20 and pair.won + pair.lost + pair.tied == 20
    assert 0.25 <= pair.share.value <= 0.75
    assert pair.share.low < 0.5 < pair.share.high
    assert pair.margin.low < 0 < pair.margin.high
    for rating in ladder.ratings.values():
        assert rating.low <= 0 <= rating.high
    # Two entrants of one kind do play differently (their seeds come from their names).
    assert any(g["scores"][0] != g["scores"][1] for g in ladder.games)
    margins = {(g["seed"], tuple(g["bots"])): g["scores"][0] - g["scores"][1] for g in ladder.games}
    assert any(
        margins[s, ("random", "random#2")] != -margins[s, ("random#2", "random")]
        for s in ladder.seeds
    )


def test_a_stronger_bot_rates_higher() -> None:
    ladder = run_ladder(canasta.variants.get("classic"), ["random", "greedy"], pairs=4)
    (pair,) = ladder.pairs
    assert (pair.a, pair.b) == ("random", "greedy")
    assert pair.share.value < 0.5 and pair.margin.high < 0
    assert ladder.ratings["greedy"].value > ladder.ratings["random"].value


def test_bot_names_with_budgets() -> None:
    assert isinstance(parse_bot("random#2", 1), RandomBot)
    assert isinstance(parse_bot("greedy"), GreedyBot)
    level = parse_bot("search:2")
    assert isinstance(level, SearchBot) and level.simulations == 16
    sims = parse_bot("search:40n")
    assert isinstance(sims, SearchBot) and sims.simulations == 40
    timed = parse_bot("search:0.25s")
    assert isinstance(timed, SearchBot) and timed.seconds == 0.25
    for bad in ("greedy:3", "search:9", "search:xs", "search:0n", "clever"):
        with pytest.raises(ValueError):
            parse_bot(bad)


def test_run_ladder_refuses_bad_input() -> None:
    classic = canasta.variants.get("classic")
    with pytest.raises(ValueError, match="two or more different bots"):
        run_ladder(classic, ["random", "random"], pairs=1)
    with pytest.raises(ValueError, match="two sides"):
        run_ladder(canasta.variants.get("classic-3p"), ["random", "quick"], pairs=1)
    with pytest.raises(ValueError, match="pairs"):
        run_ladder(classic, ["random", "quick"], pairs=0)


def test_ladder_command_prints_the_tables_and_writes_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "ladder.json"
    argv = ["ladder", "--bots", "random,quick", "-v", "classic-2p", "-n", "2", "-q"]
    assert main([*argv, "--jobs", "2", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "random - quick" in text and "rating (95% CI)" in text
    data = json.loads(out.read_text())
    (ladder,) = data["ladders"]
    assert ladder["variant"] == {"variant": "classic-2p"} and len(ladder["games"]) == 4
    assert ladder["pairs"][0]["deals"] == 4
    # The same run in one process gives the same deals.
    assert main([*argv, "--out", str(tmp_path / "one.json")]) == 0
    capsys.readouterr()
    again = json.loads((tmp_path / "one.json").read_text())["ladders"][0]
    strip = [{k: g[k] for k in ("seed", "bots", "scores", "plies")} for g in ladder["games"]]
    assert strip == [{k: g[k] for k in ("seed", "bots", "scores", "plies")} for g in again["games"]]


@pytest.mark.parametrize(
    "argv",
    [
        ["ladder", "--bots", "random", "-v", "classic", "-n", "1"],
        ["ladder", "--bots", "random,clever", "-v", "classic", "-n", "1"],
        ["ladder", "--bots", "random,quick", "-v", "classic-3p", "-n", "1"],
        ["ladder", "--bots", "random,quick", "-v", "classic", "--jobs", "0"],
        ["play", "--bots", "greedy", "--level", "2"],
        ["play", "--bots", "search", "--level", "99"],
    ],
)
def test_ladder_and_level_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert main(argv) == 2
    assert "error:" in capsys.readouterr().err
