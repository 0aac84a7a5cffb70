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
from cardtable.rl.gym_env import make_vector_env
from cardtable.skipbo.moves import NUM_ACTIONS

pytestmark = pytest.mark.crosscheck


@pytest.mark.parametrize(
    ("rules", "opponents"),
    [({"players": 2, "stock_size": 30}, "hard"), ({"players": 3, "stock_size": 10}, "greedy")],
)
def test_the_compiled_prior_is_the_python_one(rules: dict[str, Any], opponents: str) -> None:
    options: dict[str, Any] = {"rules": rules, "opponents": opponents, "seat": None}
    fast = make_vector_env("skipbo", 6, engine="fast", autoreset_mode="SameStep", **options)
    reference = make_vector_env("skipbo", 6, autoreset_mode="SameStep", **options)
    _, infos = fast.reset(seed=5)
    reference.reset(seed=5)
    hard = HardBot()
    rng = np.random.default_rng(8)
    valued = floors = 0
    for _ in range(150):
        masks = infos["action_mask"]
        before = [array.copy() for array in fast.batch.st]
        priors = fast.hard_priors()
        assert all(np.array_equal(a, b) for a, b in zip(before, fast.batch.st, strict=True))
        for index, env in enumerate(reference.envs):
            state = env.game_state
            expected = prior_row(state, NUM_ACTIONS) if masks[index].any() else np.zeros(1)
            if not masks[index].any():
                assert not priors[index].any()
                continue
            assert np.array_equal(priors[index], expected), (index, state.to_json())
            assert (priors[index][masks[index] == 0] == 0).all()
            if move_values(state):
                valued += 1
                floors += int((priors[index] == -FLOOR).sum())
                choice = hard.choose(state.clone(), Rng(0))
                assert priors[index][choice] == 0.0 == priors[index].max()
        # A random legal move half the time, hard's move otherwise: varied positions,
        # and games long enough to reach full building piles and emptied hands.
        teacher = fast.teacher_actions()
        noise = (rng.random(masks.shape) * masks).argmax(axis=1)
        actions = np.where((rng.random(6) < 0.5) & (teacher >= 0), teacher, noise)
        _, _, _, _, infos = fast.step(actions)
        reference.step(actions)
    assert valued > 400 and floors > 0
