"""``cardtable loadtest``: many rooms of scripted WebSocket players against a table server.

Each room is created over HTTP with every seat human; one WebSocket per seat says
``hello`` with its seat token, the host starts the game, and the room then makes one
move per ``1 / rate`` seconds: the seat whose view lists ``legal_actions`` sends one of
them at random. A finished game is followed by a rematch and a new start.

Measured, in the load-test process:

- move latency: from sending a move to the mover receiving its ``move`` event, and to
  the last seat of the room receiving it (p50, p95, p99, max);
- errors: refusals, unexpected closes, HTTP failures, moves never answered;
- lost moves: a move the mover saw broadcast but that is missing from the game's log
  (``GET /api/rooms/{code}/games/{n}``, read from the database) or newer than the
  version of a final ``resync``;
- the server's memory (``VmRSS`` of ``/proc/PID/status``) when its process id is known
  (``--server-pid``, or ``--spawn`` which starts a server on a free port with a
  temporary SQLite file).

A seat whose connection is closed by the server for a hand-over (4009, 1013) or lost
(the node died) reconnects as the web page does, with jittered exponential back-off,
and resumes from its last version; the report counts the reconnections and the moves
that were sent but never played because their node let the room go first (the
catch-up from the new node does not hold them: nobody was told they were played).
The moves acknowledged across a hand-over carry its delay in their latency.

The latency includes the load-test process's own work; on a shared machine both
processes compete for the same cores.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

from ..argtypes import non_negative_int, positive_float, positive_int
from ..statuses import SeatKind

#: Seconds a move may wait for its broadcast before it counts as unanswered.
MOVE_TIMEOUT = 10.0
#: Failures told on stderr as they happen; the report counts them all.
NOTES_SHOWN = 5
#: Rooms set up at the same time (HTTP requests and WebSocket handshakes).
SETUP_CONCURRENCY = 16
#: Close codes after which a seat reconnects as a browser does: the room moved to
#: another node (4009), another node holds it for now (1013), the node went away
#: (1001, 1012) or the connection broke without a close (1006, no code).
RECONNECT_CODES = frozenset({1001, 1006, 1011, 1012, 1013, 4009, None})
#: Error codes a cluster sends with those closes: hand-over notices, not failures.
HANDOVER_ERRORS = frozenset({"room_moved", "room_elsewhere", "draining"})
#: The web page's back-off (conn.js): 250 ms doubling to 8 s, half fixed, half random.
BACKOFF_FIRST, BACKOFF_MAX = 0.25, 8.0
#: How long a seat keeps trying to reconnect before the room counts as broken.
RECONNECT_WINDOW = 90.0


@dataclasses.dataclass(frozen=True)
class LoadOptions:
    url: str = "http://127.0.0.1:8000"
    rooms: int = 10
    seats: int = 4
    duration: float = 30.0
    rate: float = 1.0
    game: str = "skyjo"
    options: dict[str, Any] = dataclasses.field(default_factory=dict)
    server_pid: int | None = None
    compression: bool = True
    seed: int = 0
    #: Rooms of bots only (every seat ``bot``), started beside the human rooms.
    bot_rooms: int = 0
    bot: str = "expert"


# --- server memory and process ---------------------------------------------------------


def rss_bytes(pid: int) -> int | None:
    """The resident set size of process ``pid`` (``VmRSS``), None if unreadable."""
    try:
        text = Path(f"/proc/{pid}/status").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("VmRSS:"):
            parts = line.split()
            return int(parts[1]) * 1024 if parts[1:] and parts[1].isdigit() else None
    return None


def cpu_seconds(pid: int) -> float | None:
    """User plus system CPU time of process ``pid`` (``/proc/PID/stat``), None if unreadable."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
        fields = text.rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def sched_seconds(pid: int) -> tuple[float, float] | None:
    """Seconds the main thread of ``pid`` ran on a CPU and waited for one (runnable but
    not scheduled), from ``/proc/PID/schedstat``; None if unreadable."""
    try:
        fields = Path(f"/proc/{pid}/schedstat").read_text(encoding="ascii").split()
        return int(fields[0]) / 1e9, int(fields[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return None


def _sched_delta(
    before: tuple[float, float] | None, after: tuple[float, float] | None
) -> dict[str, float] | None:
    if before is None or after is None:
        return None
    return {"on_cpu_s": round(after[0] - before[0], 2), "waiting_s": round(after[1] - before[1], 2)}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get_json(url: str, timeout: float = 10.0) -> Any:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return json.load(response)


def _post_json(url: str, body: dict[str, Any], timeout: float = 30.0) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.load(response)


@contextlib.contextmanager
def spawned_server(rooms: int, extra: list[str] | None = None) -> Iterator[tuple[str, int]]:
    """A ``cardtable serve`` subprocess on a free loopback port with a temporary SQLite file.

    Yields its base URL and process id; stops it (SIGTERM, then SIGKILL) and removes the
    folder afterwards.
    """
    folder = Path(tempfile.mkdtemp(prefix="cardtable-loadtest-"))
    port = free_port()
    command = [
        sys.executable, "-m", "cardtable.cli", "serve", "--port", str(port),
        "--data", str(folder), "--rooms-per-client", str(rooms + 10), *(extra or []),
    ]  # fmt: skip
    log = (folder / "server.log").open("wb")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError, ValueError):
                if _get_json(f"{base}/health", timeout=1).get("status") == "ok":
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                log.flush()
                tail = (folder / "server.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"the spawned server did not start:\n{tail}")
            time.sleep(0.1)
        yield base, process.pid
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        log.close()
        shutil.rmtree(folder, ignore_errors=True)


# --- statistics ------------------------------------------------------------------------


def percentile(values: list[float], fraction: float) -> float | None:
    """The nearest-rank percentile of ``values`` (None when empty)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(-(-fraction * len(ordered) // 1))))
    return ordered[rank - 1]


def timeline(times: list[tuple[float, float]], start: float) -> list[dict[str, Any]]:
    """Per second of play: moves sent that second, their p50/p99/max mover latency (ms)."""
    seconds: dict[int, list[float]] = {}
    for sent, latency in times:
        seconds.setdefault(int(sent - start), []).append(latency)
    rows = []
    for second in sorted(seconds):
        summary = latency_summary(seconds[second])
        rows.append(
            {
                "second": second,
                "moves": summary["count"],
                "p50_ms": summary["p50_ms"],
                "p99_ms": summary["p99_ms"],
                "max_ms": summary["max_ms"],
            }
        )
    return rows


def latency_summary(seconds: list[float]) -> dict[str, float | int | None]:
    def ms(value: float | None) -> float | None:
        return None if value is None else round(value * 1000, 2)

    return {
        "count": len(seconds),
        "p50_ms": ms(percentile(seconds, 0.50)),
        "p95_ms": ms(percentile(seconds, 0.95)),
        "p99_ms": ms(percentile(seconds, 0.99)),
        "max_ms": ms(max(seconds) if seconds else None),
    }


@dataclasses.dataclass
class Stats:
    mover_latency: list[float] = dataclasses.field(default_factory=list)
    #: (send time, mover latency) of every acknowledged move, for the timeline.
    mover_times: list[tuple[float, float]] = dataclasses.field(default_factory=list)
    all_latency: list[float] = dataclasses.field(default_factory=list)
    errors: Counter[str] = dataclasses.field(default_factory=Counter)
    moves_sent: int = 0
    moves_acked: int = 0
    games_finished: int = 0
    rss_samples: list[int] = dataclasses.field(default_factory=list)
    #: Reconnections by the close code that caused them (``"none"``: no close frame).
    reconnects: Counter[str] = dataclasses.field(default_factory=Counter)
    #: Hand-over notices received (``room_moved``, ``room_elsewhere``, ``draining``).
    handover_notices: Counter[str] = dataclasses.field(default_factory=Counter)
    #: Moves sent but never acknowledged because their connection moved before the
    #: server committed them (the new node's catch-up did not hold them): not lost, as
    #: nobody was told they were played, and the room moves on.
    moves_dropped_in_handover: int = 0

    notes: int = 0

    def error(self, kind: str) -> None:
        self.errors[kind] += 1

    def note(self, text: str) -> None:
        """Tell the first few failures on stderr as they happen (the counts are in the report)."""
        self.notes += 1
        if self.notes <= NOTES_SHOWN:
            print(f"cardtable loadtest: {text}", file=sys.stderr)
        elif self.notes == NOTES_SHOWN + 1:
            print("cardtable loadtest: more failures follow; see the report", file=sys.stderr)


# --- one seat, one room ----------------------------------------------------------------


@dataclasses.dataclass
class Pending:
    seat: int
    action: int
    version: int  # the version the move's event will carry
    game_no: int
    sent: float
    waiting: set[int]
    done: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)
    acked: bool = False


class SeatClient:
    """One scripted player: a WebSocket, the latest version and view it received."""

    def __init__(self, room: RoomDriver, seat: int, token: str) -> None:
        self.room = room
        self.seat = seat
        self.token = token
        self.version = 0
        self.view: dict[str, Any] | None = None
        self.game_no = 1
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.synced = asyncio.Event()
        self.last_sync: dict[str, Any] | None = None
        self.closing = False
        self.ws_url = ""
        self.compression = True
        #: Between a reconnection and the end of its catch-up (``chat_history``).
        self.reconnecting = False
        #: The room's version the last ``welcome`` gave.
        self.welcome_version = 0
        #: When the last connection was found closed (perf_counter).
        self.dropped_at = 0.0

    async def connect(self, ws_url: str, compression: bool) -> None:
        self.ws_url, self.compression = ws_url, compression
        await self._open()
        self.reader = asyncio.create_task(self._read())
        await self.send({"type": "hello", "token": self.token})

    async def _open(self) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(
            self.ws_url,
            compression="deflate" if self.compression else None,
            open_timeout=60,
            ping_interval=None,
            max_size=2**20,
            proxy=None,
        )

    async def send(self, data: dict[str, Any]) -> None:
        from websockets.exceptions import ConnectionClosed

        # A send on a socket that just closed is dropped: the reader reconnects, and
        # the room's driver sees from the catch-up whether the move was played.
        with contextlib.suppress(ConnectionClosed):
            await self.ws.send(json.dumps(data, separators=(",", ":")))

    async def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            while True:
                try:
                    async for text in self.ws:
                        now = time.perf_counter()
                        self.room.received(self, json.loads(text), now)
                    code = self.ws.close_code
                except ConnectionClosed as closed:
                    code = closed.rcvd.code if closed.rcvd else None
                if self.closing:
                    return
                if code not in RECONNECT_CODES:
                    self.room.stats.error(f"closed_{code}")
                    return
                self.room.stats.reconnects[str(code).lower()] += 1
                await self._reconnect()
        except Exception as error:
            self.room.stats.error(f"reader_{type(error).__name__}")
        finally:
            self.room.changed()

    async def _reconnect(self) -> None:
        """Connect again with jittered exponential back-off, as the web page does, and
        say ``hello`` with the last version: the server sends what was missed."""
        self.reconnecting = True
        self.dropped_at = time.perf_counter()
        deadline = time.monotonic() + RECONNECT_WINDOW
        attempt = 0
        while True:
            delay = min(BACKOFF_MAX, BACKOFF_FIRST * 2**attempt)
            await asyncio.sleep(delay / 2 + random.uniform(0, delay / 2))
            attempt += 1
            try:
                await self._open()
            except Exception as error:  # refused, reset, 503 from a draining node...
                if time.monotonic() > deadline:
                    raise TimeoutError(f"seat {self.seat}: no reconnection") from error
                continue
            break
        await self.send({"type": "hello", "token": self.token, "last_version": self.version})

    def my_turn(self) -> bool:
        view = self.view
        return bool(view and view.get("legal_actions") and view.get("result") is None)

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 10)
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.reader


class RoomDriver:
    """A room of scripted players that moves at a steady rate."""

    def __init__(self, index: int, options: LoadOptions, stats: Stats) -> None:
        self.index = index
        self.options = options
        self.stats = stats
        self.code = ""
        self.host_token = ""
        self.clients: list[SeatClient] = []
        self.pending: dict[int, Pending] = {}
        self.acked: list[tuple[int, int, int, int]] = []  # (game_no, version, seat, action)
        self.rng = random.Random(options.seed * 100_003 + index)
        self._changed = asyncio.Event()
        self.broken = False

    # --- setup ---------------------------------------------------------------
    async def setup(self) -> None:
        base = self.options.url.rstrip("/")
        body: dict[str, Any] = {
            "game": self.options.game,
            "options": {"players": self.options.seats, **self.options.options},
            "name": "p0",
        }
        created = await asyncio.to_thread(_post_json, f"{base}/api/rooms", body)
        self.code, self.host_token = created["code"], created["host_token"]
        tokens = {created["seat"]: created["token"]}
        for _ in range(self.options.seats - 1):
            joined = await asyncio.to_thread(
                _post_json, f"{base}/api/rooms/{self.code}/join", {"name": f"p{len(tokens)}"}
            )
            tokens[joined["seat"]] = joined["token"]
        ws_url = created["ws_url"]
        self.clients = [SeatClient(self, seat, tokens[seat]) for seat in sorted(tokens)]
        for seat_client in self.clients:
            await seat_client.connect(ws_url, self.options.compression)
        await self.wait(lambda: all(c.synced.is_set() for c in self.clients), "hello")
        await self.clients[0].send({"type": "start", "host_token": self.host_token})
        await self.wait(self._all_have_game, "start")

    def _all_have_game(self) -> bool:
        return all(c.view is not None for c in self.clients) and self._same_version()

    def _same_version(self) -> bool:
        return len({c.version for c in self.clients}) == 1

    def _settled(self) -> bool:
        """Every seat connected, caught up and at the same version: the next move's turn."""
        return self._same_version() and not self.reconnecting()

    async def wait(self, ready: Any, what: str, timeout: float = MOVE_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            if self.reconnecting():
                # A seat on its way to the room's new node: its back-off has its own limit.
                deadline = max(deadline, time.monotonic() + 1.0)
            left = deadline - time.monotonic()
            if left <= 0 or self.broken:
                raise TimeoutError(f"room {self.code}: no {what} within {timeout} s")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)

    def changed(self) -> None:
        self._changed.set()

    def reconnecting(self) -> bool:
        return any(client.reconnecting for client in self.clients)

    # --- messages ------------------------------------------------------------
    def received(self, client: SeatClient, message: dict[str, Any], now: float) -> None:
        kind = message.get("type")
        if kind == "event":
            client.version = message["version"]
            if message.get("kind") in ("start", "move"):
                client.view = message.get("view")
                client.game_no = message.get("game_no", client.game_no)
            if message.get("kind") == "move":
                self._move_seen(client, message, now)
        elif kind == "sync":
            client.version = message["version"]
            client.view = message.get("view")
            client.game_no = message.get("game_no", client.game_no)
            client.last_sync = message
            client.synced.set()
            self._synced_past(client, message["version"])
        elif kind == "welcome":
            client.welcome_version = message["version"]
            if not client.reconnecting:
                client.version = message["version"]
        elif kind == "chat_history" and client.reconnecting:
            # Sent after the welcome and the catch-up: this seat has seen every
            # committed move again, so a move of its own still pending was not played.
            client.reconnecting = False
            self._drop_uncommitted(client)
        elif kind == "error":
            code = message.get("code")
            if code in HANDOVER_ERRORS:
                self.stats.handover_notices[str(code)] += 1
            else:
                self.stats.error(f"error_{code}")
        self.changed()

    def _synced_past(self, client: SeatClient, version: int) -> None:
        """A ``sync`` (instead of a catch-up) covers every move up to its version."""
        for pending in list(self.pending.values()):
            if pending.version <= version:
                self._seen_by(pending, client.seat)

    def _drop_uncommitted(self, client: SeatClient) -> None:
        for pending in list(self.pending.values()):
            if (
                pending.seat == client.seat
                and pending.sent < client.dropped_at
                and pending.version > client.welcome_version
            ):
                self.stats.moves_dropped_in_handover += 1
                pending.done.set()
                del self.pending[pending.version]

    def _move_seen(self, client: SeatClient, message: dict[str, Any], now: float) -> None:
        pending = self.pending.get(message["version"])
        if pending is None:
            self.stats.error("unexpected_move")
            return
        outcome = message.get("outcome") or {}
        if client.seat == pending.seat:
            if outcome.get("seat") == pending.seat and outcome.get("action") == pending.action:
                pending.acked = True
                self.stats.moves_acked += 1
                self.stats.mover_latency.append(now - pending.sent)
                self.stats.mover_times.append((pending.sent, now - pending.sent))
                self.acked.append((pending.game_no, pending.version, pending.seat, pending.action))
            else:
                self.stats.error("wrong_move_broadcast")
        self._seen_by(pending, client.seat, now)

    def _seen_by(self, pending: Pending, seat: int, now: float | None = None) -> None:
        pending.waiting.discard(seat)
        if not pending.waiting:
            if now is not None:
                self.stats.all_latency.append(now - pending.sent)
            pending.done.set()
            del self.pending[pending.version]

    # --- play ----------------------------------------------------------------
    async def run(self, stop_at: float) -> None:
        """Move at the room's rate until ``stop_at`` (perf_counter), then let moves land."""
        period = 1.0 / self.options.rate
        next_at = time.perf_counter() + self.rng.uniform(0, period)
        try:
            while True:
                delay = next_at - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                if time.perf_counter() >= stop_at:
                    return
                await self.step()
                next_at = max(next_at + period, time.perf_counter())
        except TimeoutError as error:
            self.broken = True
            self.stats.error("timeout")
            self.stats.note(str(error))

    async def step(self) -> None:
        """One move of the seat to move, or a rematch after the end; waits for its echo."""
        await self.wait(self._settled, "common version")
        movers = [c for c in self.clients if c.my_turn()]
        if not movers:
            view = self.clients[0].view
            if view is not None and view.get("result") is not None:
                await self._rematch()
                return
            self.stats.error("no_mover")
            raise TimeoutError(f"room {self.code}: no seat has a legal action")
        mover = movers[0]
        assert mover.view is not None
        action = self.rng.choice(mover.view["legal_actions"])
        version = mover.version + 1
        pending = Pending(
            mover.seat,
            action,
            version,
            mover.game_no,
            time.perf_counter(),
            {c.seat for c in self.clients},
        )
        self.pending[version] = pending
        self.stats.moves_sent += 1
        await mover.send(
            {"type": "move", "token": mover.token, "version": mover.version, "action": action}
        )
        try:
            await self.wait(pending.done.is_set, f"answer to move {version}")
        except TimeoutError:
            self.stats.error("unanswered_move")
            raise

    async def _rematch(self) -> None:
        self.stats.games_finished += 1
        host = self.clients[0]
        target = host.version + 1
        await host.send({"type": "rematch", "host_token": self.host_token})
        await self.wait(lambda: all(c.version >= target for c in self.clients), "rematch")
        await host.send({"type": "start", "host_token": self.host_token})
        await self.wait(
            lambda: all(c.version >= target + 1 and c.view for c in self.clients), "restart"
        )

    # --- checks --------------------------------------------------------------
    async def check(self) -> int:
        """Lost moves: acknowledged moves missing from the stored log or the final resync."""
        if not self.clients:
            return 0
        base = self.options.url.rstrip("/")
        lost = 0
        by_game: dict[int, set[tuple[int, int, int]]] = {}
        for game_no in sorted({game for game, *_ in self.acked}):
            try:
                log = await asyncio.to_thread(
                    _get_json, f"{base}/api/rooms/{self.code}/games/{game_no}"
                )
            except (OSError, ValueError):
                self.stats.error("log_unreadable")
                log = {"moves": []}
            by_game[game_no] = {
                (move["version"], move["seat"], move["action"]) for move in log["moves"]
            }
        for game_no, version, seat, action in self.acked:
            if (version, seat, action) not in by_game.get(game_no, set()):
                lost += 1
        host = self.clients[0]
        host.synced.clear()
        newest = max((version for _, version, *_ in self.acked), default=0)
        try:
            await host.send({"type": "resync"})
            await asyncio.wait_for(host.synced.wait(), MOVE_TIMEOUT)
        except (TimeoutError, Exception):
            self.stats.error("final_resync")
            return lost
        synced = host.last_sync or {}
        if synced.get("version", 0) < newest:
            lost += sum(1 for _, version, *_ in self.acked if version > synced.get("version", 0))
        return lost

    async def close(self) -> None:
        await asyncio.gather(*(c.close() for c in self.clients))


# --- the whole test --------------------------------------------------------------------


def _bot_moves(url: str) -> int | None:
    """Bot moves the server committed so far (``/metrics``), None if unreadable."""
    try:
        with urllib.request.urlopen(f"{url.rstrip('/')}/metrics", timeout=10) as response:
            for line in response.read().decode().splitlines():
                if line.startswith('cardtable_moves_total{by="bot"} '):
                    return int(float(line.split()[1]))
    except (OSError, ValueError):
        return None
    return None


def bot_of_room(levels: str, index: int) -> str:
    """The level of bot room ``index``: ``levels`` (comma-separated) taken in turn."""
    names = [name.strip() for name in levels.split(",") if name.strip()]
    return names[index % len(names)]


async def start_bot_room(options: LoadOptions, index: int = 0) -> None:
    """Create bot room number ``index``, every seat one of ``options.bot``'s levels (a
    comma-separated list, taken in turn by the rooms), and start it (its bots then
    play on their own, in the server's bot workers, with nobody connected)."""
    from websockets.asyncio.client import connect

    base = options.url.rstrip("/")
    players = options.seats
    body: dict[str, Any] = {
        "game": options.game,
        "options": {"players": players, **options.options},
        "seats": [{"kind": SeatKind.BOT.value, "bot": bot_of_room(options.bot, index)}] * players,
    }
    created = await asyncio.to_thread(_post_json, f"{base}/api/rooms", body)
    async with connect(created["ws_url"], open_timeout=60, proxy=None) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        await ws.send(json.dumps({"type": "start", "host_token": created["host_token"]}))
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), MOVE_TIMEOUT))
            if message.get("type") == "event" and message.get("kind") == "start":
                return
            if message.get("type") == "error":
                raise ValueError(f"bot room refused: {message.get('code')}")


async def _sample_memory(pid: int, stats: Stats, stop: asyncio.Event) -> None:
    while not stop.is_set():
        rss = rss_bytes(pid)
        if rss is not None:
            stats.rss_samples.append(rss)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 1.0)


async def run_loadtest(
    options: LoadOptions, on_play: Callable[[], None] | None = None
) -> dict[str, Any]:
    """Drive ``options.rooms`` rooms against the server at ``options.url``; the report.
    ``on_play`` is called once every room is set up, as the timed play begins."""
    stats = Stats()
    load_before = os.getloadavg()
    rss_idle = None if options.server_pid is None else rss_bytes(options.server_pid)
    stop_sampling = asyncio.Event()
    sampler = None
    if options.server_pid is not None:
        sampler = asyncio.create_task(_sample_memory(options.server_pid, stats, stop_sampling))
    rooms = [RoomDriver(index, options, stats) for index in range(options.rooms)]
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def set_up(room: RoomDriver) -> bool:
        async with gate:
            try:
                await room.setup()
            except (OSError, TimeoutError, ValueError, KeyError) as error:
                if isinstance(error, urllib.error.HTTPError):
                    detail = error.read().decode(errors="replace")[:200]
                    stats.error(f"http_{error.code}")
                    stats.note(f"setup: HTTP {error.code} {detail}")
                else:
                    stats.error(f"setup_{type(error).__name__}")
                    stats.note(f"setup: {error!r}")
                room.broken = True
                return False
            return True

    setup_started = time.perf_counter()

    async def bot_room(index: int) -> bool:
        async with gate:
            try:
                await start_bot_room(options, index)
            except (OSError, TimeoutError, ValueError, KeyError) as error:
                stats.error(f"bot_setup_{type(error).__name__}")
                stats.note(f"bot room setup: {error!r}")
                return False
            return True

    bot_rooms = sum(await asyncio.gather(*map(bot_room, range(options.bot_rooms))))
    ready = [
        room
        for room, ok in zip(rooms, await asyncio.gather(*map(set_up, rooms)), strict=True)
        if ok
    ]
    setup_seconds = time.perf_counter() - setup_started
    rss_ready = None if options.server_pid is None else rss_bytes(options.server_pid)
    pid = options.server_pid
    server_cpu_before = None if pid is None else cpu_seconds(pid)
    own_cpu_before = time.process_time()
    server_sched_before = None if pid is None else sched_seconds(pid)
    own_sched_before = sched_seconds(os.getpid())
    bot_moves_before = await asyncio.to_thread(_bot_moves, options.url)
    if on_play is not None:
        on_play()
    started = time.perf_counter()
    await asyncio.gather(*(room.run(started + options.duration) for room in ready))
    played = time.perf_counter() - started
    bot_moves_after = await asyncio.to_thread(_bot_moves, options.url)
    own_cpu = time.process_time() - own_cpu_before
    server_sched = _sched_delta(server_sched_before, None if pid is None else sched_seconds(pid))
    own_sched = _sched_delta(own_sched_before, sched_seconds(os.getpid()))
    server_cpu_after = None if pid is None else cpu_seconds(pid)
    server_cpu = (
        None
        if server_cpu_before is None or server_cpu_after is None
        else server_cpu_after - server_cpu_before
    )
    lost = sum(await asyncio.gather(*(room.check() for room in ready)))
    load_after = os.getloadavg()
    stop_sampling.set()
    if sampler is not None:
        await sampler
    rss_end = None if options.server_pid is None else rss_bytes(options.server_pid)
    await asyncio.gather(*(room.close() for room in rooms))

    def mib(value: int | None) -> float | None:
        return None if value is None else round(value / 2**20, 1)

    return {
        "url": options.url,
        "game": options.game,
        "rooms": options.rooms,
        "rooms_ready": len(ready),
        "seats": options.seats,
        "connections": sum(len(room.clients) for room in rooms),
        "bot_rooms": options.bot_rooms,
        "bot_rooms_ready": bot_rooms,
        "bot": options.bot,
        "bot_moves_during_play": (
            None
            if bot_moves_before is None or bot_moves_after is None
            else bot_moves_after - bot_moves_before
        ),
        "rate_per_room": options.rate,
        "duration_s": round(played, 2),
        "setup_s": round(setup_seconds, 2),
        "moves_sent": stats.moves_sent,
        "moves_acked": stats.moves_acked,
        "moves_per_s": round(stats.moves_acked / played, 1) if played > 0 else None,
        "games_finished": stats.games_finished,
        "latency_mover": latency_summary(stats.mover_latency),
        "latency_all_seats": latency_summary(stats.all_latency),
        "errors": sum(stats.errors.values()),
        "error_kinds": dict(sorted(stats.errors.items())),
        "reconnects": dict(sorted(stats.reconnects.items())),
        "handover_notices": dict(sorted(stats.handover_notices.items())),
        "moves_dropped_in_handover": stats.moves_dropped_in_handover,
        "lost_moves": lost,
        "server_pid": options.server_pid,
        "server_rss_mib": {
            "idle": mib(rss_idle),
            "rooms_ready": mib(rss_ready),
            "peak": mib(max(stats.rss_samples) if stats.rss_samples else None),
            "end": mib(rss_end),
        },
        "cpu_s_during_play": {
            "server": None if server_cpu is None else round(server_cpu, 2),
            "loadtest": round(own_cpu, 2),
        },
        # The event-loop threads: time on a CPU and time runnable but waiting for one.
        "main_thread_sched": {"server": server_sched, "loadtest": own_sched},
        "loadavg_before": [round(value, 2) for value in load_before],
        "loadavg_after": [round(value, 2) for value in load_after],
        "cpus": os.cpu_count(),
        "compression": options.compression,
        "event_loop": type(asyncio.get_running_loop()).__module__.split(".")[0],
        "timeline": timeline(stats.mover_times, started),
    }


def _sched_text(sched: dict[str, float] | None) -> str:
    if sched is None:
        return "n/a"
    return f"{sched['on_cpu_s']} s on CPU, {sched['waiting_s']} s waiting for a CPU"


def _handover_text(report: dict[str, Any]) -> str:
    def counts(counter: dict[str, int]) -> str:
        return ", ".join(f"{key} {value}" for key, value in counter.items()) or "none"

    return (
        f"reconnects {sum(report['reconnects'].values())} (by close code: "
        f"{counts(report['reconnects'])}); notices: {counts(report['handover_notices'])}; "
        f"moves not played in a hand-over {report['moves_dropped_in_handover']}"
    )


def format_report(report: dict[str, Any]) -> str:
    """The report as a plain two-column table."""

    def text(value: Any) -> str:
        return "n/a" if value is None else str(value)

    def latency(key: str) -> str:
        data = report[key]
        parts = [f"{name} {text(data[f'{name}_ms'])}" for name in ("p50", "p95", "p99", "max")]
        return f"{', '.join(parts)} ms ({data['count']} moves)"

    rss = report["server_rss_mib"]
    rows = [
        ("server", report["url"]),
        ("rooms ready", f"{report['rooms_ready']} of {report['rooms']} ({report['game']})"),
        ("connections", text(report["connections"])),
        ("setup", f"{report['setup_s']} s"),
        ("duration", f"{report['duration_s']} s at {report['rate_per_room']} move/s per room"),
        ("moves sent / acked", f"{report['moves_sent']} / {report['moves_acked']}"),
        ("moves per second", text(report["moves_per_s"])),
        ("games finished", text(report["games_finished"])),
        ("latency (mover)", latency("latency_mover")),
        ("latency (all seats)", latency("latency_all_seats")),
        ("errors", text(report["errors"])),
        ("lost moves", text(report["lost_moves"])),
    ]
    if report.get("reconnects") or report.get("handover_notices"):
        rows.append(("hand-overs", _handover_text(report)))
    rows += [
        (
            "server RSS (MiB)",
            f"idle {text(rss['idle'])}, rooms ready {text(rss['rooms_ready'])}, "
            f"peak {text(rss['peak'])}, end {text(rss['end'])}",
        ),
        (
            "CPU during play",
            f"server {text(report['cpu_s_during_play']['server'])} s, "
            f"load test {text(report['cpu_s_during_play']['loadtest'])} s",
        ),
        (
            "event loop threads",
            f"server {_sched_text(report['main_thread_sched']['server'])}; "
            f"load test {_sched_text(report['main_thread_sched']['loadtest'])}",
        ),
        (
            "load average",
            f"before {' '.join(map(str, report['loadavg_before']))}, "
            f"after {' '.join(map(str, report['loadavg_after']))} ({report['cpus']} CPUs)",
        ),
    ]
    if report.get("bot_rooms"):
        rows.insert(
            3,
            (
                "bot rooms",
                f"{report['bot_rooms_ready']} of {report['bot_rooms']} ({report['bot']}), "
                f"{text(report['bot_moves_during_play'])} bot moves during play",
            ),
        )
    for kind, count in report["error_kinds"].items():
        rows.append((f"  {kind}", str(count)))
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)


# --- command line ----------------------------------------------------------------------


def _json_object(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise argparse.ArgumentTypeError(f"not JSON: {error}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("must be a JSON object")
    return value


def add_loadtest_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rooms", type=positive_int, default=10, help="rooms to drive (10)")
    parser.add_argument("--seats", type=positive_int, default=4, help="human seats per room (4)")
    parser.add_argument(
        "--url", default="http://127.0.0.1:8000", help="server base URL (http://127.0.0.1:8000)"
    )
    parser.add_argument(
        "--duration", type=positive_float, default=30.0, help="seconds of play (30)"
    )
    parser.add_argument(
        "--rate",
        type=positive_float,
        default=1.0,
        help="moves per second per room (1.0); the server closes a connection that sends "
        "more than 10 a second",
    )
    parser.add_argument("--game", choices=("skyjo", "skipbo"), default="skyjo", help="(skyjo)")
    parser.add_argument(
        "--options", type=_json_object, default={}, metavar="JSON", help="extra rules options"
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--server-pid", type=int, metavar="PID", help="server process whose memory to report"
    )
    where.add_argument(
        "--spawn",
        action="store_true",
        help="start a server on a free port with a temporary SQLite file (ignores --url)",
    )
    parser.add_argument(
        "--no-compression",
        dest="compression",
        action="store_false",
        help="do not offer permessage-deflate (browsers do offer it)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the players' choices (0)")
    parser.add_argument(
        "--bot-rooms",
        type=non_negative_int,
        default=0,
        metavar="N",
        help="also start N rooms with a bot in every seat, playing beside the human rooms (0)",
    )
    parser.add_argument(
        "--bot",
        default="expert",
        metavar="LEVEL[,LEVEL...]",
        help="the bot of those rooms; several levels are taken in turn by the rooms (expert)",
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the report as JSON")


def _raise_file_limit(connections: int) -> None:
    """Let this process hold ``connections`` sockets (the soft limit is often 1024)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + 256
    if soft != resource.RLIM_INFINITY and soft < wanted:
        new = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))


def run_on_uvloop(main: Coroutine[Any, Any, dict[str, Any]]) -> dict[str, Any]:
    """Run on uvloop when it is installed (uvicorn's standard extra brings it), as the
    server does, so the players' own overhead stays small."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)


def run_loadtest_command(args: argparse.Namespace) -> dict[str, Any]:
    """Run the load test the arguments describe, print the table, write ``--json``."""
    _raise_file_limit(args.rooms * args.seats + args.bot_rooms)
    options = LoadOptions(
        url=args.url,
        rooms=args.rooms,
        seats=args.seats,
        duration=args.duration,
        rate=args.rate,
        game=args.game,
        options=args.options,
        server_pid=args.server_pid,
        compression=args.compression,
        seed=args.seed,
        bot_rooms=args.bot_rooms,
        bot=args.bot,
    )
    with contextlib.ExitStack() as stack:
        if args.spawn:
            url, pid = stack.enter_context(spawned_server(args.rooms + args.bot_rooms))
            options = dataclasses.replace(options, url=url, server_pid=pid)
        report = run_on_uvloop(run_loadtest(options))
    print(format_report(report), flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return report


def add_loadtest_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> None:
    """The ``cardtable loadtest`` subcommand and its flags."""
    loadtest = subparsers.add_parser(
        "loadtest", help="drive many rooms of scripted players against a table server"
    )
    add_loadtest_arguments(loadtest)


def run_loadtest_cli(args: argparse.Namespace) -> None:
    """The CLI's entry: run the load test; the report is printed (and written by ``--json``)."""
    run_loadtest_command(args)
