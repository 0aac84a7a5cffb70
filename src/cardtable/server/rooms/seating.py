"""The lobby of a room: players take seats, the host sets options and seats, starts
the game, and offers a rematch once it is over. Every change is a versioned room
event, committed before it is broadcast."""

from __future__ import annotations

import logging
from typing import Any

from ...core import OptionError
from ...display_names import DisplayNameError
from ...statuses import SeatKind
from ..errors import RoomError, option_refused
from ..name_skeletons import checked_name, name_refusal
from ..tokens import hash_token, new_seed, new_token, token_matches
from .coach import coach_refusal
from .events import START, EventRecord
from .parts import RoomServices
from .protocol import SeatSpec
from .seats import FINISHED, LOBBY, PLAYING, Seat, seats_from_specs

log = logging.getLogger("cardtable.server")


class Lobby:
    """Seats, options, start and rematch of one room."""

    def __init__(self, room: RoomServices) -> None:
        self.room = room

    def check_host(self, host_token: str) -> None:
        if not token_matches(host_token, self.room.host_hash):
            raise RoomError("not_host", "only the room's host may do that")

    async def join(self, raw_name: str, wanted: int | None) -> tuple[int, str]:
        """Take a free human seat with a display name; returns the seat and its token."""
        room = self.room
        try:
            name = checked_name(raw_name)
        except DisplayNameError as error:
            raise RoomError("bad_name", str(error), name_refusal(error)) from None
        async with room.lock:
            if room.status != LOBBY:
                raise RoomError("not_in_lobby", "the game has started; seats are fixed")
            free = [
                i
                for i, seat in enumerate(room.seats)
                if seat.kind == SeatKind.HUMAN and not seat.taken
            ]
            if wanted is not None:
                if wanted not in free:
                    raise RoomError("seat_unavailable", f"seat {wanted} is not a free human seat")
                seat_index = wanted
            elif free:
                seat_index = free[0]
            else:
                raise RoomError("room_full", "every human seat is taken")
            token = new_token()
            room.seats[seat_index] = Seat(SeatKind.HUMAN, None, name, hash_token(token))
            try:
                await room.commit_room_event()
            except Exception:
                room.seats[seat_index] = Seat(SeatKind.HUMAN)
                room.version -= 1
                raise
            room.touch()
            return seat_index, token

    async def give_back(self, seat_index: int, token: str) -> bool:
        """Undo a join whose player never got its token (quick match seated them, then
        could not start the table): free seat ``seat_index`` if it is still the one
        ``token`` took and the game has not started, so no public table keeps a seat
        nobody can play. True when the seat was freed."""
        room = self.room
        async with room.lock:
            if room.status != LOBBY or not 0 <= seat_index < len(room.seats):
                return False
            seat = room.seats[seat_index]
            if seat.token_hash is None or not token_matches(token, seat.token_hash):
                return False
            await self._vacate(seat_index)
            room.touch()
        log.info("a join given back", extra=room.log_fields(seat=seat_index))
        return True

    async def _vacate(self, seat_index: int) -> None:
        """Under the room's lock: seat ``seat_index`` free again, committed (the seat as it
        was if the commit fails), and no longer counted against its joiner's address."""
        room = self.room
        seat = room.seats[seat_index]
        room.seats[seat_index] = Seat(SeatKind.HUMAN)
        try:
            await room.commit_room_event()
        except Exception:
            room.seats[seat_index] = seat
            room.version -= 1
            raise
        room.joined_from.pop(seat_index, None)

    async def remove(self, host_token: str, seat_index: int, asker: int | None) -> None:
        """Host only, before the start: free seat ``seat_index``, which a waiting player
        took (a squatter, a stranger at a public table). Its token stops working, its
        connections become spectators and are told, and its claim by an account is
        forgotten, so the next player there starts clean. The host's own seat stays."""
        room = self.room
        self.check_host(host_token)
        async with room.lock:
            if room.status != LOBBY:
                raise RoomError("not_in_lobby", "players can be removed only before the start")
            if not 0 <= seat_index < len(room.seats):
                raise RoomError("bad_seats", f"the table has seats 0 to {len(room.seats) - 1}")
            seat = room.seats[seat_index]
            if seat.kind != SeatKind.HUMAN or not seat.taken:
                raise RoomError("seat_not_taken", f"nobody sits in seat {seat_index}")
            if seat_index == asker:
                raise RoomError("remove_self", "the host keeps their own seat")
            await self._vacate(seat_index)
            room.claims.pop(seat_index, None)  # the next player there is somebody else
            await room.table.storage.release_seat_claim(room.code, seat_index)
            room.unseat(seat_index, {"type": "removed", "seat": seat_index})
            room.touch()
        log.info("seat removed by the host", extra=room.log_fields(seat=seat_index))

    async def rename(self, seat_index: int, name: str) -> None:
        """Call a taken human seat ``name`` (its player deleted their account), as a
        room event; the seat, its token and its place in the game stay."""
        room = self.room
        async with room.lock:
            if not 0 <= seat_index < len(room.seats):
                return
            seat = room.seats[seat_index]
            if seat.kind != SeatKind.HUMAN or not seat.taken or seat.name == name:
                return
            old = seat.name
            seat.name = name
            try:
                await room.commit_room_event()
            except Exception:
                seat.name = old
                room.version -= 1
                raise

    async def configure(
        self, host_token: str, options: dict[str, Any] | None, specs: list[SeatSpec] | None
    ) -> None:
        room = self.room
        self.check_host(host_token)
        async with room.lock:
            if room.status != LOBBY:
                raise RoomError("not_in_lobby", "options and seats are fixed once the game starts")
            rules = room.rules
            if options is not None:
                try:
                    rules = room.game.rules_from_json({**room.rules.to_json(), **options})
                except OptionError as error:
                    raise option_refused(error) from None
                except TypeError as error:
                    raise RoomError("bad_options", str(error)) from None
            players = int(getattr(rules, "players", len(room.seats)))
            if specs is None:
                specs = [SeatSpec(kind=seat.kind, bot=seat.bot) for seat in room.seats[:players]]
                specs += [SeatSpec(kind=SeatKind.HUMAN)] * (players - len(specs))
            if len(specs) != players:
                raise RoomError("bad_seats", f"the rules have {players} seats, not {len(specs)}")
            seats = seats_from_specs(room.game.name, specs, room.seats)
            refusal = coach_refusal(seats) if room.table_options.coach else None
            if refusal is not None:
                raise refusal
            old = (room.rules, room.seats)
            room.rules, room.seats = rules, seats
            try:
                await room.commit_room_event()
            except Exception:
                room.rules, room.seats = old
                room.version -= 1
                raise

    async def start(self, host_token: str) -> None:
        self.check_host(host_token)
        await self.start_game()

    async def start_game(self) -> None:
        """Deal the game (the host's Start, checked by the caller; or quick match, when
        its player took the last free seat): ``not_in_lobby`` or ``seats_free`` when the
        room is not ready, and nothing changes."""
        room = self.room
        async with room.lock:
            if room.status != LOBBY:
                raise RoomError("not_in_lobby", "the game has already started")
            waiting = [
                i
                for i, seat in enumerate(room.seats)
                if seat.kind == SeatKind.HUMAN and not seat.taken
            ]
            if waiting:
                raise RoomError("seats_free", f"seats {waiting} are waiting for players")
            seed = new_seed()
            state = room.game.new_state(room.rules, seed)
            room.version += 1
            room.seed, room.status, room.start_version = seed, PLAYING, room.version
            try:
                await room.fenced(
                    room.table.storage.start_game(
                        room.record(), [seat.public() for seat in room.seats]
                    )
                )
            except Exception:
                room.version -= 1
                room.seed, room.status, room.start_version = None, LOBBY, None
                raise
            room.state = state
            log.info(
                "room %s: game %d started",
                room.code,
                room.game_no,
                extra=room.log_fields(game=room.game.name, game_no=room.game_no),
            )
            event = EventRecord(room.version, START, 0, {})
            room.events.append(event)
            room.broadcast(event)
            room.touch()
            room.clock.update()
            room.bots.schedule()

    async def rematch(self, host_token: str) -> None:
        room = self.room
        self.check_host(host_token)
        async with room.lock:
            if room.status != FINISHED:
                raise RoomError("not_finished", "a rematch is offered once the game is over")
            saved = (room.status, room.game_no, room.seed, room.start_version, room.state)
            room.status, room.game_no, room.seed, room.start_version = (
                LOBBY,
                room.game_no + 1,
                None,
                None,
            )
            room.state = None
            room.advisor.forget()
            events, log_start = room.events, room.log_start
            room.events, room.log_start = [], room.version
            try:
                await room.commit_room_event()
            except Exception:
                room.status, room.game_no, room.seed, room.start_version, room.state = saved
                room.events, room.log_start = events, log_start
                room.version -= 1
                raise
            room.grace.reset()
            room.clock.update()
            room.touch()
