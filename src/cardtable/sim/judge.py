"""The precise judge of one decision: what the played move cost against the best ones.

Shared by the practice coach (online rooms and the terminal's local games) and the
post-game review (:func:`review_game`). For the seat that made a move in ``state``:

1. one re-deal of what the seat could not see (``state.determinize(seat, rng)``);
   nothing below ever sees the real hidden cards, only this re-deal and re-deals of it;
2. a first screen by ``hard``'s value of each move (exact for the position as the seat
   sees it: :func:`cardtable.fast.skyjo_hard.hard_values`,
   :func:`cardtable.bots.skipbo_hard_values.move_values`): the played move and
   ``hard``'s :attr:`JudgeBudget.candidates` best others are kept;
3. those moves are played out by the compiled batch engines (:mod:`cardtable.fast`)
   on the same re-deals of the hidden cards with the same random stream (common random
   numbers), ``hard`` playing every seat after them: to the end of the Skyjo round
   (the seat's round points, doubling included), or a few turns of Skip-Bo and then
   the side's fitted chance to win the round (:mod:`cardtable.fast.skipbo_judge`);
4. re-deals come in blocks until the verdict is settled: the loss of the played move
   against the best candidate stands :attr:`JudgeBudget.z` standard errors (of the
   paired differences) clear of the coach's threshold, on either side, or the most
   re-deals are spent.

The cost is that mean loss when it is clear (above two standard errors), else 0; the
coach speaks when it reaches the threshold of :data:`cardtable.bots.coaching.CLEARLY_WORSE`
(2 Skyjo points, 5 points of Skip-Bo win chance). Everything is a pure function of the
position as the seat saw it, the move and the seed. Without the compiled engines (the
extra ``fast`` not installed) the judge falls back to the advisor's verdict
(:func:`cardtable.bots.review.review_position` with the coach's counts).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..bots.advisor import distinct_moves, reason_for, render_reason
from ..bots.coaching import CLEARLY_WORSE, COACH_CONFIRM, COACH_ITERATIONS
from ..bots.review import CLEAR, MEASURES, Review, ReviewedMove, has_choice, review_position
from ..bots.review import review_game as advisor_review_game
from ..core import Game, GameState, Rng, RulesBase
from ..skipbo.state import SkipBoState
from ..skyjo.state import SkyjoState
from .judge_games import JudgeBudget, Rollouts

if TYPE_CHECKING:
    from .judge_stats import Samples


__all__ = [
    "BUDGETS",
    "REVIEW_BUDGETS",
    "JudgeBudget",
    "Rollouts",
    "coach_judge",
    "fast_available",
    "judge_position",
    "review_game",
]

#: The judge's budget by game: a Skyjo rollout plays the round to its end (about 0.3 ms
#: early in a 4-player round), a Skip-Bo one three turns a seat.
BUDGETS = {
    "skyjo": JudgeBudget(first=32, step=32, most=160, candidates=2),
    "skipbo": JudgeBudget(first=32, step=32, most=192),
}
#: The review's: the same, settling small losses too, with more re-deals at most (a
#: review runs in a worker of its own, a few seconds for a game).
REVIEW_BUDGETS = {
    game: dataclasses.replace(budget, most=max(budget.most, 320), review=True)
    for game, budget in BUDGETS.items()
}


def fast_available() -> bool:
    """Whether the compiled engines (numba) can be imported."""
    try:
        import numba  # noqa: F401
    except ModuleNotFoundError:
        return False
    return True


def judge_position(
    state: GameState[Any],
    seat: int,
    action: int,
    seed: int,
    budget: JudgeBudget | None = None,
) -> ReviewedMove | None:
    """The verdict on ``seat`` playing ``action`` in ``state`` (not changed); None
    without a real choice. ``state`` may be the real position: it is re-dealt for the
    seat first. Blocking (tens of milliseconds): call it off an event loop."""
    if not state.is_legal_action(action):
        raise ValueError(f"action {action} is not legal for seat {seat} here")
    if not has_choice(state, seat):
        return None
    if not fast_available():
        world = state.determinize(seat, Rng(seed))
        return review_position(world, seat, action, COACH_ITERATIONS, seed, COACH_CONFIRM)
    from .judge_stats import Samples

    rng = Rng(seed)
    world = state.determinize(seat, rng.spawn())
    game = state.game.name
    budget = budget or BUDGETS.get(game, JudgeBudget())
    if isinstance(world, SkyjoState):
        from .judge_games import skyjo_setup

        candidates, rollouts, means = skyjo_setup(world, seat, action, budget)
    elif isinstance(world, SkipBoState):
        from .judge_games import skipbo_setup

        candidates, rollouts, means = skipbo_setup(world, seat, action, budget)
    else:
        raise TypeError(f"no judge for {type(state).__name__}")
    measure = MEASURES[game]
    samples = Samples(measure == "win_chance", means)
    kept = _sample(rollouts, samples, rng, budget, CLEARLY_WORSE[measure], candidates)
    return _verdict(state, world, seat, kept, samples)


def coach_judge(
    before: GameState[Any], seat: int, action: int, seed: int
) -> tuple[str, ReviewedMove | None]:
    """:func:`cardtable.bots.coaching.judge` by the precise judge: the measure and the
    verdict on ``seat`` playing ``action`` in ``before`` (the same call, for the
    tables that coach)."""
    return MEASURES.get(before.game.name, "value"), judge_position(before, seat, action, seed)


def _sample(
    rollouts: Rollouts,
    samples: Samples,
    rng: Rng,
    budget: JudgeBudget,
    threshold: float,
    candidates: list[int],
) -> list[int]:
    """Blocks of re-deals until the loss against the best candidate is settled; the
    candidates still compared at the end (the played move first). After the first
    block only the played move and the best candidate are played out."""
    size = budget.first
    while True:
        values, controls = rollouts([rng.next64() for _ in range(size)], candidates)
        samples.add(values, controls)
        if len(candidates) == 1 or samples.count >= budget.most:
            return candidates
        best = samples.best_other()
        loss, error = samples.loss(best)
        settled = abs(loss - threshold) >= budget.z * error
        if budget.review:
            settled = settled and (loss > CLEAR * error or loss + budget.z * error <= 0.0)
        if settled:
            return candidates
        if len(candidates) > 2:
            columns = [0, best]
            samples.keep(columns)
            candidates = [candidates[c] for c in columns]
        size = min(budget.step, budget.most - samples.count)


def _verdict(
    state: GameState[Any],
    world: GameState[Any],
    seat: int,
    candidates: Sequence[int],
    samples: Samples,
) -> ReviewedMove:
    best = samples.best()
    cost = 0.0
    if best != 0:
        loss, error = samples.loss(best)
        if loss > 0.0 and loss > CLEAR * error:
            cost = loss
    if cost == 0.0:
        best = 0
    means = samples.column_means()
    played_value, best_value = means[0], means[best]
    action, best_action = candidates[0], candidates[best]
    played_parts = reason_for(world, seat, action)
    best_parts = reason_for(world, seat, best_action)
    decode = state.game.decode
    return ReviewedMove(
        number=len(state.history) + 1,
        round=len(state.rounds()) + 1,
        action=action,
        played=str(decode(action)),
        played_value=played_value,
        played_reason=render_reason(played_parts),
        best_action=best_action,
        best=str(decode(best_action)),
        best_value=best_value,
        reason=render_reason(best_parts),
        cost=cost,
        choices=distinct_moves(state),
        samples=samples.count,
        played_reason_parts=played_parts,
        reason_parts=best_parts,
    )


def review_game(
    game: Game[Any],
    rules: RulesBase,
    seed: int,
    actions: Sequence[int],
    seat: int,
    *,
    max_decisions: int | None = None,
    rng: Rng | None = None,
    progress: Callable[[int, int], None] | None = None,
    budget: JudgeBudget | None = None,
) -> Review:
    """The post-game review of ``seat`` (:func:`cardtable.bots.review.review_game`) with
    every decision judged by :func:`judge_position`."""

    def judge(
        state: GameState[Any], who: int, action: int, decision_seed: int
    ) -> ReviewedMove | None:
        return judge_position(state, who, action, decision_seed, chosen)

    chosen = budget or REVIEW_BUDGETS.get(game.name, JudgeBudget(review=True))
    return advisor_review_game(
        game,
        rules,
        seed,
        actions,
        seat,
        iterations=chosen.first,
        confirm=chosen.most,
        max_decisions=max_decisions,
        rng=rng,
        progress=progress,
        judge=judge,
    )
