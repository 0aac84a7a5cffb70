"""``expert`` bots: determinized Monte-Carlo search over the hidden cards.

Both experts play ``hard``'s move unless a search shows a clearly better one.
``hard`` proposes the moves worth comparing (Skip-Bo: every distinct play and its
three best discards; Skyjo: its best few options), and
:func:`~cardtable.bots.montecarlo.compare` plays ``hard``'s move and each
alternative on the same re-deals of the hidden cards with the same random stream,
so that the difference between two moves comes from the moves alone. An
alternative is taken only when its mean gain is more than ``z`` standard errors
above zero (:func:`~cardtable.bots.montecarlo.improve`). Without that guard, the
best-looking of several close moves after a few dozen re-deals is mostly noise,
and an earlier version that always took it lost to ``hard``.

Rollouts and scores:

- Skip-Bo: ``horizon`` turns (default 4: the rest of this turn, the next player's,
  and so on) of :class:`~cardtable.bots.skipbo_hard.PlanFollowingBot` in every
  seat, scored by the stock race: stock cards the seat's side played minus the
  best opposing side's, a finished round counting as 30 either way. Rollouts to
  the end of the round would cost tens of milliseconds each.
- Skyjo: to the end of the round with ``greedy`` by default (``hard`` spends about
  2 ms per Skyjo decision, so a rollout to the end of a 4-player round costs about
  100 ms and a one-second budget would see only a handful; ``rollout="hard"``
  selects it anyway), scored by the seat's round points against the others'
  average.

The advisor values every move with :func:`~cardtable.bots.montecarlo.evaluate`
and the functions ``_skipbo_outcome``/``_skipbo_round_over`` (a logistic win
chance from the stocks left after three turns per seat) and
``_skyjo_outcome``/``_skyjo_round_over`` defined here.

Budget: a fixed number of iterations (deterministic for a given seed; the
defaults keep a decision under a second of CPU time, see docs/bots.md) or
milliseconds, whichever ends first. ``expert@N`` names the bot with N iterations.
"""

from __future__ import annotations

import math
from typing import Any

from ..core import GameState, Rng
from ..skipbo.moves import DISCARD_BASE, DISCARD_PLAY_BASE, END_TURN, STOCK_BASE
from ..skipbo.state import SkipBoState
from ..skyjo.state import OVER, SETUP, SkyjoState
from . import skipbo_hard, skyjo_hard
from .base import Bot
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


def make_expert(game: str, iterations: int) -> Bot:
    """The game's ``expert`` searching ``iterations`` re-deals per decision (``expert@N``)."""
    budget = Budget(iterations=iterations, milliseconds=None)
    bot: SkipBoExpert | SkyjoExpert
    if game == "skipbo":
        bot = SkipBoExpert(budget)
    elif game == "skyjo":
        bot = SkyjoExpert(budget)
    else:
        raise KeyError(f"no expert bot for {game!r}")
    # Tournaments tell bots apart by name.
    bot.name = f"expert@{iterations}"
    return bot
