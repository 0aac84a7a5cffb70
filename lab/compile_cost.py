"""Where the compiled engines' first-use compile time goes, kernel by kernel.

    NUMBA_CACHE_DIR=$(mktemp -d) taskset -c 1 python -m lab compile_cost vector skyjo
    NUMBA_CACHE_DIR=$(mktemp -d) taskset -c 1 python -m lab compile_cost vector skipbo
    NUMBA_CACHE_DIR=$(mktemp -d) taskset -c 1 python -m lab compile_cost warm
    NUMBA_CACHE_DIR=$(mktemp -d) python -m lab compile_cost vector skipbo --opponents frozen

Runs one scenario (``vector GAME``: build an 8-env vector env of the batch engine,
4 players for Skyjo, 2 for Skip-Bo, and ``reset`` it, as issue 37 measured; ``warm``:
compile every kernel, as ``cardtable fast warm``) with numba's compile events
recorded, then prints a JSON report: the wall and CPU time, and per compiled kernel
how many specializations were compiled (one per distinct argument types), its own
time (nested compiles of the kernels it calls excluded) and how much of that numba's
passes spent in type inference, in lowering and in LLVM (the ``llvm_lock`` events:
optimization and machine code). Give it an empty cache directory: a kernel loaded from
the cache compiles nothing and is not reported.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from numba.core import event


class CompileRecorder(event.Listener):
    """Own time per kernel (nested compiles subtracted) from ``numba:compile`` events."""

    def __init__(self) -> None:
        self.stack: list[list[Any]] = []
        self.own: dict[str, float] = defaultdict(float)
        self.count: dict[str, int] = defaultdict(int)

    def on_start(self, ev: event.Event) -> None:
        dispatcher = ev.data["dispatcher"]
        name = f"{dispatcher.py_func.__module__}.{dispatcher.py_func.__qualname__}"
        self.stack.append([name, time.perf_counter(), 0.0])

    def on_end(self, ev: event.Event) -> None:
        name, start, nested = self.stack.pop()
        elapsed = time.perf_counter() - start
        self.own[name] += elapsed - nested
        self.count[name] += 1
        if self.stack:
            self.stack[-1][2] += elapsed


class PassRecorder(event.Listener):
    """Time per numba pass and kernel, from ``numba:run_pass`` events (own time)."""

    def __init__(self) -> None:
        self.stack: list[list[Any]] = []
        self.by_pass: dict[str, float] = defaultdict(float)
        self.by_kernel_pass: dict[tuple[str, str], float] = defaultdict(float)

    def on_start(self, ev: event.Event) -> None:
        self.stack.append([ev.data, time.perf_counter(), 0.0])

    def on_end(self, ev: event.Event) -> None:
        data, start, nested = self.stack.pop()
        elapsed = time.perf_counter() - start
        pass_name = data["name"].split(" [", 1)[0]
        own = elapsed - nested
        self.by_pass[pass_name] += own
        self.by_kernel_pass[(f"{data['module']}.{data['qualname']}", pass_name)] += own
        if self.stack:
            self.stack[-1][2] += elapsed


def run_vector(game: str, opponents: str) -> None:
    from cardtable.rl.gym_env import make_vector_env

    players = 4 if game == "skyjo" else 2
    options: dict[str, Any] = {"opponents": opponents}
    if opponents == "frozen":  # a network of the trainer's shape (random weights)
        from .vector_env_speed import random_policy

        options["frozen"] = random_policy(game, [256, 256], players)
    envs = make_vector_env(game, 8, engine="fast", rules={"players": players}, **options)
    envs.reset(seed=0)


def run_warm() -> None:
    from cardtable.warmup import warm

    warm(jobs=1)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", choices=("vector", "warm"))
    parser.add_argument("game", nargs="?", choices=("skyjo", "skipbo"), default="skyjo")
    parser.add_argument("--opponents", default="random", help="the vector env's (vector only)")
    args = parser.parse_args(argv)
    compiles, passes = CompileRecorder(), PassRecorder()
    llvm: list[float] = []
    wall, cpu = time.perf_counter(), time.process_time()
    with (
        event.install_listener("numba:compile", compiles),
        event.install_listener("numba:run_pass", passes),
        event.install_timer("numba:llvm_lock", llvm.append),
    ):
        if args.scenario == "vector":
            run_vector(args.game, args.opponents)
        else:
            run_warm()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    kernels = sorted(compiles.own, key=compiles.own.__getitem__, reverse=True)
    report = {
        "scenario": " ".join(
            [args.scenario] + ([args.game, args.opponents] if args.scenario == "vector" else [])
        ),
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "llvm_s": round(sum(llvm), 1),
        "passes_s": {
            name: round(seconds, 1)
            for name, seconds in sorted(passes.by_pass.items(), key=lambda item: -item[1])
            if seconds >= 0.5
        },
        "kernels": [
            {
                "kernel": name.removeprefix("cardtable.fast."),
                "compiles": compiles.count[name],
                "own_s": round(compiles.own[name], 1),
                "type_inference_s": round(
                    passes.by_kernel_pass[(name, "nopython_type_inference")], 1
                ),
                "lowering_s": round(passes.by_kernel_pass[(name, "native_lowering")], 1),
            }
            for name in kernels
        ],
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
