"""The database behind a table server: SQLAlchemy 2 (async), SQLite or PostgreSQL.

:class:`Storage` is the one object the server holds; it puts together the parts of
:mod:`cardtable.server.storage`, one concern each: opening and closing and the group-commit
writer of moves (``Database``), rooms, leases, games, accounts, ratings, the lobby.

Every write is one transaction committed before the caller broadcasts anything, so a
move that anybody has seen is on disk (a crash of the process loses nothing committed).
"""

from __future__ import annotations

from .accounts import AccountRows
from .games import GameLogs
from .leases import RoomLeases
from .profiles import ProfileRows
from .public_rooms import LobbyRows
from .ratings import RatingRows
from .rooms import RoomRows


class Storage(RoomRows, RoomLeases, GameLogs, AccountRows, RatingRows, LobbyRows, ProfileRows):
    """The database behind a table server: rooms, their leases, games and move logs,
    accounts, ratings, the public lobby, the players' profiles."""

    async def close(self) -> None:
        await self.stop_listening()  # before the engine it listens on goes
        await super().close()
