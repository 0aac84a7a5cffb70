"""Persistence with SQLAlchemy 2 (async): rooms, games and move logs.

SQLite (a file in the data folder, WAL mode) by default, PostgreSQL through a
``postgresql+asyncpg://`` URL with the same code. The schema is created and upgraded
by the Alembic migrations in ``migrations/`` when the server starts, or the start is
refused (see :mod:`cardtable.server.schema`); an SQLite file is locked for one server
(see :mod:`cardtable.server.datalock`).

Every write is one transaction committed before the caller broadcasts anything, so a
move that anybody has seen is on disk (a crash of the process loses nothing committed).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from ..core import JSON
from ..statuses import RoomStatus
from .datalock import DataFolderLock
from .schema import MIGRATIONS, Migration, migrate_or_refuse

metadata = sa.MetaData()

#: Length of ``rooms.client`` (a client address; migration 0001 says 64 too).
CLIENT_LENGTH = 64
#: PostgreSQL: the channel on which a node asking for a room wakes the room's owner
#: (the payload is the room code; see :meth:`Storage.want_room`).
HANDOVER_CHANNEL = "cardtable_handover"

log = logging.getLogger("cardtable.server")

rooms = sa.Table(
    "rooms",
    metadata,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("rules", sa.JSON, nullable=False),
    sa.Column("seats", sa.JSON, nullable=False),
    sa.Column("host_hash", sa.String(64), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("game_no", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=True),
    sa.Column("version", sa.BigInteger, nullable=False),
    sa.Column("start_version", sa.BigInteger, nullable=True),
    sa.Column("client", sa.String(CLIENT_LENGTH), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    # The room's lease (migration 0002): the node serving it, until when, and the
    # epoch every write of that node is fenced by (see Storage.claim_room).
    sa.Column("owner", sa.String(64), nullable=True),
    sa.Column("epoch", sa.BigInteger, nullable=False, server_default="0"),
    sa.Column("lease_until", sa.Float, nullable=True),
    sa.Column("wanted_by", sa.String(64), nullable=True),
    # How the table is run (migration 0003): turn time limit, spectator chat.
    sa.Column("table_options", sa.JSON, nullable=True),
    sa.Index("ix_rooms_status", "status"),
)

games = sa.Table(
    "games",
    metadata,
    sa.Column("room_code", sa.String(16), primary_key=True),
    sa.Column("game_no", sa.Integer, primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("rules", sa.JSON, nullable=False),
    sa.Column("seats", sa.JSON, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("result", sa.JSON, nullable=True),
    sa.Column("started_at", sa.Float, nullable=False),
    sa.Column("finished_at", sa.Float, nullable=True),
)

moves = sa.Table(
    "moves",
    metadata,
    sa.Column("room_code", sa.String(16), primary_key=True),
    sa.Column("game_no", sa.Integer, primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.Integer, nullable=False),
    sa.Column("version", sa.BigInteger, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)

LIVE_STATUSES = tuple(RoomStatus)


@dataclasses.dataclass
class RoomRecord:
    """One row of ``rooms`` plus, when restoring, the moves of its current game."""

    code: str
    game: str
    rules: JSON
    seats: list[JSON]
    host_hash: str
    status: str
    game_no: int
    seed: int | None
    version: int
    start_version: int | None
    client: str
    created_at: float
    updated_at: float
    moves: list[tuple[int, int, int]] = dataclasses.field(default_factory=list)
    """(seat, action, version) of the current game, in order."""
    owner: str | None = None
    epoch: int = 0
    lease_until: float | None = None
    wanted_by: str | None = None
    #: Table options (see :mod:`cardtable.server.tableopts`); None in rooms saved before.
    table_options: JSON | None = None

    def row(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        del data["moves"]
        return data


class FencedError(Exception):
    """A write for a room whose lease this node no longer holds: another node took the
    room over (a higher epoch), so this node must never write for it again."""

    def __init__(self, code: str) -> None:
        super().__init__(f"room {code}: the lease was taken over by another node")
        self.code = code


@dataclasses.dataclass(frozen=True)
class GameRecord:
    room_code: str
    game_no: int
    game: str
    rules: JSON
    seats: list[JSON]
    seed: int
    result: JSON | None
    started_at: float
    finished_at: float | None
    moves: list[tuple[int, int, int]]


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


def _room_is(code: str, epoch: int | None) -> list[sa.ColumnElement[bool]]:
    """The row of room ``code``, and only while lease ``epoch`` is current (when given)."""
    condition = [rooms.c.code == code]
    if epoch is not None:
        condition.append(rooms.c.epoch == epoch)
    return condition


def _claimable_by(node: str, now: float) -> sa.ColumnElement[bool]:
    """A room's lease is free for ``node``: it ran out or was never taken, or the room
    was released and not reserved for another node."""
    return sa.or_(
        rooms.c.lease_until.is_(None),
        rooms.c.lease_until < now,
        sa.and_(
            rooms.c.owner.is_(None),
            sa.or_(rooms.c.wanted_by.is_(None), rooms.c.wanted_by == node),
        ),
    )


def _settle(item: _MoveWrite, error: Exception | None) -> None:
    if item.future.done():
        return
    if error is None:
        item.future.set_result(None)
    else:
        item.future.set_exception(error)


def _fenced_out(connection: Connection, batch: list[_MoveWrite]) -> list[_MoveWrite]:
    """The moves of ``batch`` whose room's epoch moved on; locks the rooms' rows until
    the transaction ends, so no takeover can slip in between this check and the commit."""
    fenced = {item.code: item.epoch for item in batch if item.epoch is not None}
    if not fenced:
        return []
    locked = sa.select(rooms.c.code, rooms.c.epoch).where(rooms.c.code.in_(fenced))
    current = {row.code: row.epoch for row in connection.execute(locked.with_for_update())}
    return [
        item for item in batch if item.epoch is not None and current.get(item.code) != item.epoch
    ]


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
    newest: dict[str, _MoveWrite] = {}  # a batch may hold several moves of one room
    for item in batch:
        if item.code not in newest or item.version > newest[item.code].version:
            newest[item.code] = item
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
            for code, item in newest.items()
        ],
    )
    ended = {item.code for item in batch if item.result is not None}
    if ended:
        connection.execute(
            rooms.update().where(rooms.c.code.in_(ended)).values(status=RoomStatus.FINISHED)
        )
    return refused


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    # In WAL mode NORMAL survives any crash of the process (not a power cut mid-write).
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


class Storage:
    """The database behind a table server."""

    def __init__(
        self,
        url: str,
        *,
        writer_thread: bool = True,
        migrate: bool = False,
        migrations: Path = MIGRATIONS,
        stall_seconds: float = 15.0,
    ) -> None:
        """``writer_thread``: with an SQLite file, commit moves from a thread of its own
        (False runs them through the async engine, as for every other database).
        ``migrate``: upgrade a PostgreSQL schema older than this version's (an SQLite
        file is always upgraded: it has one server). ``migrations``: the Alembic
        scripts (another folder only in tests)."""
        self.url = url
        self.writer_thread = writer_thread
        self.migrate = migrate
        self.migrations = migrations
        #: PostgreSQL: the longest a transaction may sit idle or wait for a lock.
        self.stall_seconds = stall_seconds
        #: What opening did to the schema (None: it was at the head already).
        self.migration: Migration | None = None
        self._lock: DataFolderLock | None = None
        self.engine: AsyncEngine | None = None
        self._queued: list[_MoveWrite] = []
        self._writer: asyncio.Task[None] | None = None
        #: SQLite only: the move writer's own synchronous engine and thread.
        self._sync_engine: sa.Engine | None = None
        self._executor: ThreadPoolExecutor | None = None
        #: PostgreSQL: the connection that listens for hand-over requests.
        self._listener: AsyncConnection | None = None
        self._listener_driver: Any = None

    @property
    def is_sqlite(self) -> bool:
        return self.url.startswith("sqlite")

    @property
    def is_postgresql(self) -> bool:
        return self.url.startswith("postgresql")

    async def open(self) -> None:
        """Lock an SQLite file, connect, and bring the schema to the head.

        Raises :class:`~cardtable.server.startup.StartupRefusedError` (and holds nothing)
        when another server holds the SQLite file or the schema does not match.
        """
        url = sa.engine.make_url(self.url)
        if self.is_sqlite and url.database not in (None, "", ":memory:"):
            assert url.database is not None
            database = Path(url.database)
            database.parent.mkdir(parents=True, exist_ok=True)
            self._lock = DataFolderLock(database)
            self._lock.acquire()
        options: dict[str, Any] = {}
        if url.get_backend_name() == "postgresql" and url.get_driver_name() == "asyncpg":
            # A node paused in the middle of a transaction (SIGSTOP, a VM freeze) would
            # hold its rooms' row locks, and so block the node taking them over, for as
            # long as it stays paused: PostgreSQL ends such a transaction after a lease,
            # and a claim waits for a lock at most that long.
            stall = str(max(1, int(self.stall_seconds * 1000)))
            options["connect_args"] = {
                "server_settings": {
                    "idle_in_transaction_session_timeout": stall,
                    "lock_timeout": stall,
                }
            }
        engine = create_async_engine(self.url, **options)
        if self.is_sqlite:
            sa.event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        self.engine = engine
        try:
            async with engine.begin() as connection:
                self.migration = await connection.run_sync(self._migrate)
        except BaseException:
            await self.close()
            raise
        if self.writer_thread and self.is_sqlite and url.database not in (None, "", ":memory:"):
            self._sync_engine = sa.create_engine(url.set(drivername="sqlite"))
            sa.event.listen(self._sync_engine, "connect", _sqlite_pragmas)
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="db-writer")

    def _migrate(self, connection: Connection) -> Migration | None:
        return migrate_or_refuse(
            connection,
            allow_upgrade=self.migrate or self.is_sqlite,
            script_location=self.migrations,
        )

    async def close(self) -> None:
        await self.stop_listening()
        if self._writer is not None:
            with contextlib.suppress(Exception):
                await self._writer  # moves already queued are committed, then we close
            self._writer = None
        if self._executor is not None:
            if self._sync_engine is not None:
                await asyncio.get_running_loop().run_in_executor(
                    self._executor, self._sync_engine.dispose
                )
            self._executor.shutdown(wait=True)
            self._executor, self._sync_engine = None, None
        if self.engine is not None:
            await self.engine.dispose()
            self.engine = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def _engine(self) -> AsyncEngine:
        if self.engine is None:
            raise RuntimeError("storage is not open")
        return self.engine

    # --- writes ------------------------------------------------------------------
    async def insert_room(self, record: RoomRecord) -> None:
        async with self._engine().begin() as connection:
            await connection.execute(rooms.insert().values(**record.row()))

    async def update_room(self, code: str, epoch: int | None = None, **fields: Any) -> None:
        """Change a room's row; with ``epoch``, only while that lease epoch is current
        (else :class:`FencedError` and nothing changes)."""
        fields["updated_at"] = time.time()
        async with self._engine().begin() as connection:
            done = await connection.execute(
                rooms.update().where(*_room_is(code, epoch)).values(**fields)
            )
            if done.rowcount == 0 and epoch is not None:
                raise FencedError(code)

    async def start_game(self, record: RoomRecord, public_seats: list[JSON]) -> None:
        """Save the room as playing and open its game row (rules, public seats, seed),
        fenced by ``record.epoch`` when the record holds a lease (``owner`` set)."""
        now = time.time()
        record.updated_at = now
        epoch = record.epoch if record.owner is not None else None
        values = record.row()
        for lease_column in (
            "owner",
            "epoch",
            "lease_until",
            "wanted_by",
        ):  # leases change by claims only
            del values[lease_column]
        async with self._engine().begin() as connection:
            done = await connection.execute(
                rooms.update().where(*_room_is(record.code, epoch)).values(**values)
            )
            if done.rowcount == 0 and epoch is not None:
                raise FencedError(record.code)
            assert record.seed is not None
            await connection.execute(
                games.insert().values(
                    room_code=record.code,
                    game_no=record.game_no,
                    game=record.game,
                    rules=record.rules,
                    seats=public_seats,
                    seed=record.seed,
                    result=None,
                    started_at=now,
                    finished_at=None,
                )
            )

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

        Returns once the move is committed. Moves of different rooms that arrive while
        a commit is under way are committed together in the next transaction (a group
        commit): one writer, one transaction per batch instead of one per move, and no
        two connections fighting over SQLite's write lock.
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
        connection: one hop off the event loop per batch instead of one per statement
        (the async driver's cost dominated a move's CPU time). Other databases run the
        same function through the async engine.
        """
        if self._sync_engine is not None and self._executor is not None:
            engine = self._sync_engine

            def write() -> list[_MoveWrite]:
                with engine.begin() as connection:
                    return _write_moves(connection, batch)

            return await asyncio.get_running_loop().run_in_executor(self._executor, write)
        async with self._engine().begin() as connection:
            return await connection.run_sync(_write_moves, batch)

    async def delete_room(self, code: str, epoch: int | None = None) -> None:
        """Forget a room that never played a game (fenced by ``epoch`` when given)."""
        async with self._engine().begin() as connection:
            done = await connection.execute(rooms.delete().where(*_room_is(code, epoch)))
            if done.rowcount == 0 and epoch is not None:
                raise FencedError(code)

    # --- leases ------------------------------------------------------------------
    async def claim_room(
        self, code: str, node: str, lease_seconds: float, *, force: bool = False
    ) -> RoomRecord | None:
        """Take room ``code``'s lease for ``node`` if it is free (no owner, or its lease
        ran out; ``force``: in any case) and the room is live; returns the room with its
        new epoch and the move log of its current game, read after the claim, or None.

        The epoch goes up by one at every claim, so every write of the previous owner,
        fenced by the old epoch, is refused from this commit on (see
        :class:`FencedError`). The log is read in the same transaction: it holds every
        move the previous owner committed, and it can commit no other.
        """
        now = time.time()
        condition = [rooms.c.code == code, rooms.c.status.in_(LIVE_STATUSES)]
        if not force:
            condition.append(_claimable_by(node, now))
        async with self._engine().begin() as connection:
            result = await connection.execute(
                rooms.update()
                .where(*condition)
                .values(
                    owner=node,
                    epoch=rooms.c.epoch + 1,
                    lease_until=now + lease_seconds,
                    wanted_by=None,
                )
                .returning(*rooms.c)
            )
            row = result.first()
            if row is None:
                return None
            record = RoomRecord(**row._asdict())
            if record.status != RoomStatus.LOBBY:
                record.moves = await self._moves(connection, code, record.game_no)
        return record

    async def renew_leases(
        self, node: str, epochs: dict[str, int], lease_seconds: float
    ) -> tuple[set[str], set[str]]:
        """Extend ``node``'s leases of the rooms in ``epochs`` (code: epoch held); returns
        the codes whose lease it no longer holds (taken over, or the room was closed)
        and those another node asked for (see :meth:`want_room`)."""
        if not epochs:
            return set(), set()
        until = time.time() + lease_seconds
        async with self._engine().begin() as connection:
            result = await connection.execute(
                rooms.update()
                .where(
                    rooms.c.owner == node,
                    sa.tuple_(rooms.c.code, rooms.c.epoch).in_(list(epochs.items())),
                )
                .values(lease_until=until)
                .returning(rooms.c.code, rooms.c.wanted_by)
            )
            held = {row.code: row.wanted_by for row in result}
        wanted = {code for code, by in held.items() if by is not None and by != node}
        return set(epochs) - set(held), wanted

    async def want_room(self, code: str, node: str) -> None:
        """Ask the owner of room ``code`` to hand it over to ``node``: the proxy routes
        the room's players to ``node``. The owner sees the request at its next lease
        round (see :meth:`renew_leases`); on PostgreSQL a notification on
        :data:`HANDOVER_CHANNEL` wakes it at once (see :meth:`listen_for_handovers`)."""
        async with self._engine().begin() as connection:
            asked = await connection.execute(
                rooms.update()
                .where(
                    rooms.c.code == code,
                    rooms.c.status.in_(LIVE_STATUSES),
                    rooms.c.owner.is_not(None),
                    rooms.c.owner != node,
                )
                .values(wanted_by=node)
            )
            if asked.rowcount and self.is_postgresql:
                await connection.execute(
                    sa.select(sa.func.pg_notify(HANDOVER_CHANNEL, code))
                )  # delivered at the commit

    async def listen_for_handovers(self, wanted: Callable[[str], None]) -> bool:
        """Call ``wanted(code)`` whenever a node asks for room ``code`` (PostgreSQL with
        asyncpg: ``LISTEN`` on a connection of its own); returns whether it listens,
        which :meth:`listening` tells later (the connection may be lost: listen again)."""
        await self.stop_listening()
        if not self.url.startswith("postgresql+asyncpg"):
            return False
        connection = await self._engine().connect()
        try:
            raw = await connection.get_raw_connection()
            driver: Any = raw.driver_connection

            def notified(_connection: Any, _pid: int, _channel: str, payload: str) -> None:
                wanted(payload)

            await driver.add_listener(HANDOVER_CHANNEL, notified)
        except BaseException:
            await connection.close()
            raise
        self._listener, self._listener_driver = connection, driver
        return True

    def listening(self) -> bool:
        driver = self._listener_driver
        return driver is not None and not driver.is_closed()

    async def stop_listening(self) -> None:
        listener, self._listener, self._listener_driver = self._listener, None, None
        if listener is not None:
            with contextlib.suppress(Exception):
                await listener.invalidate()  # the LISTEN ends with the session
            with contextlib.suppress(Exception):
                await listener.close()

    async def release_rooms(
        self, node: str, epochs: dict[str, int], *, reserve_seconds: float | None = None
    ) -> None:
        """Give up ``node``'s leases: another node may claim them at once, without
        waiting for them to run out. ``reserve_seconds``: a hand-over, where for that
        long only the node that asked for each room (``wanted_by``) may claim it, so
        no third node (nor this one) snatches it in between; else (a stop or a drain)
        any node may."""
        if not epochs:
            return
        values: dict[str, Any] = {"owner": None, "lease_until": None, "wanted_by": None}
        if reserve_seconds is not None:
            values = {"owner": None, "lease_until": time.time() + reserve_seconds}
        async with self._engine().begin() as connection:
            await connection.execute(
                rooms.update()
                .where(
                    rooms.c.owner == node,
                    sa.tuple_(rooms.c.code, rooms.c.epoch).in_(list(epochs.items())),
                )
                .values(**values)
            )

    async def ping(self) -> None:
        """One round trip to the database (raises when it does not answer)."""
        async with self._engine().connect() as connection:
            await connection.execute(sa.text("SELECT 1"))

    async def live_room_codes(self) -> list[str]:
        async with self._engine().connect() as connection:
            result = await connection.execute(
                sa.select(rooms.c.code)
                .where(rooms.c.status.in_(LIVE_STATUSES))
                .order_by(rooms.c.code)
            )
            return list(result.scalars())

    async def live_rooms_of(self, client: str) -> int:
        """Live rooms created by ``client`` (an address), whichever node serves them."""
        async with self._engine().connect() as connection:
            result = await connection.execute(
                sa.select(sa.func.count())
                .select_from(rooms)
                .where(rooms.c.client == client, rooms.c.status.in_(LIVE_STATUSES))
            )
            return int(result.scalar_one())

    async def room_is_live(self, code: str) -> bool:
        async with self._engine().connect() as connection:
            result = await connection.execute(
                sa.select(rooms.c.code).where(
                    rooms.c.code == code, rooms.c.status.in_(LIVE_STATUSES)
                )
            )
            return result.first() is not None

    async def claimable_rooms(self, node: str, limit: int = 100) -> list[str]:
        """Live rooms ``node`` may claim: nobody holds their lease (their node stopped or
        died), or their owner handed them over to ``node``."""
        now = time.time()
        async with self._engine().connect() as connection:
            result = await connection.execute(
                sa.select(rooms.c.code)
                .where(rooms.c.status.in_(LIVE_STATUSES), _claimable_by(node, now))
                .order_by(rooms.c.code)
                .limit(limit)
            )
            return list(result.scalars())

    # --- reads -------------------------------------------------------------------
    async def _moves(self, connection: Any, code: str, game_no: int) -> list[tuple[int, int, int]]:
        result = await connection.execute(
            sa.select(moves.c.seat, moves.c.action, moves.c.version)
            .where(moves.c.room_code == code, moves.c.game_no == game_no)
            .order_by(moves.c.idx)
        )
        return [(row.seat, row.action, row.version) for row in result]

    async def load_game(self, code: str, game_no: int) -> GameRecord | None:
        async with self._engine().connect() as connection:
            result = await connection.execute(
                games.select().where(games.c.room_code == code, games.c.game_no == game_no)
            )
            row = result.first()
            if row is None:
                return None
            log = await self._moves(connection, code, game_no)
        return GameRecord(**row._asdict(), moves=log)

    async def list_games(self, code: str) -> list[GameRecord]:
        async with self._engine().connect() as connection:
            result = await connection.execute(
                games.select().where(games.c.room_code == code).order_by(games.c.game_no)
            )
            return [GameRecord(**row._asdict(), moves=[]) for row in result]

    async def room_exists(self, code: str) -> bool:
        async with self._engine().connect() as connection:
            result = await connection.execute(sa.select(rooms.c.code).where(rooms.c.code == code))
            return result.first() is not None
