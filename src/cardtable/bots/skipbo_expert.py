"""The Skip-Bo ``expert``: paired Monte-Carlo as a tie-break between ``hard``'s close moves.

See :mod:`cardtable.bots.expert` for the method both experts share. Also defines the
rollout stop and score the advisor uses for Skip-Bo (``skipbo_round_over``,
``skipbo_outcome``).
"""

from __future__ import annotations

import math
from typing import Any

from ..core import GameState, Rng
from ..skipbo.moves import DISCARD_BASE, DISCARD_PLAY_BASE, END_TURN, STOCK_BASE
from ..skipbo.state import SkipBoState
from . import skipbo_hard
from .montecarlo import Budget, Comparison, compare, improve
from .seat_draws import SKIPBO_SEAT_DRAWS
from .skipbo_value import stock_cards_to_come, win_chance

#: Skip-Bo rollouts stop after this many turns per seat and are scored by the stocks left.
SKIPBO_HORIZON = 3


def skipbo_round_over(start: GameState[Any], state: GameState[Any]) -> bool:
    """Where a Skip-Bo rollout from ``start`` stops: the round (or game) is over, or every
    seat has had :data:`SKIPBO_HORIZON` turns. The advisor's rollout stop too."""
    assert isinstance(start, SkipBoState) and isinstance(state, SkipBoState)
    if state.final is not None or len(state.round_log) > len(start.round_log):
        return True
    return state.turns >= start.turns + SKIPBO_HORIZON * start.n


def skipbo_outcome(start: GameState[Any], end: GameState[Any], seat: int) -> tuple[float, float]:
    """The score of a rollout from ``start`` to ``end`` for ``seat``'s side, as (value,
    reported value), both its chance to win the round: 1 or 0 for a finished round
    (0.5 when blocked), else a logistic of the stock cards each side has left. The
    advisor ranks Skip-Bo moves by it."""
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


def skipbo_progress(start: GameState[Any], end: GameState[Any], seat: int) -> tuple[float, float]:
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


class _ScoringPlanner(skipbo_hard.TurnPlanner):
    """``hard``'s turn planner that also keeps the best value each first play leads to.

    ``None`` stands for stopping now (then discarding).
    """

    def __init__(self, state: SkipBoState, seat: int) -> None:
        super().__init__(state, seat)
        self.by_first: dict[tuple[int, int] | None, float] = {}

    def record(
        self, score: float, first: tuple[int, int] | None, last: tuple[int, int] | None = None
    ) -> None:
        if score > self.by_first.get(first, -math.inf):
            self.by_first[first] = score
        super().record(score, first, last)


class SkipBoExpert:
    """``hard``'s move unless Monte-Carlo over re-deals shows that a close rival is better.

    The search is a tie-break. ``hard`` values each first play by the best line of
    the turn it starts, and each discard by its discard score; only the moves it
    values within ``margin`` (plays) or ``dmargin`` (discards) of its own best are
    compared with its move. They are played on the same re-deals of the hidden cards
    (``determinize``; 48 by default), each followed by ``horizon`` turns (default 4:
    the rest of this turn, the opponent's, the next own turn and the opponent's
    answer to it) of :class:`~cardtable.bots.skipbo_hard.PlanFollowingBot` in every
    seat, each seat drawing from its own part of the re-dealt pile (``seat_draws``,
    :mod:`.seat_draws`), and scored by the seat's chance to win the round then
    (``win``; or, with ``win=False`` and in games of more seats, the stock race over
    those turns plus what each side can expect to play soon after, ``value``; see
    :meth:`_outcome`). A rival replaces ``hard``'s move only when its paired gain is more than ``z``
    standard errors above zero.

    Why only close rivals: where ``hard``'s own values differ a lot, ``hard`` is
    right, and a few dozen noisy rollouts that disagree are mostly wrong. An earlier
    expert that compared every distinct play and the best three discards, with a
    stricter guard (z 2.5, horizon 4), played exactly as well as ``hard``
    (docs/bots.md). Where ``hard``'s values are close, its choice is nearly a coin
    toss and the rollouts only have to be better than that.
    """

    name = "expert"

    def __init__(
        self,
        budget: Budget | None = None,
        horizon: int = 4,
        z: float = 1.0,
        margin: float = 3.0,
        dmargin: float = 0.5,
        smargin: float | None = None,
        seat_draws: bool = True,
        value: float = 1.0,
        win: bool = True,
    ) -> None:
        self.budget = budget or Budget(iterations=48, milliseconds=None)
        self.horizon = horizon
        self.z = z
        self.margin = margin
        self.dmargin = dmargin
        self.smargin = smargin
        self.seat_draws = seat_draws
        self.value = value
        self.win = win
        self.hard = skipbo_hard.HardBot()

    def _over(self, start: GameState[Any], state: GameState[Any]) -> bool:
        assert isinstance(start, SkipBoState) and isinstance(state, SkipBoState)
        if state.final is not None or len(state.round_log) > len(start.round_log):
            return True
        return state.turns >= start.turns + self.horizon

    def _outcome(
        self, start: GameState[Any], end: GameState[Any], seat: int
    ) -> tuple[float, float]:
        """A rollout's score: the stock race, and with ``value`` what lies beyond it.

        A 2-player rollout that stops mid-round adds ``value`` times the stock cards
        each side can expect to play in the next 8 turns, own minus the opponent's
        (:func:`~cardtable.bots.skipbo_value.stock_cards_to_come`, fitted on 2-player
        games); the race alone does not see a stock top about to fit or a Skip-Bo
        card in hand.

        With ``win`` (2-player rounds), the score is instead the chance to win the
        round: 1 or 0 for a rollout that finishes it, else
        :func:`~cardtable.bots.skipbo_value.win_chance` at the horizon, in which a
        card's lead counts for more as the stocks run down.
        """
        race, secondary = skipbo_progress(start, end, seat)
        assert isinstance(start, SkipBoState) and isinstance(end, SkipBoState)
        if self.win and end.n == 2:
            if len(end.round_log) > len(start.round_log):
                return secondary, secondary
            return win_chance(end, seat), secondary
        if self.value and end.n == 2 and len(end.round_log) == len(start.round_log):
            worth = stock_cards_to_come(end, seat) - stock_cards_to_come(end, 1 - seat)
            race += self.value * worth
        return race, secondary

    def rivals(self, state: SkipBoState, baseline: int) -> list[int]:
        """The legal moves other than ``baseline`` that ``hard`` values close to its best.

        A discard's rivals are the other discards; a play's are the other first plays,
        each valued by the best line of the turn it starts. With ``smargin`` set,
        stopping (``hard``'s discard, or ending the turn with an empty hand) is a
        rival of a play too when ``hard`` values it within ``smargin`` of its best
        line; by default it is not (``hard`` plays on when a line beats stopping).
        """
        legal = state.legal_actions()
        seat = state.current
        if baseline >= DISCARD_BASE:
            ranked = skipbo_hard.discard_options(state, seat, legal)
            close = [a for score, a in ranked if score >= ranked[0][0] - self.dmargin]
        else:
            planner = _ScoringPlanner(state, seat)
            planner.search()
            best = max(planner.by_first.values())
            close = []
            for first, score in planner.by_first.items():
                if first is None or score < best - self.margin:
                    continue
                action = skipbo_hard.plan_step_action(state, first)
                if action in legal:
                    close.append(action)
            stop = planner.by_first.get(None)
            if self.smargin is not None and stop is not None and stop >= best - self.smargin:
                if END_TURN in legal:
                    close.append(END_TURN)
                else:
                    close.append(skipbo_hard.HardBot.discard(state, seat, legal))
        return [a for a in dict.fromkeys(close) if a != baseline]

    def compare(
        self, state: SkipBoState, baseline: int, rng: Rng, rivals: list[int] | None = None
    ) -> list[Comparison]:
        """Each rival's paired gain over ``baseline`` (in stock cards), largest first.

        ``rivals`` defaults to :meth:`rivals`.
        """
        if rivals is None:
            rivals = self.rivals(state, baseline)
        # Close moves on one re-deal meet the same positions often: one memo for the search.
        memo: dict[tuple[object, ...], skipbo_hard.Decision] = {}
        policies = [skipbo_hard.PlanFollowingBot(memo) for _ in range(state.n)]
        return compare(
            state,
            state.current,
            baseline,
            rivals,
            policies,
            self._outcome,
            self._over,
            self.budget,
            rng,
            SKIPBO_SEAT_DRAWS if self.seat_draws else None,
        )

    def choose(self, state: GameState[Any], rng: Rng) -> int:
        if not isinstance(state, SkipBoState):
            raise TypeError("the Skip-Bo expert plays Skip-Bo states only")
        first = self.hard.choose(state, rng)
        if STOCK_BASE <= first < DISCARD_PLAY_BASE or len(state.legal_actions()) == 1:
            return first
        rivals = self.rivals(state, first)
        if not rivals:
            return first
        return improve(first, self.compare(state, first, rng.spawn(), rivals), self.z)
