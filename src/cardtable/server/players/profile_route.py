"""``GET /api/players/{name}``: an account's public profile (docs/protocol.md#profiles).

Served by any node from the database; limited per client address like the other
public look-ups. It tells what the leaderboards and the replays tell already, gathered
per player: never a token, a seed or a card; a private table's code only to the
player themself while the table is open.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...display_names import DisplayNameError, clean_name, name_key
from ..edges.http import client_address
from ..edges.sessions import SignedIn
from ..errors import ApiError, too_many
from ..ladder import MIN_GAMES, user_player
from ..ops.limits import AddressBuckets
from ..ratings.profiles import RECENT_GAMES, game_counts, ladder_ratings, recent_games
from ..rooms.table import Table

#: Per address: this many look-ups at once, then this many a second.
BURST = 20
PER_SECOND = 2.0


class ProfileApi:
    """The players' profiles of one table."""

    def __init__(
        self, table: Table, signed_in: SignedIn, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.table = table
        self.signed_in = signed_in
        self.buckets = AddressBuckets(PER_SECOND, BURST, clock)

    def routes(self) -> list[BaseRoute]:
        return [Route("/api/players/{name}", self.profile)]

    async def profile(self, request: Request) -> Response:
        if not self.buckets.allow(client_address(request)):
            raise too_many("too_many_requests", "too many profile look-ups", 1 / PER_SECOND)
        raw = request.path_params["name"]
        storage = self.table.storage
        try:
            user = await storage.user_by_key(name_key(clean_name(raw)))
        except DisplayNameError:
            user = None
        if user is None:
            raise ApiError("no_player", f"no player is called {raw[:32]!r}", {"field": "name"})
        reader = await self.signed_in(request)
        owner = reader is not None and reader.id == user.id
        player = user_player(user.id)
        played = await storage.played_games(user.id)
        rows = await storage.ratings_of(player)
        accounts = await storage.seat_accounts(
            sorted({game.room_code for game in played[:RECENT_GAMES]})
        )
        ranks = {
            row.ladder: await storage.people_above(row.ladder, MIN_GAMES, row.mu, row.sigma) + 1
            for row in rows
            if row.games >= MIN_GAMES
        }
        return JSONResponse(
            {
                "name": user.name,
                "member_since": user.created_at,
                "you": owner,
                "min_games": MIN_GAMES,
                "games": game_counts(played),
                "ratings": ladder_ratings(rows, played, player, ranks),
                "recent": recent_games(played, player, owner, accounts),
            }
        )
