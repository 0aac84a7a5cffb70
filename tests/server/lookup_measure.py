"""What the cluster's count of room code misses costs (a measurement, not a test): a
throwaway PostgreSQL migrated to the head, then ``--misses`` misses counted the way
:meth:`ClusterLookups.missed` counts them (one upsert in ``throttles`` each), from
``--addresses`` addresses in turn, one after another and then ``--concurrency`` at once;
prints the time per miss. A look-up that finds its room writes nothing.

    .venv/bin/python -m tests.server.lookup_measure --misses 5000 --addresses 500
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from cardtable.server.edges.lookups import ClusterLookups
from cardtable.server.storage.store import Storage

from .postgres import throwaway_database


async def measure(url: str, misses: int, addresses: int, concurrency: int) -> None:
    storage = Storage(url)
    await storage.open()
    try:
        lookups = ClusterLookups(20, 60.0, storage, 10**9, 900.0)
        names = [f"198.51.{i // 256}.{i % 256}" for i in range(addresses)]
        each = []
        for index in range(misses):
            began = time.perf_counter()
            await lookups.missed(names[index % addresses])
            each.append(time.perf_counter() - began)
        each.sort()
        print(
            f"one at a time: {misses} misses, median {statistics.median(each) * 1000:.2f} ms,"
            f" 99th percentile {each[int(0.99 * len(each))] * 1000:.2f} ms"
        )
        began = time.perf_counter()
        for start in range(0, misses, concurrency):
            batch = range(start, min(misses, start + concurrency))
            await asyncio.gather(*(lookups.missed(names[i % addresses]) for i in batch))
        spent = time.perf_counter() - began
        print(
            f"{concurrency} at once: {misses} misses in {spent:.2f} s,"
            f" {misses / spent:.0f} misses a second"
        )
    finally:
        await storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--misses", type=int, default=5000)
    parser.add_argument("--addresses", type=int, default=500)
    parser.add_argument("--concurrency", type=int, default=20)
    args = parser.parse_args()
    with throwaway_database() as url:
        asyncio.run(measure(url, args.misses, args.addresses, args.concurrency))


if __name__ == "__main__":
    main()
