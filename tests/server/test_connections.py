"""A connection's outgoing messages: sent at once when nothing waits, in order always."""

from __future__ import annotations

import asyncio
from typing import Any

from cardtable.server.ops.limits import RateLimiter
from cardtable.server.rooms.connections import TRY_AGAIN_LATER, Connection


class FakeSocket:
    """The part of Starlette's WebSocket a connection sends through. While ``gate`` is
    closed a send waits, as a send does when the socket's buffer is full."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.gate = asyncio.Event()
        self.gate.set()
        self.gone = False
        self.closed: int | None = None

    async def send_text(self, text: str) -> None:
        if self.gone:
            raise RuntimeError("the peer went away")
        await self.gate.wait()
        self.sent.append(text)

    async def close(self, code: int) -> None:
        self.closed = code


def _connection(socket: FakeSocket, queue_size: int = 16) -> Connection:
    conn = Connection(socket, RateLimiter(10, 10), queue_size)  # type: ignore[arg-type]
    conn.start()
    return conn


async def _turns(n: int = 5) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


def run(scenario: Any) -> None:
    asyncio.run(scenario())


def test_a_message_to_an_idle_connection_is_written_before_push_returns() -> None:
    async def scenario() -> None:
        socket = FakeSocket()
        conn = _connection(socket)
        conn.push("a")
        assert socket.sent == ["a"]  # no task switch needed
        conn.push({"type": "pong", "version": 3})
        assert socket.sent == ["a", '{"type":"pong","version":3}']
        await conn.finish(1000)
        assert socket.closed == 1000

    run(scenario)


def test_messages_after_a_send_that_waits_keep_their_order() -> None:
    async def scenario() -> None:
        socket = FakeSocket()
        conn = _connection(socket)
        socket.gate.clear()
        for text in ("a", "b", "c"):
            conn.push(text)
        await _turns()
        assert socket.sent == []
        socket.gate.set()
        await _turns()
        assert socket.sent == ["a", "b", "c"]
        conn.push("d")  # idle again: written at once
        assert socket.sent == ["a", "b", "c", "d"]
        await conn.finish(1000)

    run(scenario)


def test_finish_flushes_a_waiting_send_and_the_queue_before_closing() -> None:
    async def scenario() -> None:
        socket = FakeSocket()
        conn = _connection(socket)
        socket.gate.clear()
        conn.push("a")
        conn.push("b")
        asyncio.get_running_loop().call_later(0.01, socket.gate.set)
        await conn.finish(4009)
        assert socket.sent == ["a", "b"]
        assert socket.closed == 4009

    run(scenario)


def test_a_connection_whose_peer_went_away_drops_later_messages() -> None:
    async def scenario() -> None:
        socket = FakeSocket()
        conn = _connection(socket)
        socket.gone = True
        conn.push("a")  # the failure stays inside the connection
        socket.gone = False
        conn.push("b")
        await _turns()
        assert socket.sent == []
        await conn.finish(1000)

    run(scenario)


def test_a_client_too_slow_to_keep_up_is_closed() -> None:
    async def scenario() -> None:
        socket = FakeSocket()
        conn = _connection(socket, queue_size=3)
        socket.gate.clear()
        for n in range(10):
            conn.push(str(n))
        assert conn.closing == TRY_AGAIN_LATER
        socket.gate.set()
        await conn.finish()
        assert socket.closed == TRY_AGAIN_LATER
        # What was sent before the close is in order, and not all of it.
        assert socket.sent == sorted(socket.sent, key=int) and len(socket.sent) < 10

    run(scenario)
