"""Each game's part of the precise judge (:mod:`cardtable.sim.judge`): the first screen
by ``hard``'s values and the compiled rollouts of the candidates.

Both functions take a re-deal of the position for ``seat`` (never the real cards) and
return the candidates (the played move first) and a function playing them out on the
re-deals of a list of seeds.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..bots import skipbo_value
from ..bots.advisor import same_move
from ..bots.skipbo_hard import HARD_WEIGHTS
from ..bots.skipbo_hard_values import move_values
from ..bots.skyjo_hard import HardBot
from ..core import GameState
from ..skipbo.moves import DISCARD_PLAY_BASE, STOCK_BASE
from ..skipbo.state import SkipBoState
from ..skyjo.state import SkyjoState

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


@dataclass(frozen=True, slots=True)
class JudgeBudget:
    """How many re-deals a verdict may take (counts, not times: the same everywhere)."""

    first: int = 64
    """Re-deals of the first block."""
    step: int = 64
    """Re-deals added while the verdict is not settled."""
    most: int = 384
    """The most re-deals of one verdict."""
    candidates: int = 3
    """``hard``'s best moves played out besides the played move."""
    z: float = 2.0
    """Standard errors between the loss and the threshold that settle a verdict."""
    horizon: int = 3
    """Skip-Bo: turns a seat played out after the move before the fitted chance to win."""
    review: bool = False
    """Also settle whether a loss below the threshold is clear (above two standard
    errors) or none (the played move as good as the best): the review names small
    losses too, the coach only those it speaks of."""


Rollouts = Callable[
    [list[int], list[int]], tuple["NDArray[np.float64]", "NDArray[np.float64] | None"]
]
"""``rollouts(seeds, candidates)``: each candidate's outcome on the re-deal of each seed,
and the controls (:mod:`.judge_stats`), each ``(len(seeds), len(candidates))``."""


def distinct_candidates(
    state: GameState[Any], action: int, ranked: Sequence[int], count: int
) -> list[int]:
    """The played ``action`` first, then up to ``count`` moves of ``ranked`` (best
    first), none the same move as one before it (:func:`~cardtable.bots.advisor.same_move`)."""
    chosen = [action]
    for other in ranked:
        if len(chosen) > count:
            break
        if not any(same_move(state, other, kept) for kept in chosen):
            chosen.append(other)
    return chosen


@functools.cache
def _skyjo_params() -> Any:
    from ..fast.skyjo_hard import hard_params

    return hard_params(HardBot())


@functools.cache
def _skipbo_params() -> tuple[Any, Any]:
    from ..fast.skipbo_hard import hard_params
    from ..fast.skipbo_judge import win_weights

    weights = win_weights(skipbo_value.MOVER, skipbo_value.OTHER, skipbo_value.WIN)
    return hard_params(HARD_WEIGHTS), weights


def skyjo_setup(
    world: SkyjoState, seat: int, action: int, budget: JudgeBudget
) -> tuple[list[int], Rollouts, list[float]]:
    """The played move and ``hard``'s best others (its compiled values of each move),
    their rollouts to the end of the round (the seat's round points, with the hidden
    card each brings to light as its control) and the controls' exact means."""
    import numpy as np

    from ..fast import skyjo_judge

    params = _skyjo_params()
    batch = skyjo_judge.judge_batch(world)
    values = skyjo_judge.hard_values(batch, skyjo_judge.SOURCE, params)
    legal = world.legal_actions()
    ranked = sorted(legal, key=lambda code: (float(values[code]), code))
    candidates = distinct_candidates(world, action, ranked, budget.candidates)

    def rollouts(seeds: list[int], moves: list[int]) -> tuple[Any, Any]:
        array = np.array(seeds, dtype=np.uint64)
        return skyjo_judge.run_rollouts(batch, seat, moves, array, params)

    return candidates, rollouts, skyjo_judge.control_means(world, candidates)


def skipbo_setup(
    world: SkipBoState, seat: int, action: int, budget: JudgeBudget
) -> tuple[list[int], Rollouts, list[float]]:
    """The played move and ``hard``'s best others (its value of each move,
    :func:`~cardtable.bots.skipbo_hard_values.move_values`), and their rollouts of
    ``budget.horizon`` turns a seat (the side's chance to win the round)."""
    import numpy as np

    from ..fast import skipbo_judge
    from ..fast.skipbo_hard import HardWork

    params, weights = _skipbo_params()
    values = move_values(world)
    legal = world.legal_actions()
    # Without hard's values (a frozen table, a partner's stock top) plays of a stock
    # come first, then the moves in code order.
    ranked = sorted(
        legal,
        key=lambda code: (
            -values.get(code, -math.inf),
            not STOCK_BASE <= code < DISCARD_PLAY_BASE,
            code,
        ),
    )
    candidates = distinct_candidates(world, action, ranked, budget.candidates)
    batch = skipbo_judge.judge_batch(world)
    work = HardWork(world.rules)

    def rollouts(seeds: list[int], moves: list[int]) -> tuple[Any, None]:
        array = np.array(seeds, dtype=np.uint64)
        out = skipbo_judge.run_rollouts(
            batch, seat, moves, array, params, weights, budget.horizon, work
        )
        return out, None

    return candidates, rollouts, [math.nan] * len(candidates)
