"""A seat at a room of a running table server (``cardtable play --join`` or ``--host``).

:class:`RemoteGame` joins a room through the server's HTTP join endpoint (or resumes
a seat with its token), or creates one (:meth:`RemoteGame.create`, the host's seat 1 and
host token), then follows the WebSocket protocol of docs/protocol.md: it
keeps the last version it received, reconnects on its own with back-off after a
dropped connection and catches up (``hello`` with ``last_version``), turns the
server's refusals into :class:`MoveRefusedError` and feeds every event to the app as
an :class:`Update`. The server is the only authority: nothing here knows a rule.

While the room waits in its lobby, every change (a seat taken, new options) reaches the
app as an :class:`Update` with ``room`` set; the host (holding the room's host token)
may change the options (``configure``) and start the game (``start``). It keeps
following the room after the game is over: a seated player may ask the server for the
post-game review (``review``), the host may offer a rematch (``rematch``: the room goes
back to its lobby, same seats, where the options can change before the next ``start``),
and when the room deals its next game the source switches to it, same seat, same token.
At a table with the practice coach, its lines reach the app as :class:`Update` with
``coach`` set, and the player may take the move back (``take_back``) or keep it.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import os
import re
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import websockets
from websockets.exceptions import ConnectionClosed, WebSocketException

from ..core import JSON, Game, Refusal
from ..games import get_game
from ..statuses import RoomStatus, SeatKind
from .source import GameSource, Hint, MoveRefusedError, Notify, RefusedError, Update

#: Close codes of the server that mean "do not come back".
NO_SUCH_ROOM = 4004
POLICY_VIOLATION = 1008
#: Back-off between reconnection attempts: 0.25 s doubling up to 5 s.
FIRST_DELAY = 0.25
LONGEST_DELAY = 5.0
#: Seconds to wait for the server's answer to a move or a hint.
ANSWER_TIMEOUT = 15.0
#: Seconds to wait for a post-game review (the server works it out in its bot threads).
REVIEW_TIMEOUT = 120.0
HTTP_TIMEOUT = 10.0
#: Seconds a host's lobby request (configure, start, rematch) waits for the connection:
#: the lobby shows as soon as the room is known, often before the WebSocket is open.
HOST_CONNECT_WAIT = 10.0
#: Seconds ``close`` waits for the connection to close cleanly.
CLOSE_TIMEOUT = 5.0

_CODE = re.compile(r"^[A-Za-z0-9]{4,12}$")


class RemoteError(Exception):
    """The room cannot be joined or followed (no such room, a bad token, no server...):
    the message in English, and ``code`` (``error.{code}`` in the catalogs) when known."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


def parse_target(text: str) -> tuple[str, str]:
    """The server's base URL and the room code of a room link or ``HOST:PORT/CODE``.

    Accepts ``http(s)://host:port/r/CODE`` (the share link, also ``/r/CODE/watch``),
    ``ws(s)://host:port/ws/CODE`` and ``host:port/CODE`` or ``host:port/r/CODE``.
    """
    raw = text.strip()
    if "://" not in raw:
        raw = "http://" + raw
    parts = urllib.parse.urlsplit(raw)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    if scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"not a room address: {text!r} (try http://HOST:PORT/r/CODE)")
    segments = [segment for segment in parts.path.split("/") if segment]
    if segments and segments[-1] == "watch":
        segments.pop()
    if len(segments) >= 2 and segments[-2] in ("r", "ws"):
        segments = segments[-1:]
    if len(segments) != 1 or not _CODE.match(segments[0]):
        raise ValueError(f"no room code in {text!r} (try http://HOST:PORT/r/CODE)")
    return f"{scheme}://{parts.netloc}", segments[0].upper()


def server_base(server: str) -> str:
    """The base URL of a table server given as ``HOST:PORT`` or its URL."""
    raw = server.strip().rstrip("/")
    if "://" not in raw:
        raw = "http://" + raw
    parts = urllib.parse.urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path.strip("/"):
        raise RemoteError(f"not a server address: {server!r} (try HOST:PORT)")
    return f"{parts.scheme}://{parts.netloc}"


def seat_file() -> Path:
    """Where seat tokens are kept to resume a seat: ``seats.json`` in the data folder."""
    from ..settings import default_data_dir

    return default_data_dir() / "seats.json"


def load_seat(base: str, code: str, path: Path | None = None) -> JSON | None:
    """The stored ``{"seat", "token", "name"}`` of a room, if this machine joined it."""
    path = path or seat_file()
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    entry = stored.get(f"{base}/{code}") if isinstance(stored, dict) else None
    return entry if isinstance(entry, dict) and isinstance(entry.get("token"), str) else None


def store_seat(base: str, code: str, entry: JSON, path: Path | None = None) -> None:
    """Remember a seat token (the file is readable by its owner only)."""
    path = path or seat_file()
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(stored, dict):
            stored = {}
    except (OSError, ValueError):
        stored = {}
    stored[f"{base}/{code}"] = entry
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(stored, handle, indent=1)


def _http(method: str, url: str, body: JSON | None = None) -> JSON:
    """One JSON request (blocking; call it in a thread). Errors become :class:`RemoteError`."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Accept", "application/json")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as response:
            answer: JSON = json.loads(response.read())
            return answer
    except urllib.error.HTTPError as error:
        try:
            detail = json.loads(error.read())
            reason = str(detail.get("reason") or detail.get("error"))
        except ValueError:
            reason = f"HTTP {error.code}"
            detail = {}
        if isinstance(detail, dict) and detail.get("error") == "bad_options":
            raise RefusedError(
                "bad_options",
                reason,
                detail.get("field"),
                detail.get("allowed"),
                detail.get("allowed_key"),
                detail.get("allowed_params"),
            ) from None
        code = detail.get("error") if isinstance(detail, dict) else None
        raise RemoteError(reason, code if isinstance(code, str) else None) from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise RemoteError(f"cannot reach {url}: {getattr(error, 'reason', error)}") from None


class RemoteGame(GameSource):
    """Our seat at a room of a table server. Build it with :meth:`join`, then :meth:`start`."""

    def __init__(
        self,
        base: str,
        code: str,
        room: JSON,
        seat: int,
        token: str,
        host_token: str | None = None,
    ) -> None:
        self.base = base
        self.code = code
        self.room = room
        self.game: Game[Any] = get_game(room["game"])
        self.seat = seat
        self.token = token
        #: The room's host token, when we hold it: it lets us start a rematch.
        self.host_token = host_token
        self.ws_url = base.replace("http", "ws", 1) + f"/ws/{code}"
        #: The room's share link (the server's own when we created the room).
        self.join_url = f"{base}/r/{code}"
        #: The last version received (None before the first message that carries one).
        self.version: int | None = None
        self.game_no: int | None = None
        self.connected = asyncio.Event()
        self.reconnects = 0
        self._view: JSON | None = None
        self._has_view = asyncio.Event()
        self._notify: Notify | None = None
        self._ws: Any = None
        self._pump: asyncio.Task[None] | None = None
        self._answer: asyncio.Future[JSON] | None = None
        #: The host's requests go one at a time, in the order asked (a second change
        #: sent while the first waits for its answer would be refused as ``waiting``).
        self._host_turn = asyncio.Lock()
        #: "move", "hint", "review", "rematch", "configure", "start", "take_back"
        self._waiting_for: str | None = None
        self._configuring: JSON = {}  # the options of the "configure" waited for
        #: The account signed in (``--user``, see :mod:`.signin`) and its ratings on the
        #: game's ladders, each ``{ladder, rating, plus_minus, games, provisional,
        #: min_games}``.
        self.account_name: str | None = None
        self.ratings: list[JSON] = []
        self._in_lobby = False  # back in the lobby after a game, for a rematch
        self._fatal: str | None = None
        self._fatal_code: str | None = None  # its error code (error.{code} in the catalogs)
        self._closing = False

    # --- joining -------------------------------------------------------------------
    @classmethod
    async def join(
        cls,
        target: str,
        *,
        name: str | None = None,
        token: str | None = None,
        host_token: str | None = None,
        store: Path | None = None,
        default_name: str | None = None,
    ) -> RemoteGame:
        """Take a seat in the room at ``target``: with ``token`` (or one stored for the room)
        resume that seat; otherwise join a free seat as ``name`` (or ``default_name``, a
        signed-in account's). ``host_token`` (or one stored with the seat) lets this
        client start a rematch; a given one is stored."""
        try:
            base, code = parse_target(target)
        except ValueError as error:
            raise RemoteError(str(error)) from None
        room = await asyncio.to_thread(_http, "GET", f"{base}/api/rooms/{code}")
        stored = load_seat(base, code, store) if token is None and name is None else None
        if stored is not None:
            token = stored["token"]
            if host_token is None and isinstance(stored.get("host_token"), str):
                host_token = stored["host_token"]
        if token is None:
            name = name or default_name
            if name is None:
                raise RemoteError("give a display name (--name) to take a seat")
            joined = await asyncio.to_thread(
                _http, "POST", f"{base}/api/rooms/{code}/join", {"name": name}
            )
            token = str(joined["token"])
            seat = int(joined["seat"])
            entry: JSON = {"seat": seat, "token": token, "name": name}
            if host_token is not None:
                entry["host_token"] = host_token
            with contextlib.suppress(OSError):
                store_seat(base, code, entry, store)
            return cls(base, code, room, seat, token, host_token)
        known = load_seat(base, code, store) if host_token is not None else None
        if known is not None and known["token"] == token and known.get("host_token") != host_token:
            with contextlib.suppress(OSError):  # remember the host token with the seat
                store_seat(base, code, {**known, "host_token": host_token}, store)
        return cls(base, code, room, -1, token, host_token)  # the server tells us the seat

    @classmethod
    async def create(
        cls,
        server: str,
        game: str,
        options: JSON,
        seats: list[JSON],
        *,
        name: str,
        table: JSON | None = None,
        store: Path | None = None,
    ) -> RemoteGame:
        """Create a room on the server at ``server`` (``HOST:PORT`` or its URL) through its
        HTTP API, as the web lobby does: we take the first seat as ``name`` and hold the
        room's host token (both stored, to resume the seat). ``table``: its table options
        (the coach...). Refused options raise :class:`RefusedError` naming the option
        (``field``, ``allowed``)."""
        base = server_base(server)
        body: JSON = {"game": game, "options": options, "seats": seats, "name": name}
        if table:
            body["table"] = table
        created = await asyncio.to_thread(_http, "POST", f"{base}/api/rooms", body)
        code = str(created["code"])
        entry: JSON = {
            "seat": int(created["seat"]),
            "token": str(created["token"]),
            "name": name,
            "host_token": str(created["host_token"]),
        }
        with contextlib.suppress(OSError):
            store_seat(base, code, entry, store)
        source = cls(
            base, code, created["room"], entry["seat"], entry["token"], entry["host_token"]
        )
        source.join_url = str(created.get("join_url") or source.join_url)
        return source

    async def start(self, timeout: float | None = None) -> None:
        """Connect and wait for the first view of the game (the host may not have started yet)."""
        if self._pump is None:
            self._pump = asyncio.create_task(self._follow())
        waiter = asyncio.ensure_future(self._has_view.wait())
        done, _ = await asyncio.wait(
            {waiter, self._pump}, timeout=timeout, return_when="FIRST_COMPLETED"
        )
        if waiter not in done:
            waiter.cancel()
            if self._pump in done:
                self._pump.result()  # raises the fatal error
            raise RemoteError("the game has not started")

    async def close(self) -> None:
        """Leave the room (the seat stays ours: its token resumes it)."""
        self._closing = True
        if self._ws is not None:  # a clean close ends the reading loop on its own
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._pump is not None:
            if not self._pump.done():
                await asyncio.wait({self._pump}, timeout=CLOSE_TIMEOUT)
            if not self._pump.done():  # waiting to reconnect, or a close that hangs
                self._pump.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._pump

    def drop(self) -> None:
        """Cut the connection abruptly, as a network failure would (it reconnects)."""
        if self._ws is not None:
            self._ws.transport.abort()

    # --- GameSource -------------------------------------------------------------------
    def view(self) -> JSON:
        if self._view is None:
            raise RemoteError("the game has not started")
        return self._view

    def lobby(self) -> JSON | None:
        return self.room if self.room.get("status") == RoomStatus.LOBBY else None

    def signed_in(self) -> tuple[str, list[JSON]] | None:
        return None if self.account_name is None else (self.account_name, self.ratings)

    def link(self) -> str | None:
        return self.join_url

    def seat_labels(self) -> list[str]:
        labels = []
        for info in self.room["seats"]:
            if info["kind"] == SeatKind.BOT:
                labels.append(str(info.get("bot") or "bot"))
            elif info.get("away"):
                labels.append("away")
            else:
                labels.append("")
        return labels

    async def run(self, notify: Notify) -> None:
        # The connection's task was started before the app (``start``): call ``notify`` in
        # the context of our caller (the app's worker), where the app is the active one.
        context = contextvars.copy_context()

        def in_context(update: Update) -> None:
            context.run(notify, update)

        self._notify = in_context
        if self._pump is None:
            self._pump = asyncio.create_task(self._follow())
        if self._view is not None:
            notify(Update(self._view))
        elif self.room.get("status") == RoomStatus.LOBBY:
            notify(Update({}, room=True))  # the lobby until the host starts the game
        else:
            await self.start()  # a game under way: its view comes with the first sync
            notify(Update(self.view()))
        # Shielded: the connection belongs to whoever called start() and ends with close(),
        # not when the app's worker is cancelled (cancelling it mid-close could leak it).
        await asyncio.shield(self._pump)

    async def submit(self, move: Any) -> None:
        answer = await self._request(
            "move",
            {"type": "move", "token": self.token, "version": self.version, "move": move.to_json()},
        )
        if answer["type"] == "error":
            key = answer.get("reason_key")
            refusal = (
                None
                if key is None
                else Refusal.from_json({"key": key, "params": answer.get("reason_params")})
            )
            raise MoveRefusedError(answer["reason"], refusal, move.to_json(), answer.get("code"))

    async def hint(self) -> Hint | None:
        """The server's move advisor for our seat (first of its ranked moves)."""
        view = self._view
        if view is None or view.get("result") is not None or not view.get("legal_actions"):
            return None
        try:
            answer = await self._request(
                "hint", {"type": "hint", "token": self.token, "version": self.version}
            )
        except MoveRefusedError:
            return None
        if answer["type"] != "hint" or not answer.get("moves"):
            return None
        best = answer["moves"][0]
        parts = tuple(best.get("reason_parts") or ())
        return Hint(best["move"], "advisor", best.get("value"), best.get("reason", ""), parts)

    async def review(self) -> JSON:
        """The server's post-game review of our seat (its ``review`` message).

        Refusals (``review_busy``, ``not_finished``, ``no_review``...) raise
        :class:`RefusedError` with the server's code and reason.
        """
        game_no = self.game_no
        try:
            answer = await self._request(
                "review", {"type": "review", "token": self.token}, REVIEW_TIMEOUT
            )
        except MoveRefusedError as error:
            raise RefusedError(error.code or "network", error.reason) from None
        if answer["type"] == "error":
            raise RefusedError(str(answer.get("code")), str(answer.get("reason") or ""))
        if answer.get("game_no") != game_no:
            raise RefusedError("not_finished", "the room has moved on to another game")
        return answer

    def coached(self) -> bool:
        return bool((self.room.get("table") or {}).get("coach"))

    async def take_back(self, version: int) -> None:
        """Answered by the server's ``took_back`` (then a ``sync`` with the view before the
        move) or refused: :class:`RefusedError` with the server's code."""
        message: JSON = {"type": "take_back", "token": self.token, "version": version}
        try:
            answer = await self._request("take_back", message)
        except MoveRefusedError as error:
            raise RefusedError(error.code or "network", error.reason) from None
        if answer["type"] == "error":
            raise RefusedError(str(answer.get("code")), str(answer.get("reason") or ""))

    async def keep_move(self, version: int) -> None:
        """Sent without waiting: the server answers a kept move with the bots' next moves."""
        if self._ws is None or not self.connected.is_set():
            raise RefusedError("not_connected", "not connected to the table; reconnecting")
        message = {"type": "keep_move", "token": self.token, "version": version}
        try:
            await self._ws.send(json.dumps(message))
        except (ConnectionClosed, OSError):
            raise RefusedError("dropped", "the connection dropped; reconnecting") from None

    def rematch_role(self) -> str | None:
        return "host" if self.host_token is not None else "guest"

    async def rematch(self) -> None:
        """Back to the lobby with the same seats (the host only), where the options may
        change before :meth:`start_game`; the lobby reaches the app as an :class:`Update`
        with ``lobby`` set, as for a rematch offered by another host."""
        await self._host_request("rematch", {})

    async def configure(self, options: JSON | None = None, seats: list[JSON] | None = None) -> None:
        """New rules options and/or seats (``{"kind": "human"}`` or ``{"kind": "bot", "bot":
        name}`` for every seat) for the room's next game (the host, in the lobby). A refused
        option raises :class:`RefusedError` with the option's ``field`` and ``allowed``."""
        fields: JSON = {}
        if options is not None:
            fields["options"] = options
        if seats is not None:
            fields["seats"] = seats
        await self._host_request("configure", fields)

    async def start_game(self) -> None:
        """Start the game from the lobby (the host); it reaches the app as an :class:`Update`
        (``new_game`` set after an earlier game of the room)."""
        await self._host_request("start", {})

    async def _host_request(self, kind: str, fields: JSON) -> None:
        if self.host_token is None:
            raise RefusedError("not_host", "only the host can do this")
        message: JSON = {"type": kind, "host_token": self.host_token, **fields}
        try:
            async with self._host_turn:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.connected.wait(), HOST_CONNECT_WAIT)
                answer = await self._request(kind, message)
        except MoveRefusedError as error:
            raise RefusedError(error.code or "network", error.reason) from None
        if answer["type"] == "error":
            raise RefusedError(
                str(answer.get("code")),
                str(answer.get("reason") or ""),
                answer.get("field"),
                answer.get("allowed"),
                answer.get("allowed_key"),
                answer.get("allowed_params"),
            )

    # --- the connection -----------------------------------------------------------------
    async def _request(self, kind: str, message: JSON, timeout: float = ANSWER_TIMEOUT) -> JSON:
        """Send ``message`` and wait for its answer (our move's event, a hint, a review, the
        room back in its lobby after ``rematch``, the new game after ``start``, or an error)."""
        if self._ws is None or not self.connected.is_set():
            raise MoveRefusedError("not connected to the table; reconnecting", code="not_connected")
        if self._answer is not None:
            raise MoveRefusedError("still waiting for the table's answer", code="waiting")
        answer: asyncio.Future[JSON] = asyncio.get_running_loop().create_future()
        self._answer, self._waiting_for = answer, kind
        self._configuring = dict(message.get("options") or {})
        try:
            await self._ws.send(json.dumps(message))
            return await asyncio.wait_for(answer, timeout)
        except (ConnectionClosed, OSError):
            raise MoveRefusedError("the connection dropped; reconnecting", code="dropped") from None
        except TimeoutError:
            raise MoveRefusedError("the table did not answer", code="no_answer") from None
        finally:
            self._answer = self._waiting_for = None

    def _answered(self, message: JSON) -> None:
        if self._answer is not None and not self._answer.done():
            self._answer.set_result(message)

    async def _follow(self) -> None:
        """Read the room until we leave it, reconnecting after every drop."""
        attempt = 0
        while True:
            try:
                async with websockets.connect(
                    self.ws_url, open_timeout=HTTP_TIMEOUT, ping_interval=20, max_size=2**22
                ) as ws:
                    self._ws = ws
                    hello: JSON = {"type": "hello", "token": self.token}
                    if self.version is not None:
                        hello["last_version"] = self.version
                    await ws.send(json.dumps(hello))
                    async for raw in ws:
                        message = json.loads(raw)
                        if message.get("type") == "welcome":
                            attempt = 0
                            self.connected.set()
                        self._handle(message)
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else None
                if code == NO_SUCH_ROOM or (code == POLICY_VIOLATION and self._fatal):
                    if self._fatal is None:
                        raise RemoteError("the room is closed", "closed") from None
                    raise RemoteError(self._fatal, self._fatal_code) from None
            except (OSError, TimeoutError, WebSocketException):
                pass
            finally:
                self._ws = None
                self.connected.clear()
                if self._answer is not None and not self._answer.done():
                    self._answer.set_exception(ConnectionResetError())
            if self._fatal is not None:
                raise RemoteError(self._fatal, self._fatal_code)
            if self._closing:
                return
            await asyncio.sleep(min(LONGEST_DELAY, FIRST_DELAY * 2**attempt))
            attempt += 1
            self.reconnects += 1

    def _handle(self, message: JSON) -> None:
        """Take in one server message."""
        kind = message.get("type")
        if isinstance(message.get("version"), int) and kind in ("event", "sync"):
            self.version = message["version"]
        if kind == "welcome":
            if message.get("seat") is None:
                self._fatal = "this token holds no seat of the room"
                self._fatal_code = "no_seat"
                return
            self.seat = message["seat"]
            self.room = message["room"]
            self._lobby()
        elif kind == "sync":
            self.room = message["room"]
            fresh = self._view is not None and message["game_no"] != self.game_no
            self.game_no = message["game_no"]
            if message.get("view") is not None:
                self._show(message["view"], None, new_game=fresh)
            else:
                self._lobby()
        elif kind == "event":
            if message["kind"] == "room":
                self.room = message["room"]
                self._lobby()
                if self.room.get("status") == RoomStatus.LOBBY and (
                    self._waiting_for == "rematch"
                    or (self._waiting_for == "configure" and self._configured())
                ):
                    self._answered(message)
            elif message["kind"] == "start":
                fresh = self._view is not None
                self.game_no = message["game_no"]
                self.room["status"] = RoomStatus.PLAYING.value  # the event carries no room summary
                self._show(message["view"], None, new_game=fresh)
                if self._waiting_for == "start":
                    self._answered(message)
            else:
                self._show(message["view"], message["outcome"])
                if message["outcome"]["seat"] == self.seat and self._waiting_for == "move":
                    self._answered(message)
        elif kind == "presence":
            for entry in message["seats"]:
                seat = self.room["seats"][entry["seat"]]
                seat["away"] = entry["away"]
                seat["connected"] = entry["connected"]
            self._lobby()
        elif kind in ("hint", "review"):
            if self._waiting_for == kind:
                self._answered(message)
        elif kind in ("coach", "took_back"):
            if self._notify is not None:
                self._notify(Update(self._view or {}, coach=message))
            if kind == "took_back" and self._waiting_for == "take_back":
                self._answered(message)
        elif kind in ("chat", "reaction") or (
            kind == "notice" and message.get("code") in ("turn_timeout", "hinted")
        ):
            self._talk(message)
        elif kind == "rated":
            self._rated(message)
            self._talk(message)
        elif kind == "chat_history":
            for line in message.get("messages") or []:
                self._talk(line)
        elif kind == "error":
            if message.get("code") in ("bad_token", "no_room"):
                self._fatal = message.get("reason") or message["code"]
                self._fatal_code = message["code"]
            self._answered(message)

    def _rated(self, message: JSON) -> None:
        """Our new rating after a rated game (when signed in), as the table told it."""
        ladder = message.get("ladder")
        ours = [entry for entry in message.get("seats") or [] if entry.get("seat") == self.seat]
        if self.account_name is None or not ours or not isinstance(ladder, str):
            return
        kept = [entry for entry in self.ratings if entry["ladder"] != ladder]
        before = [entry for entry in self.ratings if entry["ladder"] == ladder]
        games = (before[0]["games"] if before else 0) + 1
        # A first rated game on a ladder is always provisional (the server's threshold is
        # more than one game); later ones are until the profile's min_games.
        min_games = int(before[0].get("min_games") or 0) if before else games + 1
        new = {
            "ladder": ladder,
            "rating": ours[0]["rating"],
            "plus_minus": ours[0]["plus_minus"],
            "games": games,
            "provisional": games < min_games,
            "min_games": min_games,
        }
        self.ratings = sorted([*kept, new], key=lambda e: str(e["ladder"]))

    def _show(self, view: JSON, outcome: JSON | None, *, new_game: bool = False) -> None:
        self._view = view
        self._in_lobby = False
        self._has_view.set()
        if self._notify is not None:
            self._notify(Update(view, outcome, new_game=new_game))

    def _talk(self, message: JSON) -> None:
        """Table talk (chat, reactions, a timed-out turn) for the app's log."""
        if self._notify is not None:
            self._notify(Update(self._view or {}, talk=message))

    def _configured(self) -> bool:
        """Whether the room's rules now hold the options of the ``configure`` waited for
        (another lobby change, a player joining, is not its answer)."""
        rules = self.room.get("rules") or {}
        return all(rules.get(key) == value for key, value in self._configuring.items())

    def _lobby(self) -> None:
        """Tell the app about the room while it waits in its lobby: ``lobby`` set the first
        time after our game (a rematch is on its way), ``room`` every time."""
        if self.room.get("status") != RoomStatus.LOBBY:
            return
        back = self._view is not None and not self._in_lobby
        if self._view is not None:
            self._in_lobby = True
        if self._notify is not None:
            self._notify(Update(self._view or {}, lobby=back, room=True))
