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

# The compiled engines' kernels are compiled once, before the workers start, into the
# cache they all share (`cardtable fast warm`: a process per game), while ruff and mypy
# run; its lines are shown after theirs. (Starting the tests beside the warm-up was
# measured slower: the browser tests took the cores the warm-up needed, and the many
# tests that need a kernel, the coach's and the review's among them, waited for it;
# docs/performance.md, "The test suite".) The tests wait on browsers and servers much
# of the time, so three workers keep two cores busier than two. The long tests
# (browser, then server) are handed out first and each browser test module goes whole
# to one worker (--dist loadgroup, groups and order in tests/conftest.py), so the short
# tests fill the end; pytest then prints the ten slowest tests, and the whole run's
# time follows.
test: install
	@began=$$(date +%s); \
	$(BIN)/cardtable fast warm > $(VENV)/warm.log 2>&1 & warm=$$!; \
	$(MAKE) --no-print-directory lint; linted=$$?; \
	wait $$warm; warmed=$$?; cat $(VENV)/warm.log; \
	echo "make test: lint and warm-up took $$(( $$(date +%s) - began )) s"; \
	test $$linted -eq 0 && test $$warmed -eq 0 || exit 1; \
	PYTHONUNBUFFERED=1 $(BIN)/python -m pytest -n 3 --dist loadgroup --durations=10; tested=$$?; \
	echo "make test: $$(( $$(date +%s) - began )) s in all"; \
	exit $$tested

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
