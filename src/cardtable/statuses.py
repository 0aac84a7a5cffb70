"""The words of the table protocol that name a state: a room's status, a seat's kind.

They travel as plain strings in JSON (docs/protocol.md); these ``StrEnum`` members
compare equal to those strings, so a client compares a received ``"lobby"`` with
``RoomStatus.LOBBY`` and a typo is a name error instead of a comparison that is never
true. The server and every client share this one module.
"""

from __future__ import annotations

from enum import StrEnum


class RoomStatus(StrEnum):
    """Where a room is: choosing options, playing a game, or after its last game."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"


class SeatKind(StrEnum):
    """Who sits in a seat: a person or a bot."""

    HUMAN = "human"
    BOT = "bot"
