"""Table chat and quick reactions of one room.

Players write; spectators read, and write only while the host allows it (the
``spectator_chat`` table option). A line holds 1 to :data:`MAX_CHAT` characters
(longer messages are refused by the protocol's schema), normalized to NFC on one
line, without control or bidirectional-override characters; it is sent to every
client as text, and every client shows it as text (the page with ``textContent``, the
terminal client with Rich's markup escaped).

The chat is table talk, not a record: it is kept in memory with the room, the last
:data:`HISTORY` lines, which a client gets when it connects (``chat_history``), so a
reconnecting player or a new spectator sees the recent talk. It is never written to
the database, so a server restart or a hand-over to another node starts it empty.

Each writer has token buckets of its own, on top of the connection's rate limit: a
seat (across its reconnections) or a spectator's connection. A line or a reaction
over its bucket is refused with ``chat_rate_limited``; the connection stays open.
"""

from __future__ import annotations

import collections
import time
import unicodedata
from typing import TYPE_CHECKING

from ...core import JSON
from ..errors import RoomError
from ..ops.limits import RateLimiter
from .parts import RoomServices
from .protocol import MAX_CHAT

if TYPE_CHECKING:
    from .connections import Connection

#: Chat lines kept per room and sent to a client that connects.
HISTORY = 50
#: The quick reactions: name and the emoji it stands for (the page draws its own icon).
REACTIONS = {"thumbs_up": "👍", "clap": "👏", "wow": "😮", "phew": "😅", "party": "🎉"}
#: Chat lines: a burst of this many, then one per this many seconds.
CHAT_BURST = 5
CHAT_EVERY = 2.0
#: Reactions: a burst of this many, then one per this many seconds.
REACTION_BURST = 5
REACTION_EVERY = 1.0

#: Characters that would reorder or hide the text around them (bidirectional controls).
_BIDI = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean_text(raw: str) -> str:
    """``raw`` as a chat line (NFC, whitespace collapsed, no control or bidirectional
    control character), or raise ``chat_empty`` when nothing is left."""
    text = unicodedata.normalize("NFC", raw)
    kept = "".join(
        " " if char.isspace() else char
        for char in text
        if char not in _BIDI and (char.isspace() or unicodedata.category(char) != "Cc")
    )
    line = " ".join(kept.split())
    if not line:
        raise RoomError("chat_empty", "a chat line needs some text")
    if len(line) > MAX_CHAT:  # NFC may compose fewer characters, but never allow more
        raise RoomError("bad_message", f"text: at most {MAX_CHAT} characters")
    return line


class TableChat:
    """The chat history, the spectators' numbers and the writers' rate limits."""

    def __init__(self, room: RoomServices) -> None:
        self.room = room
        self.history: collections.deque[JSON] = collections.deque(maxlen=HISTORY)
        self.next_id = 1
        #: Spectators' connections, numbered in order of arrival ("spectator 2").
        self._spectators: dict[Connection, int] = {}
        self._next_spectator = 1
        self._limits: dict[tuple[str, object], RateLimiter] = {}

    def _author(self, conn: Connection) -> JSON:
        if conn.seat is not None:
            return {"seat": conn.seat, "name": self.room.seats[conn.seat].name, "spectator": None}
        number = self._spectators.get(conn)
        if number is None:
            number = self._spectators[conn] = self._next_spectator
            self._next_spectator += 1
        return {"seat": None, "name": None, "spectator": number}

    def _check(self, conn: Connection, what: str, burst: int, every: float) -> None:
        if conn.seat is None and not self.room.table_options.spectator_chat:
            raise RoomError(
                "chat_not_allowed", "spectators may read the chat; the host has not let them write"
            )
        key = ("seat", conn.seat) if conn.seat is not None else ("conn", conn)
        limiter = self._limits.get((what, key))
        if limiter is None:
            limiter = self._limits[(what, key)] = RateLimiter(
                1.0 / every, burst, self.room.table.clock
            )
        if not limiter.allow():
            self.room.table.metrics.chat_refused += 1
            raise RoomError(
                "chat_rate_limited",
                f"at most {burst} {what} lines at once, then one every {every:g} s",
            )

    def say(self, conn: Connection, raw: str) -> None:
        """A chat line from ``conn``: checked, kept and sent to everyone in the room."""
        text = clean_text(raw)
        self._check(conn, "chat", CHAT_BURST, CHAT_EVERY)
        line: JSON = {
            "type": "chat",
            "id": self.next_id,
            **self._author(conn),
            "text": text,
            "at": round(time.time(), 3),
        }
        self.next_id += 1
        self.history.append(line)
        self.room.broadcast_raw(line)

    def react(self, conn: Connection, reaction: str) -> None:
        """A quick reaction from ``conn``, sent to everyone (not kept)."""
        if reaction not in REACTIONS:
            raise RoomError("bad_message", f"no reaction {reaction[:40]!r}")
        self._check(conn, "reaction", REACTION_BURST, REACTION_EVERY)
        self.room.broadcast_raw({"type": "reaction", **self._author(conn), "reaction": reaction})

    def history_message(self) -> JSON:
        return {"type": "chat_history", "messages": list(self.history)}

    def forget(self, conn: Connection) -> None:
        """A connection closed: a spectator's number and buckets go (a seat's stay)."""
        self._spectators.pop(conn, None)
        for key in [key for key in self._limits if key[1] == ("conn", conn)]:
            del self._limits[key]
