"""The purpose-built vector env returns what Gymnasium's SyncVectorEnv returns, step by step."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv

from cardtable.rl.gym_env import GYM_IDS, make_vector_env
from cardtable.rl.vector import CardtableVectorEnv, SkipBoVectorEnv, SkyjoVectorEnv


def legal(infos: dict[str, Any], last: bool = False) -> np.ndarray:
    """The first (or last) legal action of each env; 0 where none is (a finished game)."""
    return np.array(
        [np.flatnonzero(m)[-1 if last else 0] if m.any() else 0 for m in infos["action_mask"]]
    )


def assert_same_info(mine: dict[str, Any], theirs: dict[str, Any], where: str) -> None:
    assert sorted(mine) == sorted(theirs), where
    for key, value in theirs.items():
        got = mine[key]
        if isinstance(value, dict):
            assert_same_info(got, value, f"{where} {key}")
            continue
        assert isinstance(got, np.ndarray), f"{where} {key}"
        assert got.dtype == value.dtype and got.shape == value.shape, f"{where} {key}"
        if value.dtype == object:
            for index, (a, b) in enumerate(zip(got, value, strict=True)):
                if isinstance(b, np.ndarray):
                    np.testing.assert_array_equal(a, b, err_msg=f"{where} {key}[{index}]")
                    assert a.dtype == b.dtype
                else:
                    assert a == b, f"{where} {key}[{index}]"
        else:
            np.testing.assert_array_equal(got, value, err_msg=f"{where} {key}")


def assert_same(mine: tuple[Any, ...], theirs: tuple[Any, ...], where: str) -> None:
    assert len(mine) == len(theirs)
    for index, (a, b) in enumerate(zip(mine[:-1], theirs[:-1], strict=True)):
        assert a.dtype == b.dtype and a.shape == b.shape, f"{where} item {index}"
        np.testing.assert_array_equal(a, b, err_msg=f"{where} item {index}")
    assert_same_info(mine[-1], theirs[-1], where)


def step_side_by_side(
    mine: Any, theirs: Any, mode: AutoresetMode, *, seed: int, rng_seed: int, steps: int,
    stride: int,
) -> dict[str, int]:  # fmt: skip
    """Reset both vector envs with ``seed`` and step them with the same actions (random
    legal ones, an illegal one for env ``i`` at steps ``t`` with ``t % stride == i``),
    requiring every returned array to be equal; in DISABLED mode the finished envs are
    reset by mask. How many episodes terminated, truncated and illegal actions."""
    num_envs = mine.num_envs
    first = mine.reset(seed=seed)
    assert_same(first, theirs.reset(seed=seed), "reset")
    infos = first[1]
    rng = np.random.default_rng(rng_seed)
    ended = {"terminated": 0, "truncated": 0, "illegal": 0}
    for step in range(steps):
        actions = np.zeros(num_envs, dtype=np.int64)
        for index, mask in enumerate(infos["action_mask"]):
            pool = np.flatnonzero(mask == 0) if step % stride == index else np.flatnonzero(mask)
            if len(pool):
                actions[index] = rng.choice(pool)
        result = mine.step(actions)
        assert_same(result, theirs.step(actions), f"step {step}")
        _, _, terminated, truncated, infos = result
        ended["terminated"] += int(terminated.sum())
        ended["truncated"] += int(truncated.sum())
        ended["illegal"] += int(infos.get("illegal_action", np.zeros(1)).sum())
        done = terminated | truncated
        if mode is AutoresetMode.DISABLED and done.any():
            again = mine.reset(options={"reset_mask": done.copy()})
            assert_same(again, theirs.reset(options={"reset_mask": done.copy()}), "reset_mask")
            # the envs left out keep their last mask in the batch of a partial reset: use
            # the step's masks for them, as a caller would
            infos = {
                "action_mask": np.where(
                    done[:, None], again[1]["action_mask"], result[4]["action_mask"]
                )
            }
    return ended


CASES = [
    ("skyjo", {"rules": {"players": 2}, "max_steps": 40}),
    ("skyjo", {"rules": {"players": 3, "end_score": 20}, "seat": None, "reward": "score"}),
    ("skipbo", {"rules": {"players": 2, "stock_size": 5}, "opponents": "greedy"}),
    ("skipbo", {"rules": {"players": 2, "stock_size": 5}, "max_steps": 25, "reward_at": "round"}),
]
MODES = [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED]


@pytest.mark.parametrize("mode", MODES, ids=lambda mode: mode.value)
@pytest.mark.parametrize(("game_name", "kwargs"), CASES)
def test_vector_env_matches_sync_vector_env(game_name, kwargs, mode) -> None:
    num_envs = 3
    kwargs = {**kwargs, "illegal": "penalty", "illegal_penalty": -0.25}
    mine = make_vector_env(game_name, num_envs, autoreset_mode=mode, **kwargs)
    theirs = make_vector_env(game_name, num_envs, sync=True, autoreset_mode=mode, **kwargs)
    assert isinstance(mine, CardtableVectorEnv) and isinstance(theirs, SyncVectorEnv)
    assert mine.metadata["autoreset_mode"] == theirs.metadata["autoreset_mode"] == mode
    assert mine.observation_space == theirs.observation_space
    assert mine.action_space == theirs.action_space
    ended = step_side_by_side(mine, theirs, mode, seed=11, rng_seed=5, steps=400, stride=17)
    assert ended["illegal"] > 0
    assert ended["terminated"] + ended["truncated"] > 0
    if "max_steps" in kwargs:
        assert ended["truncated"] > 0
    mine.close()
    theirs.close()


def test_vector_env_arrays_are_new_and_writable() -> None:
    envs = make_vector_env("skyjo", 2, rules={"players": 2})
    obs, infos = envs.reset(seed=0)
    actions = legal(infos)
    obs2, rewards, terminated, truncated, infos2 = envs.step(actions)
    assert obs2 is not obs and obs2.flags.writeable and infos2["action_mask"].flags.writeable
    before = obs2.copy()
    actions = legal(infos2)
    obs2 += 1000.0
    infos2["action_mask"][:] = 0
    obs3, _, _, _, infos3 = envs.step(actions)
    assert not np.shares_memory(obs3, obs2) and infos3["action_mask"].any()
    assert envs.observation_space.contains(before)
    assert (obs.dtype, rewards.dtype, terminated.dtype, truncated.dtype) == (
        np.float32,
        np.float64,
        np.bool_,
        np.bool_,
    )


def test_vector_env_refuses_bad_calls() -> None:
    envs = make_vector_env("skyjo", 2, rules={"players": 2})
    with pytest.raises(RuntimeError, match="reset"):
        envs.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(RuntimeError, match="first reset"):
        envs.reset(options={"reset_mask": np.array([True, False])})
    envs.reset(seed=1)
    with pytest.raises(ValueError, match="2 actions"):
        envs.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="seeds"):
        envs.reset(seed=[1, 2, 3])
    with pytest.raises(TypeError):
        envs.reset(options={"reset_mask": [True, False]})
    with pytest.raises(ValueError, match="at least one"):
        envs.reset(options={"reset_mask": np.array([False, False])})
    with pytest.raises(ValueError, match="num_envs"):
        make_vector_env("skyjo", 0)
    with pytest.raises(ValueError):
        CardtableVectorEnv("skyjo", 2, autoreset_mode="sometimes")


def test_disabled_autoreset_refuses_a_finished_env_until_it_is_reset() -> None:
    envs = make_vector_env("skyjo", 2, rules={"players": 2}, max_steps=3, autoreset_mode="Disabled")
    _, infos = envs.reset(seed=2)
    for _ in range(3):
        actions = legal(infos)
        _, _, _, truncated, infos = envs.step(actions)
    assert truncated.all()
    with pytest.raises(RuntimeError, match="env 0"):
        envs.step(actions)
    _, infos = envs.reset(options={"reset_mask": np.array([True, True])})
    actions = legal(infos)
    assert not envs.step(actions)[3].any()


def test_make_vec_builds_the_purpose_built_vector_env() -> None:
    envs = gymnasium.make_vec(GYM_IDS["skyjo"], num_envs=3, rules={"players": 2})
    assert isinstance(envs, SkyjoVectorEnv) and envs.num_envs == 3
    assert envs.spec is not None and envs.spec.id == GYM_IDS["skyjo"]
    obs, infos = envs.reset(seed=4)
    assert obs.shape == (3, 111) and infos["action_mask"].shape == (3, 38)
    sync = gymnasium.make_vec(GYM_IDS["skipbo"], num_envs=2, vectorization_mode="sync")
    assert isinstance(sync, SyncVectorEnv)
    assert isinstance(gymnasium.make_vec(GYM_IDS["skipbo"], num_envs=2), SkipBoVectorEnv)


def test_same_seed_same_batches() -> None:
    def run(seed: int) -> list[float]:
        envs = make_vector_env("skyjo", 2, rules={"players": 2}, seat=None)
        obs, infos = envs.reset(seed=seed)
        sums = [float(obs.sum())]
        for _ in range(300):
            actions = legal(infos, last=True)
            obs, rewards, _, _, infos = envs.step(actions)
            sums += [float(obs.sum()), float(rewards.sum())]
        return sums

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_disabled_autoreset_refuses_before_any_env_moves() -> None:
    envs = make_vector_env("skyjo", 2, rules={"players": 2}, autoreset_mode="Disabled")
    _, infos = envs.reset(seed=2)
    envs.envs[1].max_steps = 1  # env 1 is truncated after its next step, env 0 plays on
    _, _, _, truncated, infos = envs.step(legal(infos))
    assert truncated.tolist() == [False, True]
    history = list(envs.envs[0].game_state.history)
    with pytest.raises(RuntimeError, match="env 1"):
        envs.step(legal(infos))
    assert envs.envs[0].game_state.history == history  # env 0 did not move either
