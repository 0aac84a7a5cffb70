"""``GET /api/lobby``: the public rooms (docs/protocol.md#the-public-lobby).

``open``: the rooms a host marked public that wait for players (a free human seat),
fullest first (the nearest to starting), then oldest; ``playing``: the public games
under way, to watch. Each with its game, rules, table options, seats free and who is
seated with their displayed rating on the game's ladder (an account's, a bot level's,
their first rating until they played a rated game; None for a guest or another bot)
and, for a seat an account claimed, the account's name (its profile).
Never a token, a seed or a card.

Served by any node from the database (the index ``ix_rooms_lobby``), each answer
reused for a second, limited per client address like the other public look-ups.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...core import JSON
from ...games import game_names, get_game
from ...statuses import RoomStatus
from ..edges.http import client_address, query_limit
from ..errors import ApiError, too_many
from ..ladder import Ladder, ladder_of, seat_player
from ..ops.limits import AddressBuckets
from ..rooms.seats import Seat
from ..rooms.table import Table
from ..rooms.table_options import TableOptions
from ..storage.public_rooms import PublicRoom
from ..storage.store import Storage
from .choice import seats_free

#: Rooms listed of each kind by default, and at most.
DEFAULT_LIMIT = 50
MAX_LIMIT = 100
#: Rooms read from the database at most for one list (the full ones are left out).
MAX_READ = 1000
#: Per address: this many look-ups at once, then this many a second (a page polls
#: every few seconds).
BURST = 20
PER_SECOND = 2.0
#: Seconds a node reuses an answer (per query): however many pages poll it, a node
#: reads the lobby at most once a second per query (docs/performance.md).
CACHE_SECONDS = 1.0


class LobbyApi:
    """The public lobby of one table."""

    def __init__(self, table: Table, clock: Callable[[], float] = time.monotonic) -> None:
        self.table = table
        self.clock = clock
        self.buckets = AddressBuckets(PER_SECOND, BURST, clock)
        #: (game, limit) -> (when, answer): the answers of the last second.
        self._answers: dict[tuple[str | None, int], tuple[float, JSON]] = {}

    def routes(self) -> list[BaseRoute]:
        return [Route("/api/lobby", self.lobby)]

    async def lobby(self, request: Request) -> Response:
        if not self.buckets.allow(client_address(request)):
            raise too_many("too_many_requests", "too many lobby look-ups", 1 / PER_SECOND)
        game = request.query_params.get("game")
        known = game_names()
        if game is not None and game not in known:
            raise ApiError(
                "bad_request",
                f"game is one of {', '.join(known)}",
                {"field": "game", "allowed": known},
            )
        limit = query_limit(request.query_params.get("limit"), DEFAULT_LIMIT, MAX_LIMIT)
        if limit is None:
            raise ApiError(
                "bad_request",
                f"limit is a whole number from 1 to {MAX_LIMIT}",
                {"field": "limit", "allowed": f"1-{MAX_LIMIT}"},
            )
        key = (game, limit)
        now = self.clock()
        cached = self._answers.get(key)
        if cached is None or now - cached[0] >= CACHE_SECONDS:
            if len(self._answers) > 100:
                self._answers.clear()
            cached = self._answers[key] = (now, await self._answer(game, limit))
        return JSONResponse(cached[1], headers={"Cache-Control": "no-store"})

    async def _answer(self, game: str | None, limit: int) -> JSON:
        storage = self.table.storage
        waiting = await storage.public_rooms(RoomStatus.LOBBY, game, MAX_READ)
        open_rooms = [room for room in waiting if seats_free(room) > 0]
        open_rooms.sort(key=lambda room: (seats_free(room), room.created_at))
        playing = await storage.public_rooms(RoomStatus.PLAYING, game, limit)
        listed = open_rooms[:limit] + playing
        ratings = await seat_ratings(storage, listed)
        accounts = await storage.seat_accounts([room.code for room in listed])
        return {
            "open": [_entry(room, ratings, accounts) for room in open_rooms[:limit]],
            "playing": [_entry(room, ratings, accounts) for room in playing],
            "poll_seconds": 5,
        }


async def seat_ratings(
    storage: Storage, listed: list[PublicRoom]
) -> dict[tuple[str, int], int | None]:
    """(room, seat) -> the displayed rating of who sits there (missing: none)."""
    claims = await storage.seat_claims_of([room.code for room in listed])
    wanted: dict[Ladder, dict[tuple[str, int], str]] = {}
    for room in listed:
        ladder = ladder_of(room.game, room.rules)
        if ladder is None:
            continue
        for index, data in enumerate(room.seats):
            player = seat_player(data, claims.get((room.code, index)))
            if player is not None:
                wanted.setdefault(ladder, {})[(room.code, index)] = player
    found: dict[tuple[str, int], int | None] = {}
    for ladder, players in wanted.items():
        rows = await storage.ratings_or_seeds(ladder, players.values())
        for key, player in players.items():
            found[key] = rows[player].shown()[0]
    return found


def _entry(
    room: PublicRoom,
    ratings: dict[tuple[str, int], int | None],
    accounts: dict[tuple[str, int], str],
) -> JSON:
    seats = []
    for index, data in enumerate(room.seats):
        entry = Seat.from_record(data).public()
        entry["seat"] = index
        entry["rating"] = ratings.get((room.code, index))
        # The account that claimed the seat: its profile (the seat's name may differ).
        entry["profile"] = accounts.get((room.code, index))
        seats.append(entry)
    return {
        "code": room.code,
        "game": room.game,
        "title": get_game(room.game).title,
        "rules": room.rules,
        "table": TableOptions.from_record(room.table_options).to_json(),
        "status": room.status,
        "seats_free": seats_free(room),
        "seats": seats,
    }
