"""Determinized Monte-Carlo evaluation of candidate moves, shared by ``expert`` and the advisor.

One *iteration* re-deals everything the deciding seat cannot see
(``state.determinize(seat, rng)``), then, for every candidate move, plays that
move on a copy of the re-dealt state and finishes the round with the ``hard``
bot in every seat. All candidates of an iteration share the re-deal and the
rollout's random stream (common random numbers), so their differences are not
drowned by the luck of the deal. The search never looks at the real hidden
cards: it sees only the re-dealt copies.

Games plug in two functions: which moves are worth comparing (``candidates``)
and how a finished round is scored for the seat (``outcome``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core import GameState, Rng
from .base import Bot

#: A rollout still running after this many moves is scored where it stands.
ROLLOUT_MOVE_LIMIT = 3000


@dataclass(frozen=True, slots=True)
class Budget:
    """Stop after ``iterations`` iterations or ``milliseconds`` of wall time, whichever first.

    At least ``minimum`` iterations are always run so that every candidate has a value.
    """

    iterations: int | None = None
    milliseconds: float | None = 1000.0
    minimum: int = 1

    def __post_init__(self) -> None:
        if self.iterations is None and self.milliseconds is None:
            raise ValueError("a budget needs iterations, milliseconds or both")


@dataclass(frozen=True, slots=True)
class Estimate:
    action: int
    mean: float
    """Mean outcome over the iterations (higher is better for the seat)."""
    samples: int
    extra: float
    """Mean of the game's secondary figure (Skyjo: own round points; Skip-Bo: win rate)."""


Outcome = Callable[[GameState[Any], GameState[Any], int], tuple[float, float]]
"""``outcome(start, end, seat)``: (value to maximise, secondary figure) of a rollout."""
RoundOver = Callable[[GameState[Any], GameState[Any]], bool]
Playout = Callable[
    [GameState[Any], int, GameState[Any], Sequence[Bot], Rng, RoundOver], GameState[Any]
]
"""``playout(world, action, start, policies, rng, round_over)``: the end of a rollout.

``world`` is a re-dealt copy for this action alone; the playout makes ``action`` on it
and plays on until ``round_over(start, state)``. :func:`play_out` is the plain one; a
game may pair its rollouts more closely (Skip-Bo: each seat draws from its own part
of the re-dealt draw pile)."""


def evaluate(
    state: GameState[Any],
    seat: int,
    candidates: Sequence[int],
    policies: Sequence[Bot],
    outcome: Outcome,
    round_over: RoundOver,
    budget: Budget,
    rng: Rng,
    playout: Playout | None = None,
) -> list[Estimate]:
    """Every candidate's estimate, best first (ties by action code)."""
    done, results = _sample(
        state, seat, candidates, policies, outcome, round_over, budget, rng, playout or play_out
    )
    estimates = []
    for action in candidates:
        total = extra = 0.0
        for value, secondary in results[action]:
            total += value
            extra += secondary
        estimates.append(Estimate(action, total / done, done, extra / done))
    estimates.sort(key=lambda e: (-e.mean, e.action))
    return estimates


def _sample(
    state: GameState[Any],
    seat: int,
    moves: Sequence[int],
    policies: Sequence[Bot],
    outcome: Outcome,
    round_over: RoundOver,
    budget: Budget,
    rng: Rng,
    playout: Playout,
) -> tuple[int, dict[int, list[tuple[float, float]]]]:
    """The iterations run and each move's outcomes, one per iteration.

    All moves of an iteration share the re-deal and the rollout's random stream.
    """
    results: dict[int, list[tuple[float, float]]] = {action: [] for action in moves}
    done = 0
    start = time.perf_counter()
    deadline = None if budget.milliseconds is None else start + budget.milliseconds / 1000.0
    while True:
        if done >= budget.minimum:
            if budget.iterations is not None and done >= budget.iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        world = state.determinize(seat, rng.spawn())
        stream = rng.next64()
        for action in moves:
            end = playout(world.clone(), action, state, policies, Rng(stream), round_over)
            results[action].append(outcome(state, end, seat))
        done += 1
    return done, results


def play_out(
    world: GameState[Any],
    action: int,
    start: GameState[Any],
    policies: Sequence[Bot],
    rng: Rng,
    round_over: RoundOver,
    advance: Callable[[GameState[Any], int], None] | None = None,
) -> GameState[Any]:
    """``action``, then the policies' moves until ``round_over`` (see :data:`Playout`).

    ``advance(state, action)`` makes each move (default: ``state.advance(action)``).
    """
    step = advance or _advance
    step(world, action)
    moves = 0
    while not round_over(start, world) and moves < ROLLOUT_MOVE_LIMIT:
        seat = world.current_player
        assert seat is not None
        step(world, policies[seat].choose(world, rng))
        moves += 1
    return world


def _advance(state: GameState[Any], action: int) -> None:
    state.advance(action)


@dataclass(frozen=True, slots=True)
class Comparison:
    """An alternative against the baseline move over the same re-deals."""

    action: int
    gain: float
    """Mean of (alternative's outcome - baseline's outcome) over the iterations."""
    error: float
    """Standard error of that mean."""
    samples: int


def compare(
    state: GameState[Any],
    seat: int,
    baseline: int,
    alternatives: Sequence[int],
    policies: Sequence[Bot],
    outcome: Outcome,
    round_over: RoundOver,
    budget: Budget,
    rng: Rng,
    playout: Playout | None = None,
) -> list[Comparison]:
    """Each alternative's paired gain over ``baseline``, largest first.

    Every iteration plays the baseline and each alternative on the same re-deal
    with the same random stream, so a difference between them comes from the move
    alone and its standard error is small enough to act on.
    """
    moves = [baseline, *(a for a in alternatives if a != baseline)]
    done, results = _sample(
        state, seat, moves, policies, outcome, round_over, budget, rng, playout or play_out
    )
    base = [value for value, _ in results[baseline]]
    comparisons = []
    for action in moves[1:]:
        diffs = [x - y for (x, _), y in zip(results[action], base, strict=True)]
        mean = sum(diffs) / done
        if done > 1:
            error = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (done - 1) / done)
        else:
            error = math.inf  # one re-deal says nothing of the spread: never clear
        comparisons.append(Comparison(action, mean, error, done))
    comparisons.sort(key=lambda c: (-c.gain, c.action))
    return comparisons


def improve(baseline: int, comparisons: Sequence[Comparison], z: float) -> int:
    """The baseline, unless an alternative gains more than ``z`` standard errors (the largest)."""
    for comparison in comparisons:
        if comparison.gain > 0 and comparison.gain > z * comparison.error:
            return comparison.action
    return baseline
