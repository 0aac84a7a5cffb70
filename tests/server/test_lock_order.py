"""Everything that locks rooms' rows on PostgreSQL locks them in one order (by code), so
a node's lease rounds and its move batches never deadlock (issue 49).

The rooms are inserted in a shuffled order, so that the table's physical order is not
the codes' order: a statement that locks rows as it scans them (an ``UPDATE ... WHERE
code IN (...)``) then takes them in another order than one that locks them by code.
Lease rounds and releases run against move batches over the same rooms, on a database
whose ``deadlock_timeout`` is 20 ms, and PostgreSQL's own log must not say
``deadlock detected``; the node's counter of deadlocks must stay at zero.
"""

from __future__ import annotations

import asyncio
import random
import time

import asyncpg  # type: ignore[import-untyped]

from cardtable.server.storage.store import Storage

from .test_group_commit import _room

ROOMS = 300
SECONDS = 4.0


async def _set_deadlock_timeout(cluster, url: str) -> None:
    name = url.rsplit("/", 1)[1]
    connection = await asyncpg.connect(
        host="127.0.0.1", port=cluster.port, user="postgres", database="postgres"
    )
    try:
        await connection.execute(f"ALTER DATABASE \"{name}\" SET deadlock_timeout = '20ms'")
    finally:
        await connection.close()


async def _lease_rounds_beside_move_batches(url: str) -> tuple[int, int]:
    codes = [f"R{n:04d}" for n in range(ROOMS)]
    random.Random(4).shuffle(codes)
    storage = Storage(url)
    await storage.open()
    try:
        epochs: dict[str, int] = {}
        for code in codes:
            record = _room(code)
            await storage.insert_room(record)
            await storage.start_game(record, [])
            claimed = await storage.claim_room(code, "node-a", 60.0)
            assert claimed is not None
            epochs[code] = claimed.epoch
        stop = time.monotonic() + SECONDS
        moved = rounds = 0
        index = dict.fromkeys(codes, 0)

        async def lease_rounds() -> None:
            nonlocal rounds
            while time.monotonic() < stop:
                lost, _wanted = await storage.renew_leases("node-a", dict(epochs), 60.0)
                assert lost == set()
                rounds += 1

        async def move_batches(seed: int) -> None:
            nonlocal moved
            rng = random.Random(seed)
            while time.monotonic() < stop:
                batch = rng.sample(codes, 60)
                for code in batch:
                    index[code] += 1
                await asyncio.gather(
                    *(
                        storage.record_move(
                            code, 1, index[code], 0, 3, 2 + index[code], None, epochs[code]
                        )
                        for code in batch
                    )
                )
                moved += len(batch)

        await asyncio.gather(lease_rounds(), lease_rounds(), move_batches(1), move_batches(2))
        # A release locks the same rows as a renewal: both in code order.
        await storage.release_rooms("node-a", dict(epochs))
        assert storage.lock_trouble.deadlocks == 0
        return rounds, moved
    finally:
        await storage.close()


def test_lease_rounds_and_move_batches_never_deadlock(postgres_cluster, postgres_url):
    asyncio.run(_set_deadlock_timeout(postgres_cluster, postgres_url))
    logged_before = postgres_cluster.log.read_text(errors="replace")
    rounds, moved = asyncio.run(_lease_rounds_beside_move_batches(postgres_url))
    assert rounds >= 4 and moved >= 600  # the two sides did meet, many times
    logged = postgres_cluster.log.read_text(errors="replace")[len(logged_before) :]
    assert "deadlock detected" not in logged, logged[-3000:]
