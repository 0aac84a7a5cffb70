"""``WS /ws/{code}``: the live protocol of a room (docs/protocol.md).

The upgrade is refused for a foreign Origin (and, in :mod:`cardtable.server.edges.guard`, a
host name the table does not answer to) and for an address that looked up too many codes
that do not exist. One receive loop per connection enforces the guard rails (``hello`` first
and in time, rate limit, message size) and hands each parsed message to the room part that
answers it; refusals become error replies and never end the connection.

Open sockets are counted per client address and on the node: past
``sockets_per_address`` a new one is closed with 4029 ``too_many_sockets``, past
``max_sockets`` with 1013 ``server_full``, each after its error message, so one address
cannot use up the node's file descriptors. A socket that has not sent ``hello`` within
``hello_timeout`` of its room being found is closed with 1008 ``hello_timeout``, whatever
else it sent meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...core import JSON
from ..edges.http import answer, client_address
from ..edges.lookups import ClusterLookups
from ..errors import ApiError, RoomError, too_many
from ..ops.limits import RateLimiter, origin_allowed
from ..tokens import normalize_code
from .connections import (
    MESSAGE_TOO_BIG,
    NO_SUCH_ROOM,
    POLICY_VIOLATION,
    TOO_MANY_SOCKETS,
    TRY_AGAIN_LATER,
    Connection,
    dumps,
)
from .protocol import (
    ChatMessage,
    Configure,
    Hello,
    HintRequest,
    KeepMove,
    MoveMessage,
    Ping,
    ProtocolError,
    ReactionMessage,
    Rematch,
    RemoveSeat,
    Resync,
    ReviewRequest,
    Start,
    TableSettings,
    TakeBack,
    error_message,
    parse_client_message,
)
from .room import Room
from .table import Table

log = logging.getLogger("cardtable.server")


def _room_error_reply(room: Room) -> Callable[[Exception], JSON]:
    def reply(error: Exception) -> JSON:
        if isinstance(error, ApiError):
            return error_message(error.code, error.reason, room.version, error.fields)
        log.error(
            "room %s: a background answer failed",
            room.code,
            exc_info=error,
            extra=room.log_fields(),
        )
        return error_message("no_review", "the move advisor could not review this game")

    return reply


class TableSocket:
    """The WebSocket endpoint of one table."""

    def __init__(self, table: Table, lookups: ClusterLookups) -> None:
        self.table = table
        self.config = table.config
        #: Room code look-ups per address, shared with the HTTP API.
        self.lookups = lookups
        #: Open sockets per client address (none at 0), and on this node.
        self.open_sockets: Counter[str] = Counter()
        self.sockets = 0

    def routes(self) -> list[BaseRoute]:
        return [WebSocketRoute("/ws/{code}", self.endpoint)]

    async def endpoint(self, websocket: WebSocket) -> None:
        config = self.config
        if not origin_allowed(
            websocket.headers.get("origin"), websocket.headers.get("host"), config.allowed_origins
        ):
            await websocket.close(POLICY_VIOLATION)  # before accept: an HTTP 403
            return
        if self.table.draining and "websocket.http.response" in websocket.scope.get(
            "extensions", {}
        ):
            # Refused before the upgrade, as HTTP 503: the proxy passes the handshake to
            # the next node (nginx: proxy_next_upstream http_503), which takes the room
            # over, and the player sees no error; a client reached directly retries.
            await websocket.send_denial_response(
                answer(ApiError("draining", "this server is stopping; reconnect"))
            )
            return
        address = client_address(websocket)
        refused = self._over_cap(address)
        if refused is not None:
            error, close = refused
            await websocket.accept()
            await websocket.send_text(dumps(error_message(error.code, error.reason)))
            await websocket.close(close)
            return
        # Counted before the first await, so sockets opened at once cannot pass the caps.
        self.open_sockets[address] += 1
        self.sockets += 1
        try:
            wait = self.lookups.take(address)
            if wait is not None:
                await self._refuse_lookup(websocket, wait)
                return
            await websocket.accept()
            await self._open(websocket, address)
        finally:
            self.sockets -= 1
            self.open_sockets[address] -= 1
            if self.open_sockets[address] <= 0:
                del self.open_sockets[address]

    def _over_cap(self, address: str) -> tuple[RoomError, int] | None:
        """Why one more socket of ``address`` is refused (the error and the close
        code), or None."""
        config = self.config
        if self.open_sockets[address] >= config.sockets_per_address:
            limit = config.sockets_per_address
            reason = f"this address holds {limit} open connections, the most it may"
            return RoomError("too_many_sockets", reason), TOO_MANY_SOCKETS
        if self.sockets >= config.max_sockets:
            reason = "this server holds all the connections it can; try again later"
            return RoomError("server_full", reason), TRY_AGAIN_LATER
        return None

    async def _open(self, websocket: WebSocket, address: str) -> None:
        """Serve an accepted socket: find its room, then its receive loop."""
        config = self.config
        code = normalize_code(websocket.path_params["code"])
        try:
            if code is None:
                raise RoomError("no_room", "no live room with this code")
            room = await self.table.find_room(code, wait=self.table.handover_wait())
            self.lookups.give_back(address)
        except RoomError as error:
            if error.code == "no_room":
                await self.lookups.missed(address)
            await websocket.send_text(dumps(error_message(error.code, error.reason)))
            # Another node holds the room: 1013, try again later (with back-off).
            await websocket.close(
                TRY_AGAIN_LATER if error.code == "room_elsewhere" else NO_SUCH_ROOM
            )
            return
        conn = Connection(
            websocket,
            RateLimiter(config.rate_per_second, config.rate_burst),
            config.send_queue_size,
        )
        conn.start()
        close_code: int | None = None
        try:
            close_code = await self._serve(room, conn)
        finally:
            if conn.greeted:
                await room.detach(conn)
            await conn.finish(close_code)

    async def _refuse_lookup(self, websocket: WebSocket, wait: float) -> None:
        """Too many look-ups of codes that do not exist: HTTP 429 before the upgrade."""
        if "websocket.http.response" in websocket.scope.get("extensions", {}):
            refusal = too_many("too_many_lookups", "too many room codes that do not exist", wait)
            await websocket.send_denial_response(answer(refusal))
        else:
            await websocket.close(POLICY_VIOLATION)

    async def _serve(self, room: Room, conn: Connection) -> int | None:
        """The receive loop; returns the close code (None when the client left)."""
        config = self.config
        websocket = conn.websocket
        loop = asyncio.get_running_loop()
        hello_by = loop.time() + config.hello_timeout
        while True:
            try:
                if conn.greeted:
                    message = await websocket.receive()
                else:
                    left = max(0.0, hello_by - loop.time())
                    message = await asyncio.wait_for(websocket.receive(), left)
            except TimeoutError:
                conn.push(error_message("hello_timeout", "send hello first"))
                return POLICY_VIOLATION
            except (WebSocketDisconnect, RuntimeError):
                return None
            if message["type"] == "websocket.disconnect":
                return None
            if conn.closing is not None:
                return conn.closing
            if not conn.limiter.allow():
                conn.push(error_message("rate_limited", "too many messages"))
                return POLICY_VIOLATION
            text = message.get("text")
            if text is None:
                size = len(message.get("bytes") or b"")
                if size > config.max_message_bytes:
                    return MESSAGE_TOO_BIG
                conn.push(error_message("bad_message", "binary frames are not accepted"))
                continue
            if (
                len(text) > config.max_message_bytes
                or len(text.encode("utf-8", "surrogatepass")) > config.max_message_bytes
            ):
                return MESSAGE_TOO_BIG
            try:
                close = await self._handle(room, conn, text)
            except ApiError as error:  # a refusal, or a message that is not valid
                conn.push(error_message(error.code, error.reason, room.version, error.fields))
                if error.code == "stale_version":
                    conn.push(room.sync(conn.seat))
                continue
            if close is not None:
                return close

    async def _handle(self, room: Room, conn: Connection, text: str) -> int | None:
        parsed = parse_client_message(text)
        if isinstance(parsed, Hello):
            if conn.greeted:
                raise ProtocolError("already_greeted", "hello is sent once per connection")
            if parsed.token is not None:
                seat = room.seat_for_token(parsed.token)
                if seat is None:
                    conn.push(error_message("bad_token", "this token holds no seat of the room"))
                    return POLICY_VIOLATION
                conn.seat = seat
            conn.greeted = True
            await room.attach(conn, parsed.last_version)
            return None
        if not conn.greeted:
            raise ProtocolError("hello_first", "the first message must be hello")
        if isinstance(parsed, Ping):
            conn.push({"type": "pong", "version": room.version})
        elif isinstance(parsed, Resync):
            async with room.lock:
                for message in room.catch_up(parsed.last_version, conn.seat):
                    conn.push(message)
        elif isinstance(parsed, MoveMessage):
            if conn.seat is None:
                raise RoomError("not_a_player", "spectators cannot move; join a seat to play")
            await room.play(conn.seat, parsed.token, parsed.version, parsed.action, parsed.move)
        elif isinstance(parsed, HintRequest):
            if conn.seat is None:
                raise RoomError("not_a_player", "spectators get no hints; join a seat to play")
            conn.push(await room.advisor.hint(conn.seat, parsed.token, parsed.version))
        elif isinstance(parsed, (TakeBack, KeepMove)):
            if conn.seat is None:
                raise RoomError("not_a_player", "spectators have no moves to take back")
            if isinstance(parsed, TakeBack):
                await room.coach.take_back(conn.seat, parsed.token, parsed.version)
            else:
                await room.coach.keep(conn.seat, parsed.token, parsed.version)
        elif isinstance(parsed, ReviewRequest):
            if conn.seat is None:
                raise RoomError("not_a_player", "spectators get no review; it is for each player")
            # A review takes seconds: the connection is served meanwhile.
            conn.answer_later(room.advisor.review(conn.seat, parsed.token), _room_error_reply(room))
        elif isinstance(parsed, Configure):
            await room.lobby.configure(
                parsed.host_token,
                parsed.options,
                None if parsed.seats is None else list(parsed.seats),
            )
        elif isinstance(parsed, Start):
            await room.lobby.start(parsed.host_token)
        elif isinstance(parsed, RemoveSeat):
            await room.lobby.remove(parsed.host_token, parsed.seat, conn.seat)
        elif isinstance(parsed, Rematch):
            await room.lobby.rematch(parsed.host_token)
        elif isinstance(parsed, ChatMessage):
            room.chat.say(conn, parsed.text)
        elif isinstance(parsed, ReactionMessage):
            room.chat.react(conn, parsed.reaction)
        elif isinstance(parsed, TableSettings):
            await room.set_table_options(parsed.host_token, dict(parsed.options))
        return None
