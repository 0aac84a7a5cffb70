"""The session cookie and its CSRF token (docs/players.md, "Cookies").

A session is a random 256-bit token in an HttpOnly, ``SameSite=Strict`` cookie; the
server keeps only its SHA-256 (``sessions.token_hash``). Over https (the table's link,
``X-Forwarded-Proto`` behind a proxy) the cookie is ``Secure`` and named with the
``__Host-`` prefix, so no other site under the same domain can set or shadow it.

The CSRF token is derived from the session's token (an HMAC of it), so it changes with
every session, needs nothing stored, and cannot be made without the cookie; the page
learns it from the answers of sign-in and ``GET /api/account`` (which a page of another
site cannot read) and sends it in ``X-CSRF-Token`` with every change it asks.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response

from ..storage.records import UserRecord

#: The cookie over http, and over https (``__Host-``: Secure, Path=/, no Domain).
COOKIE = "cardtable_session"
SECURE_COOKIE = "__Host-cardtable_session"
COOKIE_NAMES = (COOKIE, SECURE_COOKIE)
CSRF_HEADER = "X-CSRF-Token"
#: The longest cookie value read (a token is 43 characters).
MAX_TOKEN = 100
#: The cookie of a browser that signed in to an account before (docs/players.md, "Sign-in
#: limits"): a random token, kept a year, whose SHA-256 the server keeps with the
#: account. It opens nothing by itself; it only tells a sign-in from that browser apart
#: from a stranger's, whose failures then do not lock the owner out.
BROWSER_COOKIE = "cardtable_browser"
SECURE_BROWSER_COOKIE = "__Host-cardtable_browser"
BROWSER_SECONDS = 365 * 86400

#: Who a request's session cookie signs in: the account, or None (a guest). The one way
#: a route asks (the accounts' :meth:`~cardtable.server.players.accounts.AccountsApi.user`
#: is it, handed to every route that asks).
SignedIn = Callable[[Request], Awaitable[UserRecord | None]]


def new_session_token() -> str:
    return secrets.token_urlsafe(32)


def csrf_token(session_token: str) -> str:
    """The CSRF token of a session: an HMAC of its token."""
    key = session_token.encode("utf-8", "surrogatepass")
    return hmac.new(key, b"cardtable csrf", hashlib.sha256).hexdigest()


def csrf_matches(request: Request, session_token: str) -> bool:
    sent = request.headers.get(CSRF_HEADER, "")
    return hmac.compare_digest(sent.encode(), csrf_token(session_token).encode())


def _secure(request: Request) -> bool:
    return request.url.scheme in ("https", "wss")


def cookie_token(request: Request) -> str | None:
    """The session token the request's cookie holds (the cookie of its scheme), if any."""
    token = request.cookies.get(SECURE_COOKIE if _secure(request) else COOKIE)
    if not token or len(token) > MAX_TOKEN:
        return None
    return token


def _set_cookie(
    response: Response, request: Request, names: tuple[str, str], token: str, seconds: int
) -> None:
    """Set cookie ``names`` (over http, over https) for the whole table: HttpOnly,
    SameSite=Strict, and Secure over https."""
    secure = _secure(request)
    response.set_cookie(
        names[1] if secure else names[0],
        token,
        max_age=seconds,
        path="/",
        secure=secure,
        httponly=True,
        samesite="strict",
    )


def set_session_cookie(response: Response, request: Request, token: str, seconds: int) -> None:
    _set_cookie(response, request, (COOKIE, SECURE_COOKIE), token, seconds)


def clear_session_cookie(response: Response, request: Request) -> None:
    secure = _secure(request)
    response.delete_cookie(
        SECURE_COOKIE if secure else COOKIE,
        path="/",
        secure=secure,
        httponly=True,
        samesite="strict",
    )


def browser_token(request: Request) -> str | None:
    """The known-browser token the request's cookie holds, if any."""
    token = request.cookies.get(SECURE_BROWSER_COOKIE if _secure(request) else BROWSER_COOKIE)
    if not token or len(token) > MAX_TOKEN:
        return None
    return token


def set_browser_cookie(response: Response, request: Request, token: str) -> None:
    _set_cookie(response, request, (BROWSER_COOKIE, SECURE_BROWSER_COOKIE), token, BROWSER_SECONDS)
