"""What a room's parts rely on: the room they belong to, and the table it belongs to.

A room (:class:`cardtable.server.rooms.room.Room`) is put together from parts with one job
each: the lobby (:mod:`.seating`), the bot turns (:mod:`.bot_turns`), the grace period
(:mod:`.grace`), the turn clock (:mod:`.turn_clock`), the chat (:mod:`.chat`), the
advisor (:mod:`.advice`) and the coach (:mod:`.coach`). Each part holds its room as
a :class:`RoomServices`, the interface ``Room`` provides, so that the parts import this
module and never :mod:`.room`, which imports them all. The room holds its table as a
:class:`TableServices` in the same way (:class:`cardtable.server.rooms.table.Table` provides it).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from ...core import JSON, Game, GameState, Outcome, RulesBase
from ..ops.config import ServerConfig
from ..ops.metrics import Metrics
from ..ratings.jobs import GameRater
from ..storage.records import RoomRecord
from ..storage.store import Storage
from .bot_seats import BotPool
from .events import EventRecord
from .seats import Seat
from .table_options import TableOptions


class TableServices(Protocol):
    """What a room and its parts use of the table: the node, the storage, the bot pool,
    the settings, the metrics, the clock and the rating of finished games."""

    @property
    def node_id(self) -> str: ...
    @property
    def storage(self) -> Storage: ...
    @property
    def bots(self) -> BotPool: ...
    @property
    def config(self) -> ServerConfig: ...
    @property
    def metrics(self) -> Metrics: ...
    @property
    def clock(self) -> Callable[[], float]: ...
    @property
    def rater(self) -> GameRater: ...

    #: Post-game reviews being worked out on the whole server (the advisor counts them).
    reviews_running: int


# What one part asks of another, through the room.
class TurnClockPart(Protocol):
    def update(self) -> None: ...
    def bot_for(self, seat: int) -> str | None: ...


class BotTurnsPart(Protocol):
    def schedule(self) -> None: ...


class GracePart(Protocol):
    def reset(self) -> None: ...


class AdvisorPart(Protocol):
    def forget(self) -> None: ...


class CoachPart(Protocol):
    def holds_bots(self) -> bool: ...


class RoomServices(Protocol):
    """What the parts of a room use of it (see the module)."""

    @property
    def table(self) -> TableServices: ...
    @property
    def code(self) -> str: ...
    @property
    def game(self) -> Game[Any]: ...
    @property
    def host_hash(self) -> str: ...
    @property
    def lock(self) -> asyncio.Lock: ...
    @property
    def closed(self) -> bool: ...
    @property
    def table_options(self) -> TableOptions: ...
    @property
    def away(self) -> set[int]: ...
    @property
    def clock(self) -> TurnClockPart: ...
    @property
    def bots(self) -> BotTurnsPart: ...
    @property
    def grace(self) -> GracePart: ...
    @property
    def advisor(self) -> AdvisorPart: ...
    @property
    def coach(self) -> CoachPart: ...
    @property
    def epoch(self) -> int: ...

    # The lobby changes these (and puts them back when a commit fails).
    rules: RulesBase
    seats: list[Seat]
    status: str
    game_no: int
    seed: int | None
    version: int
    start_version: int | None
    state: GameState[Any] | None
    events: list[EventRecord]
    log_start: int
    #: Seat -> the address that joined it while the room waits (memory only: the cap
    #: on the public seats one address holds, see :meth:`Table.public_seats_held`).
    joined_from: dict[int, str]
    #: Seat -> the account that claimed it, as last read (the expected verdict).
    claims: dict[int, int]
    #: The game in which a player asked for a hint (unrated).
    hinted_game: int | None

    def check_seat_token(self, seat: int, token: str) -> None: ...
    def turn_of(self, seat: int, version: int) -> GameState[Any]: ...
    def connected_seats(self) -> set[int]: ...
    def presence(self) -> JSON: ...
    def record(self) -> RoomRecord: ...
    def touch(self) -> None: ...
    def log_fields(self, **more: Any) -> dict[str, Any]: ...
    def broadcast_raw(self, data: JSON) -> None: ...
    def broadcast(self, record: EventRecord) -> None: ...
    def push_to_seat(self, seat: int, data: JSON) -> None: ...
    def unseat(self, seat: int, notice: JSON) -> None: ...
    def resync_all(self, notice: JSON) -> None: ...
    async def fenced(self, write: Awaitable[None]) -> None: ...
    async def commit_room_event(self) -> None: ...
    async def commit_move(self, seat: int, action: int, *, by: str) -> Outcome[Any]: ...
