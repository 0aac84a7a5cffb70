"""Which node serves a room: leases, their epochs, and hand-overs between nodes.

A node serves a room while it holds the room's lease; every claim raises the room's
epoch, and every write of a node is fenced by the epoch it claimed (see
:class:`~cardtable.server.storage.records.FencedError`), so a node that lost a room can never
write for it again.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from ...statuses import RoomStatus
from .database import Database
from .games import game_moves
from .records import RoomRecord
from .tables import LIVE_STATUSES, rooms

#: PostgreSQL: the channel on which a node asking for a room wakes the room's owner
#: (the payload is the room code; see :meth:`RoomLeases.want_room`).
HANDOVER_CHANNEL = "cardtable_handover"
#: Rooms a lease round renews (or a release gives up) in one transaction: a move batch
#: waits for at most one such transaction's locks.
LEASE_BATCH = 200


def _in_code_order(epochs: dict[str, int], size: int = LEASE_BATCH) -> list[list[tuple[str, int]]]:
    """``epochs``' rooms in code order, cut into batches of ``size``."""
    ordered = sorted(epochs.items())
    return [ordered[start : start + size] for start in range(0, len(ordered), size)]


def _held_by(node: str, batch: list[tuple[str, int]]) -> list[sa.ColumnElement[bool]]:
    return [rooms.c.owner == node, sa.tuple_(rooms.c.code, rooms.c.epoch).in_(batch)]


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


class RoomLeases(Database):
    """Claims, renewals, releases and hand-over requests of the rooms' leases."""

    #: PostgreSQL: the connection that listens for hand-over requests.
    _listener: AsyncConnection | None = None
    _listener_driver: Any = None

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
                record.moves = await game_moves(connection, code, record.game_no)
        return record

    async def renew_leases(
        self, node: str, epochs: dict[str, int], lease_seconds: float
    ) -> tuple[set[str], set[str]]:
        """Extend ``node``'s leases of the rooms in ``epochs`` (code: epoch held); returns
        the codes whose lease it no longer holds (taken over, or the room was closed)
        and those another node asked for (see :meth:`want_room`)."""
        held: dict[str, str | None] = {}
        until = time.time() + lease_seconds
        for batch in _in_code_order(epochs):
            async with self._engine().begin() as connection:
                await self._lock_in_code_order(connection, node, batch, "lease renewal")
                result = await connection.execute(
                    rooms.update()
                    .where(*_held_by(node, batch))
                    .values(lease_until=until)
                    .returning(rooms.c.code, rooms.c.wanted_by)
                )
                held.update((row.code, row.wanted_by) for row in result)
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
        values: dict[str, Any] = {"owner": None, "lease_until": None, "wanted_by": None}
        if reserve_seconds is not None:
            values = {"owner": None, "lease_until": time.time() + reserve_seconds}
        for batch in _in_code_order(epochs):
            async with self._engine().begin() as connection:
                await self._lock_in_code_order(connection, node, batch, "lease release")
                await connection.execute(
                    rooms.update().where(*_held_by(node, batch)).values(**values)
                )

    async def _lock_in_code_order(
        self, connection: AsyncConnection, node: str, batch: list[tuple[str, int]], what: str
    ) -> None:
        """PostgreSQL: lock the rows of ``batch`` in code order before they are updated.

        An ``UPDATE ... WHERE (code, epoch) IN (...)`` locks rows in the order it scans
        them, the table's physical order, while a move batch locks its rooms by code
        (see :mod:`.group_commit`): two such orders meeting on the same rows deadlock.
        Taken first, by code, the locks of both sides come in one order. (SQLite has one
        writer at a time and no row locks.)"""
        if not self.is_postgresql:
            return
        with self.lock_trouble.watch(f"{what}: SELECT ... ORDER BY code FOR UPDATE"):
            await connection.execute(
                sa.select(rooms.c.code)
                .where(*_held_by(node, batch))
                .order_by(rooms.c.code)
                .with_for_update()
            )

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
