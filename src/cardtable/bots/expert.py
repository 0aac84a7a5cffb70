"""``expert`` bots: determinized Monte-Carlo search over the hidden cards.

The ``hard`` bot proposes the moves worth comparing (Skip-Bo: every distinct
play and its three best discards; Skyjo: its best few options), and
:func:`~cardtable.bots.montecarlo.evaluate` plays each out to the end of the
round on re-dealt copies of the position. Skip-Bo values a move by the share of
rollouts the seat's side wins the round; Skyjo by the seat's round points
against the average of the others (fewer is better).

Rollout policy: Skip-Bo rolls out with ``hard`` for three turns per seat and
scores the position by the stock cards each side has left (a logistic win
chance), since rollouts to the end of the round cost tens of milliseconds each. Skyjo rolls out with
``greedy`` by default: ``hard`` spends about 1.4 ms per Skyjo decision, so a
rollout to the end of a 4-player round costs about 100 ms and a one-second
budget would see only a handful; ``rollout="hard"`` selects it anyway.

Budget: a fixed number of iterations (deterministic for a given seed; the
default numbers keep a decision within about a second on one core, see
docs/bots.md) or milliseconds, whichever ends first.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..core import GameState, Rng
from ..skipbo.moves import DISCARD_BASE, DISCARD_PLAY_BASE, END_TURN, STOCK_BASE
from ..skipbo.state import SkipBoState
from ..skyjo.state import OVER, SETUP, SkyjoState
from . import skipbo_hard, skyjo_hard
from .base import Bot
from .montecarlo import Budget, Estimate, evaluate


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


# --- Skyjo --------------------------------------------------------------------
def skyjo_candidates(state: SkyjoState, width: int = 4) -> list[int]:
    bot = skyjo_hard.HardBot()
    return [action for _, action in bot.ranked(state)[:width]]


def _skyjo_round_over(start: GameState[Any], state: GameState[Any]) -> bool:
    assert isinstance(start, SkyjoState) and isinstance(state, SkyjoState)
    return state.phase == OVER or len(state.finished) > len(start.finished)


def _skyjo_outcome(start: GameState[Any], end: GameState[Any], seat: int) -> tuple[float, float]:
    assert isinstance(start, SkyjoState) and isinstance(end, SkyjoState)
    if len(end.finished) == len(start.finished):
        own = float(end.face_up_sum(seat))
        return -own, own
    points = end.finished[len(start.finished)].points
    others = [p for s, p in enumerate(points) if s != seat]
    return -(points[seat] - sum(others) / len(others)), float(points[seat])


# --- the bots -----------------------------------------------------------------
class SkipBoExpert:
    """Monte-Carlo over re-deals with ``hard`` rollouts; stock plays are made at once."""

    name = "expert"

    def __init__(self, budget: Budget | None = None) -> None:
        self.budget = budget or Budget(iterations=24, milliseconds=None)
        self.hard = skipbo_hard.HardBot()

    def analyse(self, state: SkipBoState, rng: Rng) -> list[Estimate]:
        seat = state.current
        candidates = skipbo_candidates(state)
        policies = [skipbo_hard.HardBot() for _ in range(state.n)]
        return evaluate(
            state,
            seat,
            candidates,
            policies,
            _skipbo_outcome,
            _skipbo_round_over,
            self.budget,
            rng.spawn(),
        )

    def choose(self, state: GameState[Any], rng: Rng) -> int:
        if not isinstance(state, SkipBoState):
            raise TypeError("the Skip-Bo expert plays Skip-Bo states only")
        first = self.hard.choose(state, rng)
        if STOCK_BASE <= first < DISCARD_PLAY_BASE or len(state.legal_actions()) == 1:
            return first
        candidates = skipbo_candidates(state)
        if len(candidates) == 1:
            return candidates[0]
        return self.analyse(state, rng)[0].action


class SkyjoExpert:
    """Monte-Carlo over re-deals of the face-down cards and the draw pile."""

    name = "expert"

    def __init__(
        self, budget: Budget | None = None, rollout: str = "greedy", width: int = 4
    ) -> None:
        self.budget = budget or Budget(iterations=40, milliseconds=None)
        self.rollout = rollout
        self.width = width
        self.hard = skyjo_hard.HardBot()

    def _policy(self) -> Bot:
        from .skyjo import GreedyBot

        return skyjo_hard.HardBot() if self.rollout == "hard" else GreedyBot()

    def analyse(self, state: SkyjoState, rng: Rng, width: int | None = None) -> list[Estimate]:
        candidates = skyjo_candidates(state, width or self.width)
        policies = [self._policy() for _ in range(state.n)]
        return evaluate(
            state,
            state.player,
            candidates,
            policies,
            _skyjo_outcome,
            _skyjo_round_over,
            self.budget,
            rng.spawn(),
        )

    def choose(self, state: GameState[Any], rng: Rng) -> int:
        if not isinstance(state, SkyjoState):
            raise TypeError("the Skyjo expert plays Skyjo states only")
        legal = state.legal_actions()
        if state.phase == SETUP or len(legal) == 1:
            return self.hard.choose(state, rng)
        return self.analyse(state, rng)[0].action


SKIPBO_BOTS: dict[str, Callable[[], Bot]] = {"expert": SkipBoExpert}
SKYJO_BOTS: dict[str, Callable[[], Bot]] = {"expert": SkyjoExpert}
