"""The database's rows as the rest of the server sees them, and the error of a write
that lost its room's lease."""

from __future__ import annotations

import dataclasses
from typing import Any

from ...core import JSON


@dataclasses.dataclass
class RoomRecord:
    """One row of ``rooms`` plus, when restoring, the moves of its current game."""

    code: str
    game: str
    rules: JSON
    seats: list[JSON]
    host_hash: str
    status: str
    game_no: int
    seed: int | None
    version: int
    start_version: int | None
    client: str
    created_at: float
    updated_at: float
    moves: list[tuple[int, int, int]] = dataclasses.field(default_factory=list)
    """(seat, action, version) of the current game, in order."""
    owner: str | None = None
    epoch: int = 0
    lease_until: float | None = None
    wanted_by: str | None = None
    #: Table options (see :mod:`cardtable.server.rooms.table_options`); None in rooms saved before.
    table_options: JSON | None = None
    #: Listed in the public lobby (the table option ``public``, a column for its index).
    public: bool = False

    def row(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        del data["moves"]
        return data


class FencedError(Exception):
    """A write for a room whose lease this node no longer holds: another node took the
    room over (a higher epoch), so this node must never write for it again."""

    def __init__(self, code: str) -> None:
        super().__init__(f"room {code}: the lease was taken over by another node")
        self.code = code


@dataclasses.dataclass(frozen=True)
class GameRecord:
    room_code: str
    game_no: int
    game: str
    rules: JSON
    seats: list[JSON]
    seed: int
    result: JSON | None
    started_at: float
    finished_at: float | None
    moves: list[tuple[int, int, int]]


@dataclasses.dataclass(frozen=True)
class UserRecord:
    """One row of ``users`` (see :mod:`cardtable.server.storage.accounts`)."""

    id: int
    name: str
    password_hash: str
    created_at: float
