"""The table: every live room of a server, their creation, restore and expiry."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from ...core import OptionError
from ...display_names import DisplayNameError
from ...games import get_game
from ...statuses import RoomStatus, SeatKind
from ..errors import RoomError, option_refused
from ..name_skeletons import checked_name, name_refusal
from ..ops.config import ServerConfig
from ..ops.metrics import Metrics
from ..ratings.jobs import GameRater
from ..storage.records import FencedError, RoomRecord
from ..storage.store import Storage
from ..tokens import hash_token, new_room_code, new_token
from .bot_seats import BotPool
from .coach import coach_refusal
from .connections import ROOM_MOVED
from .protocol import SeatSpec, error_message
from .room import Room
from .seats import LOBBY, Seat, seats_from_specs
from .table_options import TableOptions

log = logging.getLogger("cardtable.server")

#: Seconds between two tries of a node waiting for a room to be handed over to it.
HANDOVER_POLL = 0.25


class Table:
    """Owns the rooms, the storage and the bot threads of one server."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.storage = Storage(
            config.database_url(), migrate=config.migrate, stall_seconds=config.lease_seconds
        )
        self.storage.move_writer.gather_seconds = config.commit_gather_seconds
        self.bots = BotPool(
            config.bot_processes,
            config.review_workers,
            threads=config.bot_workers,
            move_timeout=config.bot_timeout,
            review_timeout=config.review_timeout,
        )
        self.rooms: dict[str, Room] = {}
        self.node_id = (
            config.node_id or (f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}")[:64]
        )
        self.metrics = Metrics()
        #: Rates finished games (docs/players.md#ratings).
        self.rater = GameRater(self.storage, self.node_id, on_judged=self.tell_verdict)
        self._leases: asyncio.Task[None] | None = None
        self._adopting: dict[str, asyncio.Lock] = {}
        #: Per room code: the task waiting for the room to be handed over to this node.
        self._awaiting: dict[str, asyncio.Task[Room | None]] = {}
        #: Set to run a lease round now (a node asked for one of our rooms).
        self._wake = asyncio.Event()
        self._dropping: set[asyncio.Task[None]] = set()
        #: Draining (see :meth:`drain`): no new room, no adoption, rooms handed over.
        self.draining = False
        #: Per client address: the lock its room creations take turns on, and how many
        #: requests hold or wait for it (see :meth:`create_room`).
        self._creating: dict[str, asyncio.Lock] = {}
        self._waiting: Counter[str] = Counter()
        self._sweeper: asyncio.Task[None] | None = None
        self.is_open = False
        #: Post-game reviews being worked out in the bot threads (see ``Room.review``).
        self.reviews_running = 0
        #: Monotonic seconds of the turn clocks and chat limits (tests replace it).
        self.clock: Callable[[], float] = time.monotonic

    @property
    def move_commits(self) -> int:
        """Transactions that committed moves since start (for the metrics)."""
        return self.storage.move_writer.commits

    async def open(self) -> None:
        """Migrate the database and restore every unfinished room by replaying its log.

        Raises :class:`~cardtable.server.ops.startup.StartupRefusedError` when this server must
        not run on the database (see :meth:`Storage.open`).
        """
        await self.storage.open()
        self.is_open = True
        self.metrics.gc.install()
        self.bots.start()
        # An SQLite file has one server (its lock), so its rooms are all ours even if
        # the last process died holding their leases; on PostgreSQL a room another
        # node holds stays with it.
        force = self.storage.is_sqlite
        for code in await self.storage.live_room_codes():
            await self.adopt(code, force=force)
        await self._listen()
        self._sweeper = asyncio.create_task(self._sweep_loop())
        self._leases = asyncio.create_task(self._lease_loop())

    async def close(self) -> None:
        """Stop the sweeper and the rooms, give up their leases and close the database
        (once; again does nothing)."""
        if not self.is_open:
            return
        self.is_open = False
        for task in (self._sweeper, self._leases, *self._awaiting.values()):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        held = {code: room.epoch for code, room in self.rooms.items()}
        for room in list(self.rooms.values()):
            await room.close()
        for task in list(self._dropping):
            with contextlib.suppress(Exception):
                await task
        await self.rater.settle()
        try:
            await self.storage.release_rooms(self.node_id, held)
        except Exception:
            log.exception("releasing the room leases failed; they run out by themselves")
        self.bots.shutdown()
        self.metrics.gc.uninstall()
        await self.storage.close()

    # --- leases ----------------------------------------------------------------------
    def _restore(self, record: RoomRecord) -> Room | None:
        try:
            game = get_game(record.game)
            rules = game.rules_from_record(record.rules)
            room = Room(self, record, game, rules)
            room.restore(record.moves)
        except Exception:
            log.exception("room %s could not be restored; left out", record.code)
            return None
        return room

    async def adopt(self, code: str, *, force: bool = False) -> Room | None:
        """Room ``code`` served by this node: already here, or claimed now because no
        node holds its lease (``force``: whoever does) and restored from its log.
        None when another node holds it or it is not live."""
        room = self.rooms.get(code)
        if room is not None or not self.is_open or self.draining:
            return room
        lock = self._adopting.setdefault(code, asyncio.Lock())
        async with lock:
            room = self.rooms.get(code)
            if room is not None:
                return room
            record = await self.storage.claim_room(
                code, self.node_id, self.config.lease_seconds, force=force
            )
            if record is None:
                return None
            room = self._restore(record)
            if room is None:
                return None
            self.rooms[code] = room
            self.metrics.adoptions += 1
            log.info(
                "room %s: served by node %s (epoch %d)",
                code,
                self.node_id,
                room.epoch,
                extra=room.log_fields(epoch=room.epoch),
            )
            room.after_restore()
            # Seats claimed while another node served the room: its expected verdict.
            room.claims = {
                seat: user
                for (_, seat), user in (await self.storage.seat_claims_of([code])).items()
            }
        self._adopting.pop(code, None)
        return room

    async def find_room(self, code: str, *, wait: float = 0.0) -> Room:
        """The live room ``code`` on this node, adopted first if no node holds it.

        When another node holds it, the proxy routes the room's players here now (a
        node died or came back, or a player reached another node than the room's): this
        node asks the owner to hand the room over (see :meth:`keep_leases`) and, for up
        to ``wait`` seconds, waits for the hand-over, or for the lease of an owner that
        is gone to run out, and adopts the room, so the request is served here without
        an error. Raises ``no_room`` when there is no such live room, and
        ``room_elsewhere`` (to retry) when the room is still held elsewhere after
        ``wait``, or at once when this node is draining.
        """
        room = await self.adopt(code)
        if room is not None:
            return room
        if not await self.storage.room_is_live(code):
            raise RoomError("no_room", f"no live room {code!r}")
        if not self.draining:
            await self.storage.want_room(code, self.node_id)
            if wait > 0:
                task = self._awaiting.get(code)
                if task is None:
                    task = asyncio.create_task(self._await_handover(code, wait))
                    self._awaiting[code] = task
                    task.add_done_callback(lambda _: self._awaiting.pop(code, None))
                room = await asyncio.shield(task)
                if room is not None:
                    return room
                if not await self.storage.room_is_live(code):
                    raise RoomError("no_room", f"no live room {code!r}")
        raise RoomError(
            "room_elsewhere", "another server holds this room now; try again in a moment"
        )

    def handover_wait(self) -> float:
        """How long a request for a room held elsewhere waits for it: the rest of a dead
        owner's lease, and a little more."""
        return self.config.lease_seconds + 1.0

    async def _await_handover(self, code: str, wait: float) -> Room | None:
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and self.is_open and not self.draining:
            await asyncio.sleep(HANDOVER_POLL)
            room = await self.adopt(code)
            if room is not None:
                return room
            if not await self.storage.room_is_live(code):
                return None
        return None

    async def tell_verdict(self, code: str, game_no: int) -> None:
        """A game was judged (rated or not): its room, if served here, tells its table."""
        room = self.rooms.get(code)
        if room is not None:
            await room.verdicts.tell(game_no)

    def lost(self, room: Room) -> None:
        """Another node took ``room`` over: forget it here and send its clients away
        (they reconnect and reach the new owner); this node never writes for it again."""
        if self.rooms.get(room.code) is not room:
            return
        del self.rooms[room.code]
        self.metrics.rooms_lost += 1
        log.warning(
            "room %s: lease lost (epoch %d); dropped from node %s",
            room.code,
            room.epoch,
            self.node_id,
            extra=room.log_fields(epoch=room.epoch),
        )
        room.end_connections(
            ROOM_MOVED,
            error_message("room_moved", "this room is now served by another server; reconnect"),
        )
        task = asyncio.create_task(room.close())
        self._dropping.add(task)
        task.add_done_callback(self._dropping.discard)

    async def _listen(self) -> None:
        """Listen for hand-over requests (PostgreSQL), so that a node asking for one of
        our rooms has it within moments instead of at our next lease round."""
        try:
            await self.storage.listen_for_handovers(self._room_wanted)
        except Exception:
            log.exception("listening for hand-over requests failed; the lease rounds serve")

    def _room_wanted(self, code: str) -> None:
        if code in self.rooms:
            self._wake.set()

    async def _lease_loop(self) -> None:
        """Renew this node's leases, drop the rooms it lost, hand over the rooms another
        node asked for, adopt the rooms nobody holds: every third of a lease, and at once
        when a node asks for one of ours."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.config.lease_seconds / 3)
            self._wake.clear()
            try:
                await self.keep_leases()
                if self.storage.is_postgresql and not self.storage.listening():
                    await self._listen()  # its connection was lost
            except Exception:
                log.exception("renewing the room leases failed")

    async def drain(self) -> int:
        """Hand every room over for a rolling upgrade; returns how many.

        From now on the node creates and adopts no room and ``/health`` says
        ``draining``. Each room's clients are told ``room_moved`` and closed with 4009,
        the room stops here and its lease is released, so another node adopts it at
        its next lease round (a third of ``lease_seconds``) and the clients, who
        reconnect with back-off, resume there from their last version.
        """
        self.draining = True
        rooms = list(self.rooms.values())
        await self.hand_over(rooms, "this server is stopping; reconnect")
        log.info(
            "node %s drained: %d rooms handed over",
            self.node_id,
            len(rooms),
            extra={"node": self.node_id, "rooms": len(rooms)},
        )
        return len(rooms)

    async def hand_over(
        self, rooms: list[Room], reason: str, *, reserve_seconds: float | None = None
    ) -> None:
        """Stop serving ``rooms`` here and release their leases for another node (for
        ``reserve_seconds``, only the node that asked for each); their clients get
        ``room_moved`` (close 4009) and reconnect through the proxy."""
        for room in rooms:
            if self.rooms.get(room.code) is room:
                del self.rooms[room.code]
            log.info("room %s: handed over", room.code, extra=room.log_fields(epoch=room.epoch))
            room.end_connections(ROOM_MOVED, error_message("room_moved", reason))
        for room in rooms:
            async with room.lock:  # a move being committed finishes first
                await room.close()
        await self.storage.release_rooms(
            self.node_id,
            {room.code: room.epoch for room in rooms},
            reserve_seconds=reserve_seconds,
        )
        self.metrics.handed_over += len(rooms)

    def public_seats_held(self, address: str) -> int:
        """Seats of public tables waiting for their game that ``address`` joined on
        this node (the creator's own seat is no join and does not count)."""
        return sum(
            1
            for room in self.rooms.values()
            if room.status == LOBBY and room.table_options.public
            for seat, joined in room.joined_from.items()
            if joined == address and room.seats[seat].taken
        )

    async def keep_leases(self) -> None:
        held = {code: room.epoch for code, room in self.rooms.items()}
        lost, wanted = await self.storage.renew_leases(
            self.node_id, held, self.config.lease_seconds
        )
        for code in lost:
            room = self.rooms.get(code)
            if room is not None and room.epoch == held[code]:
                self.lost(room)
        handed = [self.rooms[code] for code in wanted if code in self.rooms]
        if handed:
            await self.hand_over(
                handed,
                "this room moves to another server; reconnect",
                reserve_seconds=self.config.lease_seconds,
            )
        if self.draining:
            return
        for code in await self.storage.claimable_rooms(self.node_id):
            await self.adopt(code)

    async def rooms_of(self, client: str) -> int:
        """Live rooms ``client`` created, on every node (read from the database)."""
        return await self.storage.live_rooms_of(client)

    async def create_room(
        self,
        game_name: str,
        options: dict[str, Any],
        specs: list[SeatSpec] | None,
        name: str | None,
        client: str,
        table_options: dict[str, Any] | None = None,
        *,
        start: bool = False,
    ) -> dict[str, Any]:
        """A new room in the lobby; its host token, and a seat token if ``name`` is given.
        With ``start``, its game starts at once (only when the named creator fills the
        one human seat: nobody else could take a seat before it starts).

        One client's creations on this node run one at a time (``_creating``), so
        simultaneous requests cannot all pass the limit before any room is stored.
        Across nodes the count comes from the database: simultaneous requests on
        different nodes could pass it together, by one room per node at most.
        """
        if self.draining:
            raise RoomError("draining", "this server is stopping; try again in a moment")
        lock = self._creating.setdefault(client, asyncio.Lock())
        self._waiting[client] += 1
        try:
            async with lock:
                if await self.rooms_of(client) >= self.config.rooms_per_client:
                    raise RoomError(
                        "too_many_rooms",
                        f"at most {self.config.rooms_per_client} live rooms per client",
                    )
                return await self._create_room(
                    game_name, options, specs, name, client, table_options or {}, start
                )
        finally:
            self._waiting[client] -= 1
            if not self._waiting[client]:
                del self._waiting[client], self._creating[client]

    async def _create_room(
        self,
        game_name: str,
        options: dict[str, Any],
        specs: list[SeatSpec] | None,
        name: str | None,
        client: str,
        table_changes: dict[str, Any],
        start: bool,
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
        table_options = TableOptions().changed(table_changes)
        players = int(getattr(rules, "players", 2))
        if specs is None:
            specs = [SeatSpec(kind=SeatKind.HUMAN)] * players
        if len(specs) != players:
            raise RoomError("bad_seats", f"the rules have {players} seats, not {len(specs)}")
        seats = seats_from_specs(game.name, specs)
        refusal = coach_refusal(seats) if table_options.coach else None
        if refusal is not None:
            raise refusal
        seat_token: tuple[int, str] | None = None
        if name is not None:
            try:
                display = checked_name(name)
            except DisplayNameError as error:
                raise RoomError("bad_name", str(error), name_refusal(error)) from None
            humans = [index for index, seat in enumerate(seats) if seat.kind == SeatKind.HUMAN]
            if not humans:
                raise RoomError("bad_seats", "a named creator needs a human seat")
            token = new_token()
            seats[humans[0]] = Seat(SeatKind.HUMAN, None, display, hash_token(token))
            seat_token = (humans[0], token)
        free = [i for i, seat in enumerate(seats) if seat.kind == SeatKind.HUMAN and not seat.taken]
        if start and free:
            raise RoomError(
                "seats_free",
                f"a game started at once needs its human seats taken; seats {free} are free",
            )
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
            owner=self.node_id,
            epoch=1,
            lease_until=now + self.config.lease_seconds,
            table_options=table_options.to_json(),
            public=table_options.public,
        )
        await self.storage.insert_room(record)
        room = Room(self, record, game, rules)
        self.rooms[code] = room
        log.info("room %s: created", code, extra=room.log_fields(game=game.name, epoch=1))
        if start:
            await room.lobby.start(host_token)
        created: dict[str, Any] = {"code": code, "host_token": host_token, "version": room.version}
        if seat_token is not None:
            created["seat"], created["token"] = seat_token
        return created

    # --- expiry ----------------------------------------------------------------------
    async def sweep(self, now: float | None = None) -> list[str]:
        """Expire rooms nobody has used for ``room_ttl_seconds``; returns their codes.

        A room that never started a game is deleted; one that played keeps its games
        (for replays) and is marked closed. Only rooms this node holds the lease of are
        swept, and the write is fenced: a node never closes another node's room.
        """
        now = time.monotonic() if now is None else now
        expired = []
        for code, room in list(self.rooms.items()):
            if room.connections or now - room.last_active < self.config.room_ttl_seconds:
                continue
            if room.status == RoomStatus.PLAYING:
                continue  # bots are still playing it out
            await room.close()
            del self.rooms[code]
            try:
                if room.status == LOBBY and room.game_no == 1:
                    await self.storage.delete_room(code, room.epoch)
                else:
                    await self.storage.update_room(code, room.epoch, status="closed")
            except FencedError:
                log.info(
                    "room %s: taken over by another node before it expired here",
                    code,
                    extra=room.log_fields(),
                )
                continue
            log.info("room %s: expired", code, extra=room.log_fields())
            expired.append(code)
        return expired

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.sweep_seconds)
            try:
                await self.sweep()  # each expired room is logged
            except Exception:
                log.exception("sweeping rooms failed")
            try:
                await self.rater.catch_up()
            except Exception:
                log.exception("rating the unjudged games failed")
