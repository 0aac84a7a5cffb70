"""Refused requests: the :class:`ApiError` every refusal of the server raises (a route's,
a room's, an account's), its HTTP status and ``Retry-After``, and how an engine's refusal
(a bad option, an illegal move) becomes one.

A refusal is raised where it is decided and answered in one place: over HTTP by the
app's exception handler (:func:`cardtable.server.edges.http.refused`), over the
WebSocket as an ``error`` message (:mod:`cardtable.server.rooms.websocket`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from ..core import JSON, IllegalMoveError, OptionError

#: The HTTP status of each refusal that is not a plain 400 (Bad Request).
STATUS: Mapping[str, int] = {
    "bad_credentials": 401,
    "not_signed_in": 401,
    "not_host": 403,
    "bad_csrf": 403,
    "bad_origin": 403,
    "no_room": 404,
    "no_game": 404,
    "no_step": 404,
    "no_ladder": 404,
    "no_player": 404,
    "method_not_allowed": 405,
    "second_seat": 409,
    "name_taken": 409,
    "payload_too_large": 413,
    "bad_content_type": 415,
    "too_many_rooms": 429,
    "too_many_seats": 429,
    "seat_not_taken": 409,
    "too_many_lookups": 429,
    "too_many_attempts": 429,
    "too_many_requests": 429,
    "room_elsewhere": 503,
    "draining": 503,
}

#: Refusals that always mean "in a moment": seconds for ``Retry-After`` (the header only:
#: their bodies have never said it).
RETRY_SOON: Mapping[str, int] = {"room_elsewhere": 1, "draining": 1}


class ApiError(Exception):
    """A refused request: ``code`` for programs, ``reason`` for people, and ``fields``:
    facts for programs added to the error reply (``field`` and ``allowed`` of a bad
    option, ``retry_after``).

    The code carries the HTTP status (:data:`STATUS`, else 400); ``status`` overrides it
    only where one code means two things (an unknown game is a bad room request but a
    lesson that does not exist). ``retry_after``: seconds the client waits before trying
    again, sent as ``Retry-After`` and in the body; :data:`RETRY_SOON` codes carry a
    second in the header without it."""

    def __init__(
        self,
        code: str,
        reason: str,
        fields: JSON | None = None,
        *,
        status: int | None = None,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.fields: JSON = dict(fields or {})
        if retry_after is not None:
            self.fields["retry_after"] = retry_after
        self.status = status or STATUS.get(code, 400)
        self.retry_after = RETRY_SOON.get(code) if retry_after is None else retry_after

    def body(self) -> JSON:
        """The JSON answer over HTTP: the fields, the code (``error``) and the reason."""
        return {**self.fields, "error": self.code, "reason": self.reason}


class RoomError(ApiError):
    """A refusal of a room operation (a seat, a move, the host's settings), raised by the
    room and its parts; a caller that tries the next room catches these only."""


def too_many(code: str, what: str, wait: float) -> ApiError:
    """A limit's refusal (``too_many_requests``, ``too_many_lookups``...): ``what`` was
    asked too often; the client may ask again in ``wait`` seconds (at least one, whole)."""
    seconds = max(1, math.ceil(wait))
    return ApiError(code, f"{what}; try again in {seconds} s", retry_after=seconds)


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
