"""The turns bots play in one room: bot seats, and away humans' seats (see
:mod:`cardtable.server.rooms.grace`).

One task per room while a bot is to move: it pauses ``bot_pause`` so people can
follow, asks the bot pool for the move on a snapshot (the room's lock is free
meanwhile), and commits it only if the room did not change in between.
"""

from __future__ import annotations

import asyncio
import logging

from ...statuses import SeatKind
from .parts import RoomServices
from .seats import DEFAULT_BOT, PLAYING

log = logging.getLogger("cardtable.server")


class BotTurns:
    """The bot loop of one room."""

    def __init__(self, room: RoomServices) -> None:
        self.room = room
        self.task: asyncio.Task[None] | None = None

    def bot_for(self, seat: int) -> str | None:
        """The bot playing ``seat`` now: a bot seat's own, or the stand-in for an away human."""
        room = self.room
        info = room.seats[seat]
        if info.kind == SeatKind.BOT:
            return info.bot or DEFAULT_BOT
        if seat in room.away:
            return room.table.config.away_bot
        return room.clock.bot_for(seat)

    def schedule(self) -> None:
        """Start the bot loop if a bot is to move (the caller holds the room's lock)."""
        room = self.room
        if self.task is not None or room.closed:
            return
        if room.status != PLAYING or room.state is None:
            return
        seat = room.state.current_player
        if seat is None or self.bot_for(seat) is None or room.coach.holds_bots():
            return
        self.task = asyncio.create_task(self._loop())

    def take_task(self) -> asyncio.Task[None] | None:
        """Cancel and hand over the loop (the room is closing and awaits it)."""
        task, self.task = self.task, None
        if task is not None:
            task.cancel()
        return task

    async def _loop(self) -> None:
        room = self.room
        pool = room.table.bots
        while True:
            await asyncio.sleep(room.table.config.bot_pause)
            async with room.lock:
                state = room.state
                seat = None if state is None else state.current_player
                name = None if seat is None else self.bot_for(seat)
                if state is None or seat is None or name is None or room.closed:
                    self.task = None
                    return
                if room.status != PLAYING or room.coach.holds_bots():
                    # The coach judges the player's last move or offers to take it back:
                    # the coach schedules the bots again once that is settled.
                    self.task = None
                    return
                snapshot, version, seed = state.clone(), room.version, room.seed
            assert seed is not None
            choice = await pool.choose(room.game.name, name, snapshot, seed)
            async with room.lock:
                if room.version != version or self.bot_for(seat) is None or room.closed:
                    continue
                try:
                    await room.commit_move(seat, choice.action, by="bot")
                except Exception:
                    log.exception(
                        "room %s: bot move failed", room.code, extra=room.log_fields(seat=seat)
                    )
                    await asyncio.sleep(1.0)
                    continue
                room.table.metrics.moves["bot"] += 1
                if choice.stand_in is not None:
                    log.warning(
                        "room %s: bot %s of seat %d failed; %s played its move",
                        room.code,
                        name,
                        seat,
                        choice.stand_in,
                        extra=room.log_fields(seat=seat, bot=name, stand_in=choice.stand_in),
                    )
                    room.broadcast_raw(
                        {
                            "type": "notice",
                            "code": "bot_stand_in",
                            "version": room.version,
                            "seat": seat,
                            "bot": name,
                            "stand_in": choice.stand_in,
                        }
                    )
