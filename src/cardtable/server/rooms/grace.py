"""Disconnect grace: a player who left a game in play gets ``grace_seconds`` to come
back; after that the seat is *away* and a bot plays it until the player returns."""

from __future__ import annotations

import asyncio
import logging

from .parts import RoomServices
from .seats import PLAYING

log = logging.getLogger("cardtable.server")


class DisconnectGrace:
    """The grace timers and the away seats of one room."""

    def __init__(self, room: RoomServices) -> None:
        self.room = room
        #: Seats whose player stayed away past the grace period (a bot plays them).
        self.away: set[int] = set()
        self._timers: dict[int, asyncio.Task[None]] = {}

    def start(self, seat: int) -> None:
        """``seat``'s player left (or the server restarted): start its grace period."""
        old = self._timers.pop(seat, None)
        if old is not None:
            old.cancel()
        self._timers[seat] = asyncio.create_task(self._expire(seat))

    def back(self, seat: int) -> None:
        """``seat``'s player is connected again: no timer, not away."""
        timer = self._timers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        self.away.discard(seat)

    def reset(self) -> None:
        """A new game (rematch): nobody is away."""
        self.away.clear()
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    def take_timers(self) -> list[asyncio.Task[None]]:
        """Cancel and hand over every timer (the room is closing and awaits them)."""
        timers = list(self._timers.values())
        self._timers.clear()
        for timer in timers:
            timer.cancel()
        return timers

    async def _expire(self, seat: int) -> None:
        room = self.room
        await asyncio.sleep(room.table.config.grace_seconds)
        async with room.lock:
            self._timers.pop(seat, None)
            if room.status != PLAYING or seat in room.connected_seats() or room.closed:
                return
            self.away.add(seat)
            log.info(
                "room %s: seat %d away, a bot plays it",
                room.code,
                seat,
                extra=room.log_fields(seat=seat),
            )
            room.broadcast_raw(room.presence())
            room.clock.update()  # an away seat has no clock: its bot plays at once
            room.bots.schedule()
