"""The Skip-Bo vector env on the batch engine returns what the reference vector env
returns: the same observations (the layout of cardtable.encoders.skipbo_obs), masks, rewards,
flags and infos, step by step."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode

from cardtable.core import IllegalMoveError
from cardtable.rl.fast_vector import SkipBoFastVectorEnv
from cardtable.rl.gym_env import make_vector_env
from cardtable.rl.vector import CardtableVectorEnv
from tests.rl.test_vector import step_side_by_side

CASES = [
    {"rules": {"players": 2, "stock_size": 5}, "max_steps": 40, "opponents": "random"},
    {
        "rules": {"players": 3, "stock_size": 5, "rounds": True, "target": 60},
        "seat": None,
        "reward": "score",
        "opponents": "greedy",
    },
    {
        "rules": {"players": 4, "teams": True, "discard_to_partner": True, "stock_size": 5},
        "reward_at": "round",
        "opponents": ["greedy", "random", "greedy"],
        "seat": 1,
    },
    {
        "rules": {"players": 2, "stock_size": 5, "rounds": True, "target": 50, "idle_limit": 2},
        "reward": "score",
        "reward_at": "round",
        "opponents": "greedy",
    },
]
MODES = [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED]


@pytest.mark.parametrize("mode", MODES, ids=lambda mode: mode.value)
@pytest.mark.parametrize("kwargs", CASES)
def test_fast_vector_env_matches_the_reference_vector_env(kwargs, mode) -> None:
    """Same seeds, same actions (some illegal): every observation, mask, reward, flag
    and info equal at every step, through episode ends, truncations and resets."""
    num_envs = 4
    kwargs = {**kwargs, "illegal_penalty": -0.25}
    fast = make_vector_env("skipbo", num_envs, engine="fast", autoreset_mode=mode, **kwargs)
    reference = make_vector_env("skipbo", num_envs, autoreset_mode=mode, **kwargs)
    assert isinstance(fast, SkipBoFastVectorEnv) and isinstance(reference, CardtableVectorEnv)
    assert fast.observation_space == reference.observation_space
    assert fast.action_space == reference.action_space
    seen = step_side_by_side(fast, reference, mode, seed=21, rng_seed=7, steps=500, stride=23)
    assert seen["illegal"] > 0
    if "max_steps" in kwargs:  # episodes of 40 steps: cut before the game ends
        assert seen["truncated"] > 0
    else:
        assert seen["terminated"] > 0


def test_fast_vector_env_same_seed_same_batches_and_bad_calls() -> None:
    def run(seed: int) -> list[float]:
        envs = SkipBoFastVectorEnv(3, {"players": 3, "stock_size": 5}, seat=None)
        obs, infos = envs.reset(seed=seed)
        sums = [float(obs.sum())]
        for _ in range(200):
            actions = [int(np.flatnonzero(m)[-1]) if m.any() else 0 for m in infos["action_mask"]]
            obs, rewards, _, _, infos = envs.step(actions)
            sums += [float(obs.sum()), float(rewards.sum())]
        return sums

    assert run(3) == run(3)
    assert run(3) != run(4)
    with pytest.raises(ValueError, match="random, greedy, not hard"):
        SkipBoFastVectorEnv(2, opponents="hard")
    with pytest.raises(ValueError, match=r"seat must be None or 0\.\.1"):
        SkipBoFastVectorEnv(2, seat=2)
    envs = SkipBoFastVectorEnv(2, {"players": 2}, illegal="raise")
    with pytest.raises(RuntimeError, match="reset"):
        envs.step([0, 0])
    _, infos = envs.reset(seed=0)
    before = [array.copy() for array in envs.batch.st]
    with pytest.raises(IllegalMoveError, match="env 1: action 196 is not legal"):
        envs.step([int(np.flatnonzero(infos["action_mask"][0])[0]), 196])
    for old, new in zip(before, envs.batch.st, strict=True):
        np.testing.assert_array_equal(old, new)  # no env moved
