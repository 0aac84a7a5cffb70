"""Profiles: the finished games of an account's claimed seats with their verdicts, its
ratings on every ladder, and the verdict of one game seat by seat (docs/players.md#profiles)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import sqlalchemy as sa

from ...core import JSON
from .claims import claims_query, room_claims
from .database import Database
from .tables import LIVE_STATUSES, games, rated_games, ratings, rooms, seat_claims, users

#: Finished games read at most for one profile (its counts cover these, newest first).
MAX_GAMES = 2000
#: The newest games read with their seats (a profile lists these).
DETAILED_GAMES = 20


@dataclasses.dataclass(frozen=True)
class PlayedGame:
    """A finished game of one of an account's seats (``seat``), with its verdict:
    ``judged`` False until the game is rated or found unrated; ``seats`` read for the
    newest games only (empty for the others)."""

    room_code: str
    game_no: int
    game: str
    rules: JSON
    seats: list[JSON]
    result: JSON
    finished_at: float
    seat: int
    judged: bool
    ladder: str | None
    reason: str | None
    changes: list[JSON]
    #: The room's code may be shown to anyone: the room is public, or closed (its code
    #: no longer opens a table). A private table's code stays with its players.
    code_public: bool


@dataclasses.dataclass(frozen=True)
class LadderRating:
    ladder: str
    mu: float
    sigma: float
    games: int
    wins: int


def _played(row: Any, rules: dict[str, JSON], detailed: bool) -> PlayedGame:
    live = row.status is not None and row.status in LIVE_STATUSES
    if row.rules not in rules:  # a player's games share a few rules: each decoded once
        rules[row.rules] = json.loads(row.rules)
    return PlayedGame(
        room_code=row.room_code,
        game_no=row.game_no,
        game=row.game,
        rules=rules[row.rules],
        seats=json.loads(row.seats) if detailed else [],
        result=row.result,
        finished_at=row.finished_at,
        seat=row.seat,
        judged=row.rated_at is not None,
        ladder=row.ladder,
        reason=row.reason,
        changes=list(row.changes or []),
        code_public=bool(row.public) or not live,
    )


class ProfileRows(Database):
    """The queries of the players' profiles."""

    async def played_games(self, user_id: int, limit: int = MAX_GAMES) -> list[PlayedGame]:
        """The finished games of the account's claimed seats, newest first.

        Decoding JSON is most of the time a profile takes (docs/performance.md): the
        rules and seats are read as text, the rules decoded once per distinct text, the
        seats of the newest :data:`DETAILED_GAMES` only."""
        judged = sa.and_(
            rated_games.c.room_code == games.c.room_code,
            rated_games.c.game_no == games.c.game_no,
        )
        query = (
            sa.select(
                games.c.room_code,
                games.c.game_no,
                games.c.game,
                sa.cast(games.c.rules, sa.Text).label("rules"),
                sa.cast(games.c.seats, sa.Text).label("seats"),
                games.c.result,
                games.c.finished_at,
                seat_claims.c.seat,
                rated_games.c.rated_at,
                rated_games.c.ladder,
                rated_games.c.reason,
                rated_games.c.changes,
                rooms.c.status,
                rooms.c.public,
            )
            .select_from(
                seat_claims.join(games, games.c.room_code == seat_claims.c.room_code)
                .outerjoin(rated_games, judged)
                .outerjoin(rooms, rooms.c.code == games.c.room_code)
            )
            .where(
                seat_claims.c.user_id == user_id,
                games.c.result.is_not(None),
                games.c.finished_at.is_not(None),
            )
            .order_by(games.c.finished_at.desc(), games.c.room_code, games.c.game_no.desc())
            .limit(limit)
        )
        rules: dict[str, JSON] = {}
        async with self._engine().connect() as connection:
            rows = await connection.execute(query)
            found = [_played(row, rules, i < DETAILED_GAMES) for i, row in enumerate(rows)]
        # A seat the game did not have (the room's seats changed since): not the player's.
        return [game for game in found if 0 <= game.seat < len(game.result.get("scores") or ())]

    async def ratings_of(self, player: str) -> list[LadderRating]:
        """A player's rating on each ladder they played a rated game on."""
        query = (
            sa.select(
                ratings.c.ladder, ratings.c.mu, ratings.c.sigma, ratings.c.games, ratings.c.wins
            )
            .where(ratings.c.player == player)
            .order_by(ratings.c.ladder)
        )
        async with self._engine().connect() as connection:
            return [LadderRating(**row._asdict()) for row in await connection.execute(query)]

    async def seat_accounts(self, codes: list[str]) -> dict[tuple[str, int], str]:
        """(room, seat) -> the name of the account that claimed it, for these rooms (the
        public lobby links them to their profiles)."""
        if not codes:
            return {}
        query = claims_query(codes, users.c.name).join_from(
            seat_claims, users, users.c.id == seat_claims.c.user_id
        )
        async with self._engine().connect() as connection:
            rows = await connection.execute(query)
            return {(row.room_code, row.seat): row.name for row in rows}

    async def seat_players(self, code: str, game_no: int) -> tuple[list[JSON], dict[int, int]]:
        """A stored game's public seats and its claims (seat -> account), to tell each
        seat its rating change (``([], {})`` for a game that is not stored)."""
        async with self._engine().connect() as connection:
            found = await connection.execute(
                sa.select(games.c.seats).where(
                    games.c.room_code == code, games.c.game_no == game_no
                )
            )
            seats = found.scalar_one_or_none()
            if seats is None:
                return [], {}
            return list(seats), await room_claims(connection, code)
