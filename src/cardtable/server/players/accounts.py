"""Accounts over HTTP (optional: a guest never needs one; docs/players.md):

- ``GET /api/account``: who is signed in (with the session's CSRF token), or nobody;
- ``POST /api/account/register``: a new account, signed in at once;
- ``POST /api/account/signin``, ``/signout``, ``/signout-everywhere``;
- ``POST /api/account/claim``: seats this browser holds (their tokens) join the account;
- ``POST /api/account/delete``: the account goes (with its password); its games stay,
  the seat under a neutral name.

Every change made on the session's authority needs its CSRF token (``X-CSRF-Token``,
:mod:`cardtable.server.edges.sessions`) besides the cookie;
:mod:`cardtable.server.edges.guard` has already refused any foreign Origin. Sign-ins are
limited per address and per name in the database, so on every node alike, and the answer to
a wrong password is the answer to an unknown name. The other endpoints read a session from
the database for whatever cookie a stranger sends, so they are limited per address on each
node (``too_many_requests``).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from typing import Annotated

from pydantic import Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...core import JSON
from ...display_names import DisplayNameError, clean_name, name_key
from ..edges.bodies import StrictModel, read_body
from ..edges.http import client_address
from ..edges.sessions import (
    browser_token,
    clear_session_cookie,
    cookie_token,
    csrf_matches,
    csrf_token,
    new_session_token,
    set_browser_cookie,
    set_session_cookie,
)
from ..errors import ApiError, too_many
from ..name_skeletons import FORMER_PLAYER, checked_name, name_refusal, skeleton_hash
from ..ops.limits import AddressBuckets
from ..rooms.table import Table
from ..storage.records import UserRecord
from ..tokens import hash_token, normalize_code
from .passwords import Cost, PasswordRuleError, Passwords, clean_password

log = logging.getLogger("cardtable.server")

#: The name a deleted account's seats are shown under in the games they played.
NEUTRAL_NAME = FORMER_PLAYER["en"]
#: Seconds between two sweeps of expired sessions and counters.
SWEEP_SECONDS = 3600.0


class Credentials(StrictModel):
    name: Annotated[str, Field(max_length=200)]
    password: Annotated[str, Field(max_length=1024)]


class Password(StrictModel):
    password: Annotated[str, Field(max_length=1024)]


class SeatToken(StrictModel):
    code: Annotated[str, Field(max_length=16)]
    token: Annotated[str, Field(max_length=200)]


class Claim(StrictModel):
    seats: Annotated[list[SeatToken], Field(min_length=1, max_length=50)]


def _name(raw: str) -> str:
    try:
        return clean_name(raw)
    except DisplayNameError as error:
        raise ApiError("bad_name", str(error), {"field": "name"}) from None


def _new_name(raw: str) -> str:
    """A name to register: a display name that mixes scripts only as people write them
    (a Cyrillic letter among Latin ones is how a name imitates another) and looks like
    no bot's or former player's label."""
    try:
        return checked_name(raw)
    except DisplayNameError as error:
        raise ApiError("bad_name", str(error), name_refusal(error)) from None


def _password(raw: str) -> str:
    try:
        return clean_password(raw)
    except PasswordRuleError as error:
        raise ApiError("bad_password", str(error), {"field": "password"}) from None


class AccountsApi:
    """The account endpoints of one table."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.storage = table.storage
        self.config = table.config
        self.limit = table.config.max_message_bytes
        self.passwords = Passwords(
            Cost(self.config.password_memory_kib, self.config.password_time_cost)
        )
        #: Wall-clock seconds: sessions and counters are shared by every node (tests
        #: replace it).
        self.clock: Callable[[], float] = time.time
        self._swept = 0.0
        #: Per address (a page asks "who am I" once per load; many players may share an
        #: address): ``session_reads_burst`` at once, then ``session_reads_per_second``.
        self.session_reads = AddressBuckets(
            self.config.session_reads_per_second, self.config.session_reads_burst
        )

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/account", self.whoami),
            Route("/api/account/register", self.register, methods=["POST"]),
            Route("/api/account/signin", self.signin, methods=["POST"]),
            Route("/api/account/signout", self.signout, methods=["POST"]),
            Route("/api/account/signout-everywhere", self.signout_everywhere, methods=["POST"]),
            Route("/api/account/claim", self.claim, methods=["POST"]),
            Route("/api/account/delete", self.delete, methods=["POST"]),
        ]

    # --- sessions -------------------------------------------------------------------

    def count_session_read(self, request: Request) -> None:
        """One more session read for the request's address; ``too_many_requests``
        (with ``Retry-After``) once the address's bucket is empty."""
        if not self.session_reads.allow(client_address(request)):
            wait = 1 / self.config.session_reads_per_second
            raise too_many("too_many_requests", "too many requests", wait)

    async def session(self, request: Request, *, change: bool) -> tuple[str, UserRecord] | None:
        """The request's session token and user, or None (no cookie, an unknown or
        expired session). With ``change``, the CSRF token must match (else ``bad_csrf``)."""
        token = cookie_token(request)
        if token is None:
            return None
        user = await self.storage.session_user(hash_token(token), self.clock())
        if user is None:
            return None
        if change and not csrf_matches(request, token):
            raise ApiError("bad_csrf", "the X-CSRF-Token header does not match the session")
        return token, user

    async def user(self, request: Request) -> UserRecord | None:
        """The account the request's session names, or None (a guest): how every route
        learns who is signed in (handed to the others as
        :data:`~cardtable.server.edges.sessions.SignedIn`)."""
        found = await self.session(request, change=False)
        return None if found is None else found[1]

    async def required_session(self, request: Request) -> tuple[str, UserRecord]:
        """The session an account endpoint acts on, its token with its account (counted
        against the address's limit first, its CSRF token checked), else
        ``not_signed_in``."""
        self.count_session_read(request)
        found = await self.session(request, change=True)
        if found is None:
            raise ApiError("not_signed_in", "sign in first")
        return found

    async def open_session(self, request: Request, user: UserRecord, status: int) -> Response:
        """A new session for ``user`` (the request's old one, if any, is closed: a
        sign-in always rotates the cookie)."""
        now = self.clock()
        seconds = int(self.config.session_days * 86400)
        token = new_session_token()
        old = cookie_token(request)
        await self.storage.create_session(
            user.id,
            hash_token(token),
            now,
            now + seconds,
            None if old is None else hash_token(old),
            keep=self.config.sessions_per_account,
        )
        browser = browser_token(request) or new_session_token()
        await self.storage.remember_browser(
            user.id, hash_token(browser), now, self.config.browsers_per_account
        )
        response = JSONResponse(
            {"signed_in": True, "name": user.name, "csrf_token": csrf_token(token)},
            status_code=status,
        )
        set_session_cookie(response, request, token, seconds)
        set_browser_cookie(response, request, browser)
        return response

    # --- limits ---------------------------------------------------------------------

    async def count(self, key: str, limit: int) -> None:
        """One more attempt under ``key``; ``too_many_attempts`` past ``limit``."""
        now = self.clock()
        window = self.config.signin_window
        if now - self._swept > SWEEP_SECONDS:
            self._swept = now
            await self.storage.sweep_accounts(now, window)
        count, start = await self.storage.throttle_hit(key, window, now)
        if count > limit:
            raise too_many("too_many_attempts", "too many attempts", start + window - now)

    @staticmethod
    def name_counter(key: str) -> str:
        return "name:" + hashlib.sha256(key.encode()).hexdigest()[:40]

    # --- endpoints ------------------------------------------------------------------

    async def whoami(self, request: Request) -> Response:
        self.count_session_read(request)
        found = await self.session(request, change=False)
        if found is None:
            response = JSONResponse({"signed_in": False})
            if cookie_token(request) is not None:
                clear_session_cookie(response, request)  # expired, or another table's
            return response
        token, user = found
        seats = await self.storage.seats_of(user.id)
        return JSONResponse(
            {
                "signed_in": True,
                "name": user.name,
                "csrf_token": csrf_token(token),
                "seats": [{"code": code, "seat": seat} for code, seat in seats],
            }
        )

    async def register(self, request: Request) -> Response:
        await self.count(f"register:{client_address(request)}", self.config.register_per_address)
        body = await read_body(request, Credentials, self.limit)
        name = _new_name(body.name)
        password = _password(body.password)
        key, look = name_key(name), skeleton_hash(name)
        if await self.storage.user_by_key(key) is not None:
            raise ApiError("name_taken", "this name is taken", {"field": "name"})
        if await self.storage.skeleton_taken(look):
            raise ApiError(
                "name_taken",
                "this name looks like a name that is taken",
                {"field": "name", "reason_key": "web.name.looks_taken", "reason_params": {}},
            )
        hashed = await self.passwords.hash(password)
        now = self.clock()
        user_id = await self.storage.create_user(name, key, hashed, now, look)
        if user_id is None:
            raise ApiError("name_taken", "this name is taken", {"field": "name"})
        return await self.open_session(request, UserRecord(user_id, name, hashed, now), 201)

    async def signin(self, request: Request) -> Response:
        address = client_address(request)
        failures = f"signin:{address}"
        await self.count(failures, self.config.signin_per_address)
        await self.count(f"signin-all:{address}", self.config.signins_per_address)
        body = await read_body(request, Credentials, self.limit)
        name, password = _name(body.name), _password(body.password)
        key = name_key(name)
        user = await self.storage.user_by_key(key)
        # Failures under a name lock that name, except for a browser that signed in to
        # the account before: it has a counter of its own, so a stranger's guesses
        # never lock the owner out (docs/players.md, "Sign-in limits").
        counter = self.name_counter(key)
        browser = browser_token(request)
        known = (
            browser is not None
            and user is not None
            and await self.storage.browser_knows(hash_token(browser), user.id)
        )
        if known and browser is not None:
            counter = "browser:" + hash_token(browser)[:40]
        await self.count(counter, self.config.signin_per_name)
        stored = None if user is None else user.password_hash
        # Verified before the name is known to exist: an unknown name costs the same
        # Argon2 check (against a dummy hash) as a wrong password.
        verified = await self.passwords.verify(stored, password)
        if user is None or not verified:
            raise ApiError("bad_credentials", "the name or the password is wrong")
        await self.count(f"account:{user.id}", self.config.signins_per_account)
        await self.storage.throttle_clear(counter)
        await self.storage.throttle_refund(failures)
        if self.passwords.outdated(user.password_hash):
            await self.storage.set_password_hash(user.id, await self.passwords.hash(password))
        return await self.open_session(request, user, 200)

    async def signout(self, request: Request) -> Response:
        self.count_session_read(request)
        found = await self.session(request, change=True)
        if found is not None:
            await self.storage.delete_session(hash_token(found[0]))
        response = JSONResponse({"signed_in": False})
        clear_session_cookie(response, request)
        return response

    async def signout_everywhere(self, request: Request) -> Response:
        _token, user = await self.required_session(request)
        closed = await self.storage.delete_sessions_of(user.id)
        response = JSONResponse({"signed_in": False, "sessions_closed": closed})
        clear_session_cookie(response, request)
        return response

    async def claim(self, request: Request) -> Response:
        _token, user = await self.required_session(request)
        body = await read_body(request, Claim, self.limit)
        claimed: list[JSON] = []
        refused: list[JSON] = []
        for entry in body.seats:
            code = normalize_code(entry.code)
            done = (
                "no_seat"
                if code is None
                else await self.storage.claim_seat(
                    user.id, code, hash_token(entry.token), self.clock()
                )
            )
            if isinstance(done, int):
                claimed.append({"code": code, "seat": done})
            else:
                refused.append({"code": entry.code[:16], "error": done})
        for seat in claimed:  # a table served here says at once whether it will be rated
            room = self.table.rooms.get(seat["code"])
            if room is not None:
                try:
                    await room.refresh_claims()
                except Exception:  # the claim stands; the room's next look-up reads it
                    log.warning("room %s: its claims were not read again", seat["code"])
        return JSONResponse({"claimed": claimed, "refused": refused})

    async def rename_live_seats(self, claims: list[tuple[str, int]]) -> None:
        """The seats of a deleted account in the rooms this node serves take the neutral
        name at once (a room another node serves keeps the name until it closes)."""
        for code, seat in claims:
            room = self.table.rooms.get(code)
            if room is None:
                continue
            try:
                await room.lobby.rename(seat, NEUTRAL_NAME)
            except Exception:
                log.warning("room %s: a deleted account's seat kept its name", code)

    async def delete(self, request: Request) -> Response:
        _token, user = await self.required_session(request)
        body = await read_body(request, Password, self.limit)
        password = _password(body.password)
        await self.count(self.name_counter(name_key(user.name)), self.config.signin_per_name)
        if not await self.passwords.verify(user.password_hash, password):
            raise ApiError("bad_credentials", "the password is wrong", {"field": "password"})
        claims = await self.storage.seats_of(user.id)
        await self.storage.delete_user(user.id, NEUTRAL_NAME)
        await self.rename_live_seats(claims)
        response = JSONResponse({"deleted": True, "signed_in": False})
        clear_session_cookie(response, request)
        return response
