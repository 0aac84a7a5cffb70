"""The vector env on the batch engine returns what the reference vector env returns."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode

from cardtable.core import IllegalMoveError
from cardtable.rl.fast_vector import SkyjoFastVectorEnv
from cardtable.rl.gym_env import make_vector_env
from cardtable.rl.vector import CardtableVectorEnv
from tests.rl.test_vector import step_side_by_side

CASES = [
    {"rules": {"players": 2}, "max_steps": 40},
    {"rules": {"players": 3, "end_score": 20}, "seat": None, "reward": "score"},
    {"rules": {"players": 4, "rows_rule": True}, "reward_at": "round", "opponents": "greedy"},
    {
        "rules": {"players": 5, "closer_starts_next": True, "turn_limit": 100},
        "seat": 2,
        "opponents": ["greedy", "random", "random", "greedy"],
    },
    {"rules": {"players": 3}, "seat": None, "opponents": ["random", "greedy"]},
    {"rules": {"players": 2, "closer_doubling": False}, "reward": "score", "reward_at": "round"},
    # The compiled hard bot (the learner's strongest opponent) plays as HardBot does.
    {"rules": {"players": 3}, "seat": None, "opponents": ["hard", "greedy"]},
    {"rules": {"players": 4}, "opponents": "hard", "reward": "score", "reward_at": "round"},
]
MODES = [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED]


@pytest.mark.parametrize("mode", MODES, ids=lambda mode: mode.value)
@pytest.mark.parametrize("kwargs", CASES)
def test_fast_vector_env_matches_the_reference_vector_env(kwargs, mode) -> None:
    """Same seeds, same actions (some illegal): every observation, mask, reward, flag
    and info equal at every step, through episode ends, truncations and resets."""
    num_envs = 4
    kwargs = {**kwargs, "illegal_penalty": -0.25}
    fast = make_vector_env("skyjo", num_envs, engine="fast", autoreset_mode=mode, **kwargs)
    reference = make_vector_env("skyjo", num_envs, autoreset_mode=mode, **kwargs)
    assert isinstance(fast, SkyjoFastVectorEnv) and isinstance(reference, CardtableVectorEnv)
    assert fast.observation_space == reference.observation_space
    assert fast.action_space == reference.action_space
    assert fast.metadata["autoreset_mode"] == mode
    seen = step_side_by_side(fast, reference, mode, seed=21, rng_seed=7, steps=600, stride=23)
    assert seen["illegal"] > 0 and seen["terminated"] > 0
    if "max_steps" in kwargs:
        assert seen["truncated"] > 0


def test_fast_vector_env_same_seed_same_batches_and_bad_calls() -> None:
    def run(seed: int) -> list[float]:
        envs = SkyjoFastVectorEnv(3, {"players": 3}, seat=None)
        obs, infos = envs.reset(seed=seed)
        sums = [float(obs.sum())]
        for _ in range(200):
            actions = [int(np.flatnonzero(m)[-1]) if m.any() else 0 for m in infos["action_mask"]]
            obs, rewards, _, _, infos = envs.step(actions)
            sums += [float(obs.sum()), float(rewards.sum())]
        return sums

    assert run(3) == run(3)
    assert run(3) != run(4)
    with pytest.raises(ValueError, match="random, greedy, hard, frozen, not expert"):
        SkyjoFastVectorEnv(2, opponents="expert")
    with pytest.raises(ValueError, match="reward must be one of win, score, got 'stock'"):
        SkyjoFastVectorEnv(2, reward="stock")
    with pytest.raises(ValueError, match="engine"):
        make_vector_env("skyjo", 2, engine="fast", sync=True)
    envs = SkyjoFastVectorEnv(2, {"players": 2}, illegal="raise")
    with pytest.raises(RuntimeError, match="reset"):
        envs.step([0, 0])
    _, infos = envs.reset(seed=0)
    before = [array.copy() for array in envs.batch.st]
    with pytest.raises(IllegalMoveError, match="env 1: action 0"):
        envs.step([int(np.flatnonzero(infos["action_mask"][0])[0]), 0])
    for old, new in zip(before, envs.batch.st, strict=True):
        np.testing.assert_array_equal(old, new)  # no env moved


def test_arrays_are_new_and_actions_may_come_in_any_layout() -> None:
    """step() returns new arrays each time (a caller may keep and change them) and reads
    the actions alike from an int64 array, a strided view, an int32 array or a list."""

    def run(convert) -> list[np.ndarray]:
        envs = SkyjoFastVectorEnv(4, {"players": 2}, autoreset_mode=AutoresetMode.SAME_STEP)
        _, infos = envs.reset(seed=5)
        rng = np.random.default_rng(0)
        seen: list[np.ndarray] = []
        kept: list[np.ndarray] = []
        for _ in range(150):
            actions = (rng.random(infos["action_mask"].shape) * infos["action_mask"]).argmax(1)
            *arrays, infos = envs.step(convert(actions.astype(np.int64)))
            arrays.append(infos["action_mask"])
            for old in kept[-5:]:
                assert not any(np.shares_memory(old, new) for new in arrays)
            seen += [array.copy() for array in arrays]
            kept += arrays
            infos = {"action_mask": infos["action_mask"].copy()}
            for array in arrays:  # the caller's changes reach neither the env nor later steps
                array[...] = 0
        return seen

    plain = run(lambda actions: actions)
    for convert in (
        lambda actions: np.repeat(actions, 2)[::2],
        lambda actions: actions.astype(np.int32),
        lambda actions: actions.tolist(),
    ):
        for mine, theirs in zip(run(convert), plain, strict=True):
            np.testing.assert_array_equal(mine, theirs)
