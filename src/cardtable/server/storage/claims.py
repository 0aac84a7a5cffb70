"""Which account claimed which seat of a room (``seat_claims``), read by one query
whoever asks: a claim checking the room's other seats, a finished game judged for its
ladder, a game's verdict told seat by seat, the public lobby's ratings and profiles.

Each reader runs it on its own connection, so a check inside a transaction (a claim, a
judgement) reads the claims of that transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from .tables import seat_claims


def claims_query(codes: Sequence[str], *also: Any) -> sa.Select[Any]:
    """The claims of these rooms: room, seat and account (and the columns ``also``, of
    a table the caller joins)."""
    claimed = (seat_claims.c.room_code, seat_claims.c.seat, seat_claims.c.user_id)
    return sa.select(*claimed, *also).where(seat_claims.c.room_code.in_(list(codes)))


async def claims_in(
    connection: AsyncConnection, codes: Sequence[str]
) -> dict[tuple[str, int], int]:
    """(room, seat) -> the account that claimed it, for these rooms."""
    if not codes:
        return {}
    rows = await connection.execute(claims_query(codes))
    return {(row.room_code, row.seat): row.user_id for row in rows}


async def room_claims(connection: AsyncConnection, code: str) -> dict[int, int]:
    """Seat -> the account that claimed it, in one room."""
    return {seat: user for (_room, seat), user in (await claims_in(connection, [code])).items()}
