"""The vector envs' ``frozen`` opponent (a learned policy's network evaluated in the
kernel, :mod:`cardtable.fast.frozen_policy`) plays exactly the moves ``LearnedBot``
plays with the same weights, refreshes its weights in place, and refuses weights of
another env.

Beyond the envs without a frozen seat the frozen variants compile in 8.7 s of CPU for
Skyjo and 23.1 s for Skip-Bo (``python -m lab compile_cost vector GAME --opponents
frozen`` after ``--opponents random`` in one empty cache, 2026-12-07). Skyjo's stays in
the default run (``cardtable fast warm``, run by ``make test`` before the workers,
compiles it ahead); Skip-Bo's case is in the ``crosscheck`` tier, as the suite's time
is spent to its limit and the kernel code it checks is the same frozen network."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("numba")

import numpy as np
from gymnasium.vector import AutoresetMode

from cardtable.bots import make_bot
from cardtable.bots.learned import LearnedBot
from cardtable.bots.learned_net import PolicyWeights
from cardtable.fast import skipbo_env, skyjo_env
from cardtable.games import get_game
from cardtable.rl.gym_env import make_vector_env
from tests.rl.test_vector import step_side_by_side

SKYJO_3 = {"rules": {"players": 3}, "seat": None, "opponents": ["frozen", "greedy"]}
SKIPBO_2 = {"rules": {"players": 2, "stock_size": 5}, "seat": None, "opponents": "frozen"}


def random_weights(game: str, players: int, seed: int, hidden: tuple[int, ...] = (48, 32)):
    """A network with larger weights than a fresh one's, so that its logits tell the
    moves apart (as ``test_numpy_inference_equals_the_pytorch_policy``'s do)."""
    kernels = skyjo_env if game == "skyjo" else skipbo_env
    size, actions = kernels.observation_size(players), get_game(game).num_actions
    rng = np.random.default_rng(seed)
    widths = [size, *hidden, actions]
    layers = tuple(
        (
            rng.normal(0.0, 1.5 / np.sqrt(widths[i]), (widths[i], widths[i + 1])),
            rng.normal(0.0, 0.5, widths[i + 1]),
        )
        for i in range(len(widths) - 1)
    )
    mean = rng.normal(0.0, 1.0, size)
    inv_std = rng.uniform(0.2, 1.0, size)
    return PolicyWeights(game, players, 1, mean, inv_std, layers)


class CountingBot(LearnedBot):
    """``LearnedBot``, counting the decisions it made among several legal moves."""

    choices = 0

    def choose(self, state: Any, rng: Any) -> int:
        if len(state.legal_actions()) > 1:
            CountingBot.choices += 1
        return super().choose(state, rng)


def _reference(game: str, num_envs: int, options: dict[str, Any], pool: list[Any]) -> Any:
    """The reference vector env with ``LearnedBot`` in the frozen seats (env ``i`` with
    ``pool[i % len(pool)]``, as the fast env's pool is laid out)."""
    opponents = options["opponents"]
    names = (
        opponents
        if isinstance(opponents, list)
        else [opponents] * (options["rules"]["players"] - 1)
    )
    stand_ins = ["random" if name == "frozen" else name for name in names]
    reference = make_vector_env(game, num_envs, **{**options, "opponents": stand_ins})
    for index, env in enumerate(reference.envs):
        weights = pool[index % len(pool)]
        env.bots = [
            CountingBot(game, lambda: make_bot(game, "hard"), weights=weights)
            if name == "frozen"
            else bot
            for name, bot in zip(names, env.bots, strict=True)
        ]
    return reference


@pytest.mark.parametrize(
    ("game", "options", "policies"),
    [
        ("skyjo", SKYJO_3, 1),
        pytest.param("skipbo", SKIPBO_2, 2, marks=pytest.mark.crosscheck),
    ],
    ids=["skyjo-frozen-and-greedy", "skipbo-pool-of-two"],
)
def test_the_frozen_opponent_plays_learned_bots_moves(game, options, policies) -> None:
    """Same seeds, same learner actions (some illegal): every observation, reward and
    info equal at every step, so every move of the frozen seats was ``LearnedBot``'s
    (the learner's observations show them), through hundreds of real choices."""
    players = options["rules"]["players"]
    pool = [random_weights(game, players, seed) for seed in range(policies)]
    frozen = pool[0] if policies == 1 else pool
    fast = make_vector_env(
        game, 4, engine="fast", autoreset_mode="SameStep", frozen=frozen, **options
    )
    reference = _reference(game, 4, {**options, "autoreset_mode": "SameStep"}, pool)
    CountingBot.choices = 0
    seen = step_side_by_side(
        fast, reference, AutoresetMode.SAME_STEP, seed=5, rng_seed=3, steps=300, stride=19
    )
    assert seen["terminated"] > 0
    assert CountingBot.choices > 300


def _trajectory(env: Any, steps: int = 120) -> list[float]:
    obs, infos = env.reset(seed=9)
    rng = np.random.default_rng(1)
    sums = []
    for _ in range(steps):
        masks = infos["action_mask"]
        obs, rewards, _, _, infos = env.step((rng.random(masks.shape) * masks).argmax(axis=1))
        sums += [float(obs.sum()), float(rewards.sum())]
    return sums


def test_set_frozen_swaps_the_weights_in_place() -> None:
    """An env made with A then given B plays as the env made with B, not as A's."""
    a, b = random_weights("skyjo", 2, 10), random_weights("skyjo", 2, 11)
    options = {"rules": {"players": 2}, "opponents": "frozen", "seat": None}
    with_a = _trajectory(make_vector_env("skyjo", 4, engine="fast", frozen=a, **options))
    with_b = _trajectory(make_vector_env("skyjo", 4, engine="fast", frozen=b, **options))
    swapped = make_vector_env("skyjo", 4, engine="fast", frozen=a, **options)
    # The compiled step keeps the arrays it was made with: B must be copied into them.
    swapped.set_frozen(b)
    assert _trajectory(swapped) == with_b != with_a
    swapped.set_frozen([a])  # a pool of one is the same shape
    assert _trajectory(swapped) == with_a


def test_weights_of_another_env_are_refused() -> None:
    options = {"rules": {"players": 2}, "opponents": "frozen"}
    good = random_weights("skyjo", 2, 0)
    with pytest.raises(ValueError, match="frozen: game 'skipbo', this env needs 'skyjo'"):
        make_vector_env("skyjo", 2, engine="fast", frozen=random_weights("skipbo", 2, 0), **options)
    with pytest.raises(ValueError, match="frozen: players 3, this env needs 2"):
        make_vector_env("skyjo", 2, engine="fast", frozen=random_weights("skyjo", 3, 0), **options)
    old = PolicyWeights("skyjo", 2, 0, good.mean, good.inv_std, good.layers)
    with pytest.raises(ValueError, match="frozen: encoder_version 0, this env needs 1"):
        make_vector_env("skyjo", 2, engine="fast", frozen=old, **options)
    short = PolicyWeights("skyjo", 2, 1, good.mean[:-1], good.inv_std[:-1], good.layers)
    with pytest.raises(ValueError, match="frozen: obs_size 110, this env needs 111"):
        make_vector_env("skyjo", 2, engine="fast", frozen=short, **options)
    residual = dataclasses.replace(good, prior="hard", prior_scale=4.0)
    with pytest.raises(ValueError, match="frozen: prior 'hard': the frozen opponent plays"):
        make_vector_env("skyjo", 2, engine="fast", frozen=residual, **options)
    (w0, b0), (w1, b1), head = good.layers
    broken = PolicyWeights("skyjo", 2, 1, good.mean, good.inv_std, ((w0, b0), (w1[1:], b1), head))
    refusal = r"frozen\[1\]: layer 1's weight has shape \(47, 32\), its inputs and bias need \(48,"
    with pytest.raises(ValueError, match=refusal):
        make_vector_env("skyjo", 2, engine="fast", frozen=[good, broken], **options)
    with pytest.raises(ValueError, match="need frozen=PolicyWeights"):
        make_vector_env("skyjo", 2, engine="fast", **options)
    with pytest.raises(ValueError, match="no opponent is 'frozen'"):
        make_vector_env("skyjo", 2, engine="fast", rules={"players": 2}, frozen=good)
    env = make_vector_env("skyjo", 2, engine="fast", frozen=good, **options)
    with pytest.raises(ValueError, match=r"frozen: layer sizes \[111, 64, 38\], this env holds"):
        env.set_frozen(random_weights("skyjo", 2, 1, hidden=(64,)))
    with pytest.raises(ValueError, match="frozen: 2 policies, this env holds 1"):
        env.set_frozen([good, good])
