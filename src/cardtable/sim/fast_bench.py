"""Random-play throughput of a compiled batch engine (``cardtable bench --engine fast``).

Games are played ``batch`` at a time to their ends by the engine's compiled random
policy (legal-move generation and the move itself, both compiled, on one core: the
kernels run no threads). Game ``i`` is dealt from seed ``i``, as in the reference
benchmark, and its policy is seeded from ``i`` too, so two runs do the same work. The
kernels are compiled (or loaded from numba's cache) before the clock starts.
"""

from __future__ import annotations

import os
import platform
import time

from ..core import RulesBase
from .bench import BenchReport, Throughput


def run_fast_bench(
    game_name: str,
    rules: RulesBase,
    *,
    seconds: float = 5.0,
    games: int | None = None,
    batch: int = 256,
) -> BenchReport:
    """Play batches of random games for ``seconds`` (or exactly ``games`` games)."""
    from ..fast.engines import POLICY_SALT, batch_engine

    if seconds <= 0 and games is None:
        raise ValueError("give a positive time budget or a number of games")
    if games is not None:
        batch = min(batch, games)
    engine = batch_engine(game_name, rules, batch)
    # Untimed warm-up: compiles the kernels or loads them from the cache.
    engine.reset(range(batch))
    engine.play_random(range(batch))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    played = moves = 0
    cpu_start = time.process_time()
    start = time.perf_counter()
    while True:
        size = batch if games is None else min(batch, games - played)
        if size < batch:
            engine = batch_engine(game_name, rules, size)
        seeds = range(played, played + size)
        engine.reset(seeds)
        moves += engine.play_random([seed ^ POLICY_SALT for seed in seeds])
        played += size
        elapsed = time.perf_counter() - start
        if (games is not None and played >= games) or (games is None and elapsed >= seconds):
            break
    row = Throughput(
        f"random, batch of {batch}",
        "moves",
        moves,
        elapsed,
        played,
        time.process_time() - cpu_start,
    )
    return BenchReport(game_name, rules.to_json(), platform.python_version(), (row,), load)
