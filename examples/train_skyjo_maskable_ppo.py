"""Train sb3-contrib's MaskablePPO on 2-player Skyjo against the random bot.

    pip install 'cardtable[rl]' sb3-contrib
    python examples/train_skyjo_maskable_ppo.py --steps 100000 --eval 500

The Gymnasium env is used unwrapped: ``SkyjoGymEnv`` has the ``action_masks()``
method MaskablePPO calls, so no ``ActionMasker`` is needed. The learner's seat is
drawn at every reset; it is paid +1 / -1 for each round it wins or loses
(``reward="win"``, ``reward_at="round"``: denser than one payment a game). Before and
after training, ``--eval`` games against the random bot (new seeds, seats drawn) give
the win rate of the greedy (most likely) masked action. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from sb3_contrib import MaskablePPO

from cardtable.rl.gym_env import SkyjoGymEnv

RULES = {"players": 2}


def make_env() -> SkyjoGymEnv:
    # max_steps: a policy that never turns its last cards up would make long rounds.
    return SkyjoGymEnv(RULES, opponents="random", seat=None, reward="win", reward_at="round",
                       max_steps=1000)  # fmt: skip


def win_rate(model: Any, games: int, seed: int) -> float:
    """Share of ``games`` whole games won against the random bot."""
    env = SkyjoGymEnv(RULES, opponents="random", seat=None, max_steps=1000)
    wins = 0
    obs, _ = env.reset(seed=seed)
    for _ in range(games):
        while True:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            if terminated or truncated:
                break
        wins += reward > 0
        obs, _ = env.reset()
    return wins / games


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100_000)
    parser.add_argument("--eval", type=int, default=500, help="evaluation games")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    model = MaskablePPO("MlpPolicy", make_env(), seed=args.seed, verbose=0, device="cpu")
    before = win_rate(model, args.eval, 10_000 + args.seed)
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    seconds = time.perf_counter() - start
    after = win_rate(model, args.eval, 20_000 + args.seed)
    report = {
        "steps": args.steps,
        "eval_games": args.eval,
        "win_rate_untrained": before,
        "win_rate_trained": after,
        "training_seconds": seconds,
    }
    print(json.dumps(report))
    return report


if __name__ == "__main__":
    main()
