"""``POST /api/quickmatch`` {game, name, players?}: "Play now" (docs/protocol.md#quick-match).

Seats the player in the open public room of ``game`` whose seated players' average
rating is closest to theirs on the room's ladder (the signed-in player's displayed
rating there, else the first rating, 1,500), rooms with somebody seated before empty
ones, rated rooms before house-rules ones, then the fullest, then the oldest; else
opens a public room of ``players`` (2 by default) with every seat human, the player
seated and its host, for the people who press "Play now" next. The answer names the
table's ladder (None: unrated house rules) and the bot level whose displayed rating is
the closest to the player's: after a wait the host may give it the empty seats.

The choice is :mod:`cardtable.server.lobby.choice`, pure; here the rooms and the
ratings are read and the player seated. The quick matches of a game run one at a time
(on every node), so two players pressing "Play now" together land at one table; a
room held by another node is waited for outside that turn.
Limited per client address; a new room counts against the address's live rooms like
any other.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Iterable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...bots.levels import LEVELS
from ...core import JSON
from ...display_names import DisplayNameError
from ...games import get_game
from ...statuses import RoomStatus, SeatKind
from ..edges.bodies import read_body
from ..edges.http import client_address
from ..edges.sessions import SignedIn
from ..errors import ApiError, RoomError, too_many
from ..ladder import BOT_SEEDS, CENTER, Ladder, bot_player, ladder_of, user_player
from ..name_skeletons import checked_name, name_refusal
from ..ops.limits import AddressBuckets
from ..rooms.protocol import QuickMatch
from ..rooms.room import Room
from ..rooms.table import Table
from ..storage.public_rooms import PublicRoom
from ..storage.records import UserRecord
from .choice import closest_level, open_rooms, ranked, room_ladder
from .public import MAX_READ, seat_ratings

#: Per address: this many quick matches at once, then one every this many seconds.
BURST = 5
PER_SECOND = 0.5
#: Seconds the page waits for people before it offers bots for the empty seats.
WAIT_SECONDS = 20
#: Rooms tried at most (another request may fill or start one meanwhile).
TRIES = 5
log = logging.getLogger("cardtable.server")

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
            raise ApiError("bad_name", str(error), name_refusal(error)) from None
        user = await self.signed_in(request)
        answer = await self._seat(body, name, address, user)
        # The bot offered: on the table's ladder; at a house-rules table (unrated), on
        # the ladder of the game's standard rules, as the nearest measure there is.
        ladder = answer["ladder"] or ladder_of(body.game, self._standard(body))
        rating = (await self._ratings(user, [ladder]))[ladder] if ladder else CENTER
        answer.update(rating=rating, bot=await self._bot(ladder, rating))
        answer["wait_seconds"] = WAIT_SECONDS
        return JSONResponse(answer, status_code=201 if "host_token" in answer else 200)

    @staticmethod
    def _standard(body: QuickMatch) -> JSON:
        """The rules of the rooms quick match opens: the game's standard rules."""
        return get_game(body.game).rules_from_json({"players": body.players}).to_json()

    @contextlib.asynccontextmanager
    async def _turn(self, game: str) -> AsyncIterator[None]:
        """One quick match of ``game`` at a time: on this node (the lock also keeps the
        waiters for the cluster's turn to one connection per game), then on every node."""
        async with self._locks[game], self.table.storage.quick_match_turn(game):
            yield

    async def _ratings(
        self, user: UserRecord | None, ladders: Iterable[Ladder]
    ) -> dict[Ladder, int]:
        """The player's displayed rating on each of ``ladders`` (a guest's: the first
        rating)."""
        wanted = sorted(set(ladders))
        if user is None:
            return dict.fromkeys(wanted, CENTER)
        player = user_player(user.id)
        shown = {}
        for ladder in wanted:
            rows = await self.table.storage.ratings_or_seeds(ladder, [player])
            shown[ladder] = rows[player].shown()[0]
        return shown

    async def _seat(
        self, body: QuickMatch, name: str, address: str, user: UserRecord | None
    ) -> JSON:
        """A free seat in the best open public room, else a new public room.

        A room another node serves is asked for and waited for outside the turn (a
        hand-over takes up to the lease's length, and every other "Play now" of the game
        would wait behind it), then the rooms are ranked again in turn: the room may
        have filled or started meanwhile."""
        waited: set[str] = set()
        while True:
            async with self._turn(body.game):
                seated = await self._seat_in_turn(body, name, address, user, waited)
            if isinstance(seated, dict):
                return seated
            waited.add(seated)
            with contextlib.suppress(RoomError):
                await self.table.find_room(seated, wait=self.table.handover_wait())

    async def _seat_in_turn(
        self,
        body: QuickMatch,
        name: str,
        address: str,
        user: UserRecord | None,
        waited: set[str],
    ) -> JSON | str:
        """Seat the player now, or the code of a room held by another node to wait for
        first (once each, :data:`TRIES` rooms at most). A room where the account sits
        already is passed over (a second seat at a rated table is refused:
        :meth:`RoomsApi.refuse_second_seat`)."""
        storage = self.table.storage
        for room in (await self._ranked(body.game, body.players, user))[:TRIES]:
            if user is not None and await storage.seats_in_room(user.id, room.code):
                continue
            try:
                found = await self.table.find_room(room.code)
            except RoomError as error:
                fresh = room.code not in waited and len(waited) < TRIES
                if error.code == "room_elsewhere" and fresh:
                    return room.code
                if error.code in NEXT_ROOM:
                    continue
                raise
            try:
                seat, token = await found.lobby.join(name, None)
            except RoomError as error:
                if error.code in NEXT_ROOM:
                    continue
                raise
            started = await self._start_if_full(found, seat, token)
            return {
                "code": room.code,
                "seat": seat,
                "token": token,
                "created": False,
                "started": started,
                "ladder": room_ladder(room),
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
            "ladder": ladder_of(body.game, self._standard(body)),
        }

    async def _start_if_full(self, room: Room, seat: int, token: str) -> bool:
        """Start the table when the player took its last free seat, as players who
        pressed "Play now" expect, without waiting for its host's Start. If the start
        fails, the join is undone before the error is answered: the player never gets
        the seat's token, and a seat nobody can play would hold a public table."""
        if any(s.kind == SeatKind.HUMAN and not s.taken for s in room.seats):
            return False
        try:
            await room.lobby.start_game()
        except RoomError as error:
            if error.code in ("not_in_lobby", "seats_free"):
                return False  # started by its host meanwhile, or a seat was freed
            await self._give_back(room, seat, token)
            raise
        except BaseException:
            await self._give_back(room, seat, token)
            raise
        return True

    @staticmethod
    async def _give_back(room: Room, seat: int, token: str) -> None:
        try:
            await room.lobby.give_back(seat, token)
        except Exception:  # the start's error is the one to answer
            log.exception("room %s: could not give back seat %d", room.code, seat)

    async def _ranked(self, game: str, players: int, user: UserRecord | None) -> list[PublicRoom]:
        """The open public rooms of ``game`` for ``players``, the best for the player
        first (:func:`~cardtable.server.lobby.choice.ranked`), each rated room matched
        on the player's rating on its own ladder."""
        storage = self.table.storage
        waiting = await storage.public_rooms(RoomStatus.LOBBY, game, MAX_READ, players)
        rooms = open_rooms(waiting, players)
        ladders = {ladder for ladder in map(room_ladder, rooms) if ladder is not None}
        mine = await self._ratings(user, ladders)
        return ranked(rooms, await seat_ratings(storage, rooms), mine)

    async def _bot(self, ladder: str | None, rating: int) -> JSON | None:
        """The bot level whose displayed rating is the closest to ``rating``."""
        levels = list(BOT_SEEDS.get(ladder, {})) if ladder else []
        if ladder is None or not levels:
            return None
        storage = self.table.storage
        rows = await storage.ratings_or_seeds(ladder, [bot_player(lv) for lv in levels])
        shown = {level: rows[bot_player(level)].shown()[0] for level in levels}
        level = closest_level(shown, rating)
        return {"level": level, "bot": LEVELS[level], "rating": shown[level]}
