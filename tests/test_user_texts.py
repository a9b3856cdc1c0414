"""What users read cites the docs' own pages, never documents users do not have.

Users read the docs pages, the README and the changelog, the docstrings (the API reference
and ``help()`` render them), ``--help`` and error messages. None of it may cite the
project's internal documents: the rules specification (``spec §2.8``, its decision
numbers ``D12``), or the API contract (``api.md §6``). Code comments, which only
maintainers read, keep citing the specification.

The docs' navigation shows each title once.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from canasta.cli import main

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted((ROOT / "src" / "canasta").rglob("*.py"))
PAGES = [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md", ROOT / "CHANGELOG.md"]

#: A citation of an internal document. A markdown link to the docs' own page
#: ``reference/api.md`` is not one; web addresses are removed before matching.
CITATION = re.compile(
    r"(?<!\]\()\bapi\.md|§|\bspec\b|rules specification|\bD\d{1,2}[a-z]?\b|\bT\d[a-z]?\b"
)
#: In the code, the specification's example numbers too (the rules guide numbers its own
#: worked examples ``EX-nn``, so a page may name them).
CODE_CITATION = re.compile(CITATION.pattern + r"|\bEX-\d+")
_URL = re.compile(r"https?://\S+")


def citations(text: str, pattern: re.Pattern[str] = CITATION) -> list[str]:
    return [m.group() for m in pattern.finditer(_URL.sub("", text))]


def test_the_patterns_find_what_they_must() -> None:
    found = citations("see spec §2.8 and D12, api.md §6, T5; EX-01", CODE_CITATION)
    assert found == ["spec", "§", "D12", "api.md", "§", "T5", "EX-01"]
    assert (
        citations("EX-01 lays off; 3D and 10D; [canasta](api.md); https://semver.org/spec/") == []
    )


def string_literals(path: Path) -> Iterator[tuple[int, str]]:
    """Every string literal of a module (docstrings, help texts, messages), with its line.

    Comments are not in the tree, so they are left alone."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def test_the_scan_sees_docstrings_and_messages() -> None:
    literals = dict(string_literals(ROOT / "src" / "canasta" / "errors.py"))
    assert any("CanastaError" in text for text in literals.values())  # the module docstring
    assert sum(1 for _ in string_literals(ROOT / "src" / "canasta" / "cli.py")) > 100


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT / "src")))
def test_no_docstring_or_message_cites_internal_documents(path: Path) -> None:
    bad = [
        f"{path.name}:{line}: {found} in {text[:70]!r}"
        for line, text in string_literals(path)
        if (found := citations(text, CODE_CITATION))
    ]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_docs_page_cites_internal_documents(page: Path) -> None:
    bad = [
        f"{page.name}:{number}: {found}: {line.strip()[:80]}"
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1)
        if (found := citations(line))
    ]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    "argv",
    [[], ["variants"], ["play"], ["simulate"], ["ladder"], ["validate"], ["moves"]],
    ids=lambda argv: " ".join(argv) or "canasta",
)
def test_no_help_text_cites_internal_documents(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--help"]) == 0
    text = capsys.readouterr().out
    assert "usage: canasta" in text
    assert citations(text) == []


# -- navigation --------------------------------------------------------------------------


def _title(entry: Any) -> tuple[str, Any]:
    """A nav entry's title (a page without one shows its first heading) and its children."""
    if isinstance(entry, str):
        heading = (ROOT / "docs" / entry).read_text(encoding="utf-8").splitlines()[0]
        return heading.lstrip("# ").strip("`"), None
    [(title, value)] = entry.items()
    return title, value if isinstance(value, list) else None


def _sections(entries: list[Any], parent: str) -> Iterator[tuple[str, list[str]]]:
    titles = []
    for entry in entries:
        title, children = _title(entry)
        titles.append(title)
        if children is not None:
            yield from _sections(children, title)
    yield parent, titles


def test_the_navigation_shows_each_title_once() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    sections = list(_sections(config["nav"], "(top)"))
    assert len(sections) > 3
    for section, titles in sections:
        assert len(set(titles)) == len(titles), f"{section}: a title appears twice: {titles}"
        assert section not in titles, f"the section {section!r} lists a page of its own title"
