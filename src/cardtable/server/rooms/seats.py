"""A room's seats (human or bot, taken or free) and the room's life stages."""

from __future__ import annotations

import dataclasses

from ...core import JSON
from ...statuses import RoomStatus, SeatKind
from ..errors import RoomError
from .bot_seats import known_bot
from .protocol import SeatSpec

#: The stages of a room: seats being filled, a game under way, the game over.
LOBBY = RoomStatus.LOBBY
PLAYING = RoomStatus.PLAYING
FINISHED = RoomStatus.FINISHED
DEFAULT_BOT = "greedy"


@dataclasses.dataclass
class Seat:
    kind: SeatKind
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
        kind = SeatKind(data["kind"])
        return cls(kind, data.get("bot"), data.get("name"), data.get("token_hash"))


def seats_from_specs(game: str, specs: list[SeatSpec], old: list[Seat] | None = None) -> list[Seat]:
    """Seats as asked; human seats keep their player, a taken seat cannot become a bot."""
    seats = []
    for index, spec in enumerate(specs):
        previous = old[index] if old is not None and index < len(old) else None
        if spec.kind == SeatKind.HUMAN:
            if spec.bot is not None:
                raise RoomError("bad_seats", f"seat {index}: a human seat has no bot")
            keep = previous is not None and previous.kind == SeatKind.HUMAN
            seats.append(previous if keep and previous is not None else Seat(SeatKind.HUMAN))
        else:
            name = spec.bot or DEFAULT_BOT
            if not known_bot(game, name):
                raise RoomError("bad_seats", f"seat {index}: no bot {name!r} for {game}")
            if previous is not None and previous.taken:
                raise RoomError("seat_taken", f"seat {index} is taken by {previous.name}")
            seats.append(Seat(SeatKind.BOT, bot=name))
    if old is not None:
        for index in range(len(specs), len(old)):
            if old[index].taken:
                raise RoomError("seat_taken", f"seat {index} is taken by {old[index].name}")
    return seats
