"""Signing the terminal client in to an account on a table server (``cardtable play
--user NAME``, docs/terminal.md#accounts).

The password is asked without echo (``getpass``), sent once over the sign-in request
and dropped; it is never stored nor logged. The session cookie the server answers with
lives only in this process's memory (:class:`TableSession`): it claims the seat the
client takes, so the game joins the account's history (and may be rated), and reads
the player's rating from the public profile. Nothing of the session is written to
disk, and the client signs out when it quits: the next run signs in again.
"""

from __future__ import annotations

import http.cookies
import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from ..core import JSON
from .remote import HTTP_TIMEOUT, RemoteError

#: The session cookie's names: over http, and over https (``__Host-`` prefixed).
COOKIE_NAMES = ("cardtable_session", "__Host-cardtable_session")


def _request(
    method: str, url: str, body: JSON | None = None, headers: dict[str, str] | None = None
) -> tuple[JSON, Any]:
    """One JSON request (blocking; call it in a thread): its answer and headers.
    Errors become :class:`RemoteError` with the server's code."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    request.add_header("Accept", "application/json")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as response:
            answer: JSON = json.loads(response.read())
            return answer, response.headers
    except urllib.error.HTTPError as error:
        try:
            detail = json.loads(error.read())
        except ValueError:
            detail = {}
        code = detail.get("error") if isinstance(detail, dict) else None
        reason = str(detail.get("reason") or code) if isinstance(detail, dict) else ""
        known = code if isinstance(code, str) else None
        raise RemoteError(reason or f"HTTP {error.code}", known) from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise RemoteError(f"cannot reach {url}: {getattr(error, 'reason', error)}") from None


class TableSession:
    """A signed-in account at one table server; the cookie is kept in memory only."""

    def __init__(self, base: str, name: str, cookie: str, csrf: str) -> None:
        self.base = base
        #: The account's name as the server spells it.
        self.name = name
        self._cookie = cookie
        self._csrf = csrf

    def __repr__(self) -> str:  # never the cookie nor the CSRF token
        return f"TableSession({self.base!r}, {self.name!r})"

    @classmethod
    def sign_in(cls, base: str, name: str, password: str) -> TableSession:
        """Sign in (blocking); a wrong name or password raises ``bad_credentials``."""
        answer, headers = _request(
            "POST", f"{base}/api/account/signin", {"name": name, "password": password}
        )
        jar: http.cookies.SimpleCookie = http.cookies.SimpleCookie()
        for header in headers.get_all("Set-Cookie") or []:
            jar.load(header)
        found = [f"{key}={jar[key].value}" for key in COOKIE_NAMES if key in jar]
        if not found or not answer.get("signed_in"):
            raise RemoteError("the table did not open a session", "not_signed_in")
        return cls(base, str(answer["name"]), found[0], str(answer["csrf_token"]))

    def _change(self, path: str, body: JSON) -> JSON:
        """A change on the session's authority: its cookie, CSRF token and the table's
        own Origin, as the table's page sends them (docs/players.md)."""
        headers = {"Cookie": self._cookie, "X-CSRF-Token": self._csrf, "Origin": self.base}
        answer, _ = _request("POST", f"{self.base}{path}", body, headers)
        return answer

    def claim(self, code: str, token: str) -> bool:
        """Add our seat at room ``code`` to the account (blocking); True when it is ours."""
        answer = self._change("/api/account/claim", {"seats": [{"code": code, "token": token}]})
        return bool(answer.get("claimed"))

    def sign_out(self) -> None:
        """End the session (blocking); the cookie is worthless afterwards."""
        self._change("/api/account/signout", {})

    def ratings(self) -> list[JSON]:
        """The account's rating on each ladder it played (blocking), from its profile."""
        name = urllib.parse.quote(self.name, safe="")
        answer, _ = _request("GET", f"{self.base}/api/players/{name}")
        return [
            {
                **{key: entry[key] for key in ("ladder", "rating", "plus_minus", "games")},
                # A server before issue 47 sends neither: nothing is said provisional.
                "provisional": bool(entry.get("provisional")),
                "min_games": int(answer.get("min_games") or 0),
            }
            for entry in answer.get("ratings") or []
        ]


def ladders_of(game: str, ratings: list[JSON]) -> list[JSON]:
    """The ratings on the ladders of ``game`` (Skip-Bo has two: alone and in teams)."""
    return [entry for entry in ratings if str(entry["ladder"]).split("-")[0] == game]
