"""The table: every live room of a server, their creation, restore and expiry."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from typing import Any

from ..core import OptionError
from ..games import get_game
from .botseats import BotPool
from .config import ServerConfig
from .names import DisplayNameError, clean_name
from .protocol import SeatSpec
from .rooms import LOBBY, Room, RoomError, Seat, option_refused, seats_from_specs
from .storage import RoomRecord, Storage
from .tokens import hash_token, new_room_code, new_token

log = logging.getLogger("cardtable.server")


class Table:
    """Owns the rooms, the storage and the bot threads of one server."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.storage = Storage(config.database_url())
        self.bots = BotPool(config.bot_workers, config.review_workers)
        self.rooms: dict[str, Room] = {}
        #: Rooms being created per client address (counted against the limit while the
        #: database insert is under way, so simultaneous requests cannot pass it together).
        self._creating: Counter[str] = Counter()
        self._sweeper: asyncio.Task[None] | None = None
        #: Post-game reviews being worked out in the bot threads (see ``Room.review``).
        self.reviews_running = 0

    async def open(self) -> None:
        """Migrate the database and restore every unfinished room by replaying its log."""
        await self.storage.open()
        for record in await self.storage.load_live_rooms():
            try:
                game = get_game(record.game)
                rules = game.rules_from_record(record.rules)
                room = Room(self, record, game, rules)
                room.restore(record.moves)
            except Exception:
                log.exception("room %s could not be restored; left out", record.code)
                continue
            self.rooms[room.code] = room
        for room in self.rooms.values():
            room.after_restore()
        self._sweeper = asyncio.create_task(self._sweep_loop())

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for room in list(self.rooms.values()):
            await room.close()
        self.bots.shutdown()
        await self.storage.close()

    def rooms_of(self, client: str) -> int:
        live = sum(1 for room in self.rooms.values() if room.client == client)
        return live + self._creating[client]

    async def create_room(
        self,
        game_name: str,
        options: dict[str, Any],
        specs: list[SeatSpec] | None,
        name: str | None,
        client: str,
    ) -> dict[str, Any]:
        """A new room in the lobby; its host token, and a seat token if ``name`` is given."""
        if self.rooms_of(client) >= self.config.rooms_per_client:
            raise RoomError(
                "too_many_rooms", f"at most {self.config.rooms_per_client} live rooms per client"
            )
        self._creating[client] += 1
        try:
            return await self._create_room(game_name, options, specs, name, client)
        finally:
            self._creating[client] -= 1
            if not self._creating[client]:
                del self._creating[client]

    async def _create_room(
        self,
        game_name: str,
        options: dict[str, Any],
        specs: list[SeatSpec] | None,
        name: str | None,
        client: str,
    ) -> dict[str, Any]:
        try:
            game = get_game(game_name)
            rules = game.rules_from_json(options)
        except KeyError as error:
            raise RoomError("bad_game", str(error)) from None
        except OptionError as error:
            raise option_refused(error) from None
        except TypeError as error:
            raise RoomError("bad_options", str(error)) from None
        players = int(getattr(rules, "players", 2))
        if specs is None:
            specs = [SeatSpec(kind="human")] * players
        if len(specs) != players:
            raise RoomError("bad_seats", f"the rules have {players} seats, not {len(specs)}")
        seats = seats_from_specs(game.name, specs)
        seat_token: tuple[int, str] | None = None
        if name is not None:
            try:
                display = clean_name(name)
            except DisplayNameError as error:
                raise RoomError("bad_name", str(error)) from None
            humans = [index for index, seat in enumerate(seats) if seat.kind == "human"]
            if not humans:
                raise RoomError("bad_seats", "a named creator needs a human seat")
            token = new_token()
            seats[humans[0]] = Seat("human", None, display, hash_token(token))
            seat_token = (humans[0], token)
        code = new_room_code()
        while code in self.rooms or await self.storage.room_exists(code):
            code = new_room_code()
        host_token = new_token()
        now = time.time()
        record = RoomRecord(
            code=code,
            game=game.name,
            rules=rules.to_json(),
            seats=[seat.record() for seat in seats],
            host_hash=hash_token(host_token),
            status=LOBBY,
            game_no=1,
            seed=None,
            version=1,
            start_version=None,
            client=client,
            created_at=now,
            updated_at=now,
        )
        await self.storage.insert_room(record)
        room = Room(self, record, game, rules)
        self.rooms[code] = room
        created: dict[str, Any] = {"code": code, "host_token": host_token, "version": 1}
        if seat_token is not None:
            created["seat"], created["token"] = seat_token
        return created

    # --- expiry ----------------------------------------------------------------------
    async def sweep(self, now: float | None = None) -> list[str]:
        """Expire rooms nobody has used for ``room_ttl_seconds``; returns their codes.

        A room that never started a game is deleted; one that played keeps its games
        (for replays) and is marked closed.
        """
        now = time.monotonic() if now is None else now
        expired = []
        for code, room in list(self.rooms.items()):
            if room.connections or now - room.last_active < self.config.room_ttl_seconds:
                continue
            if room.status == "playing":
                continue  # bots are still playing it out
            await room.close()
            del self.rooms[code]
            if room.status == LOBBY and room.game_no == 1:
                await self.storage.delete_room(code)
            else:
                await self.storage.update_room(code, status="closed")
            expired.append(code)
        return expired

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.sweep_seconds)
            try:
                expired = await self.sweep()
            except Exception:
                log.exception("sweeping rooms failed")
                continue
            if expired:
                log.info("expired rooms: %s", ", ".join(expired))
