"""Moves are committed in groups: moves of many rooms arriving together share one
transaction, each caller returns only once its move is on disk, and a bad row refuses
only its own move."""

from __future__ import annotations

import asyncio
import time

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from cardtable.server.ops.config import sqlite_url
from cardtable.server.storage.records import RoomRecord
from cardtable.server.storage.store import Storage


def _room(code: str) -> RoomRecord:
    now = time.time()
    return RoomRecord(
        code=code, game="skyjo", rules={"players": 2}, seats=[], host_hash="0" * 64,
        status="playing", game_no=1, seed=7, version=2, start_version=2, client="test",
        created_at=now, updated_at=now,
    )  # fmt: skip


async def fetch(url, sql, **params):
    """Rows of one query on a connection of its own (not the storage's)."""
    engine = create_async_engine(url, poolclass=NullPool)
    try:
        async with engine.connect() as connection:
            return [tuple(row) for row in await connection.execute(sa.text(sql), params)]
    finally:
        await engine.dispose()


def rows(url, sql, **params):
    return asyncio.run(fetch(url, sql, **params))


async def _open(url, codes, writer_thread=True):
    storage = Storage(url, writer_thread=writer_thread)
    await storage.open()
    for code in codes:
        record = _room(code)
        await storage.insert_room(record)
        await storage.start_game(record, [])
    return storage


@pytest.fixture(params=["thread", "async", "postgresql"])
def path(request, tmp_path):
    """(database URL, writer_thread): SQLite through its writer thread, SQLite through
    the async engine (every other database's path), and PostgreSQL."""
    if request.param == "postgresql":
        return request.getfixturevalue("postgres_url"), True
    return sqlite_url(tmp_path), request.param == "thread"


def test_concurrent_moves_of_many_rooms_are_all_committed_before_their_callers_return(path):
    url, writer_thread = path
    codes = [f"R{i:03d}" for i in range(60)]
    transactions = []

    async def scenario():
        storage = await _open(url, codes, writer_thread)
        assert storage.engine is not None

        async def play(code, index):
            await storage.record_move(code, 1, index, index % 2, 40 + index, 3 + index, None)
            # Once the call returns, a separate connection sees the move.
            seen = await fetch(
                url, "SELECT action FROM moves WHERE room_code=:c AND idx=:i", c=code, i=index
            )
            assert seen == [(40 + index,)]

        for index in range(3):
            await asyncio.gather(*(play(code, index) for code in codes))
        result = {"winners": [0]}
        await storage.record_move(codes[0], 1, 3, 1, 50, 6, result)
        transactions.append(storage.move_writer.commits)
        await storage.close()

    asyncio.run(scenario())
    [commits] = transactions
    assert 0 < commits < 3 * len(codes)  # grouped, not one commit per move
    assert rows(url, "SELECT count(*) FROM moves") == [(3 * len(codes) + 1,)]
    versions = dict(rows(url, "SELECT code, version FROM rooms"))
    assert versions[codes[0]] == 6 and all(versions[c] == 5 for c in codes[1:])
    statuses = dict(rows(url, "SELECT code, status FROM rooms"))
    assert statuses[codes[0]] == "finished" and statuses[codes[1]] == "playing"
    [(finished,)] = rows(url, "SELECT result FROM games WHERE room_code=:c", c=codes[0])
    assert finished is not None


def test_a_bad_move_in_a_group_refuses_only_itself(path):
    url, writer_thread = path

    async def scenario():
        storage = await _open(url, ["AAAAAA", "BBBBBB"], writer_thread)
        await storage.record_move("AAAAAA", 1, 0, 0, 11, 3, None)
        outcomes = await asyncio.gather(
            storage.record_move("AAAAAA", 1, 0, 0, 12, 4, None),  # index 0 again
            storage.record_move("BBBBBB", 1, 0, 0, 13, 3, None),
            return_exceptions=True,
        )
        await storage.close()
        return outcomes

    duplicate, good = asyncio.run(scenario())
    assert isinstance(duplicate, sa.exc.IntegrityError)
    assert good is None
    moved = rows(url, "SELECT room_code, action FROM moves ORDER BY room_code")
    assert moved == [("AAAAAA", 11), ("BBBBBB", 13)]
    assert dict(rows(url, "SELECT code, version FROM rooms")) == {"AAAAAA": 3, "BBBBBB": 3}


@pytest.mark.parametrize("count", [1, 2])
def test_close_waits_for_queued_moves(path, count):
    url, writer_thread = path

    async def scenario():
        storage = await _open(url, ["CCCCCC"], writer_thread)
        tasks = [
            asyncio.create_task(storage.record_move("CCCCCC", 1, i, 0, 20 + i, 3 + i, None))
            for i in range(count)
        ]
        await asyncio.sleep(0)
        await storage.close()
        await asyncio.gather(*tasks)

    asyncio.run(scenario())
    assert rows(url, "SELECT count(*) FROM moves") == [(count,)]


@pytest.mark.parametrize("gather", [0.0, 0.5])
def test_an_idle_writer_waits_the_gathering_time_for_more_moves(path, gather):
    url, writer_thread = path

    async def scenario():
        storage = await _open(url, ["DDDDDD", "EEEEEE"], writer_thread)
        storage.move_writer.gather_seconds = gather
        first = asyncio.create_task(storage.record_move("DDDDDD", 1, 0, 0, 30, 3, None))
        await asyncio.sleep(0.05)  # the first move's commit is over, or still gathering
        await storage.record_move("EEEEEE", 1, 0, 1, 31, 3, None)
        await first
        commits = storage.move_writer.commits
        await storage.close()
        return commits

    # Both moves are committed either way; with a gathering time, in one transaction.
    assert asyncio.run(scenario()) == (1 if gather else 2)
    assert rows(url, "SELECT room_code, action FROM moves ORDER BY room_code") == [
        ("DDDDDD", 30),
        ("EEEEEE", 31),
    ]
