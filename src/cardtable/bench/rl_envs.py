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
- ``sync xN``: the same N envs in Gymnasium's ``SyncVectorEnv``, for comparison;
- ``fast xN`` (with ``--engine fast``, Skyjo): the vector env on the compiled batch
  engine (``make_vector_env(..., engine="fast")``), with the same policy loop.

The learner's policy is the same everywhere: per env, ``np.flatnonzero`` of the mask
and a uniform draw with the benchmark's own seeded generator. The four set-ups run in
turn in short slices (each gets a quarter of ``--seconds`` in all), so a change of the
machine's load during the run affects them alike.

The bots' own moves inside a Gymnasium step are counted separately as engine moves.
Each figure is given per second of wall-clock time and per second of this process's
CPU time: on a machine shared with other work the second is the steadier one (the
header shows the load average when the run started).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable, Iterator
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


class _Clock:
    """The end of the current slice, shared by the runners."""

    deadline = 0.0


Runner = Iterator[tuple[int, int]]


def _aec_runner(game_name: str, rules: RulesBase, clock: _Clock) -> Runner:
    import numpy as np

    from ..rl.aec import aec_env

    env = aec_env(game_name, rules=rules)
    env.reset(seed=0)
    rng = Rng(0)
    steps = 0
    yield 0, 0  # set up
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
        if steps % 64 == 0 and time.perf_counter() >= clock.deadline:
            yield steps, steps


def _single_runner(game_name: str, rules: RulesBase, bots: str, clock: _Clock) -> Runner:
    import numpy as np

    from ..rl.gym_env import gym_env

    env = gym_env(game_name, rules=rules, opponents=bots)
    _, info = env.reset(seed=0)
    rng = Rng(0)
    steps = 0
    finished_moves = -len(env.game_state.history)  # the bots' moves before the first step
    yield 0, 0
    while True:
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, _, info = env.step(int(legal[rng.below(len(legal))]))
        steps += 1
        if terminated:
            finished_moves += len(env.game_state.history)
            _, info = env.reset()
        if steps % 64 == 0 and time.perf_counter() >= clock.deadline:
            yield steps, finished_moves + len(env.game_state.history)


def _vector_loop(
    envs: Any,
    num_envs: int,
    moves_so_far: Callable[[], int],
    moves_of: Callable[[int], int],
    clock: _Clock,
) -> Runner:
    """Random legal actions for every env of ``envs``, for either vector env:
    ``moves_so_far()`` is the moves of the games being played, ``moves_of(index)`` those
    of env ``index``'s game (read when it finishes, before it is replaced)."""
    import numpy as np

    _, infos = envs.reset(seed=0)
    rng = Rng(0)
    steps = 0
    finished_moves = -moves_so_far()
    yield 0, 0
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
            finished_moves += moves_of(index)
        if time.perf_counter() >= clock.deadline:
            yield steps, finished_moves + moves_so_far()


def _vector_runner(
    game_name: str, rules: RulesBase, num_envs: int, bots: str, sync: bool, clock: _Clock
) -> Runner:
    from ..rl.gym_env import make_vector_env

    envs = make_vector_env(game_name, num_envs, sync=sync, rules=rules, opponents=bots)
    inner = [env.unwrapped for env in envs.envs]  # type: ignore[attr-defined]

    def moves_of(index: int) -> int:
        return len(inner[index].game_state.history)

    def moves_so_far() -> int:
        return sum(len(env.game_state.history) for env in inner)

    return _vector_loop(envs, num_envs, moves_so_far, moves_of, clock)


def _fast_vector_runner(
    game_name: str, rules: RulesBase, num_envs: int, bots: str, clock: _Clock
) -> Runner:
    from ..rl.gym_env import make_vector_env

    envs: Any = make_vector_env(game_name, num_envs, engine="fast", rules=rules, opponents=bots)
    moves = envs.batch.moves_array()  # a view: each game's moves since its deal

    def moves_of(index: int) -> int:
        return int(moves[index])

    def moves_so_far() -> int:
        return int(moves.sum())

    return _vector_loop(envs, num_envs, moves_so_far, moves_of, clock)


#: Each set-up runs for slices of at most this many seconds, in turn with the others.
SLICE = 0.25


def run_rl_bench(
    game_name: str,
    rules: RulesBase,
    *,
    seconds: float,
    num_envs: int,
    bots: str,
    engine: str = "reference",
) -> list[RlFigure]:
    """Measure the four set-ups, each for a quarter of ``seconds``.

    They run in turn, in slices of at most :data:`SLICE` seconds, so that all four see
    the same conditions on a machine whose load changes from second to second.
    """
    clock = _Clock()
    runners: dict[str, Runner] = {
        "aec": _aec_runner(game_name, rules, clock),
        "gym": _single_runner(game_name, rules, bots, clock),
        f"gym x{num_envs}": _vector_runner(game_name, rules, num_envs, bots, False, clock),
        f"sync x{num_envs}": _vector_runner(game_name, rules, num_envs, bots, True, clock),
    }
    if engine == "fast":
        runners[f"fast x{num_envs}"] = _fast_vector_runner(game_name, rules, num_envs, bots, clock)
    for runner in runners.values():
        next(runner)  # build and reset the environments, not measured
    share = seconds / len(runners)
    rounds = max(1, math.ceil(share / SLICE))
    wall = dict.fromkeys(runners, 0.0)
    cpu = dict.fromkeys(runners, 0.0)
    counts = dict.fromkeys(runners, (0, 0))
    for _ in range(rounds):
        for name, runner in runners.items():
            cpu_start = time.process_time()
            start = time.perf_counter()
            clock.deadline = start + share / rounds
            counts[name] = next(runner)
            wall[name] += time.perf_counter() - start
            cpu[name] += time.process_time() - cpu_start
    return [
        RlFigure(name, counts[name][0], wall[name], counts[name][1], cpu[name]) for name in runners
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
        game_name, rules, seconds=args.seconds, num_envs=args.envs, bots=args.rl_bots,
        engine=args.engine,
    )  # fmt: skip
    print(format_rl_bench(title, rules, figures, load))
    return {
        "game": game_name,
        "rules": rules.to_json(),
        "load_average": None if load is None else list(load),
        "rl": [f.to_json() for f in figures],
    }
