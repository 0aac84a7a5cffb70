"""The stored games: a game's row and its move log, for replays and restores, and the
removal of a move taken back (the practice coach, see :mod:`cardtable.server.rooms.coach`)."""

from __future__ import annotations

import time
from typing import Any

import sqlalchemy as sa

from .database import Database
from .records import FencedError, GameRecord
from .tables import games, moves, rooms


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
    """The ``games`` and ``moves`` tables' reads (moves are written by the group commit),
    and the take-back of a game's last move."""

    async def take_back_move(
        self, code: str, game_no: int, index: int, version: int, epoch: int | None = None
    ) -> None:
        """Remove move ``index`` (and any after it) of game ``game_no`` of room ``code`` and
        set the room's version to ``version``, in one transaction; with ``epoch``, only
        while that lease epoch is current (else :class:`FencedError`, nothing changes).
        The log then holds exactly the moves that stand: replays and restores follow it."""
        condition = [rooms.c.code == code]
        if epoch is not None:
            condition.append(rooms.c.epoch == epoch)
        async with self._engine().begin() as connection:
            # The room's row first: in SQLite it takes the write lock before the delete.
            done = await connection.execute(
                rooms.update().where(*condition).values(version=version, updated_at=time.time())
            )
            if done.rowcount == 0 and epoch is not None:
                raise FencedError(code)
            await connection.execute(
                moves.delete().where(
                    moves.c.room_code == code, moves.c.game_no == game_no, moves.c.idx >= index
                )
            )

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
