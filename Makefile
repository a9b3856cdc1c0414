# The two commands of the README (`make demo`, `make test`), plus `make bench`, `make callgrind`,
# `make ladder` (the bot ladder of docs/bots.md, minutes on two cores) and `make docs`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck pytest bench callgrind ladder docs docs-build clean

$(BIN)/python:
	$(PY) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml examples/plugin/pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python -m pip install --quiet -e examples/plugin
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python examples/demo.py

test: $(STAMP) lint typecheck pytest docs-build

lint: $(STAMP)
	$(BIN)/ruff check src tests examples benchmarks
	$(BIN)/ruff format --check src tests examples benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/python -m pytest

docs-build: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir .site

bench: $(STAMP)
	$(BIN)/python benchmarks/bench.py

callgrind: $(STAMP)
	$(BIN)/python benchmarks/callgrind.py

ladder: $(STAMP)
	$(BIN)/python benchmarks/ladder.py

docs: $(STAMP)
	$(BIN)/mkdocs serve

clean:
	rm -rf $(VENV) .site .pytest_cache .mypy_cache .ruff_cache
