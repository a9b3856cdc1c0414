# The two commands of the README (`make demo`, `make test`), plus `make bench`, `make callgrind`
# and `make docs`. `make test` also installs the learning extras (NumPy, PettingZoo, OpenSpiel)
# into the same virtual environment and runs their tests (`make test-rl` runs those alone), and
# Ray, RLlib and PyTorch into a virtual environment of their own (`make test-ray`).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RL_STAMP := $(VENV)/.installed-rl
RL_TESTS := tests/test_rl_*.py
RAY_VENV := .venv-ray
RAY_STAMP := $(RAY_VENV)/.installed
RAY_TESTS := tests/test_ray_*.py
# The CPU build of PyTorch (the default wheel is the much larger CUDA build).
TORCH := torch==2.13.0

.PHONY: demo test test-rl test-ray lint typecheck pytest bench callgrind docs docs-build clean

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
	$(BIN)/ruff check src tests examples benchmarks
	$(BIN)/ruff format --check src tests examples benchmarks
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

docs: $(STAMP)
	$(BIN)/mkdocs serve

clean:
	rm -rf $(VENV) $(RAY_VENV) .site .pytest_cache .mypy_cache .ruff_cache
