# The two set-up commands of the README: `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test install lint crosscheck loadclient

# Two install sets into one virtual environment: `make run` installs what the table
# runs (the server with its bots' numpy and the compiled engines its coach judges with,
# and the terminal client the README's "Playing" uses): no trainer, test tools or
# plotting. `make test` adds the whole development set.
# Each set has its own stamp, so `make run` after `make test` installs nothing.
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(BIN)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --no-compile -e '.[run]'
	touch $@

$(BIN)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --no-compile -e '.[dev]'
	touch $@ $(BIN)/.installed-run

install: $(BIN)/.installed

# The main job: the web table on an embedded SQLite database (open the printed address).
run: $(BIN)/.installed-run
	$(BIN)/cardtable serve

lint: install
	$(BIN)/ruff check src tests scripts lab
	$(BIN)/ruff format --check src tests scripts lab
	$(BIN)/mypy

# Lint, the warm-up of the compiled engines' kernels and the tests run side by side:
# `cardtable fast warm` compiles every kernel once into the cache all the workers share
# (a process per game) while ruff and mypy run and the tests that need no kernel (the
# browser and server tests, handed out first) start; a test that needs a kernel not yet
# cached waits for the warm-up's end ($CARDTABLE_WAIT_FOR_WARM_UP) instead of compiling
# it again beside it. The warm-up is what those tests wait for, so it runs at the
# tests' priority; the lint, which nothing waits for, runs below it (nice).
# The tests wait on browsers and servers much of the time, so three workers keep two
# cores busier than two; each browser test module goes whole to one worker (--dist
# loadgroup, groups and order in tests/conftest.py). The lint's and the warm-up's lines
# follow the tests' and the slowest tests, then the whole run's time and pytest's
# closing line again.
test: install
	@began=$$(date +%s); rm -f $(VENV)/warm.done; \
	( $(BIN)/cardtable fast warm > $(VENV)/warm.log 2>&1; echo $$? > $(VENV)/warm.done ) & \
	nice -n 10 $(MAKE) --no-print-directory lint > $(VENV)/lint.log 2>&1 & lint=$$!; \
	CARDTABLE_WAIT_FOR_WARM_UP=$(abspath $(VENV))/warm.done \
		PYTHONUNBUFFERED=1 $(BIN)/python -m pytest -n 3 --dist loadgroup --durations=10 2>&1 \
		| tee $(VENV)/pytest.log; tested=$${PIPESTATUS[0]}; \
	wait $$lint; linted=$$?; \
	while [ ! -f $(VENV)/warm.done ]; do sleep 1; done; \
	echo "--- lint (ruff, mypy)"; cat $(VENV)/lint.log; \
	echo "--- cardtable fast warm"; cat $(VENV)/warm.log; \
	echo "make test: $$(( $$(date +%s) - began )) s (lint $$linted, warm-up $$(cat $(VENV)/warm.done), tests $$tested)"; \
	tail -n 1 $(VENV)/pytest.log; \
	test $$linted -eq 0 && test "$$(cat $(VENV)/warm.done)" = 0 && test $$tested -eq 0

# The batch engines' 10,000-game cross-checks against the reference engines (about ten
# minutes of CPU, and 2.4 hours more for the compiled hard bots, which the Python bots
# they are compared with set the pace of: not in every run of the suite, which plays a
# sample of each).
crosscheck: install
	$(BIN)/cardtable fast warm
	CARDTABLE_CROSSCHECK=1 $(BIN)/python -m pytest -n 2 -m crosscheck tests/fast

# The Node.js load client (`cardtable loadtest --client node`, tools/loadclient): its one
# package, as its lockfile pins it.
loadclient:
	npm ci --prefix tools/loadclient --no-audit --no-fund
