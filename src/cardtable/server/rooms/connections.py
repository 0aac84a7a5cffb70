"""One WebSocket connection: who it is, its rate limit and its outgoing queue.

Broadcasting never waits on a slow client: messages go into a bounded queue that a
sender task drains; a connection whose queue overflows is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from starlette.websockets import WebSocket

from ...core import JSON
from ..ops.limits import RateLimiter

#: Close codes used by the server (RFC 6455 and the 4000-4999 private range).
POLICY_VIOLATION = 1008
MESSAGE_TOO_BIG = 1009
TRY_AGAIN_LATER = 1013
NO_SUCH_ROOM = 4004
#: The room is served by another node now (taken over, or this node is stopping):
#: reconnect, with back-off, and resume from the last version.
ROOM_MOVED = 4009
#: This client address holds as many WebSockets on this node as it may
#: (``ServerConfig.sockets_per_address``): close one (another tab) and try again.
TOO_MANY_SOCKETS = 4029
#: Seconds a closing connection waits for answers still being worked out.
BACKGROUND_GRACE = 30.0


try:  # orjson (in the server extra) encodes a room's messages several times faster
    import orjson as _orjson_module

    _orjson: Any = _orjson_module
except ImportError:  # pragma: no cover - without the extra
    _orjson = None

#: The JSON encoder of the messages: ``orjson`` when installed, else ``json``.
JSON_ENCODER = "json" if _orjson is None else "orjson"


def dumps(data: JSON) -> str:
    """``data`` as compact JSON text (UTF-8, not ASCII-escaped)."""
    if _orjson is not None:
        try:
            text: str = _orjson.dumps(data, option=_orjson.OPT_NON_STR_KEYS).decode()
            return text
        except TypeError:  # an integer past 64 bits: the standard encoder takes any
            pass
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _wake(ready: asyncio.Future[None], _done: object) -> None:
    if not ready.done():
        ready.set_result(None)


class _Unfinished:
    """A send that suspended in :meth:`Connection._send_now`: the coroutine and what it
    waits for, finished by the sender task."""

    __slots__ = ("send", "waiting")

    def __init__(self, send: Coroutine[Any, Any, None], waiting: Any) -> None:
        self.send = send
        self.waiting = waiting

    async def finish(self) -> None:
        """Drive the send to its end, as a task would have: wait for what it waits for,
        then resume it with that outcome."""
        send, waiting = self.send, self.waiting
        while True:
            try:
                if waiting is None:  # a bare yield: give the loop one turn
                    await asyncio.sleep(0)
                else:
                    # Woken when what the send waits for is done; the send, resumed,
                    # then reads its outcome itself.
                    ready = asyncio.get_running_loop().create_future()
                    waiting.add_done_callback(functools.partial(_wake, ready))
                    await ready
            except BaseException as error:  # cancelled: given to the send
                try:
                    waiting = send.throw(error)
                except StopIteration:
                    return
                continue
            try:
                waiting = send.send(None)
            except StopIteration:
                return


#: What the sender task takes from the queue: a message, the rest of a send that
#: suspended, or None to close.
_Outgoing = str | _Unfinished | None


class Connection:
    """A client connected to one room, as a seat or as a spectator (``seat`` None)."""

    def __init__(self, websocket: WebSocket, limiter: RateLimiter, queue_size: int) -> None:
        self.websocket = websocket
        self.limiter = limiter
        self.seat: int | None = None
        self.greeted = False
        self.closing: int | None = None
        self._queue: asyncio.Queue[_Outgoing] = asyncio.Queue(queue_size)
        self._sender: asyncio.Task[None] | None = None
        #: The sender task is sending (a message it took from the queue).
        self._sending = False
        #: A send failed: the peer went away, and the receive loop will notice.
        self._broken = False
        self._background: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        self._sender = asyncio.create_task(self._send_loop())

    def push(self, data: JSON | str) -> None:
        """Queue a message; a connection too slow to keep up is closed."""
        if self.closing is not None:
            return
        text = data if isinstance(data, str) else dumps(data)
        if self._broken:
            return
        if not self._sending and self._queue.empty() and self._sender is not None:
            self._send_now(text)
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self.closing = TRY_AGAIN_LATER
            with contextlib.suppress(asyncio.QueueFull):
                dropped = self._queue.get_nowait()
                if isinstance(dropped, _Unfinished):
                    dropped.send.close()  # it waited for room in the socket, unwritten
                self._queue.put_nowait(None)

    def end(self, close_code: int) -> None:
        """Close after what is queued (the receive loop ends at the next message)."""
        if self.closing is not None:
            return
        self.closing = close_code
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(None)

    def answer_later(self, work: Awaitable[JSON], failed: Callable[[Exception], JSON]) -> None:
        """Push ``work``'s answer when it is ready, while this connection goes on.

        For slow requests (a post-game review takes seconds): meanwhile the client's
        pings, moves and rematch are served. ``failed`` turns an exception into the
        error reply.
        """

        async def run() -> None:
            try:
                answer = await work
            except Exception as error:
                self.push(failed(error))
            else:
                self.push(answer)

        task = asyncio.create_task(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _send_now(self, text: str) -> None:
        """Send ``text`` at once, in the pushing task, when nothing waits to be sent.

        A frame is almost always written straight to the socket's buffer: the ASGI
        ``send`` coroutine then finishes without suspending, and running it here saves
        waking the sender task for every message (docs/performance.md, "The cost of a
        move on the server"). When it does suspend (the socket's buffer is full), the
        rest of that send is queued first, so the sender task finishes it before any
        later message and the order is kept.
        """
        send = self.websocket.send_text(text)
        try:
            waiting = send.send(None)
        except StopIteration:
            return
        except Exception:  # the peer went away; the receive loop will notice
            self._broken = True
            return
        try:
            self._queue.put_nowait(_Unfinished(send, waiting))
        except asyncio.QueueFull:  # pragma: no cover - the queue was empty
            send.close()

    async def _send_loop(self) -> None:
        while True:
            item = await self._queue.get()
            if item is None:
                break
            self._sending = True
            try:
                if isinstance(item, str):
                    await self.websocket.send_text(item)
                else:
                    await item.finish()
            except Exception:  # the peer went away; the receive loop will notice
                self._broken = True
                break
            finally:
                self._sending = False
        if self.closing is not None:
            with contextlib.suppress(Exception):
                await self.websocket.close(self.closing)

    async def finish(self, close_code: int | None = None) -> None:
        """Flush what is queued, then close with ``close_code`` (None: the peer closed)."""
        if self.closing is None:
            self.closing = close_code
        if self._background:
            # Answers still being worked out finish (their thread would run on anyway)
            # but are no longer sent.
            await asyncio.wait(set(self._background), timeout=BACKGROUND_GRACE)
            for task in self._background:
                task.cancel()
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(None)
        if self._sender is not None:
            try:
                await asyncio.wait_for(self._sender, timeout=5)
            except (TimeoutError, asyncio.CancelledError):
                self._sender.cancel()
