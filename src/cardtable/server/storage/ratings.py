"""Ratings: judging a finished game once for its ladder and moving its players'
ratings in the same transaction, and the leaderboards (docs/players.md#ratings)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from ..ladder import Verdict, displayed, is_provisional, rate, score, seed, verdict
from .claims import room_claims
from .database import Database
from .tables import games, rated_games, ratings, users


class _NotFinishedError(Exception):
    """The game has no result (yet): undo the claim of its key."""


@dataclasses.dataclass(frozen=True)
class RatingRow:
    """One player's standing on a ladder (``name``: an account's; None for a bot)."""

    player: str
    name: str | None
    mu: float
    sigma: float
    games: int
    wins: int

    def shown(self) -> tuple[int, int]:
        """The rating and its ± as players see them."""
        return displayed(self.mu, self.sigma)


_ROW = (
    ratings.c.player,
    users.c.name,
    ratings.c.mu,
    ratings.c.sigma,
    ratings.c.games,
    ratings.c.wins,
)
_FROM = ratings.outerjoin(users, ratings.c.user_id == users.c.id)


class RatingRows(Database):
    """The ``ratings`` and ``rated_games`` tables' queries."""

    def _insert(self, table: sa.Table) -> Any:
        return (postgresql if self.is_postgresql else sqlite).insert(table)

    async def rate_game(self, code: str, game_no: int, now: float) -> Verdict | None:
        """Judge finished game ``game_no`` of room ``code`` and, when it is rated, move
        its players' ratings: all in one transaction that begins by taking the game's
        ``rated_games`` key. Returns the verdict, or None when the game was judged
        already (by this node or another) or has not finished: nothing changed."""
        claim = (
            self._insert(rated_games)
            .values(room_code=code, game_no=game_no, ladder=None, changes=[], rated_at=now)
            .on_conflict_do_nothing(index_elements=["room_code", "game_no"])
        )
        try:
            async with self._engine().begin() as connection:
                # The write comes first: in SQLite it takes the write lock before any read.
                if (await connection.execute(claim)).rowcount != 1:
                    return None
                return await self._judge(connection, code, game_no, now)
        except _NotFinishedError:
            return None

    async def _judge(self, connection: Any, code: str, game_no: int, now: float) -> Verdict:
        found = await connection.execute(
            sa.select(games.c.game, games.c.rules, games.c.seats, games.c.result).where(
                games.c.room_code == code, games.c.game_no == game_no
            )
        )
        row = found.first()
        if row is None or row.result is None:
            raise _NotFinishedError
        claims = await room_claims(connection, code)
        judged = verdict(row.game, row.rules, row.seats, row.result, claims)
        changes: list[Any] = []
        if judged.ladder is not None:
            changes = await self._apply(connection, judged, row.result, now)
        await connection.execute(
            rated_games.update()
            .where(rated_games.c.room_code == code, rated_games.c.game_no == game_no)
            .values(ladder=judged.ladder, reason=judged.reason, changes=changes)
        )
        return judged

    async def _apply(self, connection: Any, judged: Verdict, result: Any, now: float) -> list[Any]:
        assert judged.ladder is not None
        ladder, players = judged.ladder, judged.players
        everyone = sorted(set(players))
        for player in everyone:  # a fixed order: two games sharing players cannot deadlock
            mu, sigma = seed(ladder, player)
            user_id = int(player.removeprefix("user:")) if player.startswith("user:") else None
            await connection.execute(
                self._insert(ratings)
                .values(
                    ladder=ladder,
                    player=player,
                    user_id=user_id,
                    mu=mu,
                    sigma=sigma,
                    score=score(mu, sigma),
                    games=0,
                    wins=0,
                    updated_at=now,
                )
                .on_conflict_do_nothing(index_elements=["ladder", "player"])
            )
        query = (
            sa.select(ratings.c.player, ratings.c.mu, ratings.c.sigma, ratings.c.games)
            .where(ratings.c.ladder == ladder, ratings.c.player.in_(everyone))
            .order_by(ratings.c.player)
        )
        if self.is_postgresql:
            query = query.with_for_update()
        rows = list(await connection.execute(query))
        before = {row.player: (row.mu, row.sigma) for row in rows}
        provisional = {row.player for row in rows if is_provisional(row.player, row.games)}
        after = rate(ladder, players, result, before, provisional)
        winners = {players[seat] for seat in result.get("winners") or ()}
        for player in everyone:
            mu, sigma = after[player]
            await connection.execute(
                ratings.update()
                .where(ratings.c.ladder == ladder, ratings.c.player == player)
                .values(
                    mu=mu,
                    sigma=sigma,
                    score=score(mu, sigma),
                    games=ratings.c.games + 1,
                    wins=ratings.c.wins + (1 if player in winners else 0),
                    updated_at=now,
                )
            )
        return [
            {
                "player": p,
                "before": list(before[p]),
                "after": list(after[p]),
                "provisional": p in provisional,
            }
            for p in everyone
        ]

    async def unjudged_games(self, since: float, limit: int = 500) -> list[tuple[str, int]]:
        """Games finished since ``since`` that no ``rated_games`` row judged (their node
        stopped between the last move and the rating)."""
        query = (
            sa.select(games.c.room_code, games.c.game_no)
            .select_from(
                games.outerjoin(
                    rated_games,
                    sa.and_(
                        rated_games.c.room_code == games.c.room_code,
                        rated_games.c.game_no == games.c.game_no,
                    ),
                )
            )
            .where(
                games.c.finished_at >= since,
                games.c.result.is_not(None),
                rated_games.c.room_code.is_(None),
            )
            .order_by(games.c.finished_at)
            .limit(limit)
        )
        async with self._engine().connect() as connection:
            return [(code, game_no) for code, game_no in await connection.execute(query)]

    async def rated_game(self, code: str, game_no: int) -> dict[str, Any] | None:
        """The ``rated_games`` row of a game (its verdict and changes), or None."""
        async with self._engine().connect() as connection:
            found = await connection.execute(
                sa.select(rated_games.c.ladder, rated_games.c.reason, rated_games.c.changes).where(
                    rated_games.c.room_code == code, rated_games.c.game_no == game_no
                )
            )
            row = found.first()
        return None if row is None else dict(row._asdict())

    async def top_players(self, ladder: str, min_games: int, limit: int) -> list[RatingRow]:
        """The best accounts of a ladder with at least ``min_games`` rated games."""
        query = (
            sa.select(*_ROW)
            .select_from(_FROM)
            .where(
                ratings.c.ladder == ladder,
                ratings.c.user_id.is_not(None),
                ratings.c.games >= min_games,
            )
            .order_by(ratings.c.score.desc(), ratings.c.player)
            .limit(limit)
        )
        async with self._engine().connect() as connection:
            return [RatingRow(**row._asdict()) for row in await connection.execute(query)]

    async def ladder_rows(self, ladder: str, players: Sequence[str]) -> list[RatingRow]:
        """The rows of these players (bot levels, an account) on a ladder, where made."""
        query = (
            sa.select(*_ROW)
            .select_from(_FROM)
            .where(ratings.c.ladder == ladder, ratings.c.player.in_(list(players)))
        )
        async with self._engine().connect() as connection:
            return [RatingRow(**row._asdict()) for row in await connection.execute(query)]

    async def ratings_or_seeds(self, ladder: str, players: Iterable[str]) -> dict[str, RatingRow]:
        """Each of these players' row on a ladder; one without a rated game there yet
        stands at their seed (a bot level's measured one, else the first rating), with no
        games."""
        wanted = sorted(set(players))
        found = {row.player: row for row in await self.ladder_rows(ladder, wanted)}
        for player in wanted:
            if player not in found:
                found[player] = RatingRow(player, None, *seed(ladder, player), 0, 0)
        return found

    async def people_above(self, ladder: str, min_games: int, mu: float, sigma: float) -> int:
        """How many listed accounts of a ladder rank above a rating of (mu, sigma)."""
        query = (
            sa.select(sa.func.count())
            .select_from(ratings)
            .where(
                ratings.c.ladder == ladder,
                ratings.c.score > score(mu, sigma),
                ratings.c.user_id.is_not(None),
                ratings.c.games >= min_games,
            )
        )
        async with self._engine().connect() as connection:
            return int((await connection.execute(query)).scalar_one())
