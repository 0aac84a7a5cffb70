"""The Skip-Bo vector env on the batch engine returns what the reference vector env
returns: the same observations (the layout of cardtable.encoders.skipbo_obs), masks, rewards,
flags and infos, step by step."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode

from cardtable.core import IllegalMoveError
from cardtable.encoders.skipbo_obs import skipbo_layout
from cardtable.rl.fast_vector import SkipBoFastVectorEnv
from cardtable.rl.gym_env import make_vector_env
from cardtable.rl.vector import CardtableVectorEnv
from cardtable.skipbo.moves import DISCARD_PLAY_BASE, STOCK_BASE
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
    # The compiled hard bot (the learner's strongest opponent) plays as HardBot does.
    {"rules": {"players": 2, "stock_size": 5}, "seat": None, "opponents": "hard"},
    {"rules": {"players": 3, "stock_size": 5}, "opponents": ["hard", "greedy"], "reward": "score"},
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
    with pytest.raises(ValueError, match="random, greedy, hard, frozen, not expert"):
        SkipBoFastVectorEnv(2, opponents="expert")
    with pytest.raises(ValueError, match="reward_at must be one of game, round, got 'turn'"):
        SkipBoFastVectorEnv(2, reward="stock", reward_at="turn")
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


@pytest.mark.parametrize("reward_at", ["game", "round"])
def test_the_dense_stock_reward_pays_the_stock_cards_played(reward_at) -> None:
    """``reward="stock"``: the same games as ``reward="win"`` (the reward changes no move);
    a step's difference between the two is ``1 / stock`` for each stock card the learner
    played less ``1 / ((players - 1) stock)`` for each one another seat played, read off
    the stock sizes in the observations (steps that end a round pay the win reward for
    the card that emptied a stock, and are checked by their sign)."""
    rules = {"players": 3, "stock_size": 6, "rounds": True, "target": 40}
    kwargs = {"rules": rules, "opponents": ["hard", "greedy"], "seat": None, "reward_at": reward_at}
    dense = SkipBoFastVectorEnv(4, reward="stock", **kwargs)
    plain = SkipBoFastVectorEnv(4, reward="win", **kwargs)
    stock_sizes = skipbo_layout(3).slices()["stock_sizes"]
    # Stock plays first when there are any, so that the learner's own are paid too.
    prefer = 2 * ((np.arange(197) >= STOCK_BASE) & (np.arange(197) < DISCARD_PLAY_BASE))
    rng = np.random.default_rng(3)
    obs, infos = dense.reset(seed=8)
    plain.reset(seed=8)
    checked = ends = own = 0
    for _ in range(1500):
        mask = infos["action_mask"]
        actions = np.argmax((rng.random(mask.shape) + prefer) * mask, axis=1)
        new, reward, terminated, _, infos = dense.step(actions)
        new_plain, reward_plain, *_ = plain.step(actions)
        np.testing.assert_array_equal(new, new_plain)
        for b in range(4):
            before, after = obs[b, stock_sizes], new[b, stock_sizes]
            played = before - after
            extra = reward[b] - reward_plain[b]
            if terminated[b] or (played < 0).any():  # a round or game ended or began
                ends += 1
                continue
            expected = played[0] / 6 - played[1:].sum() / (2 * 6)
            assert extra == pytest.approx(expected), (b, before, after)
            checked += 1
            own += played[0]
        obs = new
    assert checked > 1000 and ends > 0 and own > 20
