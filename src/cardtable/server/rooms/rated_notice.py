"""A room's part that tells its table whether the game just finished was rated, and
each rated seat's rating change: as soon as the game is judged, and again to whoever
connects while the finished game is on the table (the ``rated`` message,
docs/protocol.md#was-this-game-rated)."""

from __future__ import annotations

from ...core import JSON
from ..ratings.profiles import rated_message, seat_verdicts
from .connections import Connection
from .parts import RoomServices
from .seats import FINISHED


class GameVerdicts:
    """The verdict of a room's finished game, read once from the database."""

    def __init__(self, room: RoomServices) -> None:
        self.room = room
        #: (game number, its ``rated`` message without a version): judged games stay judged.
        self._known: tuple[int, JSON] | None = None

    async def message(self, game_no: int) -> JSON | None:
        """The ``rated`` message of game ``game_no``, or None until it is judged."""
        if self._known is not None and self._known[0] == game_no:
            return self._known[1]
        storage = self.room.table.storage
        verdict = await storage.rated_game(self.room.code, game_no)
        if verdict is None:
            return None
        seats, claims = await storage.seat_players(self.room.code, game_no)
        message = rated_message(game_no, verdict, seat_verdicts(verdict, seats, claims))
        self._known = (game_no, message)
        return message

    async def tell(self, game_no: int) -> None:
        """Game ``game_no`` was just judged: tell everyone at the table (unless the
        table went on to its next game meanwhile)."""
        message = await self.message(game_no)
        room = self.room
        if message is not None and room.game_no == game_no and room.status == FINISHED:
            room.broadcast_raw({**message, "version": room.version})

    async def greet(self, conn: Connection) -> None:
        """Tell a connection that joins a finished game its verdict, once known."""
        room = self.room
        if room.status != FINISHED:
            return
        message = await self.message(room.game_no)
        if message is not None:
            conn.push({**message, "version": room.version})
