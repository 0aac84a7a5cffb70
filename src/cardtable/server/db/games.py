"""The stored games: a game's row and its move log, for replays and restores."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from .database import Database
from .records import GameRecord
from .tables import games, moves


async def game_moves(connection: Any, code: str, game_no: int) -> list[tuple[int, int, int]]:
    """(seat, action, version) of every move of game ``game_no`` of room ``code``, in
    order, read on ``connection`` (so in its transaction)."""
    result = await connection.execute(
        sa.select(moves.c.seat, moves.c.action, moves.c.version)
        .where(moves.c.room_code == code, moves.c.game_no == game_no)
        .order_by(moves.c.idx)
    )
    return [(row.seat, row.action, row.version) for row in result]


class GameLogs(Database):
    """The ``games`` and ``moves`` tables' reads (moves are written by the group commit)."""

    async def load_game(self, code: str, game_no: int) -> GameRecord | None:
        async with self._engine().connect() as connection:
            result = await connection.execute(
                games.select().where(games.c.room_code == code, games.c.game_no == game_no)
            )
            row = result.first()
            if row is None:
                return None
            log = await game_moves(connection, code, game_no)
        return GameRecord(**row._asdict(), moves=log)

    async def list_games(self, code: str) -> list[GameRecord]:
        async with self._engine().connect() as connection:
            result = await connection.execute(
                games.select().where(games.c.room_code == code).order_by(games.c.game_no)
            )
            return [GameRecord(**row._asdict(), moves=[]) for row in result]
