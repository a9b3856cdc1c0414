# The two commands of the README (`make demo`, `make test`), plus `make bench`, `make callgrind`,
# `make docs`, `make ladder` (the bot ladder of docs/bots.md, minutes on two cores), and the
# long runs against hostile input, `make fuzz` and `make soak` (docs/contributing.md).
# `make test` also installs the learning extras (NumPy, PettingZoo, OpenSpiel) into the same
# virtual environment and runs their tests (`make test-rl` runs those alone), and Ray, RLlib
# and PyTorch into a virtual environment of their own (`make test-ray`).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
FUZZ_STAMP := $(VENV)/.fuzz-installed
# make fuzz: how long (seconds), and where the corpus and the crashing inputs go.
FUZZ_SECONDS ?= 60
FUZZ_DIR ?= .fuzz
# make soak: CPU seconds of random play with every invariant checked after every move,
# and more options of tools/soak.py (SOAK_ARGS=--random-options: random house rules;
# --matches: whole matches; --pickups: searches of pickup turns; --turns: turns searched whole).
SOAK_SECONDS ?= 300
SOAK_ARGS ?=
RL_STAMP := $(VENV)/.installed-rl
RL_TESTS := tests/test_rl_*.py
RAY_VENV := .venv-ray
RAY_STAMP := $(RAY_VENV)/.installed
RAY_TESTS := tests/test_ray_*.py
# The CPU build of PyTorch (the default wheel is the much larger CUDA build).
TORCH := torch==2.13.0

.PHONY: demo test test-rl test-ray lint typecheck pytest bench callgrind ladder docs docs-build fuzz soak \
	clean

$(BIN)/python:
	$(PY) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml examples/plugin/pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python -m pip install --quiet -e examples/plugin
	touch $(STAMP)

# The extras of canasta.envs; their modules are type-checked and documented against them.
$(RL_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[numpy,pettingzoo,openspiel]'
	touch $(RL_STAMP)

$(RAY_VENV)/bin/python:
	$(PY) -m venv $(RAY_VENV)

# Ray with RLlib and PyTorch take about 1.7 GB: they stay out of the main environment.
$(RAY_STAMP): $(RAY_VENV)/bin/python pyproject.toml
	$(RAY_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(RAY_VENV)/bin/python -m pip install --quiet -e '.[ray,rllib]' '$(TORCH)' pytest
	touch $(RAY_STAMP)

demo: $(STAMP)
	$(BIN)/python examples/demo.py

test: $(STAMP) lint typecheck pytest test-rl test-ray docs-build

lint: $(STAMP)
	$(BIN)/ruff check src tests examples benchmarks tools
	$(BIN)/ruff format --check src tests examples benchmarks tools
	$(BIN)/lint-imports

typecheck: $(RL_STAMP)
	$(BIN)/mypy

pytest: $(RL_STAMP)
	$(BIN)/python -m pytest --ignore-glob='$(RL_TESTS)' --ignore-glob='$(RAY_TESTS)'

test-rl: $(RL_STAMP)
	$(BIN)/python -m pytest $(RL_TESTS)

test-ray: $(RAY_STAMP)
	$(RAY_VENV)/bin/python -m pytest $(RAY_TESTS)

docs-build: $(RL_STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir .site

bench: $(RL_STAMP)
	$(BIN)/python benchmarks/bench.py
	$(BIN)/python benchmarks/bench_rl.py

callgrind: $(STAMP)
	$(BIN)/python benchmarks/callgrind.py

ladder: $(STAMP)
	$(BIN)/python benchmarks/ladder.py

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
	$(BIN)/python tools/soak.py --seconds $(SOAK_SECONDS) $(SOAK_ARGS)

clean:
	rm -rf $(VENV) $(RAY_VENV) .site .pytest_cache .mypy_cache .ruff_cache $(FUZZ_DIR)
