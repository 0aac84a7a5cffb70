"""Batched rollouts with the vector env: masked sampling, autoreset and episode returns.

    .venv/bin/python examples/vector_rollout.py --envs 8 --steps 2000 --max-steps 200

A template for an on-policy learner's data collection (numpy only, no learning here):
N Skyjo games against random bots run side by side in one
``cardtable.rl.vector.CardtableVectorEnv``. The policy samples one legal action per
env from masked logits (here the logits are all 0: the uniform random policy; replace
``logits`` with a network's output). With ``autoreset_mode="SameStep"`` every
returned observation belongs to a live episode: when an episode ends, its last
observation is in ``infos["final_obs"]`` and the returned one already starts the next
game, so transitions can be stored without skipping a step. ``max_steps`` truncates
a game that runs too long (a policy that never turns its last cards up never ends a
Skyjo round). The script prints the episodes finished, how many were truncated, the
mean return, and the steps per second.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from cardtable.rl.gym_env import make_vector_env


def masked_sample(logits: np.ndarray, masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per row, drawn from softmax(logits) over the legal actions only."""
    scores = np.where(masks.astype(bool), logits, -np.inf)
    gumbel = rng.gumbel(size=scores.shape)  # argmax of logits + Gumbel noise = a softmax draw
    return np.argmax(scores + gumbel, axis=1)


def rollout(num_envs: int, steps: int, max_steps: int | None, seed: int) -> dict[str, float]:
    envs = make_vector_env(
        "skyjo",
        num_envs,
        rules={"players": 2},
        opponents="random",
        seat=None,
        reward="score",
        reward_at="round",
        max_steps=max_steps,
        autoreset_mode="SameStep",
    )
    rng = np.random.default_rng(seed)
    obs, infos = envs.reset(seed=seed)
    returns = np.zeros(num_envs)
    finished: list[float] = []
    truncated_count = 0
    start = time.perf_counter()
    for _ in range(steps // num_envs):
        # A policy network would compute the logits from obs; zeros: uniform over legal.
        logits = np.zeros((len(obs), envs.single_action_space.n))
        actions = masked_sample(logits, infos["action_mask"], rng)
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        returns += rewards
        for index in np.flatnonzero(terminated | truncated):
            # infos["final_obs"][index] is the episode's last observation (for a
            # bootstrap value when it was truncated); obs[index] starts the next game.
            finished.append(float(returns[index]))
            truncated_count += int(truncated[index])
            returns[index] = 0.0
    seconds = time.perf_counter() - start
    envs.close()
    return {
        "episodes": float(len(finished)),
        "truncated": float(truncated_count),
        "mean_return": float(np.mean(finished)) if finished else 0.0,
        "steps_per_second": (steps // num_envs * num_envs) / seconds,
    }


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--steps", type=int, default=2000, help="learner steps in all")
    parser.add_argument("--max-steps", type=int, default=200, help="truncate after (per game)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    report = rollout(args.envs, args.steps, args.max_steps, args.seed)
    print(
        f"{report['episodes']:.0f} episodes ({report['truncated']:.0f} truncated), "
        f"mean return {report['mean_return']:.1f}, "
        f"{report['steps_per_second']:,.0f} steps/s"
    )
    return report


if __name__ == "__main__":
    main()
