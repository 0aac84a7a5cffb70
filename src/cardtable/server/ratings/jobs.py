"""Rating finished games off the move's path: at once on the node that committed the
last move, and by a catch-up of every node's sweep for the games a stopped node left
unjudged (docs/players.md#ratings). Each game is judged once whoever tries first: the
``rated_games`` key decides (:meth:`RatingRows.rate_game`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from ..storage.store import Storage

log = logging.getLogger("cardtable.server")

#: How far back the catch-up looks for unjudged finished games (seconds): a day at a
#: node's first sweep (a server down for a while), then the last quarter of an hour (a
#: node of the cluster that stopped a moment ago; the look stays cheap, see
#: docs/performance.md).
CATCH_UP_SECONDS = 86400.0
RECENT_SECONDS = 900.0


class GameRater:
    """The ratings of one node's finished games."""

    def __init__(
        self,
        storage: Storage,
        node_id: str,
        clock: Callable[[], float] = time.time,
        on_judged: Callable[[str, int], Awaitable[None]] | None = None,
    ) -> None:
        self.storage = storage
        #: Called with (room code, game number) once a game is judged here: its room,
        #: when this node serves it, tells its table (``Table.tell_verdict``).
        self.on_judged = on_judged
        #: Named in every log record, as a room's records name their node.
        self.node_id = node_id
        self.clock = clock
        self._tasks: set[asyncio.Task[None]] = set()
        self._window = CATCH_UP_SECONDS

    def rate_soon(self, code: str, game_no: int) -> None:
        """Rate a game that just ended, without holding up its room."""
        task = asyncio.create_task(self.rate(code, game_no))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def rate(self, code: str, game_no: int) -> None:
        try:
            judged = await self.storage.rate_game(code, game_no, self.clock())
        except Exception:
            # The catch-up tries again; the key keeps it to once.
            log.exception(
                "room %s: rating game %d failed",
                code,
                game_no,
                extra={"room": code, "node": self.node_id, "game_no": game_no},
            )
            return
        if judged is not None:
            log.info(
                "room %s: game %d %s",
                code,
                game_no,
                f"rated on {judged.ladder}" if judged.ladder else f"unrated ({judged.reason})",
                extra={
                    "room": code,
                    "node": self.node_id,
                    "game_no": game_no,
                    "ladder": judged.ladder,
                },
            )
            if self.on_judged is not None:
                try:
                    await self.on_judged(code, game_no)
                except Exception:
                    # The players learn it at their next connection (Room.attach).
                    log.exception(
                        "room %s: telling the verdict of game %d failed",
                        code,
                        game_no,
                        extra={"room": code, "node": self.node_id, "game_no": game_no},
                    )

    async def catch_up(self) -> int:
        """Rate the finished games nobody judged (of the last day the first time, of the
        last quarter of an hour afterwards); returns how many."""
        pending = await self.storage.unjudged_games(self.clock() - self._window)
        self._window = RECENT_SECONDS
        for code, game_no in pending:
            await self.rate(code, game_no)
        return len(pending)

    async def settle(self) -> None:
        """Wait for the ratings under way (the server is stopping)."""
        for task in list(self._tasks):
            with contextlib.suppress(Exception):
                await task
