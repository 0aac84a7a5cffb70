"""Table options: how the table is run, not the rules of the game.

The rules (``room.rules``) are the engine's and make a game reproducible from its seed and
move log. Table options change nothing in the game: ``turn_seconds`` is the time a seated
player has for each move before a bot plays the rest of their turn for them (see
:mod:`.turn_clock`), ``spectator_chat`` whether spectators may write in the table chat (see
:mod:`.chat`), ``public`` whether the room is listed in the public lobby (see
:mod:`cardtable.server.lobby.public`). A move played by a bot on time-out is an ordinary
move of the log, so a replay is the same with or without the limit. ``coach`` turns on the
practice coach (see :mod:`.coach`): for one person playing bots, set before the game starts;
a move it lets the player take back leaves the log, so the log is still the game's moves,
and a coached game is unrated.

The host sets them when creating the room, in the lobby and during a game (the
``table`` message, see docs/protocol.md); they are saved with the room's row.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ...core import JSON
from ..errors import RoomError

#: ``turn_seconds``: 0 is no limit, else this range (inclusive).
TURN_SECONDS_MIN = 10
TURN_SECONDS_MAX = 600


def _refused(field: str, reason: str, allowed: str, key: str, params: JSON) -> RoomError:
    return RoomError(
        "bad_table_options",
        reason,
        {"field": field, "allowed": allowed, "allowed_key": key, "allowed_params": params},
    )


@dataclasses.dataclass(frozen=True)
class TableOptions:
    #: Seconds for each move of a seated human; 0: no limit.
    turn_seconds: int = 0
    #: Whether spectators may write in the table chat (they may always read it).
    spectator_chat: bool = False
    #: Whether the room is listed in the public lobby (``GET /api/lobby``): while
    #: seats are free, to join; while its game is played, to watch.
    public: bool = False
    #: The practice coach (:mod:`.coach`): for one person playing bots; fixed once a
    #: game starts, since a coached game is unrated.
    coach: bool = False

    def to_json(self) -> JSON:
        return dataclasses.asdict(self)

    def changed(self, data: dict[str, Any]) -> TableOptions:
        """These options with the changes of ``data``, checked; raises ``bad_table_options``
        (naming the field and what it allows) and changes nothing when one is refused."""
        known = [field.name for field in dataclasses.fields(self)]
        values = self.to_json()
        for field, value in data.items():
            if field not in known:
                raise _refused(
                    field,
                    f"no table option {field[:40]!r}; the table options are {', '.join(known)}",
                    ", ".join(known),
                    "allowed.unknown",
                    {"known": ", ".join(known)},
                )
            if field == "turn_seconds":
                if (
                    isinstance(value, bool)
                    or not isinstance(value, int)
                    or (value != 0 and not TURN_SECONDS_MIN <= value <= TURN_SECONDS_MAX)
                ):
                    raise _refused(
                        field,
                        f"turn_seconds must be 0 (no limit) or a whole number of seconds from "
                        f"{TURN_SECONDS_MIN} to {TURN_SECONDS_MAX}",
                        f"0 or {TURN_SECONDS_MIN}-{TURN_SECONDS_MAX}",
                        "allowed.turn_seconds",
                        {"low": TURN_SECONDS_MIN, "high": TURN_SECONDS_MAX},
                    )
            elif not isinstance(value, bool):
                raise _refused(
                    field, f"{field} must be true or false", "true, false", "allowed.bool", {}
                )
            values[field] = value
        return TableOptions(**values)

    @classmethod
    def from_record(cls, data: JSON | None) -> TableOptions:
        """The options saved with a room (None: a room saved before table options)."""
        if not data:
            return cls()
        try:
            return cls().changed(dict(data))
        except RoomError:
            return cls()
