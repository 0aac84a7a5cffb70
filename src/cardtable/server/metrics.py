"""What a server measures, for Prometheus (``GET /metrics``, text format 0.0.4).

Counts a scrape reads from the table as it is (rooms, sockets, the bot pool's
queue), counters the rooms add to (moves, stand-ins), and a histogram of the
server's own move latency: from a human's move message being handled to its event
being queued for every connection of the room (the lock wait, the engine and the
database commit included; the network to the player is not).
"""

from __future__ import annotations

import bisect
import gc
import time
from collections.abc import Collection, Mapping, Sequence
from typing import Any, Protocol

from ..statuses import RoomStatus
from .botseats import BotPool
from .connections import Connection

#: Upper bounds of the move latency buckets, in seconds.
MOVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
#: Upper bounds of the garbage collector's pause buckets, in seconds.
GC_BUCKETS = (0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)


class MeasuredRoom(Protocol):
    @property
    def status(self) -> str: ...
    @property
    def connections(self) -> Collection[Connection]: ...


class MeasuredTable(Protocol):
    """What a scrape reads of the table (:class:`cardtable.server.table.Table`)."""

    @property
    def rooms(self) -> Mapping[str, MeasuredRoom]: ...
    @property
    def bots(self) -> BotPool: ...
    @property
    def reviews_running(self) -> int: ...
    @property
    def move_commits(self) -> int: ...


class Histogram:
    """Cumulative buckets, a sum and a count, as Prometheus reads them."""

    def __init__(self, bounds: Sequence[float]) -> None:
        self.bounds = tuple(bounds)
        self.counts = [0] * (len(self.bounds) + 1)  # the last one: above every bound
        self.total = 0.0
        self.count = 0

    def observe(self, value: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, value)] += 1
        self.total += value
        self.count += 1

    def lines(self, name: str) -> list[str]:
        lines = []
        running = 0
        for bound, count in zip(self.bounds, self.counts, strict=False):
            running += count
            lines.append(f'{name}_bucket{{le="{bound:g}"}} {running}')
        lines.append(f'{name}_bucket{{le="+Inf"}} {self.count}')
        lines.append(f"{name}_sum {self.total:.6f}")
        lines.append(f"{name}_count {self.count}")
        return lines


class GcPauses:
    """How long each garbage collection of the process stops it (every thread, the
    event loop included), timed by a ``gc.callbacks`` hook while installed."""

    def __init__(self) -> None:
        self.seconds = Histogram(GC_BUCKETS)
        self.collections = [0, 0, 0]
        self._began = 0.0

    def _hook(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        elif self._began:
            self.seconds.observe(time.perf_counter() - self._began)
            generation = int(info.get("generation", 0))
            if 0 <= generation < len(self.collections):
                self.collections[generation] += 1

    def install(self) -> None:
        if self._hook not in gc.callbacks:
            gc.callbacks.append(self._hook)

    def uninstall(self) -> None:
        if self._hook in gc.callbacks:
            gc.callbacks.remove(self._hook)


class Metrics:
    """The counters and the histogram one server adds to."""

    def __init__(self) -> None:
        self.move_seconds = Histogram(MOVE_BUCKETS)
        self.gc = GcPauses()
        self.moves = {"human": 0, "bot": 0}
        #: Rooms this node took a lease of (created rooms excluded), and lost to another.
        self.adoptions = 0
        self.rooms_lost = 0
        #: Rooms this node handed over on purpose (asked for by another node, or drained).
        self.handed_over = 0
        #: Turns a bot finished because the player's time (``turn_seconds``) ran out.
        self.turn_timeouts = 0
        #: Chat lines and reactions refused by their rate limit.
        self.chat_refused = 0

    def render(self, table: MeasuredTable) -> str:
        """Every metric in the Prometheus text format."""
        out: list[str] = []

        def metric(name: str, kind: str, help_text: str, samples: list[str]) -> None:
            out.append(f"# HELP {name} {help_text}")
            out.append(f"# TYPE {name} {kind}")
            out.extend(samples)

        by_status: dict[str, int] = {status.value: 0 for status in RoomStatus}
        connections = players = 0
        for room in table.rooms.values():
            by_status[room.status] = by_status.get(room.status, 0) + 1
            connections += len(room.connections)
            players += sum(1 for conn in room.connections if conn.seat is not None)
        metric(
            "cardtable_rooms",
            "gauge",
            "Live rooms of this server, by status.",
            [
                f'cardtable_rooms{{status="{status}"}} {n}'
                for status, n in sorted(by_status.items())
            ],
        )
        metric(
            "cardtable_connections",
            "gauge",
            "Open WebSocket connections (players and spectators).",
            [f"cardtable_connections {connections}"],
        )
        metric(
            "cardtable_player_connections",
            "gauge",
            "Open WebSocket connections holding a seat.",
            [f"cardtable_player_connections {players}"],
        )
        metric(
            "cardtable_moves_total",
            "counter",
            "Moves committed, by who played them.",
            [f'cardtable_moves_total{{by="{by}"}} {n}' for by, n in sorted(self.moves.items())],
        )
        metric(
            "cardtable_move_commits_total",
            "counter",
            "Database transactions that committed moves (a group commit carries every move"
            " that arrived while the one before it was being written).",
            [f"cardtable_move_commits_total {table.move_commits}"],
        )
        metric(
            "cardtable_move_seconds",
            "histogram",
            "Server time of a human move: handled to broadcast (lock, engine, commit).",
            self.move_seconds.lines("cardtable_move_seconds"),
        )
        metric(
            "cardtable_gc_pause_seconds",
            "histogram",
            "Garbage collections of the server process: how long each stopped it.",
            self.gc.seconds.lines("cardtable_gc_pause_seconds"),
        )
        metric(
            "cardtable_gc_collections_total",
            "counter",
            "Garbage collections of the server process, by generation.",
            [
                f'cardtable_gc_collections_total{{generation="{generation}"}} {n}'
                for generation, n in enumerate(self.gc.collections)
            ],
        )
        metric(
            "cardtable_lease_adoptions_total",
            "counter",
            "Rooms this node took over: restored at start, or adopted from a node gone.",
            [f"cardtable_lease_adoptions_total {self.adoptions}"],
        )
        metric(
            "cardtable_lease_lost_total",
            "counter",
            "Rooms this node lost to another node (lease taken over).",
            [f"cardtable_lease_lost_total {self.rooms_lost}"],
        )
        metric(
            "cardtable_lease_handovers_total",
            "counter",
            "Rooms this node handed over: asked for by another node, or drained.",
            [f"cardtable_lease_handovers_total {self.handed_over}"],
        )
        bots = table.bots
        metric(
            "cardtable_bot_queue_depth",
            "gauge",
            "Bot moves and hints waiting for a free worker.",
            [f"cardtable_bot_queue_depth {bots.workers.waiting}"],
        )
        metric(
            "cardtable_bot_workers_replaced_total",
            "counter",
            "Bot and review workers replaced after dying or stalling.",
            [
                "cardtable_bot_workers_replaced_total "
                f"{bots.workers.replaced + bots.reviewers.replaced}"
            ],
        )
        metric(
            "cardtable_bot_stand_ins_total",
            "counter",
            "Bot moves played by the stand-in bot because the seat's bot could not.",
            [f"cardtable_bot_stand_ins_total {bots.stand_ins}"],
        )
        metric(
            "cardtable_turn_timeouts_total",
            "counter",
            "Turns a bot finished because the player's turn time limit ran out.",
            [f"cardtable_turn_timeouts_total {self.turn_timeouts}"],
        )
        metric(
            "cardtable_chat_refused_total",
            "counter",
            "Chat lines and reactions refused by their rate limit.",
            [f"cardtable_chat_refused_total {self.chat_refused}"],
        )
        metric(
            "cardtable_reviews_running",
            "gauge",
            "Post-game reviews being worked out.",
            [f"cardtable_reviews_running {table.reviews_running}"],
        )
        return "\n".join(out) + "\n"
