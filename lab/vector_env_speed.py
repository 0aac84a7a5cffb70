"""Steps per second of the vector envs: the reference one and the batch engine's.

    taskset -c 1 python -m lab vector_env_speed --envs 8 64 256 --seconds 3
    taskset -c 1 python -m lab vector_env_speed --game skipbo --envs 8 64 256
    taskset -c 1 python -m lab vector_env_speed --envs 256 --opponents greedy frozen

For each number of envs, both vector envs (``make_vector_env(GAME, N)`` and
``make_vector_env(GAME, N, engine="fast")``, default rules, random opponents) are
stepped in turn in slices of 0.25 s until each has had ``--seconds`` of CPU time,
with actions sampled uniformly among the legal ones by one numpy operation on the
batch of masks. Reported per env: steps per CPU second inside ``step()`` alone (the
env's own cost) and including the sampling (what a random policy would see).

With ``--opponents`` (several names) the batch engine's env alone is measured against
each in turn, in the same slices: ``frozen`` is a learned policy's network of
``--hidden`` layers (default the trainer's two of 256) with random weights, evaluated
in the kernel for every move of its seats.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from cardtable.bots.learned_net import PolicyWeights
from cardtable.fast import skipbo_env, skyjo_env
from cardtable.games import get_game
from cardtable.rl.gym_env import make_vector_env

SLICE = 0.25


def random_policy(game: str, hidden: Sequence[int], players: int | None = None) -> PolicyWeights:
    """A network of the trainer's shape (for the default rules' players unless given),
    with random weights."""
    if players is None:
        players = int(get_game(game).rules_from_json({}).players)  # type: ignore[attr-defined]
    kernels = skyjo_env if game == "skyjo" else skipbo_env
    widths = [kernels.observation_size(players), *hidden, get_game(game).num_actions]
    rng = np.random.default_rng(0)
    layers = tuple(
        (rng.normal(0.0, widths[i] ** -0.5, (widths[i], widths[i + 1])), np.zeros(widths[i + 1]))
        for i in range(len(widths) - 1)
    )
    ones = np.ones(widths[0])
    return PolicyWeights(game, players, 1, 0 * ones, ones, layers)


class Runner:
    def __init__(
        self,
        game: str,
        engine: str,
        num_envs: int,
        opponents: str = "random",
        frozen: PolicyWeights | None = None,
    ) -> None:
        self.num_envs = num_envs
        options: dict[str, Any] = {"frozen": frozen} if opponents == "frozen" else {}
        self.envs = make_vector_env(game, num_envs, engine=engine, opponents=opponents, **options)
        _, self.infos = self.envs.reset(seed=0)
        self.rng = np.random.default_rng(0)
        self.steps = 0
        self.inside = 0.0
        self.total = 0.0

    def run(self, seconds: float) -> None:
        start = time.process_time()
        while time.process_time() - start < seconds:
            masks = self.infos["action_mask"]
            actions = (self.rng.random(masks.shape) * masks).argmax(axis=1)
            before = time.process_time()
            *_, self.infos = self.envs.step(actions)
            self.inside += time.process_time() - before
            self.steps += self.num_envs
        self.total += time.process_time() - start

    def figures(self) -> dict[str, Any]:
        return {
            "steps": self.steps,
            "steps_per_cpu_s_in_step": self.steps / self.inside,
            "steps_per_cpu_s_with_sampling": self.steps / self.total,
        }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("skyjo", "skipbo"), default="skyjo")
    parser.add_argument("--envs", type=int, nargs="+", default=[8, 64, 256])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--opponents", nargs="+", default=["random"])
    parser.add_argument("--hidden", type=int, nargs="+", default=[256, 256])
    args = parser.parse_args(argv)
    if len(args.opponents) > 1 or args.opponents == ["frozen"]:
        # The reference env has no frozen opponent: a frozen env is timed on its own.
        compare_opponents(args)
        return
    for num_envs in args.envs:
        runners = {
            engine: Runner(args.game, engine, num_envs, args.opponents[0])
            for engine in ("reference", "fast")
        }
        runners["fast"].run(0.1)  # compiles or loads the kernels, before the clock
        rounds = max(1, round(args.seconds / SLICE))
        for _ in range(rounds):
            for runner in runners.values():
                runner.run(SLICE)
        figures = {engine: runner.figures() for engine, runner in runners.items()}
        ratio = (
            figures["fast"]["steps_per_cpu_s_in_step"]
            / figures["reference"]["steps_per_cpu_s_in_step"]
        )
        print(json.dumps({"envs": num_envs, **figures, "ratio_in_step": ratio}))


def compare_opponents(args: argparse.Namespace) -> None:
    """The batch engine's env against each of ``args.opponents``, in the same slices."""
    frozen = random_policy(args.game, args.hidden)
    for num_envs in args.envs:
        runners = {
            name: Runner(args.game, "fast", num_envs, name, frozen) for name in args.opponents
        }
        for runner in runners.values():
            runner.run(0.1)  # compiles or loads the kernels, before the clock
        for _ in range(max(1, round(args.seconds / SLICE))):
            for runner in runners.values():
                runner.run(SLICE)
        print(json.dumps({"envs": num_envs, **{n: r.figures() for n, r in runners.items()}}))


if __name__ == "__main__":
    main()
