"""Skip-Bo's ``hard`` prior (the trainer's ``--prior hard``): the compiled
``hard_priors`` rows equal :func:`cardtable.bots.skipbo_hard_values.prior_row` at every
decision of games stepped beside the reference env, and ``hard``'s own move is always
among the moves it values best.

In the ``crosscheck`` tier (``make crosscheck``): the prior compiles ``hard``'s planner
once more, for a prior only ``--prior hard`` runs use."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("numba")

import numpy as np

from cardtable.bots.skipbo_hard import HardBot
from cardtable.bots.skipbo_hard_values import FLOOR, move_values, prior_row
from cardtable.core import Rng
from cardtable.skipbo.moves import NUM_ACTIONS

from .beside import prior_rows_beside

pytestmark = pytest.mark.crosscheck


@pytest.mark.parametrize(
    ("rules", "opponents"),
    [
        ({"players": 2, "stock_size": 30}, "hard"),
        ({"players": 3, "stock_size": 10}, "greedy"),
        # Team play: plays from a partner's piles and discards onto them have no value.
        ({"players": 4, "teams": True, "stock_size": 10}, "greedy"),
    ],
)
def test_the_compiled_prior_is_the_python_one(rules: dict[str, Any], opponents: str) -> None:
    options: dict[str, Any] = {"rules": rules, "opponents": opponents, "seat": None}
    hard = HardBot()
    rng = np.random.default_rng(8)
    valued = floors = 0

    def pick(fast: Any, masks: Any) -> Any:
        # A random legal move half the time, hard's move otherwise: varied positions,
        # and games long enough to reach full building piles and emptied hands.
        teacher = fast.teacher_actions()
        noise = (rng.random(masks.shape) * masks).argmax(axis=1)
        return np.where((rng.random(len(masks)) < 0.5) & (teacher >= 0), teacher, noise)

    for _fast, states, masks, priors in prior_rows_beside("skipbo", options, 150, pick):
        for index, state in enumerate(states):
            if not masks[index].any():
                assert not priors[index].any()
                continue
            expected = prior_row(state, NUM_ACTIONS)
            assert np.array_equal(priors[index], expected), (index, state.to_json())
            assert (priors[index][masks[index] == 0] == 0).all()
            if move_values(state):
                valued += 1
                floors += int((priors[index] == -FLOOR).sum())
                choice = hard.choose(state.clone(), Rng(0))
                assert priors[index][choice] == 0.0 == priors[index].max()
    assert valued > 400 and floors > 0
