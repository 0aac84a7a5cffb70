"""A room: its game, its versioned events and its connections.

Every change goes through a method that holds the room's lock, asks the engine,
commits to storage, and only then bumps the version and broadcasts. The server never
re-implements a rule: legality, views and outcomes all come from the engine.

The room's other jobs are parts of their own, each holding the room through the
interface the room provides (:class:`~cardtable.server.rooms.parts.RoomServices`): the
lobby (:mod:`.seating`), the turns of bots (:mod:`.bot_turns`), the grace period of a
player who left (:mod:`.grace`), the turn clock (:mod:`.turn_clock`), the chat
(:mod:`.chat`), the move advisor's hints and reviews (:mod:`.advice`), the practice
coach (:mod:`.coach`) and the verdict of a finished game, rated or not (:mod:`.rated_notice`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from typing import Any, Protocol

from ...core import (
    JSON,
    ActionCodeError,
    Game,
    GameState,
    IllegalMoveError,
    Outcome,
    Result,
    RulesBase,
    SerializationError,
)
from ...statuses import SeatKind
from ..errors import RoomError, refusal_fields
from ..ladder import expected_verdict, ladder_of
from ..ops.logs import room_fields
from ..storage.records import FencedError, RoomRecord
from ..tokens import token_matches
from .advice import Advisor
from .bot_turns import BotTurns
from .chat import TableChat
from .coach import Coach, coach_refusal
from .connections import Connection, dumps
from .events import MOVE, ROOM, START, EventRecord, render, views_at
from .grace import DisconnectGrace
from .parts import TableServices
from .rated_notice import GameVerdicts
from .seating import Lobby
from .seats import FINISHED, LOBBY, PLAYING, Seat
from .table_options import TableOptions
from .turn_clock import TurnClock

log = logging.getLogger("cardtable.server")

#: A client further behind than this many events gets a full sync instead.
MAX_CATCH_UP = 400


class RoomsTable(TableServices, Protocol):
    """The table a room belongs to (:class:`cardtable.server.rooms.table.Table`): what the
    room's parts use of it, and where a room that another node took over is dropped."""

    def lost(self, room: Room) -> None: ...


class Room:
    """One table. Create with :meth:`Table.create_room` or restore with :meth:`restore`."""

    def __init__(
        self, table: RoomsTable, record: RoomRecord, game: Game[Any], rules: RulesBase
    ) -> None:
        self.table = table
        self.code = record.code
        self.game = game
        self.rules = rules
        self.seats = [Seat.from_record(seat) for seat in record.seats]
        self.host_hash = record.host_hash
        self.status = record.status
        self.game_no = record.game_no
        self.seed = record.seed
        self.version = record.version
        self.start_version = record.start_version
        self.client = record.client
        self.created_at = record.created_at
        #: The epoch of this node's lease of the room: every write is fenced by it.
        self.epoch = record.epoch
        self.last_active = time.monotonic()
        self.state: GameState[Any] | None = None
        self.events: list[EventRecord] = []
        #: The version just before the first event in ``events`` (catch-up starts there).
        self.log_start = record.version
        self.joined_from: dict[int, str] = {}
        #: Seat -> the account that claimed it, as last read (:meth:`refresh_claims`).
        self.claims: dict[int, int] = {}
        #: The game in which a player asked for a hint (its result says so: unrated).
        self.hinted_game: int | None = None
        self.connections: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.closed = False
        self.lobby = Lobby(self)
        self.grace = DisconnectGrace(self)
        self.bots = BotTurns(self)
        self.advisor = Advisor(self)
        self.coach = Coach(self)
        #: How the table is run (turn time limit, spectator chat): not rules.
        self.table_options = TableOptions.from_record(record.table_options)
        self.clock = TurnClock(self)
        self.chat = TableChat(self)
        self.verdicts = GameVerdicts(self)
        #: Moves bots played for human seats in game ``stand_in_game`` (ratings).
        self.stand_in_moves: dict[int, int] = {}
        self.stand_in_game = record.game_no

    # --- restore -----------------------------------------------------------------------
    def restore(self, moves: list[tuple[int, int, int]]) -> None:
        """Rebuild the game by replaying its committed log (start of the server)."""
        if self.status == LOBBY or self.seed is None or self.start_version is None:
            return
        state = self.game.new_state(self.rules, self.seed)
        events = [EventRecord(self.start_version, START, 0, {})]
        for seat, action, version in moves:
            if state.current_player != seat:
                raise ValueError(f"room {self.code}: move log out of turn at {len(state.history)}")
            outcome = state.apply_action(action)
            events.append(EventRecord(version, MOVE, len(state.history), outcome.to_json()))
        self.state = state
        self.events = events
        self.log_start = self.start_version - 1
        self.status = FINISHED if state.is_over else PLAYING

    def after_restore(self) -> None:
        """Nobody is connected after a restart: human seats get their grace period. A
        game that ended on a node that died before rating it is rated here, at once
        rather than at the next sweep (the ``rated_games`` key keeps it to once)."""
        if self.status == FINISHED:
            self.table.rater.rate_soon(self.code, self.game_no)
        if self.status == PLAYING:
            for seat, info in enumerate(self.seats):
                if info.kind == SeatKind.HUMAN:
                    self.grace.start(seat)
            # The clock of the player to move starts again from the full limit.
            self.clock.update()
            self.bots.schedule()

    @property
    def away(self) -> set[int]:
        """Seats whose player stayed away past the grace period (a bot plays them)."""
        return self.grace.away

    def bot_for(self, seat: int) -> str | None:
        return self.bots.bot_for(seat)

    # --- public facts ------------------------------------------------------------------
    def record(self) -> RoomRecord:
        return RoomRecord(
            code=self.code,
            game=self.game.name,
            rules=self.rules.to_json(),
            seats=[seat.record() for seat in self.seats],
            host_hash=self.host_hash,
            status=self.status,
            game_no=self.game_no,
            seed=self.seed,
            version=self.version,
            start_version=self.start_version,
            client=self.client,
            created_at=self.created_at,
            updated_at=time.time(),
            owner=self.table.node_id,
            epoch=self.epoch,
            table_options=self.table_options.to_json(),
            public=self.table_options.public,
        )

    async def fenced(self, write: Awaitable[None]) -> None:
        """Run a storage write of this room; if another node took the room over, this
        node drops it (its clients reconnect to the new owner) and the request is
        refused as ``room_moved``."""
        try:
            await write
        except FencedError:
            self.table.lost(self)
            raise RoomError(
                "room_moved", "this room is now served by another server; reconnect"
            ) from None

    def connected_seats(self) -> set[int]:
        return {conn.seat for conn in self.connections if conn.seat is not None}

    def summary(self) -> JSON:
        """Everything public about the room (no token, no seed, no hidden card)."""
        connected = self.connected_seats()
        seats = []
        for index, seat in enumerate(self.seats):
            entry = seat.public()
            entry["seat"] = index
            entry["connected"] = index in connected
            entry["away"] = index in self.away
            seats.append(entry)
        return {
            "code": self.code,
            "game": self.game.name,
            "title": self.game.title,
            "rules": self.rules.to_json(),
            "status": self.status,
            "game_no": self.game_no,
            "version": self.version,
            "seats": seats,
            "spectators": sum(1 for conn in self.connections if conn.seat is None),
            "table": self.table_options.to_json(),
            # The ladder these rules are rated on, or None: the page says before a hint
            # that it makes the game unrated.
            "ladder": ladder_of(self.game.name, self.rules.to_json()),
            "expected_verdict": self.expected_verdict() if self.status == LOBBY else None,
        }

    def expected_verdict(self) -> JSON:
        """Before the start: would the game be rated as the table stands now, and if
        not why (:func:`~cardtable.server.ladder.expected_verdict`)? The page says it in
        the lobby, so nobody plays an unrated game unawares."""
        judged = expected_verdict(
            self.game.name,
            self.rules.to_json(),
            [seat.record() for seat in self.seats],
            self.claims,
            coached=self.table_options.coach,
        )
        return {"rated": judged.ladder is not None, "reason": judged.reason}

    async def refresh_claims(self) -> None:
        """Read who claimed this room's seats (a claim reaches whichever node the
        account's request did). Before the start a change is a room event: the
        summary's ``expected_verdict`` changes with it."""
        found = await self.table.storage.seat_claims_of([self.code])
        claims = {seat: user for (_, seat), user in found.items()}
        async with self.lock:
            if claims == self.claims:
                return
            self.claims = claims
            if self.status == LOBBY and not self.closed:
                try:
                    await self.commit_room_event()
                except Exception:
                    self.version -= 1
                    raise

    def presence(self) -> JSON:
        connected = self.connected_seats()
        return {
            "type": "presence",
            "version": self.version,
            "seats": [
                {"seat": index, "connected": index in connected, "away": index in self.away}
                for index in range(len(self.seats))
            ],
            "spectators": sum(1 for conn in self.connections if conn.seat is None),
        }

    def sync(self, seat: int | None) -> JSON:
        """A full resync for ``seat``: the room and the current view."""
        return {
            "type": "sync",
            "version": self.version,
            "room": self.summary(),
            "game_no": self.game_no,
            "view": None if self.state is None else self.state.view(seat),
            "clock": self.clock.public(),
        }

    def catch_up(self, last_version: int | None, seat: int | None) -> list[JSON]:
        """Exactly the events after ``last_version`` for ``seat``, or a full sync."""
        if last_version == self.version:
            return []
        if last_version is None or not self.log_start <= last_version < self.version:
            return [self.sync(seat)]
        if last_version != self.log_start and not any(
            record.version == last_version for record in self.events
        ):
            # A version this log does not hold (a move taken back, then the room
            # restored from the stored log): the client's view may be of a move that
            # no longer stands, so it gets the whole state.
            return [self.sync(seat)]
        missing = [record for record in self.events if record.version > last_version]
        if len(missing) > MAX_CATCH_UP:
            return [self.sync(seat)]
        positions = [record.position for record in missing if record.position is not None]
        views: dict[int, JSON] = {}
        if positions:
            assert self.state is not None and self.seed is not None
            views = views_at(self.game, self.rules, self.seed, self.state.history, positions, seat)
        return [
            render(
                record, self.game_no, None if record.position is None else views[record.position]
            )
            for record in missing
        ]

    # --- connections -------------------------------------------------------------------
    def seat_for_token(self, token: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.kind == SeatKind.HUMAN and token_matches(token, seat.token_hash):
                return index
        return None

    def check_seat_token(self, seat: int, token: str) -> None:
        if not token_matches(token, self.seats[seat].token_hash):
            raise RoomError("bad_token", f"this token does not hold seat {seat}")

    async def attach(self, conn: Connection, last_version: int | None) -> None:
        """Register a greeted connection and send it the welcome and what it missed."""
        async with self.lock:
            self.connections.add(conn)
            self.touch()
            seat = conn.seat
            conn.push(
                {
                    "type": "welcome",
                    "version": self.version,
                    "seat": seat,
                    "role": "spectator" if seat is None else "player",
                    "room": self.summary(),
                }
            )
            for message in self.catch_up(last_version, seat):
                conn.push(message)
            conn.push(self.chat.history_message())
            await self.verdicts.greet(conn)
            if seat is not None:
                self.grace.back(seat)
            self.broadcast_raw(self.presence())
            # A player back from away has their clock again (update tells everyone);
            # the newcomer learns the running clock.
            self.clock.update()
            if self.status == PLAYING:
                conn.push(self.clock.message())
            line = self.coach.line_for(seat)
            if line is not None:
                conn.push(line)

    async def detach(self, conn: Connection) -> None:
        async with self.lock:
            self.connections.discard(conn)
            self.chat.forget(conn)
            self.touch()
            seat = conn.seat
            if seat is not None and seat not in self.connected_seats() and self.status == PLAYING:
                self.grace.start(seat)
            self.broadcast_raw(self.presence())

    def touch(self) -> None:
        self.last_active = time.monotonic()

    # --- broadcasting --------------------------------------------------------------------
    def broadcast_raw(self, data: JSON) -> None:
        text = dumps(data)
        for conn in self.connections:
            conn.push(text)

    def push_to_seat(self, seat: int, data: JSON) -> None:
        """Send ``data`` to the connections of ``seat`` only."""
        text = dumps(data)
        for conn in self.connections:
            if conn.seat == seat:
                conn.push(text)

    def unseat(self, seat: int, notice: JSON) -> None:
        """The connections of ``seat`` (its player was removed) stay as spectators,
        told with ``notice``; everyone sees who is still there."""
        for conn in self.connections:
            if conn.seat == seat:
                conn.push(notice)
                conn.seat = None
        self.broadcast_raw(self.presence())

    def resync_all(self, notice: JSON) -> None:
        """After the game's state went back (a take-back): the event log starts again
        here, and every connection gets ``notice`` and a full sync of its own view."""
        self.events, self.log_start = [], self.version
        text = dumps(notice)
        for conn in self.connections:
            conn.push(text)
            conn.push(self.sync(conn.seat))

    def broadcast(self, record: EventRecord) -> None:
        """Send ``record`` to every connection, with its seat's view when it carries one:
        each seat's message is built and encoded once, whoever watches from it."""
        connections = list(self.connections)
        views: dict[int | None, JSON] = {}
        if record.position is not None and self.state is not None:
            views = self.state.views({conn.seat for conn in connections})
        texts: dict[int | None, str] = {}
        for conn in connections:
            seat = conn.seat
            text = texts.get(seat)
            if text is None:
                text = texts[seat] = dumps(render(record, self.game_no, views.get(seat)))
            conn.push(text)

    async def commit_room_event(self) -> None:
        """Save the room row with a new version and broadcast the new summary."""
        self.version += 1
        await self.fenced(
            self.table.storage.update_room(
                self.code,
                self.epoch,
                rules=self.rules.to_json(),
                seats=[seat.record() for seat in self.seats],
                status=self.status,
                game_no=self.game_no,
                seed=self.seed,
                version=self.version,
                start_version=self.start_version,
                table_options=self.table_options.to_json(),
                public=self.table_options.public,
            )
        )
        record = EventRecord(self.version, ROOM, None, self.summary())
        self.events.append(record)
        self.broadcast(record)

    # --- moves ---------------------------------------------------------------------------
    def turn_of(self, seat: int, version: int) -> GameState[Any]:
        """The game's state when it is ``seat``'s turn at ``version`` (a move or a hint
        asked for by that seat); otherwise the refusal that says why not."""
        if self.state is None or self.status != PLAYING:
            raise RoomError("not_playing", "no game is being played")
        if version != self.version:
            raise RoomError(
                "stale_version", f"the room is at version {self.version}, not {version}"
            )
        current = self.state.current_player
        if current != seat:
            raise RoomError("not_your_turn", f"it is seat {current}'s turn")
        return self.state

    async def play(
        self, seat: int, token: str, version: int, action: int | None, move: object | None
    ) -> None:
        """A human's move, checked for token, turn and version, then by the engine."""
        began = time.perf_counter()
        self.check_seat_token(seat, token)
        if (action is None) == (move is None):
            raise RoomError("bad_message", "a move message has either 'action' or 'move'")
        async with self.lock:
            before = self.turn_of(seat, version)
            if action is None:
                try:
                    parsed = self.game.move_from_json(move)
                    action = self.game.encode(parsed)
                except (SerializationError, ActionCodeError, ValueError, TypeError) as error:
                    raise RoomError("bad_move", str(error)[:300]) from None
            else:
                try:
                    self.game.check_action(action)
                except ActionCodeError as error:
                    raise RoomError("bad_move", str(error)) from None
            outcome = await self.commit_move(seat, action, by="human")
            self.coach.after_move(seat, before, action, outcome.events)
            # A move of the player's own while a bot finishes their timed-out turn takes
            # the turn back (the bot's answer, for an older version, is dropped).
            self.clock.taken_back(seat)
        metrics = self.table.metrics
        metrics.move_seconds.observe(time.perf_counter() - began)
        metrics.moves["human"] += 1

    def log_fields(self, **more: Any) -> dict[str, Any]:
        """The fields of a log record about this room (its code, the node's id)."""
        return room_fields(self, self.table.node_id, **more)

    async def commit_move(self, seat: int, action: int, *, by: str) -> Outcome[Any]:
        """Apply on a copy, commit, then publish; returns the move's public record.
        Caller holds the lock. ``by``: human or bot, for the log."""
        assert self.state is not None and self.seed is not None
        state = self.state.clone()
        try:
            outcome = state.apply_action(action)
        except IllegalMoveError as error:
            move = self.game.decode(action).to_json()
            raise RoomError("illegal_move", error.reason, refusal_fields(error, move)) from None
        result = state.result()
        version = self.version + 1
        self.count_stand_in(seat, by)
        await self.fenced(
            self.table.storage.record_move(
                self.code,
                self.game_no,
                len(self.state.history),
                seat,
                action,
                version,
                None if result is None else self.result_json(result, len(state.rounds())),
                self.epoch,
            )
        )
        self.state, self.version = state, version
        if log.isEnabledFor(logging.DEBUG):
            # The move as chosen (public once played), never the cards it reveals.
            fields = self.log_fields(
                game_no=self.game_no,
                version=version,
                seat=seat,
                by=by,
                move=self.game.decode(action).to_json(),
            )
            log.debug("room %s: move", self.code, extra=fields)
        if result is not None:
            self.status = FINISHED
            self.table.rater.rate_soon(self.code, self.game_no)
            log.info(
                "room %s: game %d over",
                self.code,
                self.game_no,
                extra=self.log_fields(game_no=self.game_no, version=version),
            )
        record = EventRecord(version, MOVE, len(state.history), outcome.to_json())
        self.events.append(record)
        self.broadcast(record)
        self.touch()
        self.clock.update()
        self.bots.schedule()
        return outcome

    def count_stand_in(self, seat: int, by: str) -> None:
        """Count a bot's move for a human seat (more than a few make a game unrated)."""
        if self.stand_in_game != self.game_no:
            self.stand_in_moves, self.stand_in_game = {}, self.game_no
        if by != SeatKind.HUMAN and self.seats[seat].kind == SeatKind.HUMAN:
            self.stand_in_moves[seat] = self.stand_in_moves.get(seat, 0) + 1

    def result_json(self, result: Result, rounds: int) -> JSON:
        """The stored result: the engine's, how many rounds the game had (a profile's
        points per round), and the moves bots played for human seats."""
        data = result.to_json()
        data["rounds"] = rounds
        if self.stand_in_moves:
            data["stand_in_moves"] = {str(s): n for s, n in sorted(self.stand_in_moves.items())}
        if self.table_options.coach:
            data["coached"] = True  # a practice game: unrated (see ratings.verdict)
        if self.hinted_game == self.game_no:
            data["hinted"] = True  # the move advisor helped: unrated (see ladder.verdict)
        return data

    # --- table options ---------------------------------------------------------------
    async def set_table_options(self, host_token: str, changes: dict[str, Any]) -> None:
        """Host only, at any time: change the table options (a versioned room event).
        A new turn limit applies from the next move; the running clock starts again."""
        self.lobby.check_host(host_token)
        async with self.lock:
            options = self.table_options.changed(changes)
            if options.coach != self.table_options.coach and self.status == PLAYING:
                raise RoomError(
                    "bad_table_options",
                    "the coach is set before a game starts (a coached game is unrated)",
                    {
                        "field": "coach",
                        "allowed": "set before the game starts",
                        "allowed_key": "allowed.coach_before_start",
                        "allowed_params": {},
                    },
                )
            refusal = coach_refusal(self.seats) if options.coach else None
            if refusal is not None:
                raise refusal
            old = self.table_options
            self.table_options = options
            try:
                await self.commit_room_event()
            except Exception:
                self.table_options = old
                self.version -= 1
                raise
            self.clock.update()
            # A new version ends the coach's offer of a take-back: the bots play on.
            self.bots.schedule()

    # --- end -----------------------------------------------------------------------------
    def end_connections(self, code: int, message: JSON) -> None:
        """Tell every client why and close its connection (the room left this node)."""
        for conn in list(self.connections):
            conn.push(message)
            conn.end(code)

    async def close(self) -> None:
        """Stop timers and the bot loop (server stop, expiry, or the room moved away)."""
        self.closed = True
        tasks = self.grace.take_timers()
        for task in (self.bots.take_task(), self.clock.take_task(), self.coach.take_task()):
            if task is not None:
                tasks.append(task)
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
