"""Moves are committed in groups: moves of many rooms arriving together share one
transaction, each caller returns only once its move is on disk, and a bad row refuses
only its own move."""

from __future__ import annotations

import asyncio
import sqlite3
import time

import pytest
import sqlalchemy as sa

from cardtable.server.config import sqlite_url
from cardtable.server.storage import RoomRecord, Storage


def _room(code: str) -> RoomRecord:
    now = time.time()
    return RoomRecord(
        code=code, game="skyjo", rules={"players": 2}, seats=[], host_hash="0" * 64,
        status="playing", game_no=1, seed=7, version=2, start_version=2, client="test",
        created_at=now, updated_at=now,
    )  # fmt: skip


async def _open(tmp_path, codes, writer_thread=True):
    storage = Storage(sqlite_url(tmp_path), writer_thread=writer_thread)
    await storage.open()
    for code in codes:
        record = _room(code)
        await storage.insert_room(record)
        await storage.start_game(record, [])
    return storage


# The writer thread (SQLite's own path) and the async engine (every other database's).
paths = pytest.mark.parametrize("writer_thread", [True, False], ids=["thread", "async"])


@paths
def test_concurrent_moves_of_many_rooms_are_all_committed_before_their_callers_return(
    tmp_path, writer_thread
):
    codes = [f"R{i:03d}" for i in range(60)]
    transactions = []

    async def scenario():
        storage = await _open(tmp_path, codes, writer_thread)
        assert storage.engine is not None
        engine = storage._sync_engine if writer_thread else storage.engine.sync_engine
        assert engine is not None
        sa.event.listen(engine, "commit", lambda conn: transactions.append(1))

        async def play(code, index):
            await storage.record_move(code, 1, index, index % 2, 40 + index, 3 + index, None)
            # Once the call returns, a separate connection sees the move.
            with sqlite3.connect(tmp_path / "cardtable.db") as db:
                rows = db.execute(
                    "SELECT action FROM moves WHERE room_code=? AND idx=?", (code, index)
                ).fetchall()
            assert rows == [(40 + index,)]

        for index in range(3):
            await asyncio.gather(*(play(code, index) for code in codes))
        result = {"winners": [0]}
        await storage.record_move(codes[0], 1, 3, 1, 50, 6, result)
        await storage.close()

    asyncio.run(scenario())
    assert 0 < len(transactions) < 3 * len(codes)  # grouped, not one commit per move
    with sqlite3.connect(tmp_path / "cardtable.db") as db:
        assert db.execute("SELECT count(*) FROM moves").fetchone()[0] == 3 * len(codes) + 1
        versions = dict(db.execute("SELECT code, version FROM rooms").fetchall())
        assert versions[codes[0]] == 6 and all(versions[c] == 5 for c in codes[1:])
        statuses = dict(db.execute("SELECT code, status FROM rooms").fetchall())
        assert statuses[codes[0]] == "finished" and statuses[codes[1]] == "playing"
        (finished,) = db.execute(
            "SELECT result FROM games WHERE room_code=?", (codes[0],)
        ).fetchone()
        assert finished is not None


@paths
def test_a_bad_move_in_a_group_refuses_only_itself(tmp_path, writer_thread):
    async def scenario():
        storage = await _open(tmp_path, ["AAAAAA", "BBBBBB"], writer_thread)
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
    with sqlite3.connect(tmp_path / "cardtable.db") as db:
        rows = db.execute("SELECT room_code, action FROM moves ORDER BY room_code").fetchall()
        assert rows == [("AAAAAA", 11), ("BBBBBB", 13)]
        versions = dict(db.execute("SELECT code, version FROM rooms").fetchall())
        assert versions == {"AAAAAA": 3, "BBBBBB": 3}


@pytest.mark.parametrize("count", [1, 2])
def test_close_waits_for_queued_moves(tmp_path, count):
    async def scenario():
        storage = await _open(tmp_path, ["CCCCCC"])
        tasks = [
            asyncio.create_task(storage.record_move("CCCCCC", 1, i, 0, 20 + i, 3 + i, None))
            for i in range(count)
        ]
        await asyncio.sleep(0)
        await storage.close()
        await asyncio.gather(*tasks)

    asyncio.run(scenario())
    with sqlite3.connect(tmp_path / "cardtable.db") as db:
        assert db.execute("SELECT count(*) FROM moves").fetchone()[0] == count
