"""``POST /api/quickmatch`` {game, name, players?}: "Play now" (docs/protocol.md#quick-match).

Seats the player in the open public room of ``game`` whose seated players' average
rating is closest to theirs (the signed-in player's displayed rating on the game's
ladder, else the first rating, 1,500), rooms with somebody seated before empty ones,
then the fullest, then the oldest; else opens a public room of ``players`` (2 by
default) with every seat human, the player seated and its host, for the people who
press "Play now" next. The answer names the bot level whose displayed rating is the
closest to the player's: after a wait the host may give it the empty seats.

The choice is :mod:`cardtable.server.lobby.choice`, pure; here the rooms and the
ratings are read and the player seated. One node's quick matches of a game run one at
a time, so two players pressing "Play now" together on one node land at one table.
Limited per client address; a new room counts against the address's live rooms like
any other.
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...bots.levels import LEVELS
from ...core import JSON
from ...display_names import DisplayNameError
from ...statuses import RoomStatus, SeatKind
from ..edges.bodies import read_body
from ..edges.http import client_address
from ..edges.sessions import SignedIn
from ..errors import ApiError, RoomError, too_many
from ..ladder import BOT_SEEDS, CENTER, bot_player, ladder_of, user_player
from ..name_skeletons import checked_name
from ..ops.limits import AddressBuckets
from ..rooms.protocol import QuickMatch
from ..rooms.table import Table
from ..storage.public_rooms import PublicRoom
from ..storage.records import UserRecord
from .choice import closest_level, open_rooms, ranked
from .public import MAX_READ, seat_ratings

#: Per address: this many quick matches at once, then one every this many seconds.
BURST = 5
PER_SECOND = 0.5
#: Seconds the page waits for people before it offers bots for the empty seats.
WAIT_SECONDS = 20
#: Rooms tried at most (another request may fill or start one meanwhile).
TRIES = 5
#: Refusals of a join that send the player to the next room.
NEXT_ROOM = {"room_full", "not_in_lobby", "no_room", "room_elsewhere", "room_moved"}


class QuickMatchApi:
    """ "Play now" on one table."""

    def __init__(
        self, table: Table, signed_in: SignedIn, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.table = table
        self.signed_in = signed_in
        self.buckets = AddressBuckets(PER_SECOND, BURST, clock)
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)

    def routes(self) -> list[BaseRoute]:
        return [Route("/api/quickmatch", self.quick_match, methods=["POST"])]

    async def quick_match(self, request: Request) -> Response:
        address = client_address(request)
        if not self.buckets.allow(address):
            raise too_many("too_many_requests", "too many quick matches", 1 / PER_SECOND)
        body = await read_body(request, QuickMatch, self.table.config.max_message_bytes)
        try:
            name = checked_name(body.name)
        except DisplayNameError as error:
            raise ApiError("bad_name", str(error), {"field": "name"}) from None
        ladder = ladder_of(body.game, {"players": body.players}) or body.game
        user = await self.signed_in(request)
        rating = await self._rating(user, ladder)
        # One at a time per game: on this node (the lock also keeps the waiters for
        # the cluster's turn to one connection per game), then on every node.
        async with (
            self._locks[body.game],
            self.table.storage.quick_match_turn(body.game),
        ):
            answer = await self._seat(body, name, address, rating, user)
        answer.update(rating=rating, bot=await self._bot(ladder, rating))
        answer["wait_seconds"] = WAIT_SECONDS
        return JSONResponse(answer, status_code=201 if "host_token" in answer else 200)

    async def _rating(self, user: UserRecord | None, ladder: str) -> int:
        """The player's displayed rating on ``ladder`` (a guest's: the first rating)."""
        if user is None or ladder not in BOT_SEEDS:
            return CENTER
        player = user_player(user.id)
        rows = await self.table.storage.ratings_or_seeds(ladder, [player])
        return rows[player].shown()[0]

    async def _seat(
        self, body: QuickMatch, name: str, address: str, rating: int, user: UserRecord | None
    ) -> JSON:
        """A free seat in the best open public room, else a new public room. A room
        where the account sits already is passed over (a second seat at a rated table
        is refused: :meth:`RoomsApi.refuse_second_seat`)."""
        storage = self.table.storage
        for room in (await self._ranked(body.game, body.players, rating))[:TRIES]:
            if user is not None and await storage.seats_in_room(user.id, room.code):
                continue
            try:
                found = await self.table.find_room(room.code, wait=self.table.handover_wait())
                seat, token = await found.lobby.join(name, None)
            except RoomError as error:
                if error.code in NEXT_ROOM:
                    continue
                raise
            # The last free seat: the table starts, as players who pressed "Play now"
            # expect, without waiting for its host's Start.
            started = False
            if not any(s.kind == SeatKind.HUMAN and not s.taken for s in found.seats):
                try:
                    await found.lobby.start_game()
                    started = True
                except RoomError as error:
                    if error.code not in ("not_in_lobby", "seats_free"):
                        raise
            return {
                "code": room.code,
                "seat": seat,
                "token": token,
                "created": False,
                "started": started,
            }
        created = await self.table.create_room(
            body.game, {"players": body.players}, None, name, address, {"public": True}
        )
        return {
            "code": created["code"],
            "seat": created["seat"],
            "token": created["token"],
            "host_token": created["host_token"],
            "created": True,
            "started": False,
        }

    async def _ranked(self, game: str, players: int, rating: int) -> list[PublicRoom]:
        """The open public rooms of ``game`` for ``players``, the best for ``rating``
        first (:func:`~cardtable.server.lobby.choice.ranked`)."""
        storage = self.table.storage
        waiting = await storage.public_rooms(RoomStatus.LOBBY, game, MAX_READ, players)
        rooms = open_rooms(waiting, players)
        return ranked(rooms, await seat_ratings(storage, rooms), rating)

    async def _bot(self, ladder: str, rating: int) -> JSON | None:
        """The bot level whose displayed rating is the closest to ``rating``."""
        levels = list(BOT_SEEDS.get(ladder, {}))
        if not levels:
            return None
        storage = self.table.storage
        rows = await storage.ratings_or_seeds(ladder, [bot_player(lv) for lv in levels])
        shown = {level: rows[bot_player(level)].shown()[0] for level in levels}
        level = closest_level(shown, rating)
        return {"level": level, "bot": LEVELS[level], "rating": shown[level]}
