"""The HTTP side of the table server (JSON):

- ``GET /health``: ``ok``, ``draining`` or ``failing``, for a proxy; and counts. Not
  limited per address (monitors poll it), so the database is pinged at most once a
  second whatever the rate of requests.
- ``GET /metrics``: Prometheus metrics (see :mod:`cardtable.server.ops.metrics`).
- ``POST /api/rooms``: create a room; returns its code, links and the host token.
- ``GET /api/rooms/{code}``: the public room summary.
- ``POST /api/rooms/{code}/join``: take a seat with a display name; returns the seat token.
- ``GET /api/rooms/{code}/games``: the games played in the room.
- ``GET /api/rooms/{code}/games/{n}``: a game's log (replay); ``/steps/{k}``: view after k moves.

Every look-up of a room code counts against its address's limit unless it finds the
room (``too_many_lookups``, 429 with ``Retry-After``): the node's, and on PostgreSQL the
cluster's (:mod:`cardtable.server.edges.lookups`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...core import JSON
from ..edges.bodies import read_body
from ..edges.http import ascii_number, client_address
from ..edges.lookups import ClusterLookups
from ..edges.sessions import SignedIn
from ..errors import ApiError, RoomError, too_many
from ..ladder import ladder_of
from ..ops.limits import AddressBuckets
from ..ops.metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from ..storage.records import GameRecord
from ..tokens import normalize_code
from .protocol import CreateRoom, JoinRoom
from .replays import game_summary, replay_log, replay_step
from .room import Room
from .seats import LOBBY
from .table import Table

#: Seconds a refused join is told to wait (the bucket gives a join back every 5 s).
JOIN_WAIT = 5

#: Seconds the health check waits for the database.
HEALTH_TIMEOUT = 2.0
#: Seconds a database ping's outcome answers ``/health`` (one ping per node per second
#: whoever asks, and however often).
HEALTH_PING_SECONDS = 1.0


class RoomsApi:
    """The HTTP endpoints of one table."""

    def __init__(
        self,
        table: Table,
        lookups: ClusterLookups,
        signed_in: SignedIn,
    ) -> None:
        self.table = table
        #: The account a request's session cookie names, if any (the accounts' API).
        self.signed_in = signed_in
        self.limit = table.config.max_message_bytes
        #: Room code look-ups per address (see :class:`LookupThrottle`).
        self.lookups = lookups
        #: The last database ping: (monotonic seconds, why it failed or None).
        self._pinged: tuple[float, str | None] | None = None
        #: Monotonic seconds of the pings' reuse (tests replace it).
        self.clock: Callable[[], float] = time.monotonic
        self._ping_lock = asyncio.Lock()
        #: Joins per address (docs/players.md, "Limits").
        self.joins = AddressBuckets(table.config.joins_per_second, table.config.joins_burst)

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/health", self.health),
            Route("/metrics", self.metrics),
            Route("/api/rooms", self.create_room, methods=["POST"]),
            Route("/api/rooms/{code}", self.room_info),
            Route("/api/rooms/{code}/join", self.join_room, methods=["POST"]),
            Route("/api/rooms/{code}/games", self.list_games),
            Route("/api/rooms/{code}/games/{n}", self.game_log),
            Route("/api/rooms/{code}/games/{n}/steps/{k}", self.game_step),
        ]

    def take_lookup(self, request: Request) -> str:
        """Count a room code look-up of the request's address (raises
        ``too_many_lookups`` when it has guessed too many); returns the address."""
        address = client_address(request)
        wait = self.lookups.take(address)
        if wait is not None:
            raise too_many("too_many_lookups", "too many room codes that do not exist", wait)
        return address

    async def room_or_error(self, request: Request) -> Room:
        code_text = request.path_params["code"]
        address = self.take_lookup(request)
        code = normalize_code(code_text)
        try:
            if code is None:
                raise RoomError("no_room", f"no live room {code_text[:16]!r}")
            room = await self.table.find_room(code, wait=self.table.handover_wait())
        except RoomError as error:
            if error.code == "no_room":
                await self.lookups.missed(address)
            raise
        self.lookups.give_back(address)
        return room

    async def health(self, request: Request) -> Response:
        """``ok`` (200) when the node serves, else 503 with ``draining`` (it is handing
        its rooms over) or ``failing`` (its database does not answer within 2 s)."""
        table = self.table
        status, reason = "ok", None
        if table.draining:
            status = "draining"
        else:
            reason = await self.database_trouble()
            if reason is not None:
                status = "failing"
        body: JSON = {
            "status": status,
            "node": table.node_id,
            "rooms": len(table.rooms),
            "connections": sum(len(room.connections) for room in table.rooms.values()),
        }
        if reason is not None:
            body["reason"] = reason
        return JSONResponse(body, status_code=200 if status == "ok" else 503)

    async def database_trouble(self) -> str | None:
        """Why the database does not answer, or None: a ping at most once a second (the
        requests of that second share its outcome)."""
        async with self._ping_lock:
            now = self.clock()
            if self._pinged is not None and now - self._pinged[0] < HEALTH_PING_SECONDS:
                return self._pinged[1]
            trouble = None
            try:
                await asyncio.wait_for(self.table.storage.ping(), HEALTH_TIMEOUT)
            except Exception as error:
                trouble = f"the database does not answer: {type(error).__name__}"
            self._pinged = (self.clock(), trouble)
            return trouble

    async def metrics(self, request: Request) -> Response:
        return Response(self.table.metrics.render(self.table), media_type=METRICS_CONTENT_TYPE)

    async def create_room(self, request: Request) -> Response:
        body = await read_body(request, CreateRoom, self.limit)
        created = await self.table.create_room(
            body.game,
            body.options,
            body.seats,
            body.name,
            client_address(request),
            body.table,
            start=body.start,
        )
        code = created["code"]
        base = str(request.base_url).rstrip("/")
        created["join_url"] = f"{base}/r/{code}"
        created["watch_url"] = f"{base}/r/{code}/watch"
        created["ws_url"] = f"{base.replace('http', 'ws', 1)}/ws/{code}"
        created["room"] = self.table.rooms[code].summary()
        return JSONResponse(created, status_code=201)

    async def room_info(self, request: Request) -> Response:
        room = await self.room_or_error(request)
        if room.status == LOBBY:
            # A claim made through another node: the expected verdict follows it here.
            await room.refresh_claims()
        return JSONResponse(room.summary())

    async def join_room(self, request: Request) -> Response:
        address = client_address(request)
        if not self.joins.allow(address):
            raise too_many("too_many_requests", "seats taken from this address", JOIN_WAIT)
        room = await self.room_or_error(request)
        body = await read_body(request, JoinRoom, self.limit)
        await self.refuse_second_seat(request, room)
        self.refuse_squatting(room, address)
        seat, token = await room.lobby.join(body.name, body.seat)
        room.joined_from[seat] = address
        return JSONResponse(
            {"code": room.code, "seat": seat, "token": token, "version": room.version}
        )

    def refuse_squatting(self, room: Room, address: str) -> None:
        """``too_many_seats`` when ``address`` already holds the most seats of public
        tables waiting for their game that one address may (one person, or a script
        emptying the public lobby); a private table's seats never count."""
        if not room.table_options.public:
            return
        cap = self.table.config.public_seats_per_address
        if self.table.public_seats_held(address) >= cap:
            raise ApiError(
                "too_many_seats",
                f"one address holds at most {cap} seats at public tables waiting to start",
                {"allowed": cap},
            )

    async def refuse_second_seat(self, request: Request, room: Room) -> None:
        """``second_seat`` when the signed-in account (if any) already sits at ``room``
        and its rules are a ladder's: one player in two seats of a rated game could hand
        one seat's game to the other (a claim refuses it too, and the game would be
        unrated: docs/players.md#ratings)."""
        if ladder_of(room.game.name, room.rules.to_json()) is None:
            return
        user = await self.signed_in(request)
        if user is not None and await self.table.storage.seats_in_room(user.id, room.code):
            raise ApiError(
                "second_seat",
                "your account already has a seat at this table, whose games are rated",
                {"field": "seat"},
            )

    async def list_games(self, request: Request) -> Response:
        address = self.take_lookup(request)
        code = normalize_code(request.path_params["code"])
        records = [] if code is None else await self.table.storage.list_games(code)
        if not records:
            await self.lookups.missed(address)
            raise ApiError("no_game", "no game was played in this room")
        self.lookups.give_back(address)
        return JSONResponse({"room": code, "games": [game_summary(record) for record in records]})

    async def _game(self, request: Request) -> GameRecord:
        address = self.take_lookup(request)
        code = normalize_code(request.path_params["code"])
        number = ascii_number(request.path_params["n"])
        storage = self.table.storage
        record = None if code is None or number is None else await storage.load_game(code, number)
        if record is None:
            await self.lookups.missed(address)
            raise ApiError("no_game", "no such game")
        self.lookups.give_back(address)
        return record

    async def game_log(self, request: Request) -> Response:
        record = await self._game(request)
        return JSONResponse(replay_log(record))

    async def game_step(self, request: Request) -> Response:
        record = await self._game(request)
        step = ascii_number(request.path_params["k"])
        if step is None or step > len(record.moves):
            raise ApiError("no_step", f"steps run from 0 to {len(record.moves)}")
        return JSONResponse(replay_step(record, step))
