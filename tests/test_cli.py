"""The ``canasta`` command line: every subcommand, its output and its exit status."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import canasta
from canasta import records
from canasta.bots import GreedyBot, play_deal
from canasta.cli import main

Cap = pytest.CaptureFixture[str]
MP = pytest.MonkeyPatch

SUBCOMMANDS = ["variants", "play", "simulate", "ladder", "validate", "moves"]


def run(
    capsys: Cap,
    *argv: str,
    stdin: str | None = None,
    monkeypatch: MP | None = None,
) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# -- help and usage ----------------------------------------------------------------------


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_subcommand_has_help(capsys: Cap, command: str) -> None:
    status, out, _ = run(capsys, command, "--help")
    assert status == 0
    assert f"usage: canasta {command}" in out


def test_top_level_help_and_no_command(capsys: Cap) -> None:
    status, out, _ = run(capsys, "--help")
    assert status == 0 and all(c in out for c in SUBCOMMANDS)
    status, out, _ = run(capsys)
    assert status == 2 and "COMMAND" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["frobnicate"],
        ["variants", "--bogus"],
        ["play", "--variant", "nope"],
        ["play", "--seat", "7"],
        ["play", "--bots", "clever"],
        ["play", "--bots", "greedy,random"],
        ["play", "--target", "-5"],
        ["simulate", "-n", "0"],
        ["simulate", "--workers", "0"],
        ["simulate", "--bots", "greedy,random,greedy"],
        ["simulate", "--seed", "x"],
        ["simulate", "--address", "auto"],
        ["simulate", "--backend", "spark"],
        ["validate"],
        ["validate", "/no/such/file.txt"],
        ["moves", "/no/such/position.json"],
    ],
)
def test_usage_errors_exit_2(capsys: Cap, argv: list[str]) -> None:
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert err.startswith("error:")


def test_python_dash_m() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "canasta", "variants"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0 and "classic" in result.stdout


# -- variants ----------------------------------------------------------------------------


def test_variants_table_and_json(capsys: Cap) -> None:
    status, out, _ = run(capsys, "variants")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["name", "family", "players"]
    for name in canasta.variants.names():
        assert any(line.startswith(name + " ") for line in lines)
    assert all(line == line.rstrip() for line in lines), "no trailing blanks"
    status, out, _ = run(capsys, "variants", "--json")
    rows = json.loads(out)
    classic = next(r for r in rows if r["name"] == "classic")
    assert classic["players"] == 4 and classic["target_score"] == 5000
    assert classic["draw_count"] == 1 and classic["hand_size"] == 11


def test_variants_json_speaks_in_option_names(capsys: Cap) -> None:
    """``--json`` keys are the option names a config uses, with the variant's values."""
    _, out, _ = run(capsys, "variants", "--json")
    for row in json.loads(out):
        variant = canasta.variants.get(row.pop("name"))
        assert row.pop("family") == variant.family
        assert set(row) <= set(variant.option_names())
        assert canasta.variants.from_config({"variant": variant.name, **row}) == variant


# -- naming a variant: a name, a config file or inline JSON ------------------------------


def recorded_variant(folder: Path) -> canasta.Variant:
    return records.parse((folder / "game-0001.txt").read_text(encoding="utf-8")).variant


@pytest.mark.parametrize("form", ["toml", "json", "inline"])
def test_a_variant_from_a_config_file_or_inline_json(
    capsys: Cap, monkeypatch: MP, tmp_path: Path, form: str
) -> None:
    config = {"variant": "classic-2p", "draw_count": 1, "target_score": 3000}
    expected = canasta.variants.from_config(config)
    if form == "toml":
        (tmp_path / "house.toml").write_text(
            'variant = "classic-2p"\ndraw_count = 1\ntarget_score = 3000\n', encoding="utf-8"
        )
        named = str(tmp_path / "house.toml")
    elif form == "json":
        (tmp_path / "house.json").write_text(json.dumps(config), encoding="utf-8")
        named = str(tmp_path / "house.json")
    else:
        named = json.dumps(config)
    folder = tmp_path / "games"
    argv = ["simulate", "-n", "1", "--deals", "-q", "-v", named, "--records", str(folder)]
    status, out, _ = run(capsys, *argv)
    assert status == 0 and "1 deal of classic-2p" in out
    assert recorded_variant(folder) == expected
    status, out, _ = run(capsys, "play", "--deal", "-v", named, stdin="", monkeypatch=monkeypatch)
    assert status == 0 and "(target 3000)" in out and "seat 1: greedy" in out
    argv = ["ladder", "--bots", "random,quick", "-n", "1", "-q", "-v", named]
    status, out, _ = run(capsys, *argv)
    assert status == 0 and out.startswith("classic-2p: 1 duplicate deal pair")


@pytest.mark.parametrize(
    ("named", "said"),
    [
        ("missing.toml", "cannot read variant config"),
        ('{"variant": "classic", "target_scor": 1}', "did you mean 'target_score'"),
        ('{"variant": "classic"', "not valid JSON"),
    ],
)
def test_a_bad_variant_config_is_a_usage_error(capsys: Cap, named: str, said: str) -> None:
    status, out, err = run(capsys, "simulate", "-n", "1", "-q", "-v", named)
    assert status == 2 and out == "" and said in err and len(err.splitlines()) == 1


# -- play --------------------------------------------------------------------------------


def test_play_a_whole_deal_by_numbers(capsys: Cap, monkeypatch: MP) -> None:
    # The human (seat 0) always plays the first legal move: a full deal, then exit 0.
    status, out, _ = run(
        capsys, "play", "--deal", "--seed", "3", stdin="1\n" * 400, monkeypatch=monkeypatch
    )
    assert status == 0
    assert "The deal is over." in out
    assert "Your hand (seat 0" in out and "Side 1 (seats 1, 3)" in out
    assert "Pile:" in out and "Stock:" in out
    assert "total" in out
    # The bots' moves are reported as they happen.
    assert "seat 1: " in out and "seat 3: " in out


def test_play_commands_notation_and_mistakes(capsys: Cap, monkeypatch: MP) -> None:
    script = "\n".join(
        ["help", "hint", "moves", "table", "99", "discard:7", "meld:QQ!", "", "draw", "quit"]
    )
    status, out, _ = run(
        capsys,
        "play",
        "--seed",
        "3",
        "--bots",
        "random",
        "--ascii",
        stdin=script + "\n",
        monkeypatch=monkeypatch,
    )
    assert status == 0
    assert "Enter a move by its number" in out  # help
    assert "hint: draw" in out
    assert "choose a number from 1 to 1" in out
    assert "illegal move 'discard:7': not allowed in this phase of the turn" in out
    assert "not a move" in out
    assert "seat 0: draw" in out
    assert "Goodbye." in out
    assert "♠" not in out  # --ascii


def test_play_ends_cleanly_at_end_of_input(capsys: Cap, monkeypatch: MP) -> None:
    status, out, _ = run(capsys, "play", "--seed", "1", stdin="", monkeypatch=monkeypatch)
    assert status == 0 and "Goodbye." in out


def test_play_as_another_seat_with_one_bot_per_seat(
    capsys: Cap, monkeypatch: MP, tmp_path: Path
) -> None:
    record = tmp_path / "game.txt"
    status, out, _ = run(
        capsys,
        "play",
        "--variant",
        "classic-2p",
        "--seat",
        "1",
        "--bots",
        "random",
        "--deal",
        "--seed",
        "5",
        "--record",
        str(record),
        stdin="1\n" * 400,
        monkeypatch=monkeypatch,
    )
    assert status == 0 and "you are seat 1" in out and "The deal is over." in out
    deal = records.load(record)
    assert isinstance(deal, canasta.GameState) and deal.is_over


# -- play: a single deal, its record and its seed ------------------------------------------


def play_one_deal(capsys: Cap, monkeypatch: MP, tmp_path: Path, *more: str) -> tuple[str, Path]:
    record = tmp_path / "deal.txt"
    argv = ["play", "--deal", "--seed", "3", "--ascii", "--record", str(record), *more]
    status, out, _ = run(capsys, *argv, stdin="1\n" * 400, monkeypatch=monkeypatch)
    assert status == 0
    return out, record


def test_play_deal_records_one_finished_deal(capsys: Cap, monkeypatch: MP, tmp_path: Path) -> None:
    out, path = play_one_deal(capsys, monkeypatch, tmp_path)
    record = records.parse(path.read_text(encoding="utf-8"))
    assert record.kind == "deal"
    assert record.tag("Players") == "you, greedy, greedy, greedy"
    final = record.replay()
    assert isinstance(final, canasta.GameState) and final.is_over
    assert record.tag("Result") == " ".join(map(str, final.outcome().scores))  # type: ignore[union-attr]
    status, out, _ = run(capsys, "validate", str(path))
    assert status == 0 and out.endswith("ok: " + f"{len(record.moves)} moves, deal over\n")


def test_seed_is_the_deal_seed_in_play_deal_and_simulate_deals(
    capsys: Cap, monkeypatch: MP, tmp_path: Path
) -> None:
    """``--seed 3`` with ``--deal`` and with ``--deals`` deals the cards of
    ``new_game(variant, seed=3)``; without them it is the match seed of both commands."""
    _, played = play_one_deal(capsys, monkeypatch, tmp_path)
    folder = tmp_path / "sim"
    argv = ["simulate", "-n", "1", "--deals", "--seed", "3", "-q", "--records", str(folder)]
    assert run(capsys, *argv)[0] == 0
    dealt = canasta.new_game("classic", seed=3)
    for path in (played, folder / "game-0001.txt"):
        first = next(records.parse(path.read_text(encoding="utf-8")).states())
        assert first == dealt
    folder = tmp_path / "matches"
    argv = [
        "simulate",
        "-n",
        "1",
        "--seed",
        "3",
        "-q",
        "--max-deals",
        "1",
        "--records",
        str(folder),
    ]
    assert run(capsys, *argv)[0] == 0
    match = records.load(folder / "game-0001.txt")
    assert isinstance(match, canasta.Match) and match.seed == 3


def test_play_deal_speaks_of_a_deal(capsys: Cap, monkeypatch: MP, tmp_path: Path) -> None:
    out, _ = play_one_deal(capsys, monkeypatch, tmp_path)
    assert "A single classic deal (seed 3)" in out and "The deal is over." in out
    assert "match" not in out.lower()


def typed_deal(capsys: Cap, monkeypatch: MP, seed: int, typed: str) -> tuple[int, str]:
    """``canasta play --deal --seed SEED --ascii`` with ``typed`` as the person's input."""
    argv = ["play", "--deal", "--seed", str(seed), "--ascii"]
    status, out, _ = run(capsys, *argv, stdin=typed, monkeypatch=monkeypatch)
    return status, out


def test_play_shows_the_card_drawn(capsys: Cap, monkeypatch: MP) -> None:
    status, out = typed_deal(capsys, monkeypatch, 3, "draw\nquit\n")
    before = canasta.new_game("classic", seed=3)
    after = before.apply("draw")
    drawn = [c for c in after.hand(0) if after.hand(0).count(c) > before.hand(0).count(c)]
    assert status == 0 and f"seat 0: draw  you drew {drawn[0]}" in out


def test_play_answers_a_mistake_in_one_line(capsys: Cap, monkeypatch: MP) -> None:
    status, out = typed_deal(capsys, monkeypatch, 3, "discard:7\nmeld:QQ!\n99\ndraw\nquit\n")
    assert status == 0
    before_draw = out[: out.index("seat 0: draw")]
    assert before_draw.count("Your hand (seat 0") == 1  # the table is not drawn again
    prompts = before_draw.split("Your move (1-1, notation, help): ")[1:]
    assert [p.count("\n") for p in prompts] == [1, 1, 1, 0]


def test_play_takes_cards_as_the_table_shows_them(capsys: Cap, monkeypatch: MP) -> None:
    # Seed 1: seat 0 holds TD, TC and the joker; the table writes them 10♦ 10♣ ★.
    for typed, played in (
        ("discard:10", "discard:T"),
        ("discard:★", "discard:*"),
        ("discard:10♦", "discard:TD"),
    ):
        status, out = typed_deal(capsys, monkeypatch, 1, f"draw\n{typed}\nquit\n")
        assert status == 0 and f"seat 0: {played}" in out, typed


def test_play_pauses_between_deals(capsys: Cap, monkeypatch: MP) -> None:
    status, out, _ = run(
        capsys, "play", "--seed", "3", "--ascii", stdin="1\n" * 3000, monkeypatch=monkeypatch
    )
    assert status == 0
    breakdown = out.index("Deal 1 is over.")
    pause = out.index("Press Enter for the next deal (or quit): ", breakdown)
    assert out.index("Match scores:", breakdown) < pause < out.index("Deal 2 of a classic match")


def test_play_stops_at_the_pause_on_quit(capsys: Cap, monkeypatch: MP, tmp_path: Path) -> None:
    # The human always takes the first move: count the moves of deal 1, then type "quit"
    # at the pause that follows it.
    _, out, _ = run(capsys, "play", "--seed", "3", stdin="1\n" * 3000, monkeypatch=monkeypatch)
    moves = out[: out.index("Press Enter")].count("Your move (")
    record = tmp_path / "match.txt"
    status, out, _ = run(
        capsys,
        "play",
        "--seed",
        "3",
        "--record",
        str(record),
        stdin="1\n" * moves + "quit\n",
        monkeypatch=monkeypatch,
    )
    assert status == 0 and out.endswith("Press Enter for the next deal (or quit): Goodbye.\n")
    match = records.load(record)
    assert isinstance(match, canasta.Match) and len(match.deals) == 1 and match.deal_number == 2


def test_the_partners_question_in_words(capsys: Cap, monkeypatch: MP) -> None:
    # Deal seed 30: taking the first move each time, seat 0 is asked by seat 2 at ply 40.
    status, out = typed_deal(capsys, monkeypatch, 30, "1\n" * 300)
    assert status == 0
    lines = out.splitlines()
    asked = lines.index("seat 2: ask  (may I go out?)")
    question = "Your partner (seat 2) asks: may I go out? Answer yes (go out) or no (keep playing)."
    at = lines.index(question, asked)
    assert lines[at + 1] == "1) yes   2) no"
    assert lines[at + 2].endswith("seat 0: yes  (go out)")
    assert out.count("asks: may I go out?") == 1  # only the seat asked sees the question


# -- simulate ----------------------------------------------------------------------------


def test_simulate_matches(capsys: Cap) -> None:
    status, out, err = run(
        capsys, "simulate", "-n", "3", "--bots", "greedy,random", "--target", "1500"
    )
    assert status == 0
    assert "3 matches of classic" in out
    assert "side 0 (greedy, greedy):" in out and "side 1 (random, random):" in out
    assert "mean deal score" in out and "deals per match" in out and "deals/s" in out
    assert "3/3" in err  # the progress bar


def test_simulate_deals_with_records_and_workers(capsys: Cap, tmp_path: Path) -> None:
    folder = tmp_path / "games"
    status, out, err = run(
        capsys,
        "simulate",
        "-n",
        "4",
        "--deals",
        "-v",
        "classic-3p",
        "--bots",
        "greedy,random,random",
        "--workers",
        "2",
        "--records",
        str(folder),
        "--quiet",
    )
    assert status == 0 and err == ""
    assert "4 deals of classic-3p" in out and "side 2 (random)" in out
    files = sorted(folder.iterdir())
    assert len(files) == 4
    for path in files:
        assert run(capsys, "validate", str(path))[0] == 0


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_simulate_writes_a_row_per_game(capsys: Cap, tmp_path: Path, suffix: str) -> None:
    out_file, folder = tmp_path / f"rows{suffix}", tmp_path / "games"
    argv = ["simulate", "-n", "3", "--deals", "--seed", "4", "-q", "--bots", "greedy,random"]
    status, _, _ = run(capsys, *argv, "--out", str(out_file), "--records", str(folder))
    assert status == 0
    text = out_file.read_text(encoding="utf-8")
    if suffix == ".csv":
        import csv

        table = list(csv.DictReader(io.StringIO(text)))
        rows = [
            {
                "seed": int(r["seed"]),
                "scores": [int(r["score_0"]), int(r["score_1"])],
                "deals": int(r["deals"]),
            }
            for r in table
        ]
    else:
        rows = [json.loads(line) for line in text.splitlines()]
    assert [r["seed"] for r in rows] == [4, 5, 6]
    for number, row in enumerate(rows, start=1):
        final = records.load(folder / f"game-{number:04d}.txt")
        assert isinstance(final, canasta.GameState) and final.outcome() is not None
        assert row["scores"] == list(final.outcome().scores) and row["deals"] == 1  # type: ignore[union-attr]


def test_simulate_prints_each_sides_mean_with_an_interval(capsys: Cap, tmp_path: Path) -> None:
    import statistics

    rows_file = tmp_path / "rows.jsonl"
    argv = ["simulate", "-n", "4", "--deals", "-q", "--out", str(rows_file)]
    status, out, _ = run(capsys, *argv)
    assert status == 0
    rows = [json.loads(line) for line in rows_file.read_text(encoding="utf-8").splitlines()]
    for side in (0, 1):
        scores = [r["scores"][side] for r in rows]
        mean = statistics.fmean(scores)
        half = 1.96 * statistics.stdev(scores) / 2
        expected = f"mean deal score {mean:.1f} (95% CI {mean - half:.1f} to {mean + half:.1f})"
        assert expected in out.splitlines()[1 + side]


def test_simulate_stops_long_matches(capsys: Cap) -> None:
    status, out, _ = run(
        capsys, "simulate", "-n", "1", "--target", "100000", "--max-deals", "1", "-q"
    )
    assert status == 0 and "unfinished (stopped after 1 deals): 1" in out


# -- validate ----------------------------------------------------------------------------


@pytest.fixture
def good_record(tmp_path: Path) -> Path:
    start = canasta.new_game("classic", seed=11)
    final = play_deal(start, [GreedyBot() for _ in range(4)])
    path = tmp_path / "deal.txt"
    path.write_text(records.dumps(final, seed=11, date="2026.11.29"), encoding="utf-8")
    return path


def test_validate_a_good_record(capsys: Cap, good_record: Path) -> None:
    status, out, _ = run(capsys, "validate", str(good_record))
    assert status == 0 and ": ok:" in out


def test_validate_names_the_first_illegal_ply(capsys: Cap, good_record: Path) -> None:
    text = good_record.read_text(encoding="utf-8").replace("1. S0: draw", "1. S0: discard:K", 1)
    good_record.write_text(text, encoding="utf-8")
    status, out, _ = run(capsys, "validate", str(good_record))
    assert status == 1
    assert "ply 0" in out and "'discard:K' is illegal" in out and "line " in out


def test_validate_several_files_and_stdin(
    capsys: Cap, monkeypatch: MP, good_record: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text('[Variant "classic"\n', encoding="utf-8")
    text = good_record.read_text(encoding="utf-8")
    argv = ["validate", str(good_record), str(bad), "-", str(tmp_path / "missing.txt")]
    status, out, err = run(capsys, *argv, stdin=text, monkeypatch=monkeypatch)
    lines = out.splitlines()
    assert [line.split(": ")[0] for line in lines] == [str(good_record), str(bad), "<stdin>"]
    assert ": ok:" in lines[0] and "line 1, column 1" in lines[1] and ": ok:" in lines[2]
    assert status == 2 and "missing.txt" in err  # an unreadable file outranks a bad one
    status, out, _ = run(capsys, "validate", str(good_record), str(bad))
    assert status == 1 and out.count("\n") == 2


def test_validate_reports_each_record_of_a_file(capsys: Cap, tmp_path: Path) -> None:
    good = records.dumps(canasta.Match.new("classic", seed=1).play("draw"), date="2026.01.01")
    bad = good.replace(": draw", ": discard:K")
    path = tmp_path / "games.txt"
    path.write_text(good + "\n" + bad, encoding="utf-8")
    status, out, _ = run(capsys, "validate", str(path))
    assert status == 1
    first, second = out.splitlines()
    assert first.startswith(f"{path} (record 1): ok: 1 move, 1 deal, match in progress")
    assert second.startswith(f"{path} (record 2): ply 0 (line 21, column 8): 'discard:K'")


def test_validate_a_malformed_record(capsys: Cap, tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text('[Variant "classic"\n', encoding="utf-8")
    status, out, _ = run(capsys, "validate", str(path))
    assert status == 1 and "line 1, column 1" in out


def test_validate_a_match_record(capsys: Cap, tmp_path: Path) -> None:
    path = tmp_path / "match.txt"
    path.write_text(records.dumps(canasta.Match.new("classic", seed=1).play("draw")))
    status, out, _ = run(capsys, "validate", str(path))
    assert status == 0 and "match in progress" in out


# -- moves -------------------------------------------------------------------------------


def test_moves_lists_the_legal_moves(capsys: Cap, tmp_path: Path) -> None:
    state = canasta.new_game("classic", seed=2).apply("draw")
    path = tmp_path / "position.json"
    path.write_text(state.to_json(), encoding="utf-8")
    status, out, _ = run(capsys, "moves", str(path))
    assert status == 0
    listed = [line.strip() for line in out.splitlines()[1:]]
    assert listed == [str(m) for m in state.legal_moves()]
    status, out, _ = run(capsys, "moves", str(path), "--json")
    assert status == 0 and json.loads(out) == [str(m) for m in state.legal_moves()]


def test_moves_of_a_finished_deal(capsys: Cap, tmp_path: Path) -> None:
    final = play_deal(canasta.new_game("classic-2p", seed=2), [GreedyBot(), GreedyBot()])
    path = tmp_path / "over.json"
    path.write_text(final.to_json(), encoding="utf-8")
    status, out, _ = run(capsys, "moves", str(path))
    assert status == 0 and "deal is over" in out


@pytest.mark.parametrize("text", ['{"variant": "classic"}', "[]"])
def test_moves_rejects_an_impossible_position(capsys: Cap, tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    status, out, _ = run(capsys, "moves", str(path))
    assert status == 1 and "bad.json" in out


# -- hostile files: one error line, the usage-error status, never a traceback -------------

HOSTILE = {
    "not-json.json": b"{not json",
    "deep.json": b"[" * 100_000,
    "deep-object.json": b'{"variant": ' * 50_000,
    "big-int.json": b'{"variant": "classic", "scores": [' + b"9" * 5000 + b", 0]}",
    "nan.json": b'{"variant": "classic", "scores": [NaN, 0]}',
    "latin1.json": '{"variant": "clássico"}'.encode("latin-1"),
    "binary.json": bytes(range(256)) * 4,
    "empty.json": b"",
}


def assert_one_error_line(status: int, out: str, err: str, name: str) -> None:
    assert status == 2, (status, out, err)
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ") and name in lines[0]
    assert "Traceback" not in err


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_moves_on_a_hostile_file(capsys: Cap, tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(HOSTILE[name])
    status, out, err = run(capsys, "moves", str(path))
    assert_one_error_line(status, out, err, name)


@pytest.mark.parametrize("command", ["moves", "validate"])
def test_a_link_to_dev_zero_is_refused_by_its_size(
    capsys: Cap, tmp_path: Path, command: str
) -> None:
    path = tmp_path / "zero.json"
    path.symlink_to("/dev/zero")
    status, out, err = run(capsys, command, str(path))
    assert_one_error_line(status, out, err, "zero.json")
    assert "larger than" in err


@pytest.mark.parametrize("command", ["moves", "validate"])
@pytest.mark.parametrize("kind", ["missing", "directory", "latin1"])
def test_unreadable_files(capsys: Cap, tmp_path: Path, command: str, kind: str) -> None:
    path = tmp_path / f"{kind}.txt"
    if kind == "directory":
        path.mkdir()
    elif kind == "latin1":
        path.write_bytes('[Variant "clássico"]'.encode("latin-1"))
    status, out, err = run(capsys, command, str(path))
    assert_one_error_line(status, out, err, f"{kind}.txt")


def test_a_record_with_deep_json_is_refused(capsys: Cap, tmp_path: Path) -> None:
    """Deep JSON in a record's tags is a malformed record (status 1), said in one line."""
    path = tmp_path / "deep.txt"
    path.write_text('[Game "deal"]\n[Variant "' + "{" * 50_000 + '"]\n', encoding="utf-8")
    status, out, err = run(capsys, "validate", str(path))
    assert status == 1 and err == ""
    assert out.count("\n") == 1 and "nested more than" in out
