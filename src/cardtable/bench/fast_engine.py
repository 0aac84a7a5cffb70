"""Random-play throughput of a compiled batch engine (``cardtable bench --engine fast``).

Games are played ``batch`` at a time to their ends by the engine's compiled random
policy (legal-move generation and the move itself, both compiled, on one core: the
kernels run no threads). Game ``i`` is dealt from seed ``i``, as in the reference
benchmark, and its policy is seeded from ``i`` too, so two runs do the same work. The
kernels are compiled (or loaded from numba's cache) before the clock starts.

Then one row per compiled bot (``greedy`` and ``hard``): games of the
tournament seeded 0 with that bot in every seat, ``batch`` at a time, as ``cardtable
sim --engine fast`` plays them (the time includes building each game's record). The
time budget is shared evenly between the rows; the JSON headline stays random play.
"""

from __future__ import annotations

import os
import platform
import time

import numpy as np

from ..core import RulesBase
from ..sim.fast_tournament import fast_bot_names, play_records
from ..sim.tournament import seat_assignment
from .engine import BenchReport, Throughput


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
    bots = [name for name in fast_bot_names(game_name) if name != "random"]
    seconds /= 1 + len(bots)
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
    rows = [
        Throughput(
            f"random, batch of {batch}",
            "moves",
            moves,
            elapsed,
            played,
            time.process_time() - cpu_start,
        )
    ]
    rows += [_time_bot(game_name, rules, bot, seconds, games, batch) for bot in bots]
    return BenchReport(game_name, rules.to_json(), platform.python_version(), tuple(rows), load)


def _time_bot(
    game_name: str, rules: RulesBase, bot: str, seconds: float, games: int | None, batch: int
) -> Throughput:
    """Tournament games with ``bot`` in every seat for ``seconds`` (or ``games`` games)."""
    seats = seat_assignment([bot], rules.players)  # type: ignore[attr-defined]
    play_records(game_name, rules, seats, 0, np.arange(1, dtype=np.int64))  # compile, untimed
    played = moves = 0
    cpu_start = time.process_time()
    start = time.perf_counter()
    while True:
        size = batch if games is None else min(batch, games - played)
        indices = np.arange(played, played + size, dtype=np.int64)
        moves += sum(record.moves for record in play_records(game_name, rules, seats, 0, indices))
        played += size
        elapsed = time.perf_counter() - start
        if (games is not None and played >= games) or (games is None and elapsed >= seconds):
            break
    cpu = time.process_time() - cpu_start
    return Throughput(f"{bot}, tournament, batch of {batch}", "moves", moves, elapsed, played, cpu)
