"""Tournament games spread over an existing Dask distributed cluster (extra ``cluster``).

``play_on_cluster(address, work, batches)`` sends each batch of game indices to the
scheduler at ``address`` as one task of ``work(batch)`` and returns the records in
batch order. Every game is a pure function of its index (its deal, seats and bot
streams are derived from the tournament seed and the index), so the records, and so
every figure, are the same whatever the number of workers or machines, and the same
as on one core. Why Dask and not Ray: see docs/architecture.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


def play_on_cluster(
    address: str,
    work: Callable[[list[int]], list[T]],
    batches: Sequence[list[int]],
    progress: Callable[[int], None] | None = None,
) -> list[T]:
    """``work(batch)`` for every batch on the cluster at ``address``, results in order.

    ``work`` must be picklable (a module-level function or a ``functools.partial`` of
    one) and importable on the workers, which need cardtable installed. Raises
    ``ModuleNotFoundError`` without the extra and ``OSError`` when no scheduler answers.
    """
    import distributed

    # distributed's own annotations leave these two untyped.
    client_type: Any = distributed.Client
    as_completed: Any = distributed.as_completed
    results: dict[int, list[T]] = {}
    done = 0
    with client_type(address, timeout="10s") as client:
        futures = {
            client.submit(
                work, batch, pure=False, key=f"cardtable-batch-{number}-{id(batches)}"
            ): number
            for number, batch in enumerate(batches)
        }
        for future in as_completed(futures):
            number = futures[future]
            results[number] = future.result()
            done += len(results[number])
            if progress is not None:
                progress(done)
    return [item for number in range(len(batches)) for item in results[number]]
