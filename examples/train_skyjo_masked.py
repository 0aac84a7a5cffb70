"""Train a small masked policy to beat the random bot at two-player Skyjo (numpy only).

    .venv/bin/python examples/train_skyjo_masked.py --games 3000 --eval 500

The policy is linear over a few features of each legal action, computed from the
observation vector alone (held card, discard top, own face-up values and face-down
flags, cards of the same value in a column). Illegal actions are masked out with
``info["action_mask"]`` before the softmax. It learns with REINFORCE: every action
of a round is credited with the round's reward (minus a running baseline); the
environment pays ``-points`` at the end of each round (``reward="score"``,
``reward_at="round"``). Evaluation plays whole games against the random bot with
the learner's seat drawn at every reset, and reports the win rate and the mean
points per round. The untrained policy (all weights 0) is the uniform random policy.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from cardtable.rl.gym_env import gym_env
from cardtable.skyjo.moves import DISCARD_AND_REVEAL, DRAW, EXCHANGE, REVEAL, TAKE_DISCARD

FEATURES = 12
EXPECTED_HIDDEN = 5.07  # mean card of the Skyjo deck: 760 / 150


class Features:
    """phi(observation, action) for every action code, from the observation only."""

    def __init__(self, env) -> None:
        parts = env.encoder.layout.slices()
        self.held = parts["held"].start
        self.top = parts["discard_top"].start
        self.values = parts["grid_values"].start  # own grid first (relative seats)
        self.down = parts["grid_down"].start
        self.removed = parts["grid_removed"].start

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        phi = np.zeros((38, FEATURES))
        held, top = obs[self.held], obs[self.top]
        values = obs[self.values : self.values + 12]
        down = obs[self.down : self.down + 12]
        removed = obs[self.removed : self.removed + 12]
        up = (down == 0) & (removed == 0)
        cols = np.arange(12) % 4

        def matches(card: float) -> np.ndarray:
            same = up & (values == card)
            per_col = np.bincount(cols, weights=same, minlength=4)
            return per_col[cols] - same  # other face-up cards equal to card in the column

        best_top_match = matches(top).max()
        phi[DRAW, 0] = 1.0
        phi[DRAW, 9] = top / 12
        phi[TAKE_DISCARD, 1] = 1.0
        phi[TAKE_DISCARD, 2] = top / 12
        phi[TAKE_DISCARD, 10] = best_top_match / 2
        gain = np.where(up, values - held, EXPECTED_HIDDEN - held)
        ex = slice(EXCHANGE, EXCHANGE + 12)
        phi[ex, 3] = 1.0
        phi[ex, 4] = gain / 12
        phi[ex, 5] = down
        phi[ex, 6] = matches(held) / 2
        phi[ex, 11] = held / 12
        dr = slice(DISCARD_AND_REVEAL, DISCARD_AND_REVEAL + 12)
        phi[dr, 7] = 1.0
        phi[dr, 8] = held / 12
        phi[REVEAL : REVEAL + 12, :] = 0.0  # set-up reveals: left uniform
        return phi


def policy(theta: np.ndarray, phi: np.ndarray, mask: np.ndarray) -> np.ndarray:
    logits = phi @ theta
    logits = np.where(mask.astype(bool), logits, -np.inf)
    logits -= logits.max()
    probs = np.exp(logits)
    return probs / probs.sum()


def play(env, features, theta, rng, seed=None, learn=False, lr=0.05, baseline=None):
    """One game; returns (won, points per round) and updates theta in place when learning."""
    obs, info = env.reset(seed=seed)
    round_grads: list[np.ndarray] = []
    rounds_seen = 0
    while True:
        phi = features(obs)
        probs = policy(theta, phi, info["action_mask"])
        action = int(rng.choice(len(probs), p=probs))
        if learn:
            round_grads.append(phi[action] - probs @ phi)
        obs, reward, terminated, _, info = env.step(action)
        finished = len(env.game_state.rounds())  # public: the results of past rounds
        if finished > rounds_seen:
            rounds_seen = finished
            if learn and baseline is not None:
                advantage = reward - baseline[0]
                baseline[0] += 0.02 * (reward - baseline[0])
                theta += lr * advantage / 50 * np.sum(round_grads, axis=0)
            round_grads = []
        if terminated:
            result = env.game_state.result()
            seat = env.seat
            won = seat in result.winners and len(result.winners) == 1
            points = [r.points[seat] for r in env.game_state.rounds()]
            return won, float(np.mean(points))


def evaluate(theta, games: int, seed: int) -> tuple[float, float]:
    env = gym_env("skyjo", rules={"players": 2}, opponents="random", seat=None)
    features = Features(env)
    rng = np.random.default_rng(seed)
    wins, points = 0, []
    env.reset(seed=seed)
    for _ in range(games):
        won, mean_points = play(env, features, theta, rng)
        wins += won
        points.append(mean_points)
    return wins / games, float(np.mean(points))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="training games (3000)")
    parser.add_argument("--eval", type=int, default=500, help="evaluation games (500)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    theta = np.zeros(FEATURES)
    start = time.perf_counter()
    before = evaluate(theta, args.eval, seed=10_000 + args.seed)
    print(
        f"untrained (uniform random) vs random: win rate {before[0]:.3f}, "
        f"points per round {before[1]:.1f}"
    )
    env = gym_env(
        "skyjo",
        rules={"players": 2},
        opponents="random",
        seat=None,
        reward="score",
        reward_at="round",
    )
    features = Features(env)
    rng = np.random.default_rng(args.seed)
    env.reset(seed=args.seed)
    baseline = [-40.0]
    for game in range(1, args.games + 1):
        play(env, features, theta, rng, learn=True, baseline=baseline)
        if game % 500 == 0:
            print(
                f"  trained {game} games, baseline {baseline[0]:.1f}, "
                f"{time.perf_counter() - start:.0f}s"
            )
    after = evaluate(theta, args.eval, seed=20_000 + args.seed)
    print(f"trained vs random: win rate {after[0]:.3f}, points per round {after[1]:.1f}")
    print(f"weights: {np.round(theta, 2).tolist()}")
    print(f"total time {time.perf_counter() - start:.0f}s")


if __name__ == "__main__":
    main()
