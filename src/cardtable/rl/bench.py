"""``cardtable bench GAME --rl``: environment steps per second with observations.

This module is imported by the command line to add its flags, so it imports
numpy, Gymnasium and PettingZoo only inside :func:`run_rl_bench`.

Four figures, each on one core, each counting one step as one learner/agent
action with its observation and action mask computed:

- ``aec``: the PettingZoo AEC env, every seat playing uniformly random legal moves,
  ``observe()`` called for the agent to move before every step;
- ``gym``: one single-agent Gymnasium env stepped directly, reset when its game ends
  (learner random, bots ``--rl-bots``);
- ``gym xN``: the vector env of N such envs that ``make_vector_env`` returns
  (:class:`cardtable.rl.vector.CardtableVectorEnv`); steps = N per vector step (its
  batching included);
- ``sync xN``: the same N envs in Gymnasium's ``SyncVectorEnv``, for comparison.

The learner's policy is the same everywhere: per env, ``np.flatnonzero`` of the mask
and a uniform draw with the benchmark's own seeded generator.

The bots' own moves inside a Gymnasium step are counted separately as engine moves.
Each figure is given per second of wall-clock time and per second of this process's
CPU time: on a machine shared with other work the second is the steadier one (the
header shows the load average when the run started).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

from ..core import JSON, Rng, RulesBase


def _count(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def add_rl_bench_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``--rl`` flags of ``cardtable bench``."""
    group = parser.add_argument_group("reinforcement-learning environments (extra 'rl')")
    group.add_argument(
        "--rl", action="store_true", help="measure the RL environments' steps per second"
    )
    group.add_argument(
        "--envs", type=_count, default=8, metavar="N", help="environments in the vector env (8)"
    )
    group.add_argument(
        "--rl-bots", default="random", metavar="NAME", help="opponents of the Gymnasium env"
    )


@dataclass(frozen=True, slots=True)
class RlFigure:
    name: str
    steps: int
    seconds: float
    engine_moves: int
    cpu_seconds: float = 0.0

    @property
    def per_second(self) -> float:
        return self.steps / self.seconds if self.seconds > 0 else 0.0

    @property
    def per_cpu_second(self) -> float:
        return self.steps / self.cpu_seconds if self.cpu_seconds > 0 else 0.0

    def to_json(self) -> JSON:
        return {
            "name": self.name,
            "steps": self.steps,
            "seconds": self.seconds,
            "steps_per_second": self.per_second,
            "cpu_seconds": self.cpu_seconds,
            "steps_per_cpu_second": self.per_cpu_second,
            "engine_moves": self.engine_moves,
        }


def _bench_aec(game_name: str, rules: RulesBase, seconds: float) -> RlFigure:
    import numpy as np

    from .aec import aec_env

    env = aec_env(game_name, rules=rules)
    env.reset(seed=0)
    rng = Rng(0)
    steps = 0
    cpu_start = time.process_time()
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        agent = env.agent_selection
        obs = env.observe(agent)
        if env.terminations[agent]:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.below(len(legal))]))
        steps += 1
        if steps % 256 == 0 and time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return RlFigure("aec", steps, elapsed, steps, time.process_time() - cpu_start)


def _bench_single(game_name: str, rules: RulesBase, seconds: float, bots: str) -> RlFigure:
    import numpy as np

    from .gym_env import gym_env

    env = gym_env(game_name, rules=rules, opponents=bots)
    _, info = env.reset(seed=0)
    rng = Rng(0)
    steps = 0
    finished_moves = 0
    cpu_start = time.process_time()
    start = time.perf_counter()
    moves_before = len(env.game_state.history)
    deadline = start + seconds
    while True:
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, _, info = env.step(int(legal[rng.below(len(legal))]))
        steps += 1
        if terminated:
            finished_moves += len(env.game_state.history)
            _, info = env.reset()
        if steps % 256 == 0 and time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    moves = finished_moves + len(env.game_state.history) - moves_before
    return RlFigure("gym", steps, elapsed, moves, cpu)


def _bench_gym(
    game_name: str, rules: RulesBase, seconds: float, num_envs: int, bots: str, sync: bool
) -> RlFigure:
    import numpy as np

    from .gym_env import make_vector_env

    envs = make_vector_env(game_name, num_envs, sync=sync, rules=rules, opponents=bots)
    inner = _inner(envs)
    _, infos = envs.reset(seed=0)
    rng = Rng(0)
    steps = 0
    cpu_start = time.process_time()
    start = time.perf_counter()
    moves_before = sum(len(env.game_state.history) for env in inner)
    finished_moves = 0
    deadline = start + seconds
    while True:
        masks = infos["action_mask"]
        actions = np.zeros(num_envs, dtype=np.int64)
        for index in range(num_envs):
            legal = np.flatnonzero(masks[index])
            if len(legal):
                actions[index] = legal[rng.below(len(legal))]
        _, _, terminated, truncated, infos = envs.step(actions)
        steps += num_envs
        # A finished game is replaced on the next step: count its moves now.
        for index in np.flatnonzero(terminated | truncated).tolist():
            finished_moves += len(inner[index].game_state.history)
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    moves = finished_moves + sum(len(env.game_state.history) for env in inner)
    envs.close()
    label = f"{'sync' if sync else 'gym'} x{num_envs}"
    return RlFigure(label, steps, elapsed, moves - moves_before, cpu)


def _inner(envs: Any) -> list[Any]:
    return [env.unwrapped for env in envs.envs]


def run_rl_bench(
    game_name: str, rules: RulesBase, *, seconds: float, num_envs: int, bots: str
) -> list[RlFigure]:
    """Measure the four figures, splitting ``seconds`` between them."""
    share = seconds / 4
    return [
        _bench_aec(game_name, rules, share),
        _bench_single(game_name, rules, share, bots),
        _bench_gym(game_name, rules, share, num_envs, bots, sync=False),
        _bench_gym(game_name, rules, share, num_envs, bots, sync=True),
    ]


def load_average() -> tuple[float, float, float] | None:
    """The 1, 5 and 15 minute load averages, or None where the system has none."""
    import os

    try:
        return os.getloadavg()
    except (AttributeError, OSError):  # pragma: no cover - not on Linux or macOS
        return None


def format_rl_bench(
    title: str,
    rules: RulesBase,
    figures: list[RlFigure],
    load: tuple[float, float, float] | None = None,
) -> str:
    import platform

    lines = [
        f"{title} RL environments, one core, Python {platform.python_version()}",
        f"rules: {rules.to_json()}",
    ]
    if load is not None:
        lines.append("load average at the start: " + ", ".join(f"{x:.2f}" for x in load))
    lines.append(
        f"{'environment':<12} {'steps':>9} {'seconds':>8} {'steps/s':>10} "
        f"{'steps/cpu-s':>12} {'engine moves/s':>15}"
    )
    for figure in figures:
        moves = figure.engine_moves / figure.seconds if figure.seconds > 0 else 0.0
        lines.append(
            f"{figure.name:<12} {figure.steps:>9} {figure.seconds:>8.2f} "
            f"{figure.per_second:>10,.0f} {figure.per_cpu_second:>12,.0f} {moves:>15,.0f}"
        )
    return "\n".join(lines)


def rl_bench_command(game_name: str, title: str, rules: RulesBase, args: Any) -> JSON:
    """Run the benchmark for the command line, print it, and return the figures as JSON."""
    load = load_average()
    figures = run_rl_bench(
        game_name, rules, seconds=args.seconds, num_envs=args.envs, bots=args.rl_bots
    )
    print(format_rl_bench(title, rules, figures, load))
    return {
        "game": game_name,
        "rules": rules.to_json(),
        "load_average": None if load is None else list(load),
        "rl": [f.to_json() for f in figures],
    }
