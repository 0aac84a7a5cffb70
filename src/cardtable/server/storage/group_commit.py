"""The move writer: the moves of many rooms committed together, one transaction a batch.

Moves that arrive while a commit is under way are committed together in the next
transaction (a group commit): one writer, one transaction per batch instead of one per
move, and no two connections fighting over SQLite's write lock. Each caller returns
only once its own move is on disk, and a bad row refuses only its own move.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import PoolProxiedConnection

from ...core import JSON
from ...statuses import RoomStatus
from .lock_trouble import LockTrouble
from .records import FencedError
from .tables import games, moves, rooms


@dataclasses.dataclass(frozen=True, slots=True)
class _MoveWrite:
    """A move waiting for the next group commit; ``future`` is done once it is on disk."""

    code: str
    game_no: int
    index: int
    seat: int
    action: int
    version: int
    result: JSON | None
    created_at: float
    #: The lease epoch the writer holds (None: not fenced, for tools and tests).
    epoch: int | None
    future: asyncio.Future[None]


_UPDATE_VERSION = (
    rooms.update()
    .where(rooms.c.code == sa.bindparam("b_code"))
    .values(version=sa.bindparam("b_version"), updated_at=sa.bindparam("b_at"))
)


def _settle(item: _MoveWrite, error: Exception | None) -> None:
    if item.future.done():
        return
    if error is None:
        item.future.set_result(None)
    else:
        item.future.set_exception(error)


def _refused(batch: list[_MoveWrite], epochs: dict[str, int]) -> list[_MoveWrite]:
    """The moves of ``batch`` whose room's epoch (``epochs``, read in the transaction)
    moved on since their writer claimed the room."""
    return [
        item for item in batch if item.epoch is not None and epochs.get(item.code) != item.epoch
    ]


def _newest(batch: list[_MoveWrite]) -> dict[str, _MoveWrite]:
    """Each room's last move of ``batch`` (a batch may hold several moves of one room)."""
    newest: dict[str, _MoveWrite] = {}
    for item in batch:
        if item.code not in newest or item.version > newest[item.code].version:
            newest[item.code] = item
    return newest


def _move_rows(batch: list[_MoveWrite]) -> list[tuple[object, ...]]:
    """The ``moves`` rows of ``batch``, in the column order of the raw drivers' INSERT."""
    return [
        (item.code, item.game_no, item.index, item.seat, item.action, item.version,
         item.created_at)
        for item in batch
    ]  # fmt: skip


def _result_rows(batch: list[_MoveWrite]) -> list[tuple[object, ...]]:
    """``(result JSON, finished_at, room, game)`` of each move of ``batch`` that ended its
    game (the JSON as SQLAlchemy's JSON type writes it)."""
    return [
        (json.dumps(item.result), item.created_at, item.code, item.game_no)
        for item in batch
        if item.result is not None
    ]


def _version_rows(batch: list[_MoveWrite]) -> list[tuple[object, ...]]:
    """``(version, updated_at, room)`` of each room's last move, rooms in code order."""
    return [(item.version, item.created_at, code) for code, item in sorted(_newest(batch).items())]


def _fenced_out(connection: Connection, batch: list[_MoveWrite]) -> list[_MoveWrite]:
    """The moves of ``batch`` whose room's epoch moved on; locks the rooms' rows until
    the transaction ends, so no takeover can slip in between this check and the commit."""
    fenced = {item.code for item in batch if item.epoch is not None}
    if not fenced:
        return []
    locked = (
        sa.select(rooms.c.code, rooms.c.epoch)
        .where(rooms.c.code.in_(fenced))
        .order_by(rooms.c.code)  # the one order of every lock on rooms' rows
    )
    return _refused(
        batch, {row.code: row.epoch for row in connection.execute(locked.with_for_update())}
    )


def _write_moves(connection: Connection, batch: list[_MoveWrite]) -> list[_MoveWrite]:
    """Insert a batch of moves, close the games that ended and bump the rooms' versions;
    returns the moves refused because their writer lost the room's lease."""
    refused = _fenced_out(connection, batch)
    if refused:
        batch = [item for item in batch if item not in refused]
        if not batch:
            return refused
    connection.execute(
        moves.insert(),
        [
            {
                "room_code": item.code,
                "game_no": item.game_no,
                "idx": item.index,
                "seat": item.seat,
                "action": item.action,
                "version": item.version,
                "created_at": item.created_at,
            }
            for item in batch
        ],
    )
    for item in batch:
        if item.result is not None:
            connection.execute(
                games.update()
                .where(games.c.room_code == item.code, games.c.game_no == item.game_no)
                .values(result=item.result, finished_at=item.created_at)
            )
    connection.execute(
        _UPDATE_VERSION,
        [
            {"b_code": code, "b_version": item.version, "b_at": item.created_at}
            for code, item in _newest(batch).items()
        ],
    )
    ended = {item.code for item in batch if item.result is not None}
    if ended:
        connection.execute(
            rooms.update().where(rooms.c.code.in_(ended)).values(status=RoomStatus.FINISHED)
        )
    return refused


#: The statements of :func:`_write_moves` for the sqlite3 module itself. On the writer
#: thread SQLAlchemy's execution of each statement (parameters, the compiled cache,
#: the result) cost several times SQLite's own work: most of a move's CPU off the event
#: loop (docs/performance.md). Same tables, same rows, same JSON (``json.dumps``, as
#: SQLAlchemy's JSON type writes it).
_SQLITE_INSERT = (
    "INSERT INTO moves (room_code, game_no, idx, seat, action, version, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_SQLITE_RESULT = "UPDATE games SET result = ?, finished_at = ? WHERE room_code = ? AND game_no = ?"
_SQLITE_VERSION = "UPDATE rooms SET version = ?, updated_at = ? WHERE code = ?"
#: Rooms per ``IN (...)`` list, well under SQLite's limit of bound variables.
_SQLITE_CHUNK = 500


def _in_chunks(codes: list[str]) -> list[tuple[str, list[str]]]:
    """``(placeholders, codes)`` for each chunk of ``codes``, to fill an ``IN (...)``: the
    only text formatted into these statements is ``?`` marks, never a value."""
    chunks = [codes[start : start + _SQLITE_CHUNK] for start in range(0, len(codes), _SQLITE_CHUNK)]
    return [(", ".join("?" * len(chunk)), chunk) for chunk in chunks]


def _write_moves_sqlite(driver: sqlite3.Connection, batch: list[_MoveWrite]) -> list[_MoveWrite]:
    """:func:`_write_moves` through the sqlite3 connection of the writer's transaction.
    SQLite has one writer at a time, so the epochs read here cannot move before the
    commit (there is no ``FOR UPDATE`` to take)."""
    fenced = sorted({item.code for item in batch if item.epoch is not None})
    epochs: dict[str, int] = {}
    for marks, chunk in _in_chunks(fenced):
        query = f"SELECT code, epoch FROM rooms WHERE code IN ({marks})"
        epochs.update(driver.execute(query, chunk).fetchall())
    refused = _refused(batch, epochs)
    if refused:
        batch = [item for item in batch if item not in refused]
        if not batch:
            return refused
    driver.executemany(
        _SQLITE_INSERT,
        _move_rows(batch),
    )
    for row in _result_rows(batch):
        driver.execute(_SQLITE_RESULT, row)
    driver.executemany(_SQLITE_VERSION, _version_rows(batch))
    ended = sorted({item.code for item in batch if item.result is not None})
    for marks, chunk in _in_chunks(ended):
        update = f"UPDATE rooms SET status = ? WHERE code IN ({marks})"
        driver.execute(update, [RoomStatus.FINISHED.value, *chunk])
    return refused


#: The statements of :func:`_write_moves` for asyncpg itself (PostgreSQL): as on SQLite,
#: SQLAlchemy's execution of each statement through its async adapter cost more CPU
#: than the database's answer. The rooms are locked in one order (by code), so two
#: writers' locks can never deadlock.
_PG_FENCE = "SELECT code, epoch FROM rooms WHERE code = ANY($1::varchar[]) ORDER BY code FOR UPDATE"
_PG_INSERT = (
    "INSERT INTO moves (room_code, game_no, idx, seat, action, version, created_at) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7)"
)
_PG_RESULT = "UPDATE games SET result = $1, finished_at = $2 WHERE room_code = $3 AND game_no = $4"
_PG_VERSION = "UPDATE rooms SET version = $1, updated_at = $2 WHERE code = $3"
_PG_ENDED = "UPDATE rooms SET status = $1 WHERE code = ANY($2::varchar[])"


async def _write_moves_asyncpg(
    driver: Any, batch: list[_MoveWrite], trouble: LockTrouble
) -> list[_MoveWrite]:
    """:func:`_write_moves` through an asyncpg connection, in a transaction it holds."""
    fenced = sorted({item.code for item in batch if item.epoch is not None})
    epochs: dict[str, int] = {}
    if fenced:
        statement = f"move batch fence ({len(fenced)} rooms): {_PG_FENCE}"
        with trouble.watch(statement, deadlocks=False):  # the whole batch counts those
            epochs = {row[0]: row[1] for row in await driver.fetch(_PG_FENCE, fenced)}
    refused = _refused(batch, epochs)
    if refused:
        batch = [item for item in batch if item not in refused]
        if not batch:
            return refused
    await driver.executemany(
        _PG_INSERT,
        _move_rows(batch),
    )
    for row in _result_rows(batch):
        await driver.execute(_PG_RESULT, *row)
    await driver.executemany(_PG_VERSION, _version_rows(batch))
    ended = sorted({item.code for item in batch if item.result is not None})
    if ended:
        await driver.execute(_PG_ENDED, RoomStatus.FINISHED.value, ended)
    return refused


def _database_error(error: Exception) -> sa.exc.DBAPIError:
    """asyncpg's ``error`` as the SQLAlchemy error its adapter would have raised, as
    callers expect whichever way the batch was written (an integrity error for a
    duplicate or missing row, a database error otherwise)."""
    sqlstate = str(getattr(error, "sqlstate", "") or "")
    if sqlstate.startswith("23"):  # integrity constraint violation
        return sa.exc.IntegrityError(None, None, error)
    return sa.exc.DBAPIError(None, None, error)


class MoveWriter:
    """Commits moves in groups, through the async engine or, for an SQLite file, a
    synchronous engine on a thread of its own (see :meth:`use_thread`)."""

    def __init__(
        self, engine: Callable[[], AsyncEngine], lock_trouble: LockTrouble | None = None
    ) -> None:
        """``engine``: the database's async engine (raises when it is not open)."""
        #: The deadlocks and long lock waits met (PostgreSQL; see :mod:`.lock_trouble`).
        self.lock_trouble = LockTrouble() if lock_trouble is None else lock_trouble
        self._engine = engine
        self._queued: list[_MoveWrite] = []
        self._writer: asyncio.Task[None] | None = None
        #: SQLite only: the writer's own synchronous engine and thread.
        self.sync_engine: sa.Engine | None = None
        self._executor: ThreadPoolExecutor | None = None
        self._raw: PoolProxiedConnection | None = None
        #: Transactions committed with moves (each batch's, and a retried move's alone).
        self.commits = 0
        #: Seconds to wait, when the writer was idle, for more moves to join the first
        #: in one commit (0: commit at once; busy periods gather moves anyway, while
        #: the commit before is being written).
        self.gather_seconds = 0.0

    def use_thread(self, sync_engine: sa.Engine) -> None:
        """Commit from now on through ``sync_engine``, on a thread of its own."""
        self.sync_engine = sync_engine
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="db-writer")

    def _sqlite_driver(self) -> sqlite3.Connection:
        """The writer thread's own sqlite3 connection, opened at its first batch and
        kept: a pooled connection checked out and a transaction begun through
        SQLAlchemy for every batch had cost more than the batch's statements."""
        if self._raw is None:
            assert self.sync_engine is not None
            self._raw = self.sync_engine.raw_connection()
        driver = self._raw.driver_connection
        assert isinstance(driver, sqlite3.Connection)
        # Transactions begun and ended by the statements of ``write`` alone.
        driver.isolation_level = None
        return driver

    def _release_sqlite_driver(self) -> None:
        """On the writer thread: give its connection back, then close the engine."""
        if self._raw is not None:
            self._raw.invalidate()
            self._raw = None
        if self.sync_engine is not None:
            self.sync_engine.dispose()

    async def record_move(
        self,
        code: str,
        game_no: int,
        index: int,
        seat: int,
        action: int,
        version: int,
        result: JSON | None,
        epoch: int | None = None,
    ) -> None:
        """Append one move and bump the room's version; close the game if it ended.
        With ``epoch``, only while that lease epoch is current (else
        :class:`FencedError` and nothing is written).

        Returns once the move is committed, with the moves of other rooms that arrived
        while the previous commit was under way.
        """
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queued.append(
            _MoveWrite(
                code, game_no, index, seat, action, version, result, time.time(), epoch, future
            )
        )
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_queued())
        await future

    async def _write_queued(self) -> None:
        """Commit the queued moves batch after batch until none is left."""
        if self.gather_seconds > 0:
            await asyncio.sleep(self.gather_seconds)
        while self._queued:
            batch, self._queued = self._queued, []
            try:
                refused = await self._write_moves(batch)
            except Exception:
                # One bad row must not refuse the moves of other rooms: retry them alone.
                for item in batch:
                    try:
                        alone = await self._write_moves([item])
                    except Exception as error:
                        _settle(item, error)
                    else:
                        _settle(item, FencedError(item.code) if alone else None)
                continue
            for item in batch:
                _settle(item, FencedError(item.code) if item in refused else None)

    async def _write_moves(self, batch: list[_MoveWrite]) -> list[_MoveWrite]:
        """One transaction: the moves, the games that ended, the rooms' new versions.

        With SQLite the transaction runs on the writer thread's own synchronous
        connection, through the sqlite3 module itself (:func:`_write_moves_sqlite`): one
        hop off the event loop per batch instead of one per statement (the async
        driver's cost dominated a move's CPU time). Other databases run
        :func:`_write_moves` through the async engine.
        """
        if self.sync_engine is not None and self._executor is not None:

            def write() -> list[_MoveWrite]:
                driver = self._sqlite_driver()
                # IMMEDIATE: the write lock is taken before the epochs are read, so
                # they cannot move before the commit.
                try:
                    driver.execute("BEGIN IMMEDIATE")
                    refused = _write_moves_sqlite(driver, batch)
                    driver.execute("COMMIT")
                except BaseException as error:
                    with contextlib.suppress(sqlite3.Error):
                        driver.execute("ROLLBACK")
                    if isinstance(error, sqlite3.Error):
                        # The error SQLAlchemy would have raised (IntegrityError...),
                        # as callers expect whichever way the batch was written.
                        raise sa.exc.DBAPIError.instance(
                            None, None, error, sqlite3.Error
                        ) from error
                    raise
                return refused

            refused = await asyncio.get_running_loop().run_in_executor(self._executor, write)
        else:
            async with self._engine().connect() as connection:
                raw = await connection.get_raw_connection()
                driver = raw.driver_connection
                if driver is not None and type(driver).__module__.startswith("asyncpg"):
                    try:
                        with self.lock_trouble.watch("move batch", waits=False):
                            async with driver.transaction():
                                refused = await _write_moves_asyncpg(
                                    driver, batch, self.lock_trouble
                                )
                    except sa.exc.SQLAlchemyError:
                        raise
                    except Exception as error:
                        if type(error).__module__.startswith("asyncpg"):
                            raise _database_error(error) from error
                        raise
                else:
                    async with connection.begin():
                        refused = await connection.run_sync(_write_moves, batch)
        self.commits += 1
        return refused

    async def close(self) -> None:
        """Commit the moves already queued, then let the writer's thread go."""
        if self._writer is not None:
            with contextlib.suppress(Exception):
                await self._writer
            self._writer = None
        if self._executor is not None:
            if self.sync_engine is not None:
                await asyncio.get_running_loop().run_in_executor(
                    self._executor, self._release_sqlite_driver
                )
            self._executor.shutdown(wait=True)
            self._executor, self.sync_engine = None, None
