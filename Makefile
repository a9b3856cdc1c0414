# The two commands of the README (`make demo`, `make test`), plus `make bench`, `make callgrind`,
# `make docs`, and the long runs against hostile input, `make fuzz` and `make soak`
# (docs/contributing.md).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
FUZZ_STAMP := $(VENV)/.fuzz-installed
# make fuzz: how long (seconds), and where the corpus and the crashing inputs go.
FUZZ_SECONDS ?= 60
FUZZ_DIR ?= .fuzz
# make soak: CPU seconds of random play with every invariant checked after every move.
SOAK_SECONDS ?= 300

.PHONY: demo test lint typecheck pytest bench callgrind docs docs-build fuzz soak clean

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
	$(BIN)/ruff check src tests examples benchmarks tools
	$(BIN)/ruff format --check src tests examples benchmarks tools
	$(BIN)/lint-imports

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

docs: $(STAMP)
	$(BIN)/mkdocs serve

# atheris ships wheels with libFuzzer built in (no clang needed); not part of `make test`.
$(FUZZ_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet atheris
	touch $(FUZZ_STAMP)

# Fuzzing goes on after a crash: each distinct one is kept in $(FUZZ_DIR)/crashes (a time-out
# or running out of memory stops the run, and libFuzzer writes that input there too).
fuzz: $(FUZZ_STAMP)
	mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/crashes
	$(BIN)/python tools/fuzz.py --crashes=$(FUZZ_DIR)/crashes -max_total_time=$(FUZZ_SECONDS) \
		-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix=$(FUZZ_DIR)/crashes/ $(FUZZ_DIR)/corpus

soak: $(STAMP)
	$(BIN)/python tools/soak.py --seconds $(SOAK_SECONDS)

clean:
	rm -rf $(VENV) .site .pytest_cache .mypy_cache .ruff_cache $(FUZZ_DIR)
