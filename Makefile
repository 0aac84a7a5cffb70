# The two set-up commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test install lint crosscheck loadclient

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

install: $(BIN)/.installed

# The main job: the web table on an embedded SQLite database (open the printed address).
run: install
	$(BIN)/cardtable serve

lint: install
	$(BIN)/ruff check src tests scripts lab
	$(BIN)/ruff format --check src tests scripts lab
	$(BIN)/mypy

# The compiled engines' kernels are compiled once, before the workers start, into the
# cache they all share (`cardtable fast warm`: a process per game), while ruff and mypy
# run; its lines are shown after theirs. The tests wait on browsers and servers much of
# the time, so three workers keep two cores busier than two. The long tests (browser,
# then server) are handed out first and each browser test module goes whole to one
# worker (--dist loadgroup, groups and order in tests/conftest.py), so the short tests
# fill the end; pytest then prints the ten slowest tests.
test: install
	$(BIN)/cardtable fast warm > $(VENV)/warm.log 2>&1 & warm=$$!; \
	$(MAKE) --no-print-directory lint; linted=$$?; \
	wait $$warm; warmed=$$?; cat $(VENV)/warm.log; \
	test $$linted -eq 0 && test $$warmed -eq 0
	$(BIN)/python -m pytest -n 3 --dist loadgroup --durations=10

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
