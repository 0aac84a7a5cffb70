"""The turn time limit of one room (the ``turn_seconds`` table option).

While a seated human is to move, a clock runs: ``turn_seconds`` for each move (every
move of theirs starts it again, so a long Skip-Bo turn of quick plays never runs out).
When it runs out, the room's away bot (``away_bot``, greedy by default) plays the
rest of that player's turn, through the same bot loop as bot seats
(:mod:`.bot_turns`), and everybody is told with a ``turn_timeout`` notice. The player
keeps the seat: their next turn is theirs again, and a move of theirs during the
bot's turn takes it back at once.

The bot's moves are ordinary moves, committed like any other (fenced by the room's
lease epoch in a cluster: a node that lost the room cannot commit one). The clock
lives in memory only: a restored or adopted room starts it again from the full limit
for the player to move. Seats played by bots (bot seats, away players) have no clock.

Time comes from ``table.clock`` (monotonic seconds), which tests replace; they call
:meth:`TurnClock.wake` after moving it on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from ...core import JSON
from ...statuses import SeatKind
from .parts import RoomServices
from .seats import PLAYING

log = logging.getLogger("cardtable.server")


class TurnClock:
    """The clock of the seat to move, and the turn a bot finishes after a time-out."""

    def __init__(self, room: RoomServices) -> None:
        self.room = room
        #: The seat whose clock runs, until when (``table.clock`` time), and the room
        #: version it was started at (a new version is a new move to wait for).
        self.seat: int | None = None
        self.deadline: float | None = None
        self.version: int | None = None
        #: The seat whose time ran out: a bot plays the rest of its current turn.
        self.timed_out: int | None = None
        self.task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    def bot_for(self, seat: int) -> str | None:
        """The bot finishing ``seat``'s turn after a time-out, else None."""
        return self.room.table.config.away_bot if self.timed_out == seat else None

    def remaining(self) -> float | None:
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - self.room.table.clock())

    def public(self) -> JSON:
        """What every client is told: whose clock runs and the seconds left (None: none)."""
        remaining = self.remaining()
        return {
            "seat": self.seat,
            "seconds": None if remaining is None else round(remaining, 1),
            "limit": self.room.table_options.turn_seconds,
            "timed_out": self.timed_out,
        }

    def message(self) -> JSON:
        return {"type": "clock", "version": self.room.version, **self.public()}

    def update(self) -> None:
        """Start, keep or stop the clock after any change (the caller holds the lock):
        a new move to wait for starts it from the full limit, the same one keeps it."""
        room = self.room
        state = room.state
        current = None if state is None or room.status != PLAYING else state.current_player
        if self.timed_out is not None and current != self.timed_out:
            self.timed_out = None  # the bot finished the turn: the seat is the player's again
        limit = room.table_options.turn_seconds
        runs = (
            limit > 0
            and current is not None
            and not room.closed
            and room.seats[current].kind == SeatKind.HUMAN
            and current not in room.away
            and self.timed_out is None
        )
        if not runs:
            if self.deadline is not None:
                self.seat = self.deadline = self.version = None
                room.broadcast_raw(self.message())
            return
        if self.deadline is not None and self.seat == current and self.version == room.version:
            return
        self.seat, self.version = current, room.version
        self.deadline = room.table.clock() + limit
        room.broadcast_raw(self.message())
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())
        self.wake()

    def taken_back(self, seat: int) -> None:
        """``seat``'s player moved while a bot was finishing their turn: it is theirs,
        and if it goes on, so does their clock (the caller holds the lock)."""
        if self.timed_out == seat:
            self.timed_out = None
            self.update()

    def wake(self) -> None:
        """Look at the clock again now (after a change, or a test moved the time on)."""
        self._wake.set()

    def take_task(self) -> asyncio.Task[None] | None:
        """Cancel and hand over the clock's task (the room is closing and awaits it)."""
        task, self.task = self.task, None
        if task is not None:
            task.cancel()
        return task

    async def _run(self) -> None:
        room = self.room
        while not room.closed:
            self._wake.clear()
            remaining = self.remaining()
            if remaining is None:
                await self._wake.wait()
                continue
            if remaining > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), remaining)
                continue
            async with room.lock:
                remaining = self.remaining()
                if remaining is not None and remaining <= 0 and self.version == room.version:
                    self._expire()

    def _expire(self) -> None:
        """The time of the seat to move ran out: a bot plays the rest of its turn."""
        room = self.room
        seat = self.seat
        assert seat is not None
        self.timed_out = seat
        self.seat = self.deadline = self.version = None
        bot = self.bot_for(seat)
        log.info("room %s: seat %d ran out of time; %s plays its turn", room.code, seat, bot)
        room.table.metrics.turn_timeouts += 1
        room.broadcast_raw(
            {
                "type": "notice",
                "code": "turn_timeout",
                "version": room.version,
                "seat": seat,
                "bot": bot,
            }
        )
        room.broadcast_raw(self.message())
        room.bots.schedule()
