"""Accounts: users, their sessions, the seats they claimed, and the counters of the
sign-in limits (docs/players.md). Secrets arrive here hashed: a session is found by the
SHA-256 of its cookie's token, a password is stored as its Argon2id hash."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from ...core import JSON
from ..ladder import ladder_of
from .claims import room_claims
from .database import Database
from .records import UserRecord
from .tables import (
    games,
    known_browsers,
    ratings,
    rooms,
    seat_claims,
    sessions,
    throttles,
    users,
)

#: A known browser unseen this long is forgotten (seconds).
BROWSER_YEAR = 365 * 86400.0

_USER = (users.c.id, users.c.name, users.c.password_hash, users.c.created_at)


def _renamed(seats: list[JSON], seat: int, name: str) -> list[JSON]:
    """``seats`` (a JSON list of seats) with seat ``seat`` called ``name``."""
    if not 0 <= seat < len(seats) or not isinstance(seats[seat], dict):
        return seats
    return [{**entry, "name": name} if i == seat else entry for i, entry in enumerate(seats)]


class AccountRows(Database):
    """The ``users``, ``sessions``, ``seat_claims`` and ``throttles`` tables' queries."""

    async def create_user(
        self, name: str, name_key: str, password_hash: str, now: float, name_skeleton: str
    ) -> int | None:
        """A new user's id, or None when ``name_key`` or ``name_skeleton`` is taken."""
        try:
            async with self._engine().begin() as connection:
                result = await connection.execute(
                    users.insert()
                    .values(
                        name=name,
                        name_key=name_key,
                        name_skeleton=name_skeleton,
                        password_hash=password_hash,
                        created_at=now,
                    )
                    .returning(users.c.id)
                )
                return int(result.scalar_one())
        except IntegrityError:
            return None

    async def user_by_key(self, name_key: str) -> UserRecord | None:
        async with self._engine().connect() as connection:
            result = await connection.execute(sa.select(*_USER).where(users.c.name_key == name_key))
            row = result.first()
        return None if row is None else UserRecord(**row._asdict())

    async def skeleton_taken(self, name_skeleton: str) -> bool:
        """Whether an account's name looks like a name with this skeleton (its hash)."""
        async with self._engine().connect() as connection:
            result = await connection.execute(
                sa.select(users.c.id).where(users.c.name_skeleton == name_skeleton)
            )
            return result.first() is not None

    async def set_password_hash(self, user_id: int, password_hash: str) -> None:
        async with self._engine().begin() as connection:
            await connection.execute(
                users.update().where(users.c.id == user_id).values(password_hash=password_hash)
            )

    async def create_session(
        self,
        user_id: int,
        token_hash: str,
        now: float,
        expires_at: float,
        replaces: str | None,
        keep: int | None = None,
    ) -> None:
        """Open a session (and close the one it ``replaces``: a sign-in rotates it);
        with ``keep``, the account's oldest sessions end so that ``keep`` stay live."""
        async with self._engine().begin() as connection:
            if replaces is not None:
                await connection.execute(sessions.delete().where(sessions.c.token_hash == replaces))
            await connection.execute(
                sessions.delete().where(sessions.c.user_id == user_id, sessions.c.expires_at <= now)
            )
            await connection.execute(
                sessions.insert().values(
                    token_hash=token_hash, user_id=user_id, created_at=now, expires_at=expires_at
                )
            )
            if keep is not None:
                await _keep_newest(connection, sessions, sessions.c.created_at, user_id, keep)

    async def remember_browser(self, user_id: int, token_hash: str, now: float, keep: int) -> None:
        """Remember (or see again) a browser that signed in to ``user_id``; the account
        keeps its ``keep`` browsers seen last."""
        async with self._engine().begin() as connection:
            seen = await connection.execute(
                known_browsers.update()
                .where(
                    known_browsers.c.token_hash == token_hash,
                    known_browsers.c.user_id == user_id,
                )
                .values(seen_at=now)
            )
            if not seen.rowcount:
                await connection.execute(
                    known_browsers.delete().where(known_browsers.c.token_hash == token_hash)
                )
                await connection.execute(
                    known_browsers.insert().values(
                        token_hash=token_hash, user_id=user_id, seen_at=now
                    )
                )
            await _keep_newest(connection, known_browsers, known_browsers.c.seen_at, user_id, keep)

    async def browser_knows(self, token_hash: str, user_id: int) -> bool:
        """Whether the browser of this cookie signed in to ``user_id`` before."""
        async with self._engine().connect() as connection:
            found = await connection.execute(
                sa.select(known_browsers.c.user_id).where(
                    known_browsers.c.token_hash == token_hash,
                    known_browsers.c.user_id == user_id,
                )
            )
            return found.first() is not None

    async def session_user(self, token_hash: str, now: float) -> UserRecord | None:
        """The user of an unexpired session, or None."""
        async with self._engine().connect() as connection:
            result = await connection.execute(
                sa.select(*_USER)
                .select_from(sessions.join(users, sessions.c.user_id == users.c.id))
                .where(sessions.c.token_hash == token_hash, sessions.c.expires_at > now)
            )
            row = result.first()
        return None if row is None else UserRecord(**row._asdict())

    async def delete_session(self, token_hash: str) -> None:
        async with self._engine().begin() as connection:
            await connection.execute(sessions.delete().where(sessions.c.token_hash == token_hash))

    async def delete_sessions_of(self, user_id: int) -> int:
        """Close every session of a user; returns how many there were."""
        async with self._engine().begin() as connection:
            done = await connection.execute(sessions.delete().where(sessions.c.user_id == user_id))
            return int(done.rowcount)

    async def claim_seat(self, user_id: int, code: str, token_hash: str, now: float) -> int | str:
        """Add the seat of room ``code`` whose token hashes to ``token_hash`` to the user's
        seats: the seat's number when done (or already theirs), else why not
        (``no_seat``: no such room or token; ``seat_claimed``: another account has it;
        ``second_seat``: the account holds another seat of this room and its rules are a
        ladder's, where one player in two seats could hand one seat's game to the other)."""
        query = sa.select(rooms.c.seats, rooms.c.game, rooms.c.rules).where(rooms.c.code == code)
        if self.is_postgresql:
            # Two claims of one account at once (two tabs) take turns on the room's row,
            # so the second sees the first's seat.
            query = query.with_for_update()
        async with self._engine().begin() as connection:
            room = (await connection.execute(query)).first()
            found = [
                index
                for index, seat in enumerate([] if room is None else room.seats or [])
                if isinstance(seat, dict) and seat.get("token_hash") == token_hash
            ]
            if room is None or not found:
                return "no_seat"
            holders = await room_claims(connection, code)
            holder = holders.get(found[0])
            if holder is not None:
                return found[0] if holder == user_id else "seat_claimed"
            if user_id in holders.values() and ladder_of(room.game, room.rules) is not None:
                return "second_seat"
            await connection.execute(
                seat_claims.insert().values(
                    room_code=code, seat=found[0], user_id=user_id, claimed_at=now
                )
            )
            return found[0]

    async def release_seat_claim(self, code: str, seat: int) -> None:
        """Forget who claimed seat ``seat`` of room ``code`` (its player was removed
        before the game: the next player there is somebody else)."""
        async with self._engine().begin() as connection:
            await connection.execute(
                seat_claims.delete().where(
                    seat_claims.c.room_code == code, seat_claims.c.seat == seat
                )
            )

    async def seats_in_room(self, user_id: int, code: str) -> list[int]:
        """The seats of room ``code`` the user claimed."""
        async with self._engine().connect() as connection:
            result = await connection.execute(
                sa.select(seat_claims.c.seat)
                .where(seat_claims.c.user_id == user_id, seat_claims.c.room_code == code)
                .order_by(seat_claims.c.seat)
            )
            return [seat for (seat,) in result]

    async def seats_of(self, user_id: int) -> list[tuple[str, int]]:
        """(room code, seat) of every seat the user claimed, oldest first."""
        async with self._engine().connect() as connection:
            result = await connection.execute(
                sa.select(seat_claims.c.room_code, seat_claims.c.seat)
                .where(seat_claims.c.user_id == user_id)
                .order_by(seat_claims.c.claimed_at, seat_claims.c.room_code)
            )
            return [(row.room_code, row.seat) for row in result]

    async def delete_user(self, user_id: int, neutral_name: str) -> None:
        """Forget a user: their sessions, their claims, their ratings and their row. The
        games of the seats they claimed stay, the seat called ``neutral_name`` in the stored
        games and rooms."""
        async with self._engine().begin() as connection:
            claims = await connection.execute(
                sa.select(seat_claims.c.room_code, seat_claims.c.seat).where(
                    seat_claims.c.user_id == user_id
                )
            )
            for code, seat in list(claims):
                await _rename_seat(connection, code, seat, neutral_name)
            await connection.execute(seat_claims.delete().where(seat_claims.c.user_id == user_id))
            await connection.execute(sessions.delete().where(sessions.c.user_id == user_id))
            await connection.execute(ratings.delete().where(ratings.c.user_id == user_id))
            await connection.execute(users.delete().where(users.c.id == user_id))

    async def throttle_hit(self, key: str, window: float, now: float) -> tuple[int, float]:
        """Count one attempt under ``key`` in a window of ``window`` seconds (a new window
        starts once the last one is over); returns the count and when its window began."""
        dialect = postgresql if self.is_postgresql else sqlite
        fresh = throttles.c.window_start + window <= now
        statement: Any = dialect.insert(throttles).values(key=key, window_start=now, count=1)
        statement = statement.on_conflict_do_update(
            index_elements=[throttles.c.key],
            set_={
                "count": sa.case((fresh, 1), else_=throttles.c.count + 1),
                "window_start": sa.case((fresh, now), else_=throttles.c.window_start),
            },
        ).returning(throttles.c.count, throttles.c.window_start)
        async with self._engine().begin() as connection:
            count, window_start = (await connection.execute(statement)).one()
        return int(count), float(window_start)

    async def throttle_refund(self, key: str) -> None:
        """Take back one attempt counted under ``key`` (it succeeded)."""
        async with self._engine().begin() as connection:
            await connection.execute(
                throttles.update()
                .where(throttles.c.key == key, throttles.c.count > 0)
                .values(count=throttles.c.count - 1)
            )

    async def throttle_clear(self, key: str) -> None:
        async with self._engine().begin() as connection:
            await connection.execute(throttles.delete().where(throttles.c.key == key))

    async def sweep_accounts(self, now: float, window: float) -> None:
        """Drop expired sessions and counters whose window is over."""
        async with self._engine().begin() as connection:
            await connection.execute(sessions.delete().where(sessions.c.expires_at <= now))
            await connection.execute(
                known_browsers.delete().where(known_browsers.c.seen_at <= now - BROWSER_YEAR)
            )
            await connection.execute(
                throttles.delete().where(throttles.c.window_start + window <= now)
            )


async def _keep_newest(
    connection: Any, table: sa.Table, newest: sa.Column[Any], user_id: int, keep: int
) -> None:
    """Delete the rows of ``user_id`` in ``table`` but the ``keep`` newest by ``newest``."""
    kept = (
        sa.select(table.c.token_hash)
        .where(table.c.user_id == user_id)
        .order_by(newest.desc(), table.c.token_hash)
        .limit(keep)
    )
    await connection.execute(
        table.delete().where(table.c.user_id == user_id, table.c.token_hash.not_in(kept))
    )


async def _rename_seat(connection: Any, code: str, seat: int, name: str) -> None:
    stored = await connection.execute(
        sa.select(games.c.game_no, games.c.seats).where(games.c.room_code == code)
    )
    for game_no, seats in list(stored):
        await connection.execute(
            games.update()
            .where(games.c.room_code == code, games.c.game_no == game_no)
            .values(seats=_renamed(seats, seat, name))
        )
    room = await connection.execute(sa.select(rooms.c.seats).where(rooms.c.code == code))
    seats = room.scalar_one_or_none()
    if seats is not None:
        await connection.execute(
            rooms.update().where(rooms.c.code == code).values(seats=_renamed(seats, seat, name))
        )
