"""A room of scripted players that moves at a steady rate: set up over HTTP, one
seat after another moving at random among its legal actions, a rematch after each game,
and at the end a check that no acknowledged move was lost."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
import time
from typing import Any

from .loadtest_options import MOVE_TIMEOUT, LoadOptions
from .loadtest_seat import SeatClient
from .loadtest_server import get_json, post_json
from .loadtest_stats import Stats

#: Error codes a cluster sends with the closes a seat reconnects after
#: (:data:`~cardtable.bench.loadtest_seat.RECONNECT_CODES`): hand-over notices, not failures.
HANDOVER_ERRORS = frozenset({"room_moved", "room_elsewhere", "draining"})


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
        created = await asyncio.to_thread(post_json, f"{base}/api/rooms", body)
        self.code, self.host_token = created["code"], created["host_token"]
        tokens = {created["seat"]: created["token"]}
        for _ in range(self.options.seats - 1):
            joined = await asyncio.to_thread(
                post_json, f"{base}/api/rooms/{self.code}/join", {"name": f"p{len(tokens)}"}
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
                    get_json, f"{base}/api/rooms/{self.code}/games/{game_no}"
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
