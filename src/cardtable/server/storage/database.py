"""Connecting to the server's database: the SQLite file lock, the engines, the schema
check at open, and closing in order.

SQLite (a file in the data folder, WAL mode) by default, PostgreSQL through a
``postgresql+asyncpg://`` URL with the same code. The schema is created and upgraded
by the Alembic migrations in ``migrations/`` when the server starts, or the start is
refused (see :mod:`cardtable.server.storage.schema`); an SQLite file is locked for one server
(see :mod:`cardtable.server.storage.datalock`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from .datalock import DataFolderLock
from .group_commit import MoveWriter
from .lock_trouble import LockTrouble
from .schema import MIGRATIONS, Migration, migrate_or_refuse


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    # In WAL mode NORMAL survives any crash of the process (not a power cut mid-write).
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


class Database:
    """A connection to the server's database, from :meth:`open` to :meth:`close`, and
    the writer its moves go through; the other queries are in the classes built on it
    (see :class:`cardtable.server.storage.store.Storage`)."""

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
        #: The deadlocks and long lock waits this node met (see :mod:`.lock_trouble`).
        self.lock_trouble = LockTrouble()
        self.move_writer = MoveWriter(self._engine, self.lock_trouble)
        #: Append one move and return once it is on disk (see :meth:`MoveWriter.record_move`).
        self.record_move = self.move_writer.record_move

    @property
    def is_sqlite(self) -> bool:
        return self.url.startswith("sqlite")

    @property
    def is_postgresql(self) -> bool:
        return self.url.startswith("postgresql")

    async def open(self) -> None:
        """Lock an SQLite file, connect, and bring the schema to the head.

        Raises :class:`~cardtable.server.ops.startup.StartupRefusedError` (and holds nothing)
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
            sync_engine = sa.create_engine(url.set(drivername="sqlite"))
            sa.event.listen(sync_engine, "connect", _sqlite_pragmas)
            self.move_writer.use_thread(sync_engine)

    def _migrate(self, connection: Connection) -> Migration | None:
        return migrate_or_refuse(
            connection,
            allow_upgrade=self.migrate or self.is_sqlite,
            script_location=self.migrations,
        )

    async def close(self) -> None:
        await self.move_writer.close()  # moves already queued are committed, then we close
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

    async def ping(self) -> None:
        """One round trip to the database (raises when it does not answer)."""
        async with self._engine().connect() as connection:
            await connection.execute(sa.text("SELECT 1"))
