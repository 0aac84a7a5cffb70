"""The single env's step in parts (``deal``, ``act``, ``finish_step``): the public seam
the vector env drives gives exactly what ``reset`` and ``step`` give."""

from __future__ import annotations

import numpy as np
import pytest

from cardtable.core import IllegalMoveError
from cardtable.rl.gym_env import gym_env


@pytest.mark.parametrize("game", ["skyjo", "skipbo"])
def test_the_parts_replay_reset_and_step(game):
    whole = gym_env(game, opponents="random", illegal="penalty")
    parts = gym_env(game, opponents="random", illegal="penalty")
    _, info = whole.reset(seed=5)
    parts.reset(seed=5)
    rng = np.random.default_rng(0)
    ends = 0
    for step in range(600):
        mask = info["action_mask"]
        # Every seventh step an illegal code, to cover the penalty path.
        code = (
            int(np.flatnonzero(mask == 0)[0])
            if step % 7 == 6
            else int(rng.choice(np.flatnonzero(mask)))
        )
        _, reward, terminated, truncated, info = whole.step(code)
        earned = parts.act(code)
        assert (earned is None) == (step % 7 == 6)
        extra: dict[str, object] = {}
        assert parts.finish_step(earned, extra) == (reward, terminated, truncated)
        assert {k: v for k, v in info.items() if k != "action_mask"} == extra
        assert parts.game_state.to_json() == whole.game_state.to_json()
        if terminated or truncated:
            _, info = whole.reset()
            parts.deal()
            ends += 1
            assert parts.game_state.to_json() == whole.game_state.to_json()
    assert ends >= 1  # the autoreset path was taken


def test_act_refuses_an_illegal_code_in_raise_mode_and_changes_nothing():
    env = gym_env("skyjo", opponents="random", illegal="raise")
    _, info = env.reset(seed=1)
    before = env.game_state.to_json()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalMoveError):
        env.act(illegal)
    assert env.game_state.to_json() == before
