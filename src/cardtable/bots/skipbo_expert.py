"""The Skip-Bo ``expert``: ``hard``'s move unless paired Monte-Carlo shows a clearly better one.

See :mod:`cardtable.bots.expert` for the method both experts share. Also defines the
rollout stop and score the advisor uses for Skip-Bo (``_skipbo_round_over``,
``_skipbo_outcome``).
"""

from __future__ import annotations

import math
from typing import Any

from ..core import GameState, Rng
from ..skipbo.moves import DISCARD_BASE, DISCARD_PLAY_BASE, END_TURN, STOCK_BASE
from ..skipbo.state import SkipBoState
from . import skipbo_hard
from .montecarlo import Budget, Comparison, compare, improve


# --- Skip-Bo ------------------------------------------------------------------
def skipbo_candidates(state: SkipBoState, discards: int = 3) -> list[int]:
    """Distinct plays (piles needing the same number are one place) and the best discards."""
    legal = state.legal_actions()
    seat = state.current
    nexts = [len(pile) + 1 for pile in state.building]
    seen: set[tuple[int, int]] = set()
    plays = []
    for action in legal:
        if action >= DISCARD_BASE:
            continue
        if action < STOCK_BASE:
            source, pile = divmod(action, 4)
        elif action < DISCARD_PLAY_BASE:
            source, pile = 100 + (action - STOCK_BASE) // 4, (action - STOCK_BASE) % 4
        else:
            relative = action - DISCARD_PLAY_BASE
            source, pile = 200 + relative // 4, relative % 4
        key = (source, nexts[pile])
        if key not in seen:
            seen.add(key)
            plays.append(action)
    ranked = [a for _, a in skipbo_hard.discard_options(state, seat, legal)[:discards]]
    tail = [END_TURN] if END_TURN in legal else []
    return plays + ranked + tail


#: Skip-Bo rollouts stop after this many turns per seat and are scored by the stocks left.
SKIPBO_HORIZON = 3


def _skipbo_round_over(start: GameState[Any], state: GameState[Any]) -> bool:
    assert isinstance(start, SkipBoState) and isinstance(state, SkipBoState)
    if state.final is not None or len(state.round_log) > len(start.round_log):
        return True
    return state.turns >= start.turns + SKIPBO_HORIZON * start.n


def _skipbo_outcome(start: GameState[Any], end: GameState[Any], seat: int) -> tuple[float, float]:
    assert isinstance(start, SkipBoState) and isinstance(end, SkipBoState)
    if len(end.round_log) == len(start.round_log):
        # Unfinished at the horizon: a win chance from the stock cards each side has left.
        team = start.rules.team(seat)
        mine = max(len(end.stocks[s]) for s in team)
        theirs = min(len(end.stocks[s]) for s in range(end.n) if s not in team)
        value = 1.0 / (1.0 + math.exp((mine - theirs) / 3.0))
        return value, value
    last = end.round_log[len(start.round_log)]
    if not last.winners:
        return 0.5, 0.5
    value = float(seat in last.winners)
    return value, value


def _skipbo_progress(start: GameState[Any], end: GameState[Any], seat: int) -> tuple[float, float]:
    """Stock cards the seat's side played minus the best opposing side's, over the rollout.

    A rollout that finishes the round scores it as a win or a loss worth more than
    any stock race.
    """
    assert isinstance(start, SkipBoState) and isinstance(end, SkipBoState)
    if len(end.round_log) > len(start.round_log):
        winners = end.round_log[len(start.round_log)].winners
        if not winners:
            return 0.0, 0.5
        won = seat in winners
        return (SKIPBO_ROUND_VALUE if won else -SKIPBO_ROUND_VALUE), float(won)
    team = start.rules.team(seat)
    others = [s for s in range(start.n) if s not in team]
    mine = max(len(start.stocks[s]) - len(end.stocks[s]) for s in team)
    theirs = max(len(start.stocks[s]) - len(end.stocks[s]) for s in others)
    return float(mine - theirs), 0.0


#: A Skip-Bo rollout that ends the round counts as this many stock cards.
SKIPBO_ROUND_VALUE = 30.0


class SkipBoExpert:
    """``hard``'s move unless Monte-Carlo over re-deals shows a clearly better one.

    At each decision where ``hard`` would not play its stock, every distinct play
    and the best few discards are compared with ``hard``'s move on the same
    re-deals of the hidden cards (``determinize``), each followed by ``horizon``
    turns of ``hard`` in every seat (:class:`~cardtable.bots.skipbo_hard.PlanFollowingBot`)
    and scored by the stock race over those turns. An alternative replaces
    ``hard``'s move only when its paired gain is more than ``z`` standard errors
    above zero: with a few dozen re-deals, the best-looking of several close
    moves is mostly noise, and following it would be worse than ``hard``.
    """

    name = "expert"

    def __init__(
        self,
        budget: Budget | None = None,
        horizon: int = 4,
        z: float = 2.5,
        discards: int = 3,
    ) -> None:
        self.budget = budget or Budget(iterations=24, milliseconds=None)
        self.horizon = horizon
        self.z = z
        self.discards = discards
        self.hard = skipbo_hard.HardBot()

    def _over(self, start: GameState[Any], state: GameState[Any]) -> bool:
        assert isinstance(start, SkipBoState) and isinstance(state, SkipBoState)
        if state.final is not None or len(state.round_log) > len(start.round_log):
            return True
        return state.turns >= start.turns + self.horizon

    def compare(self, state: SkipBoState, baseline: int, rng: Rng) -> list[Comparison]:
        """Every candidate's paired gain over ``baseline`` (in stock cards), largest first."""
        candidates = skipbo_candidates(state, self.discards)
        policies = [skipbo_hard.PlanFollowingBot() for _ in range(state.n)]
        return compare(
            state,
            state.current,
            baseline,
            candidates,
            policies,
            _skipbo_progress,
            self._over,
            self.budget,
            rng,
        )

    def choose(self, state: GameState[Any], rng: Rng) -> int:
        if not isinstance(state, SkipBoState):
            raise TypeError("the Skip-Bo expert plays Skip-Bo states only")
        first = self.hard.choose(state, rng)
        if STOCK_BASE <= first < DISCARD_PLAY_BASE or len(state.legal_actions()) == 1:
            return first
        if len(set(skipbo_candidates(state, self.discards)) | {first}) == 1:
            return first
        return improve(first, self.compare(state, first, rng.spawn()), self.z)
