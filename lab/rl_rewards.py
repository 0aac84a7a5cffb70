"""How often the RL environments pay a reward, built as a user builds them by default.

    python -m lab rl_rewards skipbo --episodes 1000
    python -m lab rl_rewards skyjo --episodes 200 --players 3
    python -m lab rl_rewards skipbo --episodes 1000 --stock 5

The learner (Gymnasium) or every agent (PettingZoo) plays uniformly random legal moves
from the action mask, with a seeded generator; episodes are reset with seeds 0, 1, ...
Reports, for each environment, the episodes that ended with a non-zero reward for the
learner (for PettingZoo: for seat 0), and how many were won, lost and drawn.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence

import numpy as np

from cardtable.rl import aec
from cardtable.rl.gym_env import gym_env


def gym_rewards(game: str, rules: dict[str, int], episodes: int) -> Counter[str]:
    env = gym_env(game, rules=rules)
    rng = np.random.default_rng(0)
    tally: Counter[str] = Counter()
    for episode in range(episodes):
        _, info = env.reset(seed=episode)
        total, done = 0.0, False
        while not done:
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            _, reward, terminated, truncated, info = env.step(action)
            total += float(reward)
            done = terminated or truncated
        tally["won" if total > 0 else "lost" if total < 0 else "no reward"] += 1
    return tally


def aec_rewards(game: str, rules: dict[str, int], episodes: int) -> Counter[str]:
    env = aec.env(game, rules=rules)
    rng = np.random.default_rng(0)
    tally: Counter[str] = Counter()
    for episode in range(episodes):
        env.reset(seed=episode)
        total = 0.0
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            if agent == env.possible_agents[0]:
                total += float(reward)
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        tally["won" if total > 0 else "lost" if total < 0 else "no reward"] += 1
    return tally


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=["skipbo", "skyjo"])
    parser.add_argument("--episodes", type=int, default=1000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--stock", type=int, default=None, help="Skip-Bo stock_size")
    args = parser.parse_args(argv)
    rules = {"players": args.players}
    if args.stock is not None:
        rules["stock_size"] = args.stock
    for name, measure in (("gymnasium", gym_rewards), ("pettingzoo", aec_rewards)):
        tally = measure(args.game, rules, args.episodes)
        paid = tally["won"] + tally["lost"]
        print(
            f"{name}: {paid} of {args.episodes} episodes paid a reward "
            f"({100 * paid / args.episodes:.1f}%): won {tally['won']}, lost {tally['lost']}, "
            f"no reward {tally['no reward']}"
        )


if __name__ == "__main__":
    main()
