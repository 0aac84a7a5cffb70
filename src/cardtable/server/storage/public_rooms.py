"""The public lobby's queries: the rooms a host marked public, by status, and the
accounts that claimed their seats (docs/players.md#the-public-lobby)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import zlib
from collections.abc import AsyncIterator, Sequence

import sqlalchemy as sa

from ...core import JSON
from .claims import claims_in
from .database import Database
from .tables import rooms


@dataclasses.dataclass(frozen=True)
class PublicRoom:
    """What the lobby reads of a public room's row (its seats still hold token hashes:
    the caller shows only their public part)."""

    code: str
    game: str
    rules: JSON
    seats: list[JSON]
    status: str
    table_options: JSON | None
    created_at: float


#: The advisory locks of quick matches: this, plus a CRC of the game's name.
QUICK_MATCH_LOCK = 0x51_4D_00_00


class LobbyRows(Database):
    """Public rooms, read through the index ``ix_rooms_lobby`` (public, status, created_at)."""

    @contextlib.asynccontextmanager
    async def quick_match_turn(self, game: str, patience: float = 10.0) -> AsyncIterator[None]:
        """The quick matches of ``game`` one at a time on every node (PostgreSQL: an
        advisory lock held on a connection of its own), so two players pressing "Play
        now" at once on two nodes land at one table rather than opening one each. On
        SQLite (one node) the caller's own lock is enough.

        The lock is tried, not waited for (a wait would count against the lock timeout,
        and an open transaction against the idle one, both a lease long); after
        ``patience`` seconds without it the match goes ahead alone (at worst a second
        table opens, as before)."""
        if not self.is_postgresql:
            yield
            return
        key = QUICK_MATCH_LOCK + zlib.crc32(game.encode()) % 0x10000
        async with self._engine().connect() as connection:
            autocommit = await connection.execution_options(isolation_level="AUTOCOMMIT")
            deadline = asyncio.get_running_loop().time() + patience
            held = False
            while not held and asyncio.get_running_loop().time() < deadline:
                tried = await autocommit.execute(
                    sa.text("SELECT pg_try_advisory_lock(:key)"), {"key": key}
                )
                held = bool(tried.scalar_one())
                if not held:
                    await asyncio.sleep(0.02)
            try:
                yield
            finally:
                if held:
                    try:
                        await autocommit.execute(
                            sa.text("SELECT pg_advisory_unlock(:key)"), {"key": key}
                        )
                    except BaseException:
                        # Never back to the pool still holding the lock: closing the
                        # connection ends the session, and the lock with it.
                        await connection.invalidate()
                        raise

    async def public_rooms(
        self, status: str, game: str | None, limit: int, players: int | None = None
    ) -> list[PublicRoom]:
        """Up to ``limit`` public rooms of ``status`` (and ``game``, and ``players``
        seats), oldest first. The seat count is read from the rules as the index scan
        goes, so the ``limit`` rows are all of that size (not the oldest of any size)."""
        query = (
            sa.select(
                rooms.c.code,
                rooms.c.game,
                rooms.c.rules,
                rooms.c.seats,
                rooms.c.status,
                rooms.c.table_options,
                rooms.c.created_at,
            )
            .where(rooms.c.public.is_(True), rooms.c.status == status)
            .order_by(rooms.c.created_at)
            .limit(limit)
        )
        if game is not None:
            query = query.where(rooms.c.game == game)
        if players is not None:
            query = query.where(rooms.c.rules["players"].as_integer() == players)
        async with self._engine().connect() as connection:
            return [PublicRoom(**row._asdict()) for row in await connection.execute(query)]

    async def seat_claims_of(self, codes: Sequence[str]) -> dict[tuple[str, int], int]:
        """(room, seat) -> the account that claimed it, for these rooms."""
        if not codes:
            return {}
        async with self._engine().connect() as connection:
            return await claims_in(connection, codes)
