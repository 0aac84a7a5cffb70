"""What every HTTP route of the server shares: the refusal as a JSON answer (with its
status and ``Retry-After``), the client's address, a request body read into its model,
and a ``?limit=`` query parameter.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.websockets import WebSocket

from ...core import JSON
from ..errors import RoomError
from ..storage.tables import CLIENT_LENGTH

HTTP_STATUS = {
    "no_room": 404,
    "no_game": 404,
    "too_many_rooms": 429,
    "second_seat": 409,
    "not_host": 403,
    "payload_too_large": 413,
    "room_elsewhere": 503,
    "draining": 503,
    "too_many_lookups": 429,
    "too_many_attempts": 429,
    "too_many_requests": 429,
    "no_ladder": 404,
    "no_player": 404,
    "bad_credentials": 401,
    "not_signed_in": 401,
    "bad_csrf": 403,
    "name_taken": 409,
}

#: Refusals a client should retry after a moment (``Retry-After``: seconds).
RETRY_AFTER = {"room_elsewhere": "1", "draining": "1"}


def error_response(
    code: str, reason: str, status: int | None = None, fields: JSON | None = None
) -> JSONResponse:
    retry = RETRY_AFTER.get(code)
    if fields and "retry_after" in fields:
        retry = str(fields["retry_after"])
    return JSONResponse(
        {**(fields or {}), "error": code, "reason": reason},
        status_code=status or HTTP_STATUS.get(code, 400),
        headers=None if retry is None else {"Retry-After": retry},
    )


def client_address(request: Request | WebSocket) -> str:
    """The client's address, cut to the ``rooms.client`` column (a forwarded address
    comes from a header: PostgreSQL, unlike SQLite, refuses a longer string)."""
    host = request.client.host if request.client is not None else "unknown"
    return host[:CLIENT_LENGTH]


def describe(error: ValidationError) -> str:
    """A short readable summary of a validation error that never echoes the input."""
    parts = []
    for item in error.errors(include_input=False, include_url=False)[:3]:
        where = ".".join(str(part) for part in item["loc"]) or "message"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)[:300]


async def read_body(request: Request, model: type[BaseModel], limit: int) -> Any:
    raw = await request.body()
    if len(raw) > limit:
        raise RoomError("payload_too_large", f"a request body holds at most {limit} bytes")
    try:
        return model.model_validate_json(raw or b"{}")
    except ValidationError as error:
        raise RoomError("bad_request", describe(error)) from None


def query_limit(raw: str | None, default: int, maximum: int) -> int | None:
    """A ``?limit=`` query parameter: ``default`` when absent, None (refuse it) unless a
    whole number from 1 to ``maximum``."""
    if raw is None:
        return default
    if not raw.isdigit() or len(raw) > 4:
        return None
    value = int(raw)
    return value if 1 <= value <= maximum else None
