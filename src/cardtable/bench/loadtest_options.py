"""What a load test is asked to do (``cardtable loadtest``'s flags), and how long a move
may take to be answered."""

from __future__ import annotations

import dataclasses
from typing import Any

#: Seconds a move may wait for its broadcast before it counts as unanswered.
MOVE_TIMEOUT = 10.0


@dataclasses.dataclass(frozen=True)
class LoadOptions:
    url: str = "http://127.0.0.1:8000"
    rooms: int = 10
    seats: int = 4
    duration: float = 30.0
    rate: float = 1.0
    game: str = "skyjo"
    options: dict[str, Any] = dataclasses.field(default_factory=dict)
    server_pid: int | None = None
    compression: bool = True
    seed: int = 0
    #: Rooms of bots only (every seat ``bot``), started beside the human rooms.
    bot_rooms: int = 0
    bot: str = "expert"
