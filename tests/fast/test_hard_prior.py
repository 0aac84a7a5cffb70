"""``hard``'s values of the moves, compiled (``hard_values``) and as the vector env's
prior (``hard_priors``, the trainer's ``--prior hard``): equal to the Python bot's
``ranked`` values at every learner decision of games stepped beside the reference env.

In the ``crosscheck`` tier (``make crosscheck``): the kernels compile ``hard`` once more,
45 s of CPU, for a prior only the trainer's ``--prior hard`` runs use."""

from __future__ import annotations

from pathlib import Path
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

from .beside import prior_rows_beside

pytestmark = pytest.mark.crosscheck


@pytest.mark.parametrize(
    ("rules", "opponents"),
    [({"players": 4}, "greedy"), ({"players": 3, "rows_rule": True}, "hard")],
)
def test_the_compiled_values_are_the_python_bots(rules: dict[str, Any], opponents: str) -> None:
    options: dict[str, Any] = {"rules": rules, "opponents": opponents, "seat": None}
    params, work = fast_hard.hard_params(HardBot()), fast_hard.work_array()
    values = np.zeros(NUM_ACTIONS)
    rng = np.random.default_rng(8)
    compared = turns = 0

    def pick(_fast: Any, masks: Any) -> Any:
        return (rng.random(masks.shape) * masks).argmax(axis=1)

    for fast, states, masks, priors in prior_rows_beside("skyjo", options, 120, pick):
        for index, state in enumerate(states):
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
    assert compared > 300 and turns > 100


def test_a_fresh_prior_run_plays_hards_moves(tmp_path: Path) -> None:
    """``--prior hard``: the untrained residual policy's best move is ``hard``'s (or a
    move ``hard`` values within a fraction of a point of it: the head's logits are about
    0.01 apart), so it starts at ``hard``'s strength against three ``greedy``."""
    from cardtable.rl.evaluate import evaluate
    from cardtable.rl.train import TrainConfig, Trainer

    config = TrainConfig(game="skyjo", prior="hard", envs=16)
    weights = Trainer(config, tmp_path / "run").weights()
    assert (weights.prior, weights.prior_scale) == ("hard", 4.0)
    env = make_vector_env("skyjo", 64, engine="fast", rules={"players": 4}, opponents="greedy")
    obs, infos = env.reset(seed=9)
    best = compared = 0
    for _ in range(40):
        masks, priors = infos["action_mask"], env.hard_priors()
        mine = np.array([weights.best_action(*row) for row in zip(obs, masks, priors, strict=True)])
        chosen = priors[np.arange(64), mine]
        valued = priors.min(axis=1) < 0  # hard told some moves apart
        assert (chosen[valued] > -0.1).all()
        best += int((chosen[valued] == 0).sum())
        compared += int(valued.sum())
        obs, _, _, _, infos = env.step(mine)
    assert compared > 1000 and best >= 0.95 * compared, (best, compared)
    result = evaluate(weights, "skyjo", {"players": 4}, "greedy", games=200, seed=3)
    assert result.win_rate >= 0.4  # hard wins 50.5%; a uniform policy, a few percent


def test_a_resumed_prior_run_continues_as_the_uninterrupted_run(tmp_path: Path) -> None:
    from cardtable.bots.learned_net import load_weights
    from cardtable.rl.train import TrainConfig, Trainer, parse_args

    settings: dict[str, Any] = {
        "players": 2, "opponents": "random", "eval_opponents": "random", "envs": 8,
        "horizon": 16, "hidden": [32, 32], "minibatch": 64, "learning_rate": 3e-3,
        "eval_games": 16, "prior": "hard", "checkpoint_every": 2, "eval_every": 2,
    }  # fmt: skip
    whole = Trainer(TrainConfig(game="skyjo", updates=4, **settings), tmp_path / "whole")
    whole_rows = whole.run(progress=False)
    Trainer(TrainConfig(game="skyjo", updates=2, **settings), tmp_path / "parts").run(
        progress=False
    )
    again, folder, _ = parse_args(["skyjo", str(tmp_path / "parts"), "--updates", "4"])
    assert again.prior == "hard"
    resumed_rows = Trainer(again, folder).run(progress=False)
    drop = ("seconds",)
    assert [{k: v for k, v in row.items() if k not in drop} for row in resumed_rows] == [
        {k: v for k, v in row.items() if k not in drop} for row in whole_rows[2:]
    ]
    a = load_weights(tmp_path / "whole" / "policy.npz")
    b = load_weights(tmp_path / "parts" / "policy.npz")
    assert a.prior == b.prior == "hard"
    assert a.prior_scale == b.prior_scale != 4.0  # alpha learns
    for (wa, ba), (wb, bb) in zip(a.layers, b.layers, strict=True):
        assert np.array_equal(wa, wb) and np.array_equal(ba, bb)
