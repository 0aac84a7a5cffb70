"""A room's row: created, started, changed, deleted, and the questions asked of the rooms.

Every write is one transaction committed before the caller broadcasts anything, and with
a lease epoch it is fenced: refused with :class:`FencedError` once another node took the
room over.
"""

from __future__ import annotations

import time
from typing import Any

import sqlalchemy as sa

from ...core import JSON
from .database import Database
from .records import FencedError, RoomRecord
from .tables import LIVE_STATUSES, games, rooms


def _room_is(code: str, epoch: int | None) -> list[sa.ColumnElement[bool]]:
    """The row of room ``code``, and only while lease ``epoch`` is current (when given)."""
    condition = [rooms.c.code == code]
    if epoch is not None:
        condition.append(rooms.c.epoch == epoch)
    return condition


class RoomRows(Database):
    """The ``rooms`` table's queries (and the game row a start opens)."""

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

    async def delete_room(self, code: str, epoch: int | None = None) -> None:
        """Forget a room that never played a game (fenced by ``epoch`` when given)."""
        async with self._engine().begin() as connection:
            done = await connection.execute(rooms.delete().where(*_room_is(code, epoch)))
            if done.rowcount == 0 and epoch is not None:
                raise FencedError(code)

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

    async def room_exists(self, code: str) -> bool:
        async with self._engine().connect() as connection:
            result = await connection.execute(sa.select(rooms.c.code).where(rooms.c.code == code))
            return result.first() is not None
