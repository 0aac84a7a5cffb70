"""The checks every request passes before it reaches a route, and the headers of every
answer (docs/players.md, "Security model"):

- **Host.** The table answers only to the host names it was given (``--allowed-host``;
  ``localhost`` and the name it listens on by default) and to addresses: a page whose
  own name a DNS-rebinding attacker points at the table carries that name in ``Host``
  and is refused (HTTP 400 ``bad_host``; a WebSocket, 403 before the upgrade). An
  address is always answered: rebinding needs a name. ``/health`` and ``/metrics``
  answer to any name (monitors reach nodes by whatever name they have; they change
  nothing and tell nothing about a player).
- **Methods.** A method no route of the path takes (``PUT /api/rooms``, ``TRACE /``)
  is answered 405 ``method_not_allowed`` with ``Allow`` naming those it takes, before
  any other check of the body.
- **State changes** (every method but GET, HEAD and OPTIONS) must send a JSON body
  (``Content-Type: application/json``, else 415 ``bad_content_type``): a foreign page
  can send a "simple" cross-site POST (``text/plain``, a form) without asking, never a
  JSON one. And an ``Origin``, when a browser sends one, must be the table's own (or an
  ``--allow-origin``), else 403 ``bad_origin``.
- **Cookies.** A state change that carries the session cookie must come with the
  table's own ``Origin``, not merely none; the routes that act on the session also
  check its CSRF token (:mod:`cardtable.server.edges.sessions`). A request without Origin and
  without the cookie (the terminal client, scripts) carries no ambient authority: what
  it may do, it may do because of the tokens in its body.
- **Answers** get ``Cache-Control: no-store`` (unless the route chose otherwise: the
  web table's files) and the security headers (unless they are set already: the web
  table's own, with its page's CSP).
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable, Sequence
from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.routing import BaseRoute, Match, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import ApiError
from ..ops.config import ServerConfig
from ..ops.limits import origin_allowed
from .sessions import COOKIE_NAMES

#: The paths any host name may reach.
ANY_HOST = frozenset({"/health", "/metrics"})
#: Methods that change nothing.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

#: The headers of every answer that has not set them (the web table sets its own).
API_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    "Cache-Control": "no-store",
}


def host_name(host: str) -> str | None:
    """The name or address in a ``Host`` header (no port, no brackets, lower case)."""
    try:
        name = urlsplit(f"//{host}").hostname
    except ValueError:
        return None
    return None if name is None else name.rstrip(".")


def is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def host_allowed(host: str | None, allowed: Iterable[str]) -> bool:
    """Whether the table answers to ``host`` (a ``Host`` header; None: not sent)."""
    if host is None:
        return True  # HTTP/1.0 without Host: not a browser, nothing to rebind
    name = host_name(host)
    if name is None:
        return False
    if is_address(name):
        return True
    names = {host_name(entry) or entry for entry in allowed}
    return "*" in names or name in names


def own_origin(origin: str | None, host: str | None) -> bool:
    """Whether ``origin`` is the table's own (its host and port are the ``Host``)."""
    return origin is not None and origin_allowed(origin, host, ()) and origin != "null"


def allowed_methods(scope: Scope, routes: Sequence[BaseRoute]) -> list[str] | None:
    """The methods the routes of this request's path take when none takes its method
    (answer 405 with them), else None (a route takes it, or no route has the path)."""
    allowed: set[str] = set()
    for route in routes:
        match, _ = route.matches(scope)
        if match == Match.FULL:
            return None
        if match == Match.PARTIAL and isinstance(route, Route):
            allowed |= route.methods or set()
    return sorted(allowed) if allowed else None


def _guard_error(code: str, reason: str) -> tuple[int, bytes]:
    """A refusal before any route (so before the app's exception handler): its status
    and JSON body, as :func:`~cardtable.server.edges.http.answer` gives them."""
    refusal = ApiError(code, reason)
    return refusal.status, json.dumps(refusal.body()).encode()


def refusal(scope: Scope, config: ServerConfig) -> tuple[int, bytes] | None:
    """Why a request is refused before its route (status and JSON body), or None."""
    headers = Headers(scope=scope)
    host = headers.get("host")
    if scope["path"] not in ANY_HOST and not host_allowed(host, config.allowed_hosts):
        shown = (host or "")[:80]
        return _guard_error(
            "bad_host",
            f"this table does not answer to the host name {shown!r} (see --allowed-host)",
        )
    if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
        return None
    media = headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        return _guard_error("bad_content_type", "a request body is JSON (application/json)")
    origin = headers.get("origin")
    if _has_session_cookie(headers):
        if not own_origin(origin, host):
            return _guard_error("bad_origin", "a signed-in request must come from the table")
    elif origin is not None and not origin_allowed(origin, host, config.allowed_origins):
        return _guard_error("bad_origin", "requests from other sites are refused")
    if origin == "null":
        return _guard_error("bad_origin", "requests from other sites are refused")
    return None


def _has_session_cookie(headers: Headers) -> bool:
    cookies = headers.get("cookie", "")
    return any(f"{name}=" in cookies for name in COOKIE_NAMES)


class RequestGuard:
    """ASGI middleware: :func:`refusal` before the route, :data:`API_HEADERS` after."""

    def __init__(
        self, app: ASGIApp, config: ServerConfig, routes: Sequence[BaseRoute] = ()
    ) -> None:
        self.app = app
        self.config = config
        #: The app's routes, to answer a method none of them takes (405).
        self.routes = routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refused = refusal(scope, self.config)
        methods = None if scope["type"] != "http" else allowed_methods(scope, self.routes)
        if methods is not None and (refused is None or refused[0] != 400):
            shown = ", ".join(methods)
            status, body = _guard_error("method_not_allowed", f"this path takes {shown} only")
            await _send_json(send, status, body, {"Allow": shown})
            return
        if refused is not None:
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008, "reason": ""})
                return
            status, body = refused
            await _send_json(send, status, body)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in API_HEADERS.items():
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, with_headers)


async def _send_json(
    send: Send, status: int, body: bytes, extra: dict[str, str] | None = None
) -> None:
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *((name.lower().encode(), value.encode()) for name, value in API_HEADERS.items()),
        *((name.lower().encode(), value.encode()) for name, value in (extra or {}).items()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
