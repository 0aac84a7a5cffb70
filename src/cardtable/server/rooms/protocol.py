"""The messages of the protocol, validated by pydantic (see docs/protocol.md).

Client messages are strict: unknown fields, wrong types and out-of-range numbers are
refused with a ``bad_message`` error before anything else reads them. Server messages
are plain JSON built by the helpers at the bottom.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter, ValidationError

from ...core import JSON
from ...statuses import SeatKind
from ..edges.bodies import StrictModel, describe
from ..errors import ApiError

MAX_VERSION = 2**53
MAX_ACTION = 2**31
Token = Annotated[str, Field(min_length=1, max_length=200)]
Version = Annotated[int, Field(ge=0, le=MAX_VERSION)]
#: Longest table chat line, in characters.
MAX_CHAT = 200


class Hello(StrictModel):
    """First message of every connection: who is connecting and what they last saw."""

    type: Literal["hello"]
    token: Token | None = None
    last_version: Version | None = None


class MoveMessage(StrictModel):
    """A move for the connection's seat: an action code or a move in the engine's JSON form."""

    type: Literal["move"]
    token: Token
    version: Version
    action: Annotated[int, Field(ge=0, lt=MAX_ACTION)] | None = None
    move: dict[str, Any] | None = None


class HintRequest(StrictModel):
    """The seat to move asks the move advisor; answered to this connection only."""

    type: Literal["hint"]
    token: Token
    version: Version


class TakeBack(StrictModel):
    """The coached player takes back their last move, which the coach called clearly
    worse (see :mod:`cardtable.server.rooms.coach`); ``version`` is the room's version just
    after that move."""

    type: Literal["take_back"]
    token: Token
    version: Version


class KeepMove(StrictModel):
    """The coached player keeps the move the coach spoke of: the bots play on."""

    type: Literal["keep_move"]
    token: Token
    version: Version


class ReviewRequest(StrictModel):
    """A seated player asks, once the game is over, for the move advisor's review of
    their own moves; answered to this connection only."""

    type: Literal["review"]
    token: Token


class SeatSpec(StrictModel):
    kind: SeatKind
    bot: Annotated[str, Field(min_length=1, max_length=40)] | None = None


class Configure(StrictModel):
    """Host only, before the start: change rules options and/or the seats."""

    type: Literal["configure"]
    host_token: Token
    options: dict[str, Any] | None = None
    seats: Annotated[list[SeatSpec], Field(min_length=1, max_length=16)] | None = None


class Start(StrictModel):
    type: Literal["start"]
    host_token: Token


class RemoveSeat(StrictModel):
    """Host only, before the start: free a seat a waiting player took."""

    type: Literal["remove"]
    host_token: Token
    seat: Annotated[int, Field(ge=0, le=15)]


class Rematch(StrictModel):
    """Host only, after the end: back to the lobby with the same seats for a new game."""

    type: Literal["rematch"]
    host_token: Token


class Resync(StrictModel):
    """Ask for the events after ``last_version`` (or a full sync)."""

    type: Literal["resync"]
    last_version: Version | None = None


class Ping(StrictModel):
    type: Literal["ping"]


class ChatMessage(StrictModel):
    """A line in the table chat from this connection's seat (or a spectator, if allowed)."""

    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT)]


class ReactionMessage(StrictModel):
    """A quick reaction, one of a fixed set (see :data:`cardtable.server.rooms.chat.REACTIONS`)."""

    type: Literal["reaction"]
    reaction: Literal["thumbs_up", "clap", "wow", "phew", "party"]


class TableSettings(StrictModel):
    """Host only, at any time: change table options (turn time limit, spectator chat)."""

    type: Literal["table"]
    host_token: Token
    options: Annotated[dict[str, Any], Field(min_length=1, max_length=8)]


class CreateRoom(StrictModel):
    """Body of ``POST /api/rooms``."""

    game: Literal["skipbo", "skyjo"]
    options: dict[str, Any] = Field(default_factory=dict)
    seats: Annotated[list[SeatSpec], Field(min_length=1, max_length=16)] | None = None
    name: Annotated[str, Field(max_length=100)] | None = None
    #: Table options (see :mod:`cardtable.server.rooms.table_options`), not rules.
    table: Annotated[dict[str, Any], Field(max_length=8)] | None = None
    #: Start the game at once: the creator takes the only human seat, the rest are bots
    #: (a lesson's first real game lands at a running table, not in the lobby).
    start: bool = False


class JoinRoom(StrictModel):
    """Body of ``POST /api/rooms/{code}/join``."""

    name: Annotated[str, Field(max_length=100)]
    seat: Annotated[int, Field(ge=0, le=15)] | None = None


class QuickMatch(StrictModel):
    """Body of ``POST /api/quickmatch``."""

    game: Literal["skipbo", "skyjo"]
    name: Annotated[str, Field(max_length=100)]
    players: Annotated[int, Field(ge=2, le=8)] = 2


class ProtocolError(ApiError):
    """A message that is not valid (malformed, or not expected now); its ``code`` and
    ``reason`` go into the error reply like any refusal's."""


#: Every message a client may send; ``type`` tells which.
AnyClientMessage = (
    Hello
    | MoveMessage
    | HintRequest
    | TakeBack
    | KeepMove
    | ReviewRequest
    | Configure
    | Start
    | RemoveSeat
    | Rematch
    | Resync
    | Ping
    | ChatMessage
    | ReactionMessage
    | TableSettings
)
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
_CLIENT_MESSAGE: TypeAdapter[Any] = TypeAdapter(ClientMessage)


def parse_client_message(text: str) -> AnyClientMessage:
    try:
        message: AnyClientMessage = _CLIENT_MESSAGE.validate_json(text)
    except ValidationError as error:
        raise ProtocolError("bad_message", describe(error)) from None
    except ValueError as error:  # e.g. recursion limit while parsing
        raise ProtocolError("bad_message", "not a valid JSON message") from error
    return message


# --- server messages -----------------------------------------------------------


def error_message(
    code: str, reason: str, version: int | None = None, fields: JSON | None = None
) -> JSON:
    """An ``error`` reply; ``fields`` adds facts for programs (never ``type``, ``code``,
    ``reason`` or ``version``), e.g. ``field`` and ``allowed`` of a refused option."""
    data: JSON = {**(fields or {}), "type": "error", "code": code, "reason": reason}
    if version is not None:
        data["version"] = version
    return data
