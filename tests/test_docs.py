"""The documentation is tested: its code runs, and its variant tables match the registry.

- Every fenced ``python`` block of ``docs/**/*.md`` and ``README.md`` is executed; the blocks
  of one page run in order in one namespace (a page may build on its earlier blocks), in a
  temporary working directory. A block is skipped only when it is deliberately partial:
  its info string holds ``no-run`` (```` ```python title="no-run" ````) or the line before
  it is ``<!-- no-run -->``. Blocks that only include a file (``--8<-- "examples/x.py"``)
  are skipped here: the examples themselves run in ``tests/test_examples.py``.
- Each variant page (``docs/variants/*.md``) has a specs table (first header cell
  ``Spec``) and an options table (first header cell ``Option``). Their columns name
  registered variants; every cell is compared with ``canasta.variants.get(name)``, every
  option field of the variant class must be listed, and the ``Values`` column must give
  the values the option accepts (``Variant.option_specs()``).
- Every built-in preset has a variant page, and the notation and position pages name the
  moves and keys of the api contract.
- Every terminal transcript (a ``text`` block that starts with ``$ ``) is real: its
  commands run in bash and must print the lines shown, where a line ``...`` stands for
  any lines and timings are masked.

Run ``python tests/test_docs.py`` to print the specs and options tables the registry
expects (handy when a preset changes).
"""

from __future__ import annotations

import json
import re
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import canasta
from canasta.variants.base import OptionSpec, Variant

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
VARIANT_PAGES = sorted((DOCS / "variants").glob("*.md"))

# -- code blocks -------------------------------------------------------------------------

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>[^\n]*)$")


def code_blocks(text: str) -> Iterator[tuple[int, str, str, bool]]:
    """Yield ``(line, info, code, skipped)`` for every fenced block of a markdown text."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m["indent"], m["fence"], m["info"].strip()
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines):
            line = lines[i]
            if line.strip() == fence and line.startswith(indent):
                break
            body.append(line[len(indent) :] if line.startswith(indent) else line.lstrip())
            i += 1
        i += 1
        before = next((ln.strip() for ln in reversed(lines[:start]) if ln.strip()), "")
        skipped = "no-run" in info or before == "<!-- no-run -->"
        yield start + 1, info, "\n".join(body) + "\n", skipped


def python_blocks(path: Path) -> list[tuple[int, str, bool]]:
    found = []
    for line, info, code, skipped in code_blocks(path.read_text(encoding="utf-8")):
        language = info.split()[0].lstrip(".{") if info else ""
        if language not in ("python", "py"):
            continue
        only_includes = all(
            ln.strip().startswith("--8<--") for ln in code.splitlines() if ln.strip()
        )
        found.append((line, code, skipped or only_includes))
    return found


RUNNABLE = [p for p in [*PAGES, ROOT / "README.md"] if p.exists() and python_blocks(p)]


def _page_id(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("page", RUNNABLE, ids=_page_id)
def test_code_samples_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every python block of the page runs without error, in page order."""
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {"__name__": "__docs__"}
    for line, code, skipped in python_blocks(page):
        if skipped:
            continue
        name = f"{_page_id(page)}:{line}"
        try:
            exec(compile(code, name, "exec"), namespace)
        except Exception as exc:
            frames = traceback.extract_tb(exc.__traceback__)
            failing = [f.lineno or 0 for f in frames if f.filename == name]
            at = line + failing[-1] if failing else line
            source = page.read_text(encoding="utf-8").splitlines()[at - 1].strip()
            pytest.fail(f"{_page_id(page)}, line {at}: {source}\n{type(exc).__name__}: {exc}")


def test_few_blocks_are_skipped() -> None:
    """Skipping is for deliberately partial snippets only: keep it rare."""
    skipped = []
    for page in [*PAGES, ROOT / "README.md"]:
        if not page.exists():
            continue
        text = page.read_text(encoding="utf-8")
        for line, info, code, skip in code_blocks(text):
            includes_only = all(
                ln.strip().startswith("--8<--") for ln in code.splitlines() if ln.strip()
            )
            if skip and info.startswith("python") and not includes_only:
                skipped.append(f"{_page_id(page)}:{line}")
    assert len(skipped) <= 3, f"too many skipped python blocks: {skipped}"


def test_every_page_has_runnable_code_where_expected() -> None:
    """The quickstart and the guides carry code that runs (so they are tested)."""
    names = {p.name for p in RUNNABLE}
    for page in ("index.md", "rules.md", "notation.md", "position.md", "config.md"):
        assert page in names, f"docs/{page} has no runnable python block"
    readme = ROOT / "README.md"
    assert readme in RUNNABLE, "README.md has no runnable python block"


def test_readme_sets_up_with_two_commands() -> None:
    """README: the set-up block holds exactly ``make demo`` and ``make test``; ``make bench``
    and ``make docs`` are mentioned; every make target named exists in the Makefile."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [code for _, info, code, _ in code_blocks(text) if info in ("bash", "sh", "console")]
    assert blocks, "README.md has no shell block"
    commands = [ln.split("#")[0].strip() for ln in blocks[0].splitlines() if ln.strip()]
    assert commands == ["make demo", "make test"]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in set(re.findall(r"`make (\w[\w-]*)`", text)) | {"demo", "test"}:
        assert re.search(rf"^{target}:", makefile, flags=re.MULTILINE), f"no make {target}"
    assert "`make bench`" in text and "`make docs`" in text


# -- variant tables ------------------------------------------------------------------------


def _minimums(v: Any) -> str:
    table = list(v.minimum_table)
    parts = []
    if v.family == "classic":
        parts.append(f"< 0: {v.negative_score_minimum}")
    for i, (low, minimum) in enumerate(table):
        high = table[i + 1][0] if i + 1 < len(table) else None
        if low < -(10**6):
            parts.append(f"< {high}: {minimum}")
        elif high is None:
            parts.append(f"≥ {low}: {minimum}")
        else:
            parts.append(f"{low}–{high - 5}: {minimum}")
    return "; ".join(parts)


def _counted(values: tuple[int, ...]) -> str:
    return ", ".join(str(x) for x in values[1:]) + f" for 1 to {len(values) - 1}"


def specs_rows(v: Any) -> dict[str, str]:
    """The specs table of a variant page, row label -> cell text, from the registry."""
    rows: dict[str, str] = {
        "Family": "Modern American" if v.family == "modern" else "classic",
        "Players": str(v.players),
        "Sides": str(v.sides) + (" (each player alone)" if v.players == v.sides else ""),
    }
    if getattr(v, "cutthroat", False):
        rows["Sides"] = "3: the first to take the pile plays alone against the other two"
    rows |= {
        "Decks": f"{v.decks} ({v.decks * 54} cards, {v.decks * 2} jokers)",
        "Hand size": str(v.hand_size),
        "Draw": str(v.draw_count),
        "Canastas to go out": str(v.canastas_to_go_out),
        "Initial-meld minimums": _minimums(v),
    }
    if v.family == "modern":
        from canasta.variants.modern import THREES_BY_COUNT

        rows["Canasta bonuses"] = (
            f"natural {v.natural_canasta_bonus}, mixed {v.mixed_canasta_bonus}, "
            f"natural sevens {v.natural_seven_bonus}, natural aces {v.natural_ace_bonus}, "
            f"wild {v.wild_canasta_twos_bonus} (seven 2s) / "
            f"{v.wild_canasta_four_jokers_bonus} (four jokers) / {v.wild_canasta_bonus}"
        )
        rows["Threes"] = f"per colour {_counted(THREES_BY_COUNT)}"
        rows["Penalties"] = (
            f"unfinished pure sevens or aces −{v.unfinished_pure_penalty}, "
            f"unfinished wild meld −{v.unfinished_wild_penalty} "
            f"(−{v.mac_wild_meld_penalty_four_jokers} with four jokers), "
            f"3+ aces or 3+ sevens held −{v.held_aces_sevens_penalty}"
        )
        rows["Going out"] = f"{v.going_out_bonus}"
    else:
        bonuses = f"natural {v.natural_canasta_bonus}, mixed {v.mixed_canasta_bonus}"
        if v.classic_wild_canasta:
            bonuses += f", wild {v.classic_wild_canasta_bonus}"
        rows["Canasta bonuses"] = bonuses
        rows["Red threes"] = _counted(v.red_three_scores)
        extra = "concealed" if v.going_out_extra_bonus == "concealed" else "first meld turn"
        rows["Going out"] = f"{v.going_out_bonus} ({extra} +{v.concealed_bonus})"
    rows["Target score"] = str(v.target_score)
    return rows


def fmt(value: Any) -> str:
    """An option value as the pages write it (TOML-like)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple | dict):
        return json.dumps(json.loads(json.dumps(value)), separators=(", ", ": "))
    return str(value)


def values_text(spec: OptionSpec) -> str:
    """The Values cell of an option, from the option's spec."""
    if spec.kind == "bool":
        return "`true`, `false`"
    if spec.kind == "choice":
        return ", ".join(f"`{fmt(choice)}`" for choice in spec.choices)
    if spec.kind == "int":
        if spec.high is None:
            return f"integer ≥ {spec.low}"
        return f"integer {spec.low} to {spec.high}"
    if spec.kind == "table":
        return "[score, minimum] pairs"
    if spec.kind == "values":
        return "mapping of hand names to points"
    return "list of integers ≥ 0"


def tables(text: str) -> list[list[list[str]]]:
    """Every markdown table of a page, as rows of stripped cells (separator rows dropped)."""
    found: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        stripped = line.strip()
        if stripped.startswith("|"):
            cells = [c.strip() for c in stripped.strip("|").split("|")]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                current.append(cells)
        elif current:
            found.append(current)
            current = []
    return found


def _table(page: Path, first: str) -> list[list[str]]:
    matches = [t for t in tables(page.read_text(encoding="utf-8")) if t[0][0] == first]
    assert len(matches) == 1, f"{page.name}: expected one table headed {first!r}"
    return matches[0]


def _columns(header: list[str]) -> list[tuple[int, str]]:
    """(index, variant name) of the header cells written as `name`."""
    cols = []
    for i, cell in enumerate(header):
        m = re.fullmatch(r"`([^`]+)`", cell)
        if m:
            cols.append((i, m[1]))
    return cols


def _untick(cell: str) -> str:
    m = re.fullmatch(r"`([^`]*)`", cell)
    return m[1] if m else cell


@pytest.mark.parametrize("page", VARIANT_PAGES, ids=lambda p: p.stem)
def test_specs_table_matches_registry(page: Path) -> None:
    table = _table(page, "Spec")
    columns = _columns(table[0])
    assert columns, f"{page.name}: the specs table names no variant"
    for index, name in columns:
        expected = specs_rows(canasta.variants.get(name))
        shown = {row[0]: row[index] for row in table[1:]}
        assert shown == expected, (
            f"{page.name}, column {name}: the specs table differs from the registry.\n"
            + render_specs([name])
        )


@pytest.mark.parametrize("page", VARIANT_PAGES, ids=lambda p: p.stem)
def test_options_table_matches_registry(page: Path) -> None:
    table = _table(page, "Option")
    header = table[0]
    columns = _columns(header)
    assert columns and "Values" in header, f"{page.name}: options table needs Values and names"
    values_col = header.index("Values")
    rows = {_untick(row[0]): row for row in table[1:]}
    for index, name in columns:
        variant = canasta.variants.get(name)
        fields = set(variant.option_names())
        assert set(rows) == fields, (
            f"{page.name}: options not listed: {sorted(fields - set(rows))}; "
            f"listed but not options: {sorted(set(rows) - fields)}"
        )
        specs = variant.option_specs()
        for field, row in rows.items():
            shown = _untick(row[index])
            written = variant.to_config(full=True)[field]
            assert shown == fmt(written), f"{page.name}: {name}.{field}"
            assert row[values_col] == values_text(specs[field]), f"{page.name}: {field} values"


def test_every_builtin_preset_has_a_page() -> None:
    documented: set[str] = set()
    for page in VARIANT_PAGES:
        documented.update(name for _, name in _columns(_table(page, "Spec")[0]))
    from canasta.variants.presets import BUILTINS

    builtin = {variant.name for variant, _aliases in BUILTINS}
    assert builtin <= documented, f"presets without a variant page: {sorted(builtin - documented)}"


def test_variants_index_lists_every_page() -> None:
    index = (DOCS / "variants.md").read_text(encoding="utf-8")
    for page in VARIANT_PAGES:
        assert f"variants/{page.name}" in index, f"docs/variants.md does not link {page.name}"


def test_variants_overview_matches_registry() -> None:
    """The overview table of docs/variants.md lists every built-in preset with its
    aliases and numbers as registered."""
    from canasta.variants.presets import BUILTINS

    table = _table(DOCS / "variants.md", "Variant")
    header = table[0]
    rows = {_untick(row[0]): dict(zip(header, row, strict=True)) for row in table[1:]}
    assert set(rows) == {variant.name for variant, _ in BUILTINS}
    aliases = canasta.variants.aliases()
    for name, row in rows.items():
        v = canasta.variants.get(name)
        expected = {
            "Aliases": ", ".join(f"`{a}`" for a, target in aliases.items() if target == name),
            "Players": str(v.players),
            "Sides": str(v.sides),
            "Decks": str(v.decks),
            "Hand": str(v.hand_size),
            "Draw": str(v.draw_count),
            "Canastas to go out": str(v.canastas_to_go_out),
            "Target": str(v.target_score),
        }
        assert {k: row[k] for k in expected} == expected, f"variants.md, row {name}"


def test_mkdocs_nav_lists_every_page() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in PAGES:
        rel = str(page.relative_to(DOCS))
        assert rel in config, f"mkdocs.yml nav does not list {rel}"


# -- notation and position pages -------------------------------------------------------------


def test_notation_page_names_every_move() -> None:
    text = (DOCS / "notation.md").read_text(encoding="utf-8")
    for token in (
        "draw",
        "take:KK",
        "take",
        "meld:KKK2",
        "add:K+2",
        "discard:7H",
        "ask",
        "yes",
        "no",
        "end",
    ):
        assert f"`{token}`" in text, f"notation.md does not show `{token}`"


def test_position_page_names_every_key() -> None:
    """Every key ``from_dict`` accepts is documented (the key set is read from the module
    that checks positions, so a new key cannot go undocumented)."""
    from canasta import position

    text = (DOCS / "position.md").read_text(encoding="utf-8")
    state = canasta.new_game("classic", seed=1).play("draw")
    keys = set(state.to_dict()) | set(position._KEYS)
    for key in sorted(keys):
        assert f"`{key}`" in text, f"position.md does not document the key `{key}`"


def test_cli_page_matches_the_command_line() -> None:
    """Each subcommand documented in cli.md exists, and each option in its table is one of
    that subcommand's options (read from ``--help``)."""
    import subprocess

    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    sections = re.split(r"^## `canasta (\w+)", text, flags=re.MULTILINE)[1:]
    assert sections, "cli.md documents no subcommand"
    for command, body in zip(sections[::2], sections[1::2], strict=True):
        done = subprocess.run(
            [sys.executable, "-m", "canasta", command, "--help"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, f"canasta {command} --help failed: {done.stderr}"
        for cell in re.findall(r"^\| (`-[^|]*)\|", body, flags=re.MULTILINE):
            for flag in re.findall(r"`(--?[a-z][a-z-]*)", cell):
                assert flag in done.stdout, f"cli.md: canasta {command} has no option {flag}"


# -- terminal transcripts ---------------------------------------------------------------------

#: What differs from run to run in a transcript; masked in both texts before they are compared.
_VARYING = (re.compile(r"[\d.]+ s \([\d.]+ deals/s\)"),)


def transcripts(text: str) -> Iterator[tuple[int, list[tuple[str, list[str]]]]]:
    """Yield ``(line, [(command, expected output lines), ...])`` for each ``text`` block
    that starts with a ``$ `` prompt: a terminal transcript."""
    for line, info, code, _ in code_blocks(text):
        if info != "text" or not code.startswith("$ "):
            continue
        steps: list[tuple[str, list[str]]] = []
        for row in code.splitlines():
            if row.startswith("$ "):
                steps.append((row[2:], []))
            else:
                steps[-1][1].append(row)
        yield line, steps


def _masked(lines: list[str]) -> list[str]:
    masked = []
    for line in lines:
        for pattern in _VARYING:
            line = pattern.sub("<varies>", line)
        masked.append(line.rstrip())
    return masked


def output_matches(expected: list[str], actual: list[str]) -> bool:
    """Line by line, after masking; an expected line ``...`` stands for any lines or none."""
    pattern = "".join(
        r"(?:.*\n)*?" if line == "..." else re.escape(line) + r"\n" for line in _masked(expected)
    )
    return re.fullmatch(pattern, "".join(f"{line}\n" for line in _masked(actual))) is not None


def test_output_matching() -> None:
    """The transcript comparison itself: literal lines, ``...`` and masked timings."""
    assert output_matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert output_matches(["a", "...", "b"], ["a", "b"])
    assert not output_matches(["a", "d"], ["a", "b", "d"])
    assert not output_matches(["a"], ["a", "extra"])
    assert output_matches(
        ["  9 deals in 1.0 s (9.0 deals/s)"], ["  9 deals in 2.5 s (3.6 deals/s)"]
    )
    assert not output_matches(
        ["  9 deals in 1.0 s (9.0 deals/s)"], ["  8 deals in 1.0 s (8.0 deals/s)"]
    )


TRANSCRIBED = [p for p in PAGES if any(transcripts(p.read_text(encoding="utf-8")))]


@pytest.mark.parametrize("page", TRANSCRIBED, ids=_page_id)
def test_transcripts_match_the_command_line(page: Path, tmp_path: Path) -> None:
    """Each terminal transcript is real: its commands run (in bash, one fresh directory per
    block, ``$?`` carried from one command to the next) and print what the page shows."""
    import os
    import subprocess

    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    env = {**os.environ, "PATH": path}
    for line, steps in transcripts(page.read_text(encoding="utf-8")):
        workdir = tmp_path / f"block-{line}"
        workdir.mkdir()
        status = 0
        for command, expected in steps:
            done = subprocess.run(
                ["bash", "-c", f"(exit {status}); {command}"],
                cwd=workdir,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                timeout=300,
            )
            status = done.returncode
            assert output_matches(expected, done.stdout.splitlines()), (
                f"{_page_id(page)}, block at line {line}: `{command}` printed:\n{done.stdout}"
            )


# -- printing the expected tables -------------------------------------------------------------


def render_specs(names: list[str]) -> str:
    variants = [canasta.variants.get(n) for n in names]
    rows = [specs_rows(v) for v in variants]
    out = ["| Spec | " + " | ".join(f"`{n}`" for n in names) + " |"]
    out.append("|---" * (len(names) + 1) + "|")
    for label in rows[0]:
        out.append(f"| {label} | " + " | ".join(r[label] for r in rows) + " |")
    return "\n".join(out)


def render_options(names: list[str]) -> str:
    variants: list[Variant] = [canasta.variants.get(n) for n in names]
    out = ["| Option | Values | " + " | ".join(f"`{n}`" for n in names) + " | Spec |"]
    out.append("|---" * (len(names) + 3) + "|")
    for field, spec in variants[0].option_specs().items():
        cells = " | ".join(f"`{fmt(v.to_config(full=True)[field])}`" for v in variants)
        out.append(f"| `{field}` | {values_text(spec)} | {cells} | |")
    return "\n".join(out)


if __name__ == "__main__":  # pragma: no cover
    chosen = sys.argv[1:] or list(canasta.variants.names())
    print(render_specs(chosen))
    print()
    print(render_options(chosen))
