"""The public lobby's queries: the rooms a host marked public, by status, and the
accounts that claimed their seats (docs/players.md#the-public-lobby)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import sqlalchemy as sa

from ...core import JSON
from .database import Database
from .tables import rooms, seat_claims


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


class LobbyRows(Database):
    """Public rooms, read through the index ``ix_rooms_lobby`` (public, status, created_at)."""

    async def public_rooms(self, status: str, game: str | None, limit: int) -> list[PublicRoom]:
        """Up to ``limit`` public rooms of ``status`` (and ``game``), oldest first."""
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
        async with self._engine().connect() as connection:
            return [PublicRoom(**row._asdict()) for row in await connection.execute(query)]

    async def seat_claims_of(self, codes: Sequence[str]) -> dict[tuple[str, int], int]:
        """(room, seat) -> the account that claimed it, for these rooms."""
        if not codes:
            return {}
        query = sa.select(seat_claims.c.room_code, seat_claims.c.seat, seat_claims.c.user_id).where(
            seat_claims.c.room_code.in_(list(codes))
        )
        async with self._engine().connect() as connection:
            rows = await connection.execute(query)
            return {(row.room_code, row.seat): row.user_id for row in rows}
