"""What every HTTP route of the server shares: a refusal (:class:`ApiError`) as a JSON
answer with its status and ``Retry-After`` (the app's one exception handler, whichever
route raised it), the client's address and a ``?limit=`` query parameter (a body is
read by :mod:`cardtable.server.edges.bodies`).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.websockets import WebSocket

from ..errors import ApiError
from ..storage.tables import CLIENT_LENGTH


def answer(error: ApiError) -> JSONResponse:
    """A refusal as its JSON answer: its status, its body and its ``Retry-After``."""
    retry = error.retry_after
    return JSONResponse(
        error.body(),
        status_code=error.status,
        headers=None if retry is None else {"Retry-After": str(retry)},
    )


async def refused(request: Request, error: Exception) -> Response:
    """The app's exception handler of :class:`ApiError`: whatever route raised it, the
    client gets :func:`answer`."""
    if not isinstance(error, ApiError):  # registered for ApiError only
        raise error
    return answer(error)


def client_address(request: Request | WebSocket) -> str:
    """The client's address, cut to the ``rooms.client`` column (a forwarded address
    comes from a header: PostgreSQL, unlike SQLite, refuses a longer string)."""
    host = request.client.host if request.client is not None else "unknown"
    return host[:CLIENT_LENGTH]


#: The largest whole number a path or query parameter may hold: a database INTEGER's
#: (32 bits on PostgreSQL; a larger one overflows SQLite's 64 bits or PostgreSQL's 32).
MAX_NUMBER = 2**31 - 1


def ascii_number(raw: str | None, maximum: int = MAX_NUMBER) -> int | None:
    """``raw`` as a whole number from 0 to ``maximum`` written in ASCII digits, else None.

    ``str.isdigit`` alone takes other digits (``'²'.isdigit()``, Arabic-Indic digits)
    that ``int`` refuses or reads in another script: only ``0``-``9`` are digits here."""
    if raw is None or not (raw.isascii() and raw.isdigit()) or len(raw) > len(str(maximum)):
        return None
    value = int(raw)
    return value if value <= maximum else None


def query_limit(raw: str | None, default: int, maximum: int) -> int | None:
    """A ``?limit=`` query parameter: ``default`` when absent, None (refuse it) unless a
    whole number from 1 to ``maximum`` in ASCII digits."""
    if raw is None:
        return default
    value = ascii_number(raw, maximum)
    return value if value is not None and value >= 1 else None
