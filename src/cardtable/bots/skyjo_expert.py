"""The Skyjo ``expert``: ``hard``'s move unless paired Monte-Carlo shows a clearly better one.

The expert's ``hard`` values moves with its own weights (:data:`EXPERT_WEIGHTS`),
tuned in four-player games against three ``hard``.

See :mod:`cardtable.bots.expert` for the method both experts share. Also defines the
rollout stop and score the advisor uses for Skyjo (``skyjo_round_over``,
``skyjo_outcome``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..core import GameState, Rng
from ..skyjo.cards import SLOTS
from ..skyjo.moves import DISCARD_AND_REVEAL, EXCHANGE
from ..skyjo.state import DRAWN, OVER, SETUP, TAKEN, TURN, SkyjoState
from . import skyjo_hard
from .base import Bot
from .montecarlo import Budget, Comparison, Outcome, compare, improve
from .seat_draws import SKYJO_SEAT_DRAWS
from .skyjo_greedy import GreedyBot
from .skyjo_value import round_points_to_come

#: ``hard``'s weights as the expert plays them. ``hard``'s own were chosen against
#: ``greedy``; these, in four-player games against three ``hard`` (docs/bots.md,
#: "Skyjo `expert`, 2026-12-02: `hard`'s evaluation tuned against `hard`"): a pair
#: of equal cards is worth more (weight 1.2 instead of 0.8, hoped for over 4 draws
#: instead of 3) and the discard is taken only when it beats drawing by half a point.
EXPERT_WEIGHTS: Mapping[str, float] = {"pair_weight": 1.2, "pair_draws": 4.0, "take_margin": 0.5}


# --- Skyjo --------------------------------------------------------------------
def skyjo_candidates(
    state: SkyjoState,
    width: int = 4,
    both_sides: bool = False,
    bot: skyjo_hard.HardBot | None = None,
) -> list[int]:
    """``bot``'s (default: ``hard``'s) best ``width`` options; with ``both_sides``,
    also its best move that ends the round and its best that does not, when those
    are further down its list.

    Whether to go out is the decision the game's score decides most often, and
    ``hard`` prices it by the round alone: a search for the game compares both sides.
    """
    ranked = [action for _, action in (bot or skyjo_hard.HardBot()).ranked(state)]
    chosen = ranked[:width]
    if not both_sides:
        return chosen
    closing = [action for action in ranked if _closes(state, action)]
    staying = [action for action in ranked if not _closes(state, action)]
    for extra in (closing[:1], staying[:1]):
        chosen.extend(action for action in extra if action not in chosen)
    return chosen


def _closes(state: SkyjoState, action: int) -> bool:
    """Whether ``action`` turns up the seat's last face-down card while nobody has closed."""
    if state.closer is not None or state.phase not in (DRAWN, TAKEN):
        return False
    seat = state.player
    down = state.down[seat] & state.present[seat]
    if down.bit_count() != 1:
        return False
    if EXCHANGE <= action < EXCHANGE + SLOTS:
        return bool(down >> (action - EXCHANGE) & 1)
    return DISCARD_AND_REVEAL <= action < DISCARD_AND_REVEAL + SLOTS


def skyjo_round_over(start: GameState[Any], state: GameState[Any]) -> bool:
    """Where a Skyjo rollout from ``start`` stops: the round it was in is over (or the
    game). The advisor's rollout stop too."""
    assert isinstance(start, SkyjoState) and isinstance(state, SkyjoState)
    return state.phase == OVER or len(state.finished) > len(start.finished)


def skyjo_outcome(start: GameState[Any], end: GameState[Any], seat: int) -> tuple[float, float]:
    """The score of a rollout from ``start`` to ``end`` for ``seat``, as (value, points):
    minus the seat's round points above the others' average once the round is over
    (before that, minus its face-up sum). The advisor ranks Skyjo moves by it."""
    assert isinstance(start, SkyjoState) and isinstance(end, SkyjoState)
    if len(end.finished) == len(start.finished):
        own = float(end.face_up_sum(seat))
        return -own, own
    points = end.finished[len(start.finished)].points
    others = [p for s, p in enumerate(points) if s != seat]
    return -(points[seat] - sum(others) / len(others)), float(points[seat])


#: Mean and spread of one player's round points among ``hard`` players (4 seats,
#: 1,236 rounds of 60 games: 16.4 and 10.0).
ROUND_MEAN = 16.4
ROUND_SPREAD = 10.0


def game_win_chance(totals: Sequence[int], seat: int, end_score: int) -> float:
    """The chance that ``seat`` wins the game from these totals, between rounds.

    A finished game (a total at ``end_score``) is won by the lowest totals. Otherwise
    each seat's future points are a sum of independent rounds until the highest total
    reaches ``end_score``; a seat's chance is the product of its chances to stay below
    each other seat, normalised over the seats.
    """
    if max(totals) >= end_score:
        return 1.0 if totals[seat] == min(totals) else 0.0
    rounds = max(1.0, (end_score - max(totals)) / ROUND_MEAN + 0.5)
    spread = ROUND_SPREAD * math.sqrt(2.0 * rounds)
    weights = []
    for me, mine in enumerate(totals):
        weight = 1.0
        for other, theirs in enumerate(totals):
            if other != me:
                weight *= 0.5 * math.erfc((mine - theirs) / spread / math.sqrt(2.0))
        weights.append(weight)
    return weights[seat] / sum(weights)


def _skyjo_game_outcome(
    start: GameState[Any], end: GameState[Any], seat: int
) -> tuple[float, float]:
    """(chance to win the game after this round, own round points)."""
    assert isinstance(start, SkyjoState) and isinstance(end, SkyjoState)
    if len(end.finished) == len(start.finished):
        # Unfinished (the rollout's move limit): score the round as it stands.
        totals = [t + end.face_up_sum(s) for s, t in enumerate(end.totals)]
        return game_win_chance(totals, seat, end.rules.end_score), float(end.face_up_sum(seat))
    points = end.finished[len(start.finished)].points
    return game_win_chance(end.totals, seat, end.rules.end_score), float(points[seat])


def _skyjo_turn_over(start: GameState[Any], state: GameState[Any]) -> bool:
    """The round is over, or the seat that moved at ``start`` is to begin a new turn."""
    assert isinstance(start, SkyjoState) and isinstance(state, SkyjoState)
    if skyjo_round_over(start, state):
        return True
    return state.phase == TURN and state.player == start.player and state.turns > start.turns


def _skyjo_short_outcome(
    start: GameState[Any], end: GameState[Any], seat: int
) -> tuple[float, float]:
    """A short rollout's score: the fitted round points to come, own against the others'.

    A rollout that ended the round is scored by its points, as in ``skyjo_outcome``.
    """
    assert isinstance(start, SkyjoState) and isinstance(end, SkyjoState)
    if len(end.finished) > len(start.finished):
        return skyjo_outcome(start, end, seat)
    values = [round_points_to_come(end, s) for s in range(end.n)]
    others = [v for s, v in enumerate(values) if s != seat]
    return -(values[seat] - sum(others) / len(others)), values[seat]


class SkyjoExpert:
    """``hard``'s move unless Monte-Carlo over re-deals shows a clearly better one.

    Its ``hard`` values moves with ``weights`` (keyword arguments of
    :class:`~cardtable.bots.skyjo_hard.HardBot`; default :data:`EXPERT_WEIGHTS`,
    ``{}`` gives ``hard``'s own). ``hard``'s best ``width`` options are compared
    with its choice on the same re-deals (16 by default) of the face-down cards and
    the draw pile, each played out to the end of the round (rollouts by ``greedy``
    by default, see the module docstring),
    scored by the seat's round points against the others' average. An option
    replaces ``hard``'s choice only when its paired gain is more than ``z``
    standard errors above zero.

    ``objective="game"`` scores a rollout by the seat's chance to win the game from
    the totals after the round (:func:`game_win_chance`) and also compares
    ``hard``'s best moves that do and do not end the round; ``late`` searches only
    once the highest total is within ``late`` points of the end score (``hard``'s
    move before). Neither beat the default in the measurements of docs/bots.md.
    ``seat_draws`` gives each seat its own part of the re-dealt draw pile in the
    rollouts (:mod:`.seat_draws`), so that drawing and taking the discard stay paired.
    ``short`` stops each rollout when the seat's next turn begins and scores it by
    the fitted round points each player can expect then
    (:func:`~cardtable.bots.skyjo_value.round_points_to_come`), own against the
    others' average (the round objective only).
    """

    name = "expert"

    def __init__(
        self,
        budget: Budget | None = None,
        rollout: str = "greedy",
        width: int = 4,
        z: float = 2.5,
        objective: str = "round",
        late: float | None = None,
        seat_draws: bool = False,
        short: bool = False,
        weights: Mapping[str, float] | None = None,
    ) -> None:
        if objective not in ("round", "game"):
            raise ValueError(f"objective must be 'round' or 'game', not {objective!r}")
        if short and objective != "round":
            raise ValueError("short rollouts score the round: objective must be 'round'")
        self.budget = budget or Budget(iterations=16, milliseconds=None)
        self.rollout = rollout
        self.width = width
        self.z = z
        self.objective = objective
        self.late = late
        self.seat_draws = seat_draws
        self.short = short
        self.hard = skyjo_hard.HardBot(**(EXPERT_WEIGHTS if weights is None else weights))

    def _policy(self) -> Bot:
        return skyjo_hard.HardBot() if self.rollout == "hard" else GreedyBot()

    def _outcome(self) -> Outcome:
        if self.short:
            return _skyjo_short_outcome
        return _skyjo_game_outcome if self.objective == "game" else skyjo_outcome

    def compare(self, state: SkyjoState, baseline: int, rng: Rng) -> list[Comparison]:
        """Every option's paired gain over ``baseline`` (in round points), largest first."""
        candidates = skyjo_candidates(
            state, self.width, both_sides=self.objective == "game", bot=self.hard
        )
        policies = [self._policy() for _ in range(state.n)]
        return compare(
            state,
            state.player,
            baseline,
            candidates,
            policies,
            self._outcome(),
            _skyjo_turn_over if self.short else skyjo_round_over,
            self.budget,
            rng,
            SKYJO_SEAT_DRAWS if self.seat_draws else None,
        )

    def choose(self, state: GameState[Any], rng: Rng) -> int:
        if not isinstance(state, SkyjoState):
            raise TypeError("the Skyjo expert plays Skyjo states only")
        legal = state.legal_actions()
        first = self.hard.choose(state, rng)
        if state.phase == SETUP or len(legal) == 1:
            return first
        if self.late is not None and max(state.totals) < state.rules.end_score - self.late:
            return first
        return improve(first, self.compare(state, first, rng.spawn()), self.z)
