"""``GET /api/leaderboard/{ladder}``: the best players of a ladder, the bot levels'
places among them, and the signed-in player's own standing (docs/protocol.md#leaderboards).

Served by any node from the database; limited per client address like the other
public look-ups (a token bucket per address, kept in memory per node).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...bots.levels import LEVELS
from ...core import JSON
from ..edges.http import client_address, query_limit
from ..edges.sessions import SignedIn
from ..errors import ApiError, too_many
from ..ladder import BOT_SEEDS, LADDERS, MIN_GAMES, Ladder, bot_player, user_player
from ..ops.limits import AddressBuckets
from ..rooms.table import Table
from ..storage.ratings import RatingRow

#: Players listed by default, and at most.
DEFAULT_LIMIT = 50
MAX_LIMIT = 100
#: Per address: this many look-ups at once, then this many a second.
BURST = 20
PER_SECOND = 2.0


def _standing(row: RatingRow) -> JSON:
    rating, plus_minus = row.shown()
    return {"rating": rating, "plus_minus": plus_minus, "games": row.games, "wins": row.wins}


class LeaderboardApi:
    """The leaderboards of one table."""

    def __init__(
        self, table: Table, signed_in: SignedIn, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.table = table
        self.signed_in = signed_in
        self.buckets = AddressBuckets(PER_SECOND, BURST, clock)

    def routes(self) -> list[BaseRoute]:
        return [Route("/api/leaderboard/{ladder}", self.leaderboard)]

    async def leaderboard(self, request: Request) -> Response:
        ladder, limit = self._checked(request)
        storage = self.table.storage
        top = await storage.top_players(ladder, MIN_GAMES, limit)
        players = [
            {"rank": rank, "name": row.name, **_standing(row)}
            for rank, row in enumerate(top, start=1)
        ]
        body: dict[str, Any] = {
            "ladder": ladder,
            "min_games": MIN_GAMES,
            "players": players,
            "bots": await self._bots(ladder),
            "you": await self._you(request, ladder),
        }
        return JSONResponse(body)

    def _checked(self, request: Request) -> tuple[Ladder, int]:
        """The ladder and the number of players asked for, or the refusal."""
        if not self.buckets.allow(client_address(request)):
            raise too_many("too_many_requests", "too many leaderboard look-ups", 1 / PER_SECOND)
        asked = request.path_params["ladder"]
        if asked not in LADDERS:
            raise ApiError(
                "no_ladder",
                f"no ladder {asked[:32]!r}; the ladders are {', '.join(LADDERS)}",
                {"field": "ladder", "allowed": list(LADDERS)},
            )
        limit = query_limit(request.query_params.get("limit"), DEFAULT_LIMIT, MAX_LIMIT)
        if limit is None:
            raise ApiError(
                "bad_request",
                f"limit is a whole number from 1 to {MAX_LIMIT}",
                {"field": "limit", "allowed": f"1-{MAX_LIMIT}"},
            )
        return Ladder(asked), limit

    async def _bots(self, ladder: str) -> list[JSON]:
        """Every bot level: its rating (its seed until its first rated game) and the
        place it would have among the listed players."""
        levels = list(BOT_SEEDS[ladder])
        storage = self.table.storage
        rows = await storage.ratings_or_seeds(ladder, [bot_player(lv) for lv in levels])
        bots = []
        for level in levels:
            row = rows[bot_player(level)]
            above = await self.table.storage.people_above(ladder, MIN_GAMES, row.mu, row.sigma)
            entry = {"level": level, "bot": LEVELS[level], "place": above + 1}
            bots.append({**entry, **_standing(row)})
        bots.sort(key=lambda bot: (bot["place"], -bot["rating"]))
        return bots

    async def _you(self, request: Request, ladder: str) -> JSON | None:
        """The signed-in player's standing (None for a guest); ``rank`` once listed."""
        user = await self.signed_in(request)
        if user is None:
            return None
        storage = self.table.storage
        rows = await storage.ladder_rows(ladder, [user_player(user.id)])
        if not rows:
            return {
                "name": user.name,
                "rating": None,
                "plus_minus": None,
                "games": 0,
                "wins": 0,
                "rank": None,
                "games_needed": MIN_GAMES,
            }
        row = rows[0]
        rank = None
        if row.games >= MIN_GAMES:
            rank = await storage.people_above(ladder, MIN_GAMES, row.mu, row.sigma) + 1
        needed = max(0, MIN_GAMES - row.games)
        return {"name": user.name, **_standing(row), "rank": rank, "games_needed": needed}
