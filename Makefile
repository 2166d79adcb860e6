# Sahra — two commands for a newcomer: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
VARIANT ?= syrian41
# Python's bytecode cache stays on (some machines turn it off in the environment): the
# suite starts hundreds of interpreters, forks and bot processes, and compiling every module
# afresh in each of them more than doubled their start.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: test lint typecheck pytest bench run clean screenshots discord-sdk

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy engine bot storage benchmarks tools

# Four workers on two cores: many tests wait on sockets and subprocesses, not the CPU.
# Tests are handed out in collection order, the longest first (tests/conftest.py), so
# none of them is left to hold up the end alone. (xdist_group marks do not hold with this
# pytest: a costly fixture is read by one test rather than shared by a module's.)
pytest: $(STAMP)
	$(BIN)/python -m compileall -q -j 2 bot engine storage benchmarks tools tests
	PTB_TIMEDELTA=true $(BIN)/python -m tests.postgres_cluster -- $(BIN)/pytest -q -n 4 --dist loadgroup

bench: $(STAMP)
	$(BIN)/python benchmarks/engine_bench.py $(ARGS)
	$(BIN)/python -m tests.postgres_cluster -- $(BIN)/python benchmarks/manager_bench.py $(ARGS)
	$(BIN)/python -m tests.postgres_cluster -- $(BIN)/python -m benchmarks.forwarding $(ARGS)
	$(BIN)/python -m benchmarks.press_latency $(ARGS)
	$(BIN)/python -m benchmarks.delivery $(ARGS)
	$(BIN)/python -m benchmarks.web_writes $(ARGS)
	$(BIN)/python -m benchmarks.review_bench $(ARGS)
	$(BIN)/python -m benchmarks.web_latency --analyses $(ARGS)
	$(BIN)/python -m benchmarks.page_load $(ARGS)
	$(BIN)/python -m benchmarks.activity_launch $(ARGS)
	$(BIN)/python -m tests.postgres_cluster -- $(BIN)/python -m benchmarks.web_scale $(ARGS)
	$(BIN)/python benchmarks/soak.py $(ARGS)
	$(BIN)/python -m benchmarks.arena $(or $(ARENA_ARGS),--quick --jobs 2) $(ARGS)

screenshots: $(STAMP)
	$(BIN)/python -m tools.screenshots docs/screenshots

# Rebuilds bot/web/static/vendor/discord-sdk.js (the Discord Embedded App SDK as one ES
# module) from the versions pinned in tools/discord_sdk. Node and npm are needed only for
# this, to rebuild the vendored file: never to run Sahra or its tests.
discord-sdk:
	bash tools/discord_sdk/build.sh

run: $(STAMP)
	$(BIN)/python -m bot.cli run --variant $(VARIANT) $(ARGS)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
