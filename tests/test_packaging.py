"""The package builds and installs as the Installing page says: ``python -m build`` makes a
wheel and an sdist, and the wheel installed into a fresh virtual environment imports and
plays with only the runtime dependencies.

The build runs on a copy of the files the package is made of, so the working tree is left
alone. It needs the ``build`` package (the ``dev`` extra) and the package index that
``make`` installs from; it takes about 15 seconds.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERSION = "0.1.0"


def run(*argv: str | Path, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in argv], capture_output=True, text=True, timeout=600, cwd=cwd
    )
    assert done.returncode == 0, f"{argv} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_build_the_wheel_and_sdist_and_install_the_wheel_into_a_fresh_venv(
    tmp_path: Path,
) -> None:
    source = tmp_path / "source"
    shutil.copytree(ROOT / "src", source / "src", ignore=shutil.ignore_patterns("*.egg-info"))
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, source / name)
    dist = tmp_path / "dist"
    run(sys.executable, "-m", "build", "--outdir", dist, source)

    wheel = dist / f"canasta-{VERSION}-py3-none-any.whl"
    sdist = dist / f"canasta-{VERSION}.tar.gz"
    assert sorted(p.name for p in dist.iterdir()) == sorted([wheel.name, sdist.name])
    modules = {p.relative_to(ROOT / "src").as_posix() for p in (ROOT / "src").rglob("*.py")}
    with zipfile.ZipFile(wheel) as archive:
        packed = set(archive.namelist())
    assert modules | {"canasta/py.typed"} <= packed
    assert not any(name.startswith("tests/") for name in packed)
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"pyproject.toml", "README.md", "LICENSE", "src/canasta/py.typed"} <= names

    # A fresh environment with no pip of its own: this environment's pip installs into it.
    env = tmp_path / "env"
    run(sys.executable, "-m", "venv", "--without-pip", env)
    python = env / "bin" / "python"
    run(sys.executable, "-m", "pip", "--python", python, "install", "--quiet", wheel)
    installed = json.loads(
        run(sys.executable, "-m", "pip", "--python", python, "list", "--format=json")
    )
    names = {entry["name"].lower().replace("_", "-") for entry in installed}
    assert names == {"canasta", "attrs", "typing-extensions"}, names

    script = (
        "import canasta\n"
        "state = canasta.new_game('classic', seed=7).apply('draw')\n"
        "print(canasta.__file__)\n"
        "print(canasta.__version__, len(state.legal_moves()) > 1)\n"
    )
    where, answer = run(python, "-I", "-c", script, cwd=tmp_path).splitlines()
    assert Path(where).is_relative_to(env), where
    assert answer == f"{VERSION} True"
    assert "classic-2p" in run(env / "bin" / "canasta", "variants", cwd=tmp_path)


def test_the_installing_page_lists_every_extra() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    page = (ROOT / "docs" / "install.md").read_text(encoding="utf-8")
    table = page.split("## Extras", 1)[1]
    listed = re.findall(r"^\| `([a-z]+)` \|", table, flags=re.MULTILINE)
    assert sorted(listed) == sorted(extras)
    assert f"canasta-{VERSION}-py3-none-any.whl" in page
