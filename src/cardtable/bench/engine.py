"""Engine throughput on one core: moves, games, clones and views per second.

Every measurement plays or inspects seeded games, so two runs do the same work;
only the clock differs. Dealing is inside the timed region because a game cannot
be played without it, so moves per second is a whole-game figure.

Each row is timed twice: by the wall clock and by the process's CPU time. On a
machine shared with other work the wall-clock rate drops while the rate per CPU
second stays what one core delivers; the load average is reported with them.
"""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..bots import Bot, bot_names, make_bot
from ..core import JSON, Game, GameState, Rng, RulesBase

# The clone and view figures are measured on positions sampled from random games;
# a few hundred positions cover openings, middles and ends without costing memory.
_MAX_POSITIONS = 400


@dataclass(frozen=True, slots=True)
class Throughput:
    """One timed measurement: ``count`` operations (of ``unit``) in ``seconds``."""

    name: str
    unit: str
    count: int
    seconds: float
    games: int | None = None
    cpu_seconds: float = 0.0

    @property
    def per_second(self) -> float:
        return self.count / self.seconds if self.seconds > 0 else 0.0

    @property
    def per_cpu_second(self) -> float:
        return self.count / self.cpu_seconds if self.cpu_seconds > 0 else 0.0

    @property
    def games_per_second(self) -> float | None:
        if self.games is None:
            return None
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> JSON:
        return {
            "name": self.name,
            "unit": self.unit,
            "count": self.count,
            "seconds": self.seconds,
            "per_second": self.per_second,
            "cpu_seconds": self.cpu_seconds,
            "per_cpu_second": self.per_cpu_second,
            "games": self.games,
            "games_per_second": self.games_per_second,
        }


@dataclass(frozen=True)
class BenchReport:
    game: str
    rules: JSON
    python: str
    rows: tuple[Throughput, ...]
    load_average: float | None = None

    def row(self, name: str) -> Throughput:
        for row in self.rows:
            if row.name == name:
                return row
        raise KeyError(name)

    def summary(self, engine: str, row: str) -> JSON:
        """:meth:`to_json` with the headline figures of ``row`` on top, for scripts:
        ``engine``, ``moves_per_s`` and ``moves_per_cpu_s`` (moves a second by the wall
        clock and per CPU second) and ``games_per_s``."""
        headline = self.row(row)
        return {
            "engine": engine,
            "headline": row,
            "moves_per_s": headline.per_second,
            "moves_per_cpu_s": headline.per_cpu_second,
            "games_per_s": headline.games_per_second,
            **self.to_json(),
        }

    def to_json(self) -> JSON:
        return {
            "game": self.game,
            "rules": self.rules,
            "python": self.python,
            "load_average": self.load_average,
            "rows": [row.to_json() for row in self.rows],
        }


@dataclass(frozen=True, slots=True)
class _Budget:
    """Stop after ``seconds`` of work, or after exactly ``games`` games if that is set."""

    seconds: float
    games: int | None

    def more_games(self, played: int, elapsed: float) -> bool:
        if self.games is not None:
            return played < self.games
        return played == 0 or elapsed < self.seconds


Policy = Callable[[GameState[Any], Rng], int]


def _random_policy(state: GameState[Any], rng: Rng) -> int:
    legal = state.legal_actions()
    return legal[rng.below(len(legal))]


def _time_games(
    game: Game[Any],
    rules: RulesBase,
    name: str,
    new_policy: Callable[[], Policy],
    path: str,
    budget: _Budget,
) -> Throughput:
    """Whole games with moves applied by ``path``: "apply_action", "apply_unchecked" or
    "advance"."""
    moves = played = 0
    rng = Rng(0xBE4C)
    cpu_start = time.process_time()
    start = time.perf_counter()
    while budget.more_games(played, time.perf_counter() - start):
        state = game.new_state(rules, played)
        policy = new_policy()  # fresh per game, as in a tournament
        # Bound method looked up once: the loop should time the engine, not attribute access.
        apply = getattr(state, path)
        while not state.is_over:
            apply(policy(state, rng))
            moves += 1
        played += 1
    elapsed = time.perf_counter() - start
    return Throughput(name, "moves", moves, elapsed, played, time.process_time() - cpu_start)


def _sample_positions(game: Game[Any], rules: RulesBase) -> list[GameState[Any]]:
    """Positions from random games, untimed: every 7th position up to a few hundred."""
    rng = Rng(0x5A3)
    positions: list[GameState[Any]] = []
    seed = 0
    while len(positions) < _MAX_POSITIONS and seed < 50:
        state = game.new_state(rules, seed)
        positions.append(state.clone())
        moves = 0
        while not state.is_over and len(positions) < _MAX_POSITIONS:
            state.apply_unchecked(_random_policy(state, rng))
            moves += 1
            if moves % 7 == 0:
                positions.append(state.clone())
        seed += 1
    return positions


def _time_calls(
    name: str,
    unit: str,
    call: Callable[[GameState[Any]], object],
    positions: list[GameState[Any]],
    budget: _Budget,
) -> Throughput:
    count = 0
    cpu_start = time.process_time()
    start = time.perf_counter()
    while True:
        for state in positions:
            call(state)
        count += len(positions)
        elapsed = time.perf_counter() - start
        # With a fixed number of games the work is fixed too: one pass over the positions.
        if budget.games is not None or elapsed >= budget.seconds:
            return Throughput(
                name, unit, count, elapsed, cpu_seconds=time.process_time() - cpu_start
            )


def _view_of_mover(state: GameState[Any]) -> object:
    return state.view(state.current_player)


def _greedy_policy_factory(
    game: Game[Any], bot_factory: Callable[[str], Bot] | None
) -> Callable[[], Policy] | None:
    """A maker of fresh greedy policies, or None if the game has no greedy bot."""
    if bot_factory is None:
        if "greedy" not in bot_names(game.name):
            return None

        def make(name: str) -> Bot:
            return make_bot(game.name, name)

        bot_factory = make
    try:
        bot_factory("greedy")
    except KeyError:
        return None
    factory = bot_factory
    return lambda: factory("greedy").choose


def run_bench(
    game: Game[Any],
    rules: RulesBase,
    *,
    seconds: float = 5.0,
    games: int | None = None,
    bot_factory: Callable[[str], Bot] | None = None,
) -> BenchReport:
    """Measure ``game`` under ``rules``; ``seconds`` is the total budget, shared evenly.

    With ``games`` set, each game-playing measurement plays exactly that many games
    instead of running against the clock. The greedy row appears when the game has a
    bot called ``greedy`` (from ``bot_factory``, default the bot registry).
    """
    if seconds <= 0 and games is None:
        raise ValueError("give a positive time budget or a number of games")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    greedy = _greedy_policy_factory(game, bot_factory)
    budget = _Budget(seconds / (5 if greedy is None else 6), games)

    def random_policy() -> Policy:
        return _random_policy

    rows = [
        _time_games(game, rules, "random, apply_action", random_policy, "apply_action", budget),
        _time_games(
            game, rules, "random, apply_unchecked", random_policy, "apply_unchecked", budget
        ),
        _time_games(game, rules, "random, advance", random_policy, "advance", budget),
    ]
    if greedy is not None:
        rows.append(
            _time_games(game, rules, "greedy, apply_action", greedy, "apply_action", budget)
        )
    positions = _sample_positions(game, rules)
    rows.append(_time_calls("clone", "clones", lambda s: s.clone(), positions, budget))
    rows.append(_time_calls("view", "views", _view_of_mover, positions, budget))
    return BenchReport(game.name, rules.to_json(), platform.python_version(), tuple(rows), load)
