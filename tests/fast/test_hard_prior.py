"""``hard``'s values of the moves, compiled (``hard_values``) and as the vector env's
prior (``hard_priors``, the trainer's ``--prior hard``): equal to the Python bot's
``ranked`` values at every learner decision of games stepped beside the reference env.

In the ``crosscheck`` tier (``make crosscheck``): the kernels compile ``hard`` once more,
45 s of CPU, for a prior only the trainer's ``--prior hard`` runs use."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("numba")

import numpy as np

from cardtable.bots.skyjo_hard import HardBot, move_values
from cardtable.fast import skyjo_hard as fast_hard
from cardtable.rl.gym_env import make_vector_env
from cardtable.skyjo.moves import NUM_ACTIONS
from cardtable.skyjo.state import SETUP

pytestmark = pytest.mark.crosscheck


@pytest.mark.parametrize(
    ("rules", "opponents"),
    [({"players": 4}, "greedy"), ({"players": 3, "rows_rule": True}, "hard")],
)
def test_the_compiled_values_are_the_python_bots(rules: dict[str, Any], opponents: str) -> None:
    options: dict[str, Any] = {"rules": rules, "opponents": opponents, "seat": None}
    fast = make_vector_env("skyjo", 6, engine="fast", autoreset_mode="SameStep", **options)
    reference = make_vector_env("skyjo", 6, autoreset_mode="SameStep", **options)
    _, infos = fast.reset(seed=5)
    reference.reset(seed=5)
    params, work = fast_hard.hard_params(HardBot()), fast_hard.work_array()
    values = np.zeros(NUM_ACTIONS)
    rng = np.random.default_rng(8)
    compared = turns = 0
    for _ in range(120):
        masks = infos["action_mask"]
        before = [array.copy() for array in fast.batch.st]
        priors = fast.hard_priors()
        assert all(np.array_equal(a, b) for a, b in zip(before, fast.batch.st, strict=True))
        for index, env in enumerate(reference.envs):
            state = env.game_state
            expected = move_values(state)
            valued = fast_hard.hard_values(
                fast.batch.st, fast.batch.cfg, index, params, work, values
            )
            assert valued == bool(expected)
            assert set(np.flatnonzero(values != np.inf).tolist()) == set(expected)
            for code, value in expected.items():
                assert abs(values[code] - value) <= 1e-9, (code, values[code], value)
            prior = np.zeros(NUM_ACTIONS, dtype=np.float32)
            if expected:
                low = min(expected.values())
                for code, value in expected.items():
                    prior[code] = -(value - low)
                compared += 1
                turns += state.phase != SETUP and masks[index, 0] == 1
            assert np.array_equal(priors[index], prior), index
            assert priors[index].max() == 0.0 and (priors[index][masks[index] == 0] == 0).all()
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        _, _, _, _, infos = fast.step(actions)
        reference.step(actions)
    assert compared > 300 and turns > 100
