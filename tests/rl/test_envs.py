"""The environments pass PettingZoo's and Gymnasium's own checkers and replay by seed."""

from __future__ import annotations

import contextlib
import io

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from cardtable.core import IllegalMoveError
from cardtable.rl.aec import SkipBoAECEnv, SkyjoAECEnv, aec_env
from cardtable.rl.gym_env import GYM_IDS, gym_env, make_vector_env

AEC_CASES = [
    ("skyjo", {"players": 2}, "win", "game"),
    ("skyjo", {"players": 3, "rows_rule": True, "end_score": 40}, "score", "round"),
    ("skyjo", {"players": 5, "closer_starts_next": True, "closer_doubling": False}, "win", "round"),
    ("skipbo", {"players": 2, "stock_size": 5}, "win", "game"),
    (
        "skipbo",
        {"players": 4, "teams": True, "discard_to_partner": True, "stock_size": 5},
        "score",
        "game",
    ),
    ("skipbo", {"players": 3, "rounds": True, "target": 60, "stock_size": 5}, "score", "round"),
]

# PettingZoo's checker warns about every Dict observation space unless the env's name is
# on its own list of classic environments; our spaces are the documented
# {"observation", "action_mask"} form, so these two warnings are expected.
DICT_SPACE_WARNINGS = [
    pytest.mark.filterwarnings(
        "ignore:Observation space for each agent probably should be:UserWarning"
    ),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
]


@pytest.mark.parametrize(("game_name", "options", "reward", "reward_at"), AEC_CASES)
@DICT_SPACE_WARNINGS[0]
@DICT_SPACE_WARNINGS[1]
def test_pettingzoo_api_and_seed_tests(game_name, options, reward, reward_at) -> None:
    def make():
        return aec_env(game_name, rules=options, reward=reward, reward_at=reward_at)

    with contextlib.redirect_stdout(io.StringIO()):
        api_test(make(), num_cycles=300)
        seed_test(make, num_cycles=300)


def play_aec(env, seed: int) -> tuple[list[int], dict[str, float], list[str]]:
    """Play a whole game with the first legal action; the actions, returns and agents."""
    env.reset(seed=seed)
    actions: list[int] = []
    returns = dict.fromkeys(env.possible_agents, 0.0)
    order: list[str] = []
    for agent in env.agent_iter(100_000):
        obs, reward, terminated, truncated, _ = env.last()
        returns[agent] += reward
        order.append(agent)
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[len(actions) % len(legal)])
        actions.append(action)
        env.step(action)
    return actions, returns, order


@pytest.mark.parametrize("cls", [SkyjoAECEnv, SkipBoAECEnv])
def test_same_seed_same_episode_and_game_rewards(cls) -> None:
    rules = {"players": 3} if cls is SkyjoAECEnv else {"players": 3, "stock_size": 5}
    first = play_aec(cls(rules), seed=12)
    second = play_aec(cls(rules), seed=12)
    assert first == second
    env = cls(rules)
    play_aec(env, seed=12)
    assert not env.agents
    winners = set(env.game_state.result().winners)
    returns = first[1]
    for seat, agent in enumerate(env.possible_agents):
        if winners and len(winners) < 3:
            assert returns[agent] == (1.0 if seat in winners else -1.0)
    assert play_aec(cls(rules), seed=13)[0] != first[0]


def test_round_score_rewards_add_up_to_the_skyjo_totals() -> None:
    env = SkyjoAECEnv({"players": 2, "end_score": 60}, reward="score", reward_at="round")
    _, returns, _ = play_aec(env, seed=3)
    totals = env.game_state.result().scores
    assert [returns[a] for a in env.possible_agents] == [-t for t in totals]
    assert len(env.game_state.rounds()) >= 1


def test_aec_rewards_hold_only_the_last_steps_payment() -> None:
    """``rewards`` is all zeros after a step that ends no round, even right after one that did."""
    env = SkyjoAECEnv({"players": 2, "end_score": 200}, reward="score", reward_at="round")
    env.reset(seed=3)
    paid = 0
    for step in range(100_000):
        if not env.agents:
            break
        agent = env.agent_selection
        if env.terminations[agent]:
            env.step(None)
            continue
        rounds_before = len(env.game_state.rounds())
        legal = np.flatnonzero(env.observe(agent)["action_mask"])
        env.step(int(legal[step % len(legal)]))
        rounds = env.game_state.rounds()
        if len(rounds) > rounds_before:
            paid += 1
            points = rounds[-1].points
            assert env.rewards == {a: -float(points[i]) for i, a in enumerate(env.agents)}
        else:
            assert env.rewards == dict.fromkeys(env.agents, 0.0)
    assert not env.agents and paid >= 2


def test_aec_illegal_action_raises_and_changes_nothing() -> None:
    env = SkyjoAECEnv({"players": 2})
    env.reset(seed=0)
    before = env.game_state.to_json()
    with pytest.raises(IllegalMoveError):
        env.step(0)  # drawing during the set-up reveals
    assert env.game_state.to_json() == before


def test_render_is_text() -> None:
    env = SkipBoAECEnv({"players": 2}, render_mode="ansi")
    env.reset(seed=1)
    assert "seat 1" in env.render()
    genv = gym_env("skyjo", render_mode="ansi")
    genv.reset(seed=1)
    assert "seat 0" in genv.render()


GYM_CASES = [
    ("skyjo", {"players": 2}, "random"),
    ("skyjo", {"players": 3, "rows_rule": True}, "greedy"),
    ("skipbo", {"players": 2, "stock_size": 5}, "greedy"),
    ("skipbo", {"players": 4, "teams": True, "stock_size": 5}, "random"),
]


@pytest.mark.parametrize(("game_name", "options", "bots"), GYM_CASES)
def test_gymnasium_check_env(game_name, options, bots) -> None:
    env = gymnasium.make(
        GYM_IDS[game_name], rules=options, opponents=bots, illegal="penalty", seat=None
    )
    with contextlib.redirect_stdout(io.StringIO()):  # the "human" render mode prints
        check_env(env.unwrapped)


@pytest.mark.parametrize("game_name", ["skyjo", "skipbo"])
def test_gymnasium_check_env_on_the_default_construction(game_name) -> None:
    """Default rules, opponents and illegal-action mode (penalty): the checker steps
    with actions sampled from the whole action space, most of them illegal."""
    env = gymnasium.make(GYM_IDS[game_name])
    assert env.unwrapped.illegal == "penalty"
    check_env(env.unwrapped)


@DICT_SPACE_WARNINGS[0]
@DICT_SPACE_WARNINGS[1]
@pytest.mark.parametrize("game_name", ["skyjo", "skipbo"])
def test_pettingzoo_api_test_on_the_default_construction(game_name) -> None:
    from cardtable.rl.aec import env as wrapped_env

    with contextlib.redirect_stdout(io.StringIO()):
        api_test(aec_env(game_name), num_cycles=400)
        api_test(wrapped_env(game_name), num_cycles=400)


@pytest.mark.parametrize("game_name", ["skyjo", "skipbo"])
def test_action_masks_is_the_mask_maskable_ppo_reads(game_name) -> None:
    """``action_masks()`` (sb3-contrib's convention) is the learner's legal actions as
    bools, the same as ``info["action_mask"]`` at every step, all False at the end."""
    env = gym_env(game_name, rules={"players": 2}, seat=None)
    _, info = env.reset(seed=3)
    steps = 0
    while True:
        masks = env.action_masks()
        assert masks.dtype == np.bool_ and masks.shape == (env.num_actions,)
        np.testing.assert_array_equal(masks, info["action_mask"].astype(bool))
        legal = env.game_state.legal_actions()
        assert np.flatnonzero(masks).tolist() == legal
        _, _, terminated, truncated, info = env.step(legal[steps % len(legal)])
        steps += 1
        if terminated:
            assert not env.action_masks().any()
            break
        assert not truncated
    masks = env.action_masks()
    masks[:] = True  # a copy: the env's masks are not changed through it
    assert not env.action_masks().any()


def play_gym(env, seed: int) -> tuple[list[int], float, list[float]]:
    obs, info = env.reset(seed=seed)
    actions, total, firsts = [], 0.0, [float(obs.sum())]
    while True:
        legal = np.flatnonzero(info["action_mask"])
        action = int(legal[len(actions) % len(legal)])
        actions.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        if terminated or truncated:
            return actions, total, firsts


@pytest.mark.parametrize("game_name", ["skyjo", "skipbo"])
def test_gym_same_seed_same_episode(game_name) -> None:
    rules = {"players": 3} if game_name == "skyjo" else {"players": 3, "stock_size": 5}
    one = play_gym(gym_env(game_name, rules=rules, opponents="greedy", seat=None), 5)
    two = play_gym(gym_env(game_name, rules=rules, opponents="greedy", seat=None), 5)
    assert one == two
    assert one[1] in (-1.0, 0.0, 1.0)


def test_gym_illegal_action_modes() -> None:
    env = gym_env("skyjo", rules={"players": 2}, illegal="raise")
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalMoveError):
        env.step(illegal)
    env = gym_env("skyjo", rules={"players": 2}, illegal="penalty", illegal_penalty=-0.5)
    obs, info = env.reset(seed=0)
    before = env.game_state.to_json()
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert (reward, terminated, truncated, info2["illegal_action"]) == (-0.5, False, False, True)
    assert env.game_state.to_json() == before
    np.testing.assert_array_equal(obs, obs2)


def test_gym_opponents_per_seat_and_bad_options() -> None:
    env = gym_env("skyjo", rules={"players": 3}, opponents=["greedy", "random"], seat=2)
    _, info = env.reset(seed=4)
    assert env.game_state.current_player == 2
    assert info["action_mask"].any()
    with pytest.raises(ValueError, match="opponents"):
        gym_env("skyjo", rules={"players": 3}, opponents=["greedy"])
    with pytest.raises(KeyError):
        gym_env("skyjo", opponents="nobody")
    with pytest.raises(ValueError, match="reward"):
        aec_env("skyjo", reward="money")


def test_vector_env_runs_and_resets_finished_games() -> None:
    envs = make_vector_env("skipbo", 3, rules={"players": 2, "stock_size": 5})
    obs, infos = envs.reset(seed=1)
    assert obs.shape == (3, envs.single_observation_space.shape[0])
    assert infos["action_mask"].shape == (3, 197)
    finished = 0
    for _ in range(600):
        masks = infos["action_mask"]
        actions = np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in masks])
        obs, _rewards, terminated, _truncated, infos = envs.step(actions)
        finished += int(terminated.sum())
        assert obs.dtype == np.float32
    assert finished > 0
    envs.close()


def test_the_skipbo_learner_meets_greedy_by_default_and_is_paid() -> None:
    # Random Skip-Bo opponents bury every card that fits: a random learner facing them
    # ends its 2-player games blocked, unpaid. Facing greedy, it loses them: a reward.
    assert gym_env("skyjo").opponent_names == ["random"] * 3
    env = gym_env("skipbo")
    assert env.opponent_names == ["greedy"]
    rng = np.random.default_rng(3)
    paid = 0
    for episode in range(5):
        _, info = env.reset(seed=episode)
        done, total = False, 0.0
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, terminated, truncated, info = env.step(action)
            total += float(reward)
            done = terminated or truncated
        paid += total != 0
    assert paid >= 4
