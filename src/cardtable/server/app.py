"""The ASGI application: HTTP endpoints for rooms and replays, and the WebSocket.

HTTP (JSON):

- ``GET /health``: liveness and counts.
- ``POST /api/rooms``: create a room; returns its code, links and the host token.
- ``GET /api/rooms/{code}``: the public room summary.
- ``POST /api/rooms/{code}/join``: take a seat with a display name; returns the seat token.
- ``GET /api/rooms/{code}/games``: the games played in the room.
- ``GET /api/rooms/{code}/games/{n}``: a game's log (replay); ``/steps/{k}``: view after k moves.
- ``WS /ws/{code}``: the live protocol (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from pydantic import BaseModel, ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core import JSON
from ..web import web_routes
from .config import ServerConfig
from .connections import (
    MESSAGE_TOO_BIG,
    NO_SUCH_ROOM,
    POLICY_VIOLATION,
    Connection,
    dumps,
)
from .limits import RateLimiter, origin_allowed
from .protocol import (
    Configure,
    CreateRoom,
    Hello,
    HintRequest,
    JoinRoom,
    MoveMessage,
    Ping,
    ProtocolError,
    Rematch,
    Resync,
    ReviewRequest,
    Start,
    describe,
    error_message,
    parse_client_message,
)
from .replays import game_summary, replay_log, replay_step
from .rooms import Room, RoomError
from .storage import CLIENT_LENGTH
from .table import Table
from .tokens import normalize_code

log = logging.getLogger("cardtable.server")

HTTP_STATUS = {
    "no_room": 404,
    "no_game": 404,
    "too_many_rooms": 429,
    "not_host": 403,
    "payload_too_large": 413,
}


def _error(
    code: str, reason: str, status: int | None = None, fields: JSON | None = None
) -> JSONResponse:
    return JSONResponse(
        {**(fields or {}), "error": code, "reason": reason},
        status_code=status or HTTP_STATUS.get(code, 400),
    )


def _client(request: Request | WebSocket) -> str:
    """The client's address, cut to the ``rooms.client`` column (a forwarded address
    comes from a header: PostgreSQL, unlike SQLite, refuses a longer string)."""
    host = request.client.host if request.client is not None else "unknown"
    return host[:CLIENT_LENGTH]


async def _body(request: Request, model: type[BaseModel], limit: int) -> Any:
    raw = await request.body()
    if len(raw) > limit:
        raise RoomError("payload_too_large", f"a request body holds at most {limit} bytes")
    try:
        return model.model_validate_json(raw or b"{}")
    except ValidationError as error:
        raise RoomError("bad_request", describe(error)) from None


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The table server as an ASGI app; its lifespan opens the database and restores rooms."""
    config = config or ServerConfig()
    table = Table(config)

    def room_or_error(code_text: str) -> Room:
        code = normalize_code(code_text)
        room = None if code is None else table.rooms.get(code)
        if room is None:
            raise RoomError("no_room", f"no live room {code_text[:16]!r}")
        return room

    async def health(request: Request) -> Response:
        return JSONResponse(
            {
                "status": "ok",
                "rooms": len(table.rooms),
                "connections": sum(len(room.connections) for room in table.rooms.values()),
            }
        )

    async def create_room(request: Request) -> Response:
        try:
            body: CreateRoom = await _body(request, CreateRoom, config.max_message_bytes)
            created = await table.create_room(
                body.game, body.options, body.seats, body.name, _client(request)
            )
        except RoomError as error:
            return _error(error.code, error.reason, fields=error.fields)
        code = created["code"]
        base = str(request.base_url).rstrip("/")
        created["join_url"] = f"{base}/r/{code}"
        created["watch_url"] = f"{base}/r/{code}/watch"
        created["ws_url"] = f"{base.replace('http', 'ws', 1)}/ws/{code}"
        created["room"] = table.rooms[code].summary()
        return JSONResponse(created, status_code=201)

    async def room_info(request: Request) -> Response:
        try:
            room = room_or_error(request.path_params["code"])
        except RoomError as error:
            return _error(error.code, error.reason)
        return JSONResponse(room.summary())

    async def join_room(request: Request) -> Response:
        try:
            room = room_or_error(request.path_params["code"])
            body: JoinRoom = await _body(request, JoinRoom, config.max_message_bytes)
            seat, token = await room.join(body.name, body.seat)
        except RoomError as error:
            return _error(error.code, error.reason)
        return JSONResponse(
            {"code": room.code, "seat": seat, "token": token, "version": room.version}
        )

    async def list_games(request: Request) -> Response:
        code = normalize_code(request.path_params["code"])
        records = [] if code is None else await table.storage.list_games(code)
        if not records:
            return _error("no_game", "no game was played in this room")
        return JSONResponse({"room": code, "games": [game_summary(record) for record in records]})

    async def _game(request: Request) -> Any:
        code = normalize_code(request.path_params["code"])
        record = (
            None if code is None else await table.storage.load_game(code, request.path_params["n"])
        )
        if record is None:
            raise RoomError("no_game", "no such game")
        return record

    async def game_log(request: Request) -> Response:
        try:
            record = await _game(request)
        except RoomError as error:
            return _error(error.code, error.reason)
        return JSONResponse(replay_log(record))

    async def game_step(request: Request) -> Response:
        try:
            record = await _game(request)
        except RoomError as error:
            return _error(error.code, error.reason)
        step: int = request.path_params["k"]
        if not 0 <= step <= len(record.moves):
            return _error("no_step", f"steps run from 0 to {len(record.moves)}", 404)
        return JSONResponse(replay_step(record, step))

    async def websocket_endpoint(websocket: WebSocket) -> None:
        if not origin_allowed(
            websocket.headers.get("origin"), websocket.headers.get("host"), config.allowed_origins
        ):
            await websocket.close(POLICY_VIOLATION)  # before accept: an HTTP 403
            return
        await websocket.accept()
        code = normalize_code(websocket.path_params["code"])
        room = None if code is None else table.rooms.get(code)
        if room is None:
            await websocket.send_text(
                dumps(error_message("no_room", "no live room with this code"))
            )
            await websocket.close(NO_SUCH_ROOM)
            return
        conn = Connection(
            websocket,
            RateLimiter(config.rate_per_second, config.rate_burst),
            config.send_queue_size,
        )
        conn.start()
        close_code: int | None = None
        try:
            close_code = await _serve(room, conn)
        finally:
            if conn.greeted:
                await room.detach(conn)
            await conn.finish(close_code)

    async def _serve(room: Room, conn: Connection) -> int | None:
        """The receive loop; returns the close code (None when the client left)."""
        websocket = conn.websocket
        while True:
            try:
                if conn.greeted:
                    message = await websocket.receive()
                else:
                    message = await asyncio.wait_for(websocket.receive(), config.hello_timeout)
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
                close = await _handle(room, conn, text)
            except ProtocolError as error:
                conn.push(error_message(error.code, error.reason, room.version))
                continue
            except RoomError as error:
                conn.push(error_message(error.code, error.reason, room.version, error.fields))
                if error.code == "stale_version":
                    conn.push(room.sync(conn.seat))
                continue
            if close is not None:
                return close

    def _room_error_reply(room: Room) -> Callable[[Exception], JSON]:
        def reply(error: Exception) -> JSON:
            if isinstance(error, RoomError):
                return error_message(error.code, error.reason, room.version, error.fields)
            log.error("room %s: a background answer failed", room.code, exc_info=error)
            return error_message("no_review", "the move advisor could not review this game")

        return reply

    async def _handle(room: Room, conn: Connection, text: str) -> int | None:
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
            conn.push(await room.hint(conn.seat, parsed.token, parsed.version))
        elif isinstance(parsed, ReviewRequest):
            if conn.seat is None:
                raise RoomError("not_a_player", "spectators get no review; it is for each player")
            # A review takes seconds: the connection is served meanwhile.
            conn.answer_later(room.review(conn.seat, parsed.token), _room_error_reply(room))
        elif isinstance(parsed, Configure):
            await room.configure(
                parsed.host_token,
                parsed.options,
                None if parsed.seats is None else list(parsed.seats),
            )
        elif isinstance(parsed, Start):
            await room.start(parsed.host_token)
        elif isinstance(parsed, Rematch):
            await room.rematch(parsed.host_token)
        return None

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if not table.is_open:  # ``cardtable serve`` opens it before listening (command.py)
            await table.open()
        try:
            yield
        finally:
            await table.close()

    routes = [
        *web_routes(),  # the web table (cardtable.web): the page at /, /static, /i18n
        Route("/health", health),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{code}", room_info),
        Route("/api/rooms/{code}/join", join_room, methods=["POST"]),
        Route("/api/rooms/{code}/games", list_games),
        Route("/api/rooms/{code}/games/{n:int}", game_log),
        Route("/api/rooms/{code}/games/{n:int}/steps/{k:int}", game_step),
        WebSocketRoute("/ws/{code}", websocket_endpoint),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.table = table
    return app
