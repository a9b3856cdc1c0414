"""Every public module says what is public: an ``__all__`` naming exactly its public names.

- Each module whose dotted name has no part starting with ``_`` defines ``__all__`` as a
  literal list, naming only names it binds, each once.
- Each name in an ``__all__`` is documented in the API reference (its module is rendered by
  a ``:::`` directive of ``docs/reference``, it is rendered by name, or a rendered module
  exports the same object), or is listed in `DELIBERATE` with the reason.
- A rendered module renders only its ``__all__``: every name it defines without a leading
  underscore is exported (the reference shows such names).
- No helper is public by accident: a name a module defines without a leading underscore
  and does not export is used by another module of the project (the library's own
  modules share such names); otherwise it gets an underscore. `PENDING` lists those left
  in files another branch is rewriting.

The modules are read as source (``ast``), so the optional extras need not be installed.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
REFERENCE = ROOT / "docs" / "reference"


def _dotted(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {
    _dotted(path): path
    for path in sorted((SRC / "canasta").rglob("*.py"))
    if not any(part.startswith("_") for part in _dotted(path).split(".")[1:])
}

#: Exported names that the API reference does not render, and why they are public.
DELIBERATE = {
    ("canasta", "__version__"): "the version string; the Installing page shows it",
    ("canasta.cli", "main"): "the entry point of the `canasta` command (pyproject scripts)",
}

#: Helpers public by accident in files that another branch is rewriting now: each gets an
#: underscore (or, if shared, leaves the rendered module) once that branch has landed, so
#: the renames do not collide with its work.
PENDING: set[tuple[str, str]] = set()


@cache
def tree(module: str) -> ast.Module:
    return ast.parse(MODULES[module].read_text(encoding="utf-8"))


def top_level(module: str) -> Iterator[ast.stmt]:
    """The module's top-level statements, with those inside top-level ``if`` and ``try``."""
    pending = list(tree(module).body)
    while pending:
        node = pending.pop(0)
        if isinstance(node, (ast.If, ast.Try)):
            pending[:0] = [*node.body, *getattr(node, "orelse", [])]
        else:
            yield node


def names_bound(node: ast.stmt) -> list[str]:
    """The names a top-level statement binds."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return [node.target.id]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".")[0] for a in node.names]
    return []


def exports(module: str) -> list[str] | None:
    """The literal ``__all__`` of a module, or None when it has none."""
    for node in top_level(module):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and "__all__" in names_bound(node):
            assert node.value is not None
            value = ast.literal_eval(node.value)
            assert isinstance(value, list), f"{module}: __all__ is not a literal list"
            return value
    return None


def defined(module: str) -> list[str]:
    """The names a module defines (not imports), without a leading underscore."""
    return [
        name
        for node in top_level(module)
        if not isinstance(node, (ast.Import, ast.ImportFrom))
        for name in names_bound(node)
        if not name.startswith("_")
    ]


def imported(module: str) -> dict[str, tuple[str, str]]:
    """Top-level ``from m import n [as a]`` of a module: a -> (m, n)."""
    found = {}
    for node in top_level(module):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                found[alias.asname or alias.name] = (node.module, alias.name)
    return found


def bound(module: str) -> set[str]:
    return {name for node in top_level(module) for name in names_bound(node)}


def origin(module: str, name: str) -> tuple[str, str]:
    """Where a name of a module is defined, following imports and plain ``A = B`` aliases."""
    for node in tree(module).body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Name)
            and node.value.id != name
            and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
        ):
            return origin(module, node.value.id)
    source = imported(module).get(name)
    if source is None:
        return (module, name)
    if ".".join(source) in MODULES:
        return (".".join(source), "")  # a submodule (``from canasta import bots``)
    if source[0] in MODULES:
        return origin(*source)
    return source


def directives() -> set[str]:
    found = set()
    for page in sorted(REFERENCE.glob("*.md")):
        found.update(re.findall(r"^::: ([\w.]+)", page.read_text(encoding="utf-8"), re.M))
    return found


RENDERED = sorted(set(MODULES) & directives())


def documented(module: str, name: str) -> bool:
    if name.startswith("_"):
        return False  # the reference renders no underscored name (mkdocs.yml filters)
    if module in RENDERED or f"{module}.{name}" in directives():
        return True
    where = origin(module, name)
    if where[1] == "" and where[0] in RENDERED:
        return True  # a submodule, with a page of its own
    shown = {origin(r, n) for r in RENDERED for n in exports(r) or ()}
    for target in directives():
        owner, _, member = target.rpartition(".")
        if owner in MODULES and target not in MODULES:
            shown.add(origin(owner, member))
    return where in shown


@cache
def project_nodes() -> tuple[tuple[Path, tuple[ast.AST, ...]], ...]:
    """Every node of every Python file of the project, by file."""
    files = sorted(
        path
        for folder in ("src", "tests", "examples", "benchmarks", "tools")
        for path in (ROOT / folder).rglob("*.py")
    )
    return tuple(
        (path, tuple(ast.walk(ast.parse(path.read_text(encoding="utf-8"))))) for path in files
    )


def used_elsewhere(module: str, name: str) -> bool:
    """Does another module of the project import ``name`` from ``module`` or read it as an
    attribute of the module (``position._KEYS``-style)?"""
    last = module.rsplit(".", 1)[-1]
    for path, nodes in project_nodes():
        if path == MODULES[module]:
            continue
        for node in nodes:
            if (
                isinstance(node, ast.ImportFrom)
                and node.module == module
                and any(alias.name == name for alias in node.names)
            ):
                return True
            if isinstance(node, ast.Attribute) and node.attr == name:
                value = node.value
                owner = value.id if isinstance(value, ast.Name) else getattr(value, "attr", None)
                if owner == last:
                    return True
    return False


def test_the_modules_are_found() -> None:
    assert {"canasta", "canasta.state", "canasta.bots.ladder", "canasta.envs.openspiel"} <= set(
        MODULES
    )
    assert not any(part.startswith("_") for m in MODULES for part in m.split(".")[1:])
    assert {"canasta", "canasta.observation", "canasta.display", "canasta.bots.ladder"} <= set(
        RENDERED
    )


@pytest.mark.parametrize("module", MODULES)
def test_every_public_module_has_an_all_of_names_it_binds(module: str) -> None:
    names = exports(module)
    assert names is not None, f"{module} has no __all__"
    assert len(set(names)) == len(names), f"{module}: __all__ names a name twice"
    unbound = set(names) - bound(module)
    assert not unbound, f"{module}: __all__ names what the module does not bind: {unbound}"


@pytest.mark.parametrize("module", MODULES)
def test_every_exported_name_is_documented_or_deliberate(module: str) -> None:
    hidden = [n for n in exports(module) or () if not documented(module, n)]
    undeclared = [n for n in hidden if (module, n) not in DELIBERATE]
    assert not undeclared, f"{module}: exported, not in the API reference: {undeclared}"


def test_the_deliberate_list_is_current() -> None:
    for (module, name), reason in DELIBERATE.items():
        assert name in (exports(module) or ()), f"{module}.{name} is no longer exported"
        assert not documented(module, name), f"{module}.{name} is documented now: drop it"
        assert reason


@pytest.mark.parametrize("module", RENDERED)
def test_a_rendered_module_defines_no_public_name_it_does_not_export(module: str) -> None:
    extra = [
        n
        for n in defined(module)
        if n not in (exports(module) or ()) and (module, n) not in PENDING
    ]
    assert not extra, f"{module}: the reference renders these, but __all__ does not: {extra}"


@pytest.mark.parametrize("module", MODULES)
def test_no_helper_is_public_by_accident(module: str) -> None:
    lonely = [
        n
        for n in defined(module)
        if n not in (exports(module) or ())
        and (module, n) not in PENDING
        and not used_elsewhere(module, n)
    ]
    assert not lonely, f"{module}: used only inside the module, give them an underscore: {lonely}"


def test_the_pending_list_is_current() -> None:
    for module, name in sorted(PENDING):
        assert name in defined(module), f"{module}.{name} is gone: drop it from PENDING"
        assert name not in (exports(module) or ()), f"{module}.{name} is exported now"
