"""A room: its seats, its game, its versioned events and its connections.

Every change goes through a method that holds the room's lock, asks the engine,
commits to storage, and only then bumps the version and broadcasts. The server never
re-implements a rule: legality, views and outcomes all come from the engine.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from typing import TYPE_CHECKING, Any

from ..bots.review import review_message, table_review_seed
from ..core import (
    JSON,
    ActionCodeError,
    Game,
    GameState,
    IllegalMoveError,
    OptionError,
    Rng,
    RulesBase,
    SerializationError,
)
from .botseats import ADVICE_MEASURE, known_bot
from .connections import Connection, dumps
from .events import MOVE, ROOM, START, EventRecord, render, views_at
from .names import DisplayNameError, clean_name
from .protocol import SeatSpec
from .storage import RoomRecord
from .tokens import hash_token, new_seed, new_token, token_matches

if TYPE_CHECKING:
    from .table import Table

log = logging.getLogger("cardtable.server")

LOBBY = "lobby"
PLAYING = "playing"
FINISHED = "finished"
DEFAULT_BOT = "greedy"
#: A client further behind than this many events gets a full sync instead.
MAX_CATCH_UP = 400
#: Ranked moves sent in answer to a ``hint``.
HINT_MOVES = 5


class RoomError(Exception):
    """A refused request: ``code`` for programs, ``reason`` for people, and ``fields``:
    facts for programs added to the error reply (``field`` and ``allowed`` of a bad option)."""

    def __init__(self, code: str, reason: str, fields: JSON | None = None) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.fields: JSON = fields or {}


def option_refused(error: OptionError) -> RoomError:
    """The ``bad_options`` refusal of an option outside its range: the reply names the
    option (``field``) and its allowed values (``allowed``, the engine's words), and the
    same for translation (``allowed_key``, ``allowed_params``) when the engine gave them."""
    fields: JSON = {"field": error.field, "allowed": error.allowed}
    if error.key is not None:
        fields |= {"allowed_key": error.key, "allowed_params": dict(error.params)}
    return RoomError("bad_options", str(error), fields)


def refusal_fields(error: IllegalMoveError, move: JSON) -> JSON:
    """The facts of an ``illegal_move`` reply besides its English ``reason``: the refused
    move in its JSON form (``move``) and, from the engine, the refusal as a catalog key
    and parameters (``reason_key``, ``reason_params``) for a client to word it in its
    player's language (see :mod:`cardtable.core.refusal`)."""
    if error.refusal is None:
        return {"move": move}
    return {
        "reason_key": error.refusal.key,
        "reason_params": dict(error.refusal.params),
        "move": move,
    }


@dataclasses.dataclass
class Seat:
    kind: str  # "human" or "bot"
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None

    @property
    def taken(self) -> bool:
        return self.token_hash is not None

    def record(self) -> JSON:
        return dataclasses.asdict(self)

    def public(self) -> JSON:
        return {"kind": self.kind, "bot": self.bot, "name": self.name, "taken": self.taken}

    @classmethod
    def from_record(cls, data: JSON) -> Seat:
        return cls(data["kind"], data.get("bot"), data.get("name"), data.get("token_hash"))


def seats_from_specs(game: str, specs: list[SeatSpec], old: list[Seat] | None = None) -> list[Seat]:
    """Seats as asked; human seats keep their player, a taken seat cannot become a bot."""
    seats = []
    for index, spec in enumerate(specs):
        previous = old[index] if old is not None and index < len(old) else None
        if spec.kind == "human":
            if spec.bot is not None:
                raise RoomError("bad_seats", f"seat {index}: a human seat has no bot")
            keep = previous is not None and previous.kind == "human"
            seats.append(previous if keep and previous is not None else Seat("human"))
        else:
            name = spec.bot or DEFAULT_BOT
            if not known_bot(game, name):
                raise RoomError("bad_seats", f"seat {index}: no bot {name!r} for {game}")
            if previous is not None and previous.taken:
                raise RoomError("seat_taken", f"seat {index} is taken by {previous.name}")
            seats.append(Seat("bot", bot=name))
    if old is not None:
        for index in range(len(specs), len(old)):
            if old[index].taken:
                raise RoomError("seat_taken", f"seat {index} is taken by {old[index].name}")
    return seats


class Room:
    """One table. Create with :meth:`Table.create_room` or restore with :meth:`restore`."""

    def __init__(self, table: Table, record: RoomRecord, game: Game[Any], rules: RulesBase) -> None:
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
        self.last_active = time.monotonic()
        self.state: GameState[Any] | None = None
        self.events: list[EventRecord] = []
        #: The version just before the first event in ``events`` (catch-up starts there).
        self.log_start = record.version
        self.connections: set[Connection] = set()
        self.away: set[int] = set()
        self.lock = asyncio.Lock()
        self._grace: dict[int, asyncio.Task[None]] = {}
        self._bot_task: asyncio.Task[None] | None = None
        self._hinting = False
        self._reviewing = False
        #: Reviews already worked out, by (game number, seat): asking again costs nothing.
        self._reviews: dict[tuple[int, int], JSON] = {}
        self.closed = False

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
        """Nobody is connected after a restart: human seats get their grace period."""
        if self.status == PLAYING:
            for seat, info in enumerate(self.seats):
                if info.kind == "human":
                    self._start_grace(seat)
            self._schedule_bots()

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
        )

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
        }

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
        }

    def catch_up(self, last_version: int | None, seat: int | None) -> list[JSON]:
        """Exactly the events after ``last_version`` for ``seat``, or a full sync."""
        if last_version == self.version:
            return []
        if last_version is None or not self.log_start <= last_version < self.version:
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
            if seat.kind == "human" and token_matches(token, seat.token_hash):
                return index
        return None

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
            if seat is not None:
                task = self._grace.pop(seat, None)
                if task is not None:
                    task.cancel()
                self.away.discard(seat)
            self._broadcast_raw(self.presence())

    async def detach(self, conn: Connection) -> None:
        async with self.lock:
            self.connections.discard(conn)
            self.touch()
            seat = conn.seat
            if seat is not None and seat not in self.connected_seats() and self.status == PLAYING:
                self._start_grace(seat)
            self._broadcast_raw(self.presence())

    def _start_grace(self, seat: int) -> None:
        old = self._grace.pop(seat, None)
        if old is not None:
            old.cancel()
        self._grace[seat] = asyncio.create_task(self._grace_then_bot(seat))

    async def _grace_then_bot(self, seat: int) -> None:
        await asyncio.sleep(self.table.config.grace_seconds)
        async with self.lock:
            self._grace.pop(seat, None)
            if self.status != PLAYING or seat in self.connected_seats() or self.closed:
                return
            self.away.add(seat)
            log.info("room %s: seat %d away, a bot plays it", self.code, seat)
            self._broadcast_raw(self.presence())
            self._schedule_bots()

    def touch(self) -> None:
        self.last_active = time.monotonic()

    # --- broadcasting --------------------------------------------------------------------
    def _broadcast_raw(self, data: JSON) -> None:
        text = dumps(data)
        for conn in self.connections:
            conn.push(text)

    def _broadcast(self, record: EventRecord) -> None:
        cache: dict[int | None, str] = {}
        for conn in self.connections:
            seat = conn.seat
            text = cache.get(seat)
            if text is None:
                view = None
                if record.position is not None and self.state is not None:
                    view = self.state.view(seat)
                text = cache[seat] = dumps(render(record, self.game_no, view))
            conn.push(text)

    async def _commit_room_event(self) -> None:
        """Save the room row with a new version and broadcast the new summary."""
        self.version += 1
        await self.table.storage.update_room(
            self.code,
            rules=self.rules.to_json(),
            seats=[seat.record() for seat in self.seats],
            status=self.status,
            game_no=self.game_no,
            seed=self.seed,
            version=self.version,
            start_version=self.start_version,
        )
        record = EventRecord(self.version, ROOM, None, self.summary())
        self.events.append(record)
        self._broadcast(record)

    # --- lobby -------------------------------------------------------------------------
    def check_host(self, host_token: str) -> None:
        if not token_matches(host_token, self.host_hash):
            raise RoomError("not_host", "only the room's host may do that")

    async def join(self, raw_name: str, wanted: int | None) -> tuple[int, str]:
        """Take a free human seat with a display name; returns the seat and its token."""
        try:
            name = clean_name(raw_name)
        except DisplayNameError as error:
            raise RoomError("bad_name", str(error)) from None
        async with self.lock:
            if self.status != LOBBY:
                raise RoomError("not_in_lobby", "the game has started; seats are fixed")
            free = [
                i for i, seat in enumerate(self.seats) if seat.kind == "human" and not seat.taken
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
            self.seats[seat_index] = Seat("human", None, name, hash_token(token))
            try:
                await self._commit_room_event()
            except Exception:
                self.seats[seat_index] = Seat("human")
                self.version -= 1
                raise
            self.touch()
            return seat_index, token

    async def configure(
        self, host_token: str, options: dict[str, Any] | None, specs: list[SeatSpec] | None
    ) -> None:
        self.check_host(host_token)
        async with self.lock:
            if self.status != LOBBY:
                raise RoomError("not_in_lobby", "options and seats are fixed once the game starts")
            rules = self.rules
            if options is not None:
                try:
                    rules = self.game.rules_from_json({**self.rules.to_json(), **options})
                except OptionError as error:
                    raise option_refused(error) from None
                except TypeError as error:
                    raise RoomError("bad_options", str(error)) from None
            players = int(getattr(rules, "players", len(self.seats)))
            if specs is None:
                specs = [
                    SeatSpec(kind="human" if seat.kind == "human" else "bot", bot=seat.bot)
                    for seat in self.seats[:players]
                ]
                specs += [SeatSpec(kind="human")] * (players - len(specs))
            if len(specs) != players:
                raise RoomError("bad_seats", f"the rules have {players} seats, not {len(specs)}")
            seats = seats_from_specs(self.game.name, specs, self.seats)
            old = (self.rules, self.seats)
            self.rules, self.seats = rules, seats
            try:
                await self._commit_room_event()
            except Exception:
                self.rules, self.seats = old
                self.version -= 1
                raise

    async def start(self, host_token: str) -> None:
        self.check_host(host_token)
        async with self.lock:
            if self.status != LOBBY:
                raise RoomError("not_in_lobby", "the game has already started")
            waiting = [
                i for i, seat in enumerate(self.seats) if seat.kind == "human" and not seat.taken
            ]
            if waiting:
                raise RoomError("seats_free", f"seats {waiting} are waiting for players")
            seed = new_seed()
            state = self.game.new_state(self.rules, seed)
            self.version += 1
            self.seed, self.status, self.start_version = seed, PLAYING, self.version
            try:
                await self.table.storage.start_game(
                    self.record(), [seat.public() for seat in self.seats]
                )
            except Exception:
                self.version -= 1
                self.seed, self.status, self.start_version = None, LOBBY, None
                raise
            self.state = state
            event = EventRecord(self.version, START, 0, {})
            self.events.append(event)
            self._broadcast(event)
            self.touch()
            self._schedule_bots()

    async def rematch(self, host_token: str) -> None:
        self.check_host(host_token)
        async with self.lock:
            if self.status != FINISHED:
                raise RoomError("not_finished", "a rematch is offered once the game is over")
            saved = (self.status, self.game_no, self.seed, self.start_version, self.state)
            self.status, self.game_no, self.seed, self.start_version = (
                LOBBY,
                self.game_no + 1,
                None,
                None,
            )
            self.state = None
            self._reviews.clear()
            events, log_start = self.events, self.log_start
            self.events, self.log_start = [], self.version
            try:
                await self._commit_room_event()
            except Exception:
                self.status, self.game_no, self.seed, self.start_version, self.state = saved
                self.events, self.log_start = events, log_start
                self.version -= 1
                raise
            self.away.clear()
            for task in self._grace.values():
                task.cancel()
            self._grace.clear()
            self.touch()

    # --- moves ---------------------------------------------------------------------------
    async def play(
        self, seat: int, token: str, version: int, action: int | None, move: object | None
    ) -> None:
        """A human's move, checked for token, turn and version, then by the engine."""
        if not token_matches(token, self.seats[seat].token_hash):
            raise RoomError("bad_token", f"this token does not hold seat {seat}")
        if (action is None) == (move is None):
            raise RoomError("bad_message", "a move message has either 'action' or 'move'")
        async with self.lock:
            if self.state is None or self.status != PLAYING:
                raise RoomError("not_playing", "no game is being played")
            if version != self.version:
                raise RoomError(
                    "stale_version", f"the room is at version {self.version}, not {version}"
                )
            current = self.state.current_player
            if current != seat:
                raise RoomError("not_your_turn", f"it is seat {current}'s turn")
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
            await self._commit_move(seat, action)

    async def _commit_move(self, seat: int, action: int) -> None:
        """Apply on a copy, commit, then publish. Caller holds the lock."""
        assert self.state is not None and self.seed is not None
        state = self.state.clone()
        try:
            outcome = state.apply_action(action)
        except IllegalMoveError as error:
            move = self.game.decode(action).to_json()
            raise RoomError("illegal_move", error.reason, refusal_fields(error, move)) from None
        result = state.result()
        version = self.version + 1
        await self.table.storage.record_move(
            self.code,
            self.game_no,
            len(self.state.history),
            seat,
            action,
            version,
            None if result is None else result.to_json(),
        )
        self.state, self.version = state, version
        if result is not None:
            self.status = FINISHED
        record = EventRecord(version, MOVE, len(state.history), outcome.to_json())
        self.events.append(record)
        self._broadcast(record)
        self.touch()
        self._schedule_bots()

    # --- hints ---------------------------------------------------------------------------
    async def hint(self, seat: int, token: str, version: int) -> JSON:
        """The move advisor's best moves for the seat to move, from what that seat sees.

        The advisor is given a determinization for ``seat`` (every card the seat
        cannot see re-dealt at random), never the real state: it plays moves on the
        state it gets, and a move played on the real one could reveal a hidden card.
        One hint at a time per room, in the bot threads, with a small time budget.
        """
        if not token_matches(token, self.seats[seat].token_hash):
            raise RoomError("bad_token", f"this token does not hold seat {seat}")
        async with self.lock:
            if self.state is None or self.status != PLAYING:
                raise RoomError("not_playing", "no game is being played")
            if version != self.version:
                raise RoomError(
                    "stale_version", f"the room is at version {self.version}, not {version}"
                )
            if self.state.current_player != seat:
                raise RoomError("not_your_turn", f"it is seat {self.state.current_player}'s turn")
            if self._hinting:
                raise RoomError("hint_busy", "a hint is being computed; try again in a moment")
            world = self.state.determinize(seat, Rng(new_seed()))
            self._hinting = True
        try:
            advice = await self.table.bots.advise(
                world, seat, self.table.config.hint_milliseconds, new_seed()
            )
        except Exception:
            log.exception("room %s: the move advisor failed", self.code)
            raise RoomError("no_hint", "the move advisor could not answer") from None
        finally:
            self._hinting = False
        return {
            "type": "hint",
            "version": version,
            "measure": ADVICE_MEASURE.get(self.game.name),
            "moves": [
                {
                    "action": item.action,
                    "move": self.game.decode(item.action).to_json(),
                    "value": item.value,
                    "reason": item.reason,
                    "reason_parts": [part.to_json() for part in item.reason_parts],
                }
                for item in advice[:HINT_MOVES]
            ],
        }

    # --- post-game review --------------------------------------------------------------
    async def review(self, seat: int, token: str) -> JSON:
        """The move advisor's review of ``seat``'s moves in the game just finished.

        Once the game is over, for the seat's own player only. The review replays the
        game and gives the advisor, at each decision of the seat, a re-deal of what the
        seat could not see (see :mod:`cardtable.bots.review`). It runs in the bot threads
        with a fixed number of re-deals and decisions, one at a time per room and at
        most ``review_workers`` on the server; the answer is kept for the next asker.
        """
        if not token_matches(token, self.seats[seat].token_hash):
            raise RoomError("bad_token", f"this token does not hold seat {seat}")
        config = self.table.config
        async with self.lock:
            if self.state is None or self.status != FINISHED or self.seed is None:
                raise RoomError("not_finished", "a review is offered once the game is over")
            key = (self.game_no, seat)
            done = self._reviews.get(key)
            if done is not None:
                return done
            if self._reviewing or self.table.reviews_running >= config.review_workers:
                raise RoomError("review_busy", "a review is being worked out; try again soon")
            rules, seed, actions = self.rules, self.seed, self.state.history[:]
            self._reviewing = True
            self.table.reviews_running += 1
        try:
            review = await self.table.bots.review(
                self.game,
                rules,
                seed,
                actions,
                seat,
                iterations=config.review_iterations,
                confirm=config.review_confirm,
                max_decisions=config.review_decisions,
                rng_seed=table_review_seed(seed, seat),
            )
        except Exception:
            log.exception("room %s: the review failed", self.code)
            raise RoomError("no_review", "the move advisor could not review this game") from None
        finally:
            self._reviewing = False
            self.table.reviews_running -= 1
        message = review_message(self.game, review, key[0])
        if self.game_no == key[0]:
            self._reviews[key] = message
        return message

    # --- bots ----------------------------------------------------------------------------
    def bot_for(self, seat: int) -> str | None:
        """The bot playing ``seat`` now: a bot seat's own, or the stand-in for an away human."""
        info = self.seats[seat]
        if info.kind == "bot":
            return info.bot or DEFAULT_BOT
        if seat in self.away:
            return self.table.config.away_bot
        return None

    def _schedule_bots(self) -> None:
        """Start the bot loop if a bot is to move (caller holds the lock)."""
        if self._bot_task is not None or self.closed:
            return
        if self.status != PLAYING or self.state is None:
            return
        seat = self.state.current_player
        if seat is None or self.bot_for(seat) is None:
            return
        self._bot_task = asyncio.create_task(self._bot_loop())

    async def _bot_loop(self) -> None:
        pool = self.table.bots
        while True:
            await asyncio.sleep(self.table.config.bot_pause)
            async with self.lock:
                state = self.state
                seat = None if state is None else state.current_player
                name = None if seat is None else self.bot_for(seat)
                if state is None or seat is None or name is None or self.closed:
                    self._bot_task = None
                    return
                if self.status != PLAYING:
                    self._bot_task = None
                    return
                snapshot, version, seed = state.clone(), self.version, self.seed
            assert seed is not None
            action = await pool.choose(self.game.name, name, snapshot, seed)
            async with self.lock:
                if self.version != version or self.bot_for(seat) is None or self.closed:
                    continue
                try:
                    await self._commit_move(seat, action)
                except Exception:
                    log.exception("room %s: bot move failed", self.code)
                    await asyncio.sleep(1.0)

    # --- end -----------------------------------------------------------------------------
    async def close(self) -> None:
        """Stop timers and the bot loop; close every connection (server stop or expiry)."""
        self.closed = True
        tasks = [*self._grace.values()]
        if self._bot_task is not None:
            tasks.append(self._bot_task)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._grace.clear()
        self._bot_task = None
