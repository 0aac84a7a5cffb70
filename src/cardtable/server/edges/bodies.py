"""What a client sends: the strict model every request body and protocol message is read
into, and the reader of a request's body, which refuses one over the limit while it
arrives (never holding more than the limit in memory).
"""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError
from starlette.requests import Request

from ..errors import ApiError

#: A ``Content-Length`` this long in digits is over any limit (and ``int`` is never asked
#: to read a number of thousands of digits).
MAX_LENGTH_DIGITS = 18


class StrictModel(BaseModel):
    """What a client sends, read strictly: an unknown field, a wrong type (no coercion:
    ``"1"`` is not ``1``) or a value out of range is refused before anything reads it,
    and what is read cannot change afterwards."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


Body = TypeVar("Body", bound=StrictModel)


def describe(error: ValidationError) -> str:
    """A short readable summary of a validation error that never echoes the input."""
    parts = []
    for item in error.errors(include_input=False, include_url=False)[:3]:
        where = ".".join(str(part) for part in item["loc"]) or "message"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)[:300]


def _too_large(limit: int) -> ApiError:
    return ApiError("payload_too_large", f"a request body holds at most {limit} bytes")


async def read_body(request: Request, model: type[Body], limit: int) -> Body:
    """The request's JSON body as ``model`` (an empty body is ``{}``): ``bad_request``
    naming what is wrong, or ``payload_too_large`` for a body over ``limit`` bytes, told
    by its ``Content-Length`` before a byte is read, else (a chunked body) as soon as the
    chunks received pass the limit; the rest is never read."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and (len(declared) > MAX_LENGTH_DIGITS or int(declared) > limit):
        raise _too_large(limit)
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limit:
            raise _too_large(limit)
    try:
        return model.model_validate_json(raw or b"{}")
    except ValidationError as error:
        raise ApiError("bad_request", describe(error)) from None
