"""One scripted player of the load test: a WebSocket that says ``hello`` with its seat
token, and reconnects as the web page does when the server closes it for a hand-over
or goes away."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import random
import time
from typing import Any, Protocol

from .loadtest_stats import Stats

try:  # orjson (in the server extra) reads and writes the messages several times faster
    import orjson

    def _loads(text: str | bytes) -> Any:
        return orjson.loads(text)

    def _dumps(data: dict[str, Any]) -> str:
        return orjson.dumps(data).decode()

except ImportError:  # pragma: no cover - without the server extra

    def _loads(text: str | bytes) -> Any:
        return json.loads(text)

    def _dumps(data: dict[str, Any]) -> str:
        return json.dumps(data, separators=(",", ":"))


#: Close codes after which a seat reconnects as a browser does: the room moved to
#: another node (4009), another node holds it for now (1013), the node went away
#: (1001, 1012) or the connection broke without a close (1006, no code).
RECONNECT_CODES = frozenset({1001, 1006, 1011, 1012, 1013, 4009, None})
#: The web page's back-off (conn.js): 250 ms doubling to 8 s, half fixed, half random.
BACKOFF_FIRST, BACKOFF_MAX = 0.25, 8.0
#: How long a seat keeps trying to reconnect before the room counts as broken.
RECONNECT_WINDOW = 90.0


@functools.cache
def _connection_closed() -> type[Exception]:
    """websockets' ``ConnectionClosed``, imported once (its lazy import costs on every
    look-up, and a send is made for every move)."""
    from websockets.exceptions import ConnectionClosed

    return ConnectionClosed


class SeatRoom(Protocol):
    """What a seat tells its room (a :class:`~cardtable.bench.loadtest_room.RoomDriver`)."""

    stats: Stats

    def received(self, client: SeatClient, message: dict[str, Any], now: float) -> None: ...

    def changed(self) -> None: ...


class SeatClient:
    """One scripted player: a WebSocket, the latest version and view it received."""

    def __init__(self, room: SeatRoom, seat: int, token: str) -> None:
        self.room = room
        self.seat = seat
        self.token = token
        self.version = 0
        self.view: dict[str, Any] | None = None
        self.game_no = 1
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.synced = asyncio.Event()
        self.last_sync: dict[str, Any] | None = None
        self.closing = False
        self.ws_url = ""
        self.compression = True
        #: Between a reconnection and the end of its catch-up (``chat_history``).
        self.reconnecting = False
        #: The room's version the last ``welcome`` gave.
        self.welcome_version = 0
        #: When the last connection was found closed (perf_counter).
        self.dropped_at = 0.0

    async def connect(self, ws_url: str, compression: bool) -> None:
        self.ws_url, self.compression = ws_url, compression
        await self._open()
        self.reader = asyncio.create_task(self._read())
        await self.send({"type": "hello", "token": self.token})

    async def _open(self) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(
            self.ws_url,
            compression="deflate" if self.compression else None,
            open_timeout=60,
            ping_interval=None,
            max_size=2**20,
            proxy=None,
        )

    async def send(self, data: dict[str, Any]) -> None:
        # A send on a socket that just closed is dropped: the reader reconnects, and
        # the room's driver sees from the catch-up whether the move was played.
        with contextlib.suppress(_connection_closed()):
            await self.ws.send(_dumps(data))

    async def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            while True:
                try:
                    async for text in self.ws:
                        now = time.perf_counter()
                        self.room.received(self, _loads(text), now)
                    code = self.ws.close_code
                except ConnectionClosed as closed:
                    code = closed.rcvd.code if closed.rcvd else None
                if self.closing:
                    return
                if code not in RECONNECT_CODES:
                    self.room.stats.error(f"closed_{code}")
                    return
                self.room.stats.reconnects[str(code).lower()] += 1
                await self._reconnect()
        except Exception as error:
            self.room.stats.error(f"reader_{type(error).__name__}")
        finally:
            self.room.changed()

    async def _reconnect(self) -> None:
        """Connect again with jittered exponential back-off, as the web page does, and
        say ``hello`` with the last version: the server sends what was missed."""
        self.reconnecting = True
        self.dropped_at = time.perf_counter()
        deadline = time.monotonic() + RECONNECT_WINDOW
        attempt = 0
        while True:
            delay = min(BACKOFF_MAX, BACKOFF_FIRST * 2**attempt)
            await asyncio.sleep(delay / 2 + random.uniform(0, delay / 2))
            attempt += 1
            try:
                await self._open()
            except Exception as error:  # refused, reset, 503 from a draining node...
                if time.monotonic() > deadline:
                    raise TimeoutError(f"seat {self.seat}: no reconnection") from error
                continue
            break
        await self.send({"type": "hello", "token": self.token, "last_version": self.version})

    def my_turn(self) -> bool:
        view = self.view
        return bool(view and view.get("legal_actions") and view.get("result") is None)

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 10)
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.reader
