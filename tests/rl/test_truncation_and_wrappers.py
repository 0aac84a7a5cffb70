"""``max_steps`` truncation, the wrapped ``env()`` factory, the mask cache, the encoder cache."""

from __future__ import annotations

import contextlib
import io
import logging

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from cardtable.bots import make_bot
from cardtable.core import IllegalMoveError, Rng
from cardtable.games import get_game
from cardtable.rl.aec import CardtableAECEnv, aec_env, env
from cardtable.rl.common import MaskBytes, action_mask, make_encoder
from cardtable.rl.gym_env import GYM_IDS, gym_env

DICT_SPACE_WARNINGS = [
    pytest.mark.filterwarnings(
        "ignore:Observation space for each agent probably should be:UserWarning"
    ),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
]


# --- Gymnasium: max_steps ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("game_name", "rules"), [("skyjo", {"players": 3}), ("skipbo", {"players": 2})]
)
def test_gym_max_steps_truncates_after_that_many_steps(game_name, rules) -> None:
    env_ = gym_env(game_name, rules=rules, max_steps=7, illegal="penalty")
    _, info = env_.reset(seed=3)
    for step in range(1, 8):
        if step == 3:  # an illegal step counts too
            action = int(np.flatnonzero(info["action_mask"] == 0)[0])
        else:
            action = int(np.flatnonzero(info["action_mask"])[0])
        _, _, terminated, truncated, info = env_.step(action)
        assert not terminated
        assert truncated == (step == 7)
    assert not env_.game_state.is_over
    with pytest.raises(RuntimeError, match="reset"):
        env_.step(int(np.flatnonzero(info["action_mask"])[0]))
    _, info = env_.reset()
    assert not env_.step(int(np.flatnonzero(info["action_mask"])[0]))[3]


def test_gym_game_end_is_termination_not_truncation() -> None:
    """A game that ends on the last allowed step is terminated, not truncated."""
    env_ = gym_env("skyjo", rules={"players": 2, "end_score": 1})
    _, info = env_.reset(seed=1)
    steps = 0
    while True:
        _, _, terminated, _, info = env_.step(int(np.flatnonzero(info["action_mask"])[0]))
        steps += 1
        if terminated:
            break
    env_ = gym_env("skyjo", rules={"players": 2, "end_score": 1}, max_steps=steps)
    _, info = env_.reset(seed=1)
    for _ in range(steps):
        _, _, terminated, truncated, info = env_.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert (terminated, truncated) == (True, False)


@pytest.mark.parametrize("game_name", ["skyjo", "skipbo"])
def test_gym_check_env_with_max_steps(game_name) -> None:
    env_ = gymnasium.make(
        GYM_IDS[game_name], rules={"players": 2}, max_steps=3, illegal="penalty", seat=None
    )
    with contextlib.redirect_stdout(io.StringIO()):  # the "human" render mode prints
        check_env(env_.unwrapped)


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "10"])
def test_max_steps_must_be_a_positive_int(bad) -> None:
    with pytest.raises(ValueError, match="max_steps"):
        gym_env("skyjo", max_steps=bad)
    with pytest.raises(ValueError, match="max_steps"):
        aec_env("skyjo", max_steps=bad)


# --- PettingZoo: max_steps ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("game_name", "rules"), [("skyjo", {"players": 3}), ("skipbo", {"players": 2})]
)
@DICT_SPACE_WARNINGS[0]
@DICT_SPACE_WARNINGS[1]
def test_aec_max_steps_passes_the_pettingzoo_tests(game_name, rules) -> None:
    def make():
        return aec_env(game_name, rules=rules, max_steps=25)

    with contextlib.redirect_stdout(io.StringIO()):
        api_test(make(), num_cycles=200)
        seed_test(make, num_cycles=200)


def test_aec_max_steps_truncates_every_agent() -> None:
    env_ = aec_env("skyjo", rules={"players": 3}, max_steps=10)
    env_.reset(seed=5)
    actions = 0
    for _ in env_.agent_iter(1000):
        obs, reward, terminated, truncated, _ = env_.last()
        if terminated or truncated:
            assert truncated and not terminated and actions == 10 and reward == 0.0
            env_.step(None)
            continue
        assert actions < 10
        env_.step(int(np.flatnonzero(obs["action_mask"])[0]))
        actions += 1
    assert actions == 10 and not env_.agents
    assert not env_.game_state.is_over
    env_.reset()
    assert not any(env_.truncations.values()) and len(env_.agents) == 3


# --- env(): the wrapped AEC env ---------------------------------------------------------------
@pytest.mark.parametrize("illegal", ["raise", "terminate"])
@DICT_SPACE_WARNINGS[0]
@DICT_SPACE_WARNINGS[1]
def test_wrapped_env_passes_the_pettingzoo_tests(illegal) -> None:
    def make():
        return env("skipbo", rules={"players": 3, "stock_size": 5}, illegal=illegal)

    wrapped = make()
    assert isinstance(wrapped, OrderEnforcingWrapper)
    assert isinstance(wrapped.unwrapped, CardtableAECEnv)
    with contextlib.redirect_stdout(io.StringIO()):
        api_test(wrapped, num_cycles=200)
        seed_test(make, num_cycles=200)


def test_wrapped_env_enforces_order_and_keeps_the_engine_errors() -> None:
    wrapped = env("skyjo", rules={"players": 2})
    with pytest.raises(AssertionError, match="reset"):
        wrapped.step(0)
    with pytest.raises(AttributeError):
        _ = wrapped.agent_selection
    wrapped.reset(seed=0)
    with pytest.raises(IllegalMoveError):
        wrapped.step(0)  # drawing during the set-up reveals
    with pytest.raises(AssertionError):
        wrapped.step(38)  # outside the action space
    assert wrapped.game_state.current_player == 0  # attributes reach the raw env
    with pytest.raises(ValueError, match="illegal"):
        env("skyjo", illegal="ignore")


def test_wrapped_env_terminate_mode_ends_the_game_on_an_illegal_move(caplog) -> None:
    wrapped = env("skyjo", rules={"players": 3}, illegal="terminate", illegal_reward=-2.0)
    wrapped.reset(seed=0)
    offender = wrapped.agent_selection
    wrapped.observe(offender)
    with caplog.at_level(logging.CRITICAL):
        wrapped.step(0)  # illegal during the set-up
    assert all(wrapped.terminations.values())
    assert wrapped._cumulative_rewards[offender] == -2.0
    others = [a for a in wrapped.agents if a != offender]
    assert all(wrapped._cumulative_rewards[a] == 0.0 for a in others)


# --- the mask cache and the encoder's grid cache ------------------------------------------
def game_positions(game_name: str, options: dict, seed: int, limit: int = 300):
    game = get_game(game_name)
    state = game.new_state(game.rules_from_json(options), seed)
    bot, rng = make_bot(game_name, "random"), Rng(seed)
    for _ in range(limit):
        yield state
        if state.is_over:
            return
        state.apply_action(bot.choose(state, rng))


@pytest.mark.parametrize(
    ("game_name", "options"),
    [("skyjo", {"players": 3, "rows_rule": True}), ("skipbo", {"players": 2, "stock_size": 5})],
)
def test_mask_bytes_equal_the_engine_mask_even_when_the_cache_starts_over(
    game_name, options
) -> None:
    game = get_game(game_name)
    masks = MaskBytes(game.num_actions, limit=5)
    checked = 0
    for state in game_positions(game_name, options, seed=2):
        for seat in range(state.num_players):
            mine = np.frombuffer(masks(state, seat), dtype=np.int8)
            np.testing.assert_array_equal(mine, action_mask(state, seat, game.num_actions))
            checked += 1
    assert checked > 100 and len(masks._cache) <= 5


@pytest.mark.parametrize("players", [2, 5])
def test_one_encoder_over_interleaved_games_equals_the_view_encoding(players) -> None:
    """The encoder reuses a grid's bytes when its inputs are unchanged: feeding it positions
    of two games in turn, at every seat, must still give each view's own encoding."""
    game = get_game("skyjo")
    rules = game.rules_from_json({"players": players, "rows_rule": True, "end_score": 40})
    encoder = make_encoder("skyjo", rules)
    one = [state.clone() for state in game_positions("skyjo", rules.to_json(), seed=1)]
    two = [state.clone() for state in game_positions("skyjo", rules.to_json(), seed=2)]
    checked = 0
    for first, second in zip(one, two, strict=False):
        for state in (first, second, first):
            for seat in range(players):
                np.testing.assert_array_equal(
                    encoder.encode_state(state, seat), encoder.encode(state.view(seat))
                )
                checked += 1
    assert checked > 400


def test_no_parallel_api_the_envs_say_they_are_not_parallelizable() -> None:
    """docs/rl.md explains why: one seat acts at a time; PettingZoo's converter refuses."""
    from pettingzoo.utils.conversions import aec_to_parallel

    for game_name in ("skyjo", "skipbo"):
        raw = aec_env(game_name)
        assert raw.metadata["is_parallelizable"] is False
        with pytest.raises(AssertionError, match="is_parallelizable"):
            aec_to_parallel(raw)
