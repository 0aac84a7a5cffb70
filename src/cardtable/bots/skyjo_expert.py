"""The Skyjo ``expert``: ``hard``'s move unless paired Monte-Carlo shows a clearly better one.

See :mod:`cardtable.bots.expert` for the method both experts share. Also defines the
rollout stop and score the advisor uses for Skyjo (``_skyjo_round_over``,
``_skyjo_outcome``).
"""

from __future__ import annotations

from typing import Any

from ..core import GameState, Rng
from ..skyjo.state import OVER, SETUP, SkyjoState
from . import skyjo_hard
from .base import Bot
from .montecarlo import Budget, Comparison, compare, improve


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


class SkyjoExpert:
    """``hard``'s move unless Monte-Carlo over re-deals shows a clearly better one.

    ``hard``'s best ``width`` options are compared with its choice on the same
    re-deals of the face-down cards and the draw pile, each played out to the end
    of the round (rollouts by ``greedy`` by default, see the module docstring),
    scored by the seat's round points against the others' average. An option
    replaces ``hard``'s choice only when its paired gain is more than ``z``
    standard errors above zero.
    """

    name = "expert"

    def __init__(
        self,
        budget: Budget | None = None,
        rollout: str = "greedy",
        width: int = 4,
        z: float = 2.5,
    ) -> None:
        self.budget = budget or Budget(iterations=40, milliseconds=None)
        self.rollout = rollout
        self.width = width
        self.z = z
        self.hard = skyjo_hard.HardBot()

    def _policy(self) -> Bot:
        from .skyjo import GreedyBot

        return skyjo_hard.HardBot() if self.rollout == "hard" else GreedyBot()

    def compare(self, state: SkyjoState, baseline: int, rng: Rng) -> list[Comparison]:
        """Every option's paired gain over ``baseline`` (in round points), largest first."""
        candidates = skyjo_candidates(state, self.width)
        policies = [self._policy() for _ in range(state.n)]
        return compare(
            state,
            state.player,
            baseline,
            candidates,
            policies,
            _skyjo_outcome,
            _skyjo_round_over,
            self.budget,
            rng,
        )

    def choose(self, state: GameState[Any], rng: Rng) -> int:
        if not isinstance(state, SkyjoState):
            raise TypeError("the Skyjo expert plays Skyjo states only")
        legal = state.legal_actions()
        first = self.hard.choose(state, rng)
        if state.phase == SETUP or len(legal) == 1:
            return first
        return improve(first, self.compare(state, first, rng.spawn()), self.z)
