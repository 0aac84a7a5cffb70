"""What a server measures, for Prometheus (``GET /metrics``, text format 0.0.4), with
the Prometheus client library: its standard process, platform and garbage-collector
metrics, and ours.

Counts a scrape reads from the table as it is (rooms, sockets, the bot pool's
queue), counters the rooms add to (moves, stand-ins), and a histogram of the
server's own move latency: from a human's move message being handled to its event
being queued for every connection of the room (the lock wait, the engine and the
database commit included; the network to the player is not).

Each table has a registry of its own (a process may hold several tables, as the tests
do); the counters the rooms add to are plain integers, read at the scrape like the
table's gauges, so a move pays an integer addition and no lock.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Collection, Iterator, Mapping
from typing import Any, Protocol

from prometheus_client import (
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Histogram,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from ...statuses import RoomStatus

#: The content type of the text format the scrape answers in.
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
#: Upper bounds of the move latency buckets, in seconds.
MOVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
#: Upper bounds of the garbage collector's pause buckets, in seconds.
GC_BUCKETS = (0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)


class MeasuredConnection(Protocol):
    @property
    def seat(self) -> int | None: ...


class MeasuredRoom(Protocol):
    @property
    def status(self) -> str: ...
    @property
    def connections(self) -> Collection[MeasuredConnection]: ...


class MeasuredWorkers(Protocol):
    @property
    def waiting(self) -> int: ...
    @property
    def replaced(self) -> int: ...


class MeasuredBots(Protocol):
    """What a scrape reads of the bot pool (:class:`cardtable.server.rooms.bot_seats.BotPool`)."""

    @property
    def workers(self) -> MeasuredWorkers: ...
    @property
    def reviewers(self) -> MeasuredWorkers: ...
    @property
    def stand_ins(self) -> int: ...


class MeasuredLocks(Protocol):
    @property
    def deadlocks(self) -> int: ...
    @property
    def lock_waits(self) -> int: ...


class MeasuredStorage(Protocol):
    @property
    def lock_trouble(self) -> MeasuredLocks: ...


class MeasuredTable(Protocol):
    """What a scrape reads of the table (:class:`cardtable.server.rooms.table.Table`)."""

    @property
    def rooms(self) -> Mapping[str, MeasuredRoom]: ...
    @property
    def bots(self) -> MeasuredBots: ...
    @property
    def storage(self) -> MeasuredStorage: ...
    @property
    def reviews_running(self) -> int: ...
    @property
    def move_commits(self) -> int: ...


class GcPauses:
    """How long each garbage collection of the process stops it (every thread, the
    event loop included), timed by a ``gc.callbacks`` hook while installed."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.seconds = Histogram(
            "cardtable_gc_pause_seconds",
            "Garbage collections of the server process: how long each stopped it.",
            buckets=GC_BUCKETS,
            registry=registry,
        )
        self.collections = [0, 0, 0]
        self._began = 0.0

    # The hook runs wherever a collection starts, any thread, even inside the client
    # library's own code: safe, since the library holds its locks only around float
    # arithmetic, which allocates no container and so never starts a collection.
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
    """The counters and the histograms one server adds to, and its scrape."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.move_seconds = Histogram(
            "cardtable_move_seconds",
            "Server time of a human move: handled to broadcast (lock, engine, commit).",
            buckets=MOVE_BUCKETS,
            registry=self.registry,
        )
        self.gc = GcPauses(self.registry)
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

    def render(self, table: MeasuredTable) -> bytes:
        """Every metric in the Prometheus text format: the library's process, platform
        and garbage-collector metrics, this table's histograms, and what the table and
        the counters say now."""
        scrape = CollectorRegistry(auto_describe=False)
        for collector in (PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR, self.registry):
            scrape.register(_Forward(collector))
        scrape.register(_TableCollector(table, self))
        return generate_latest(scrape)


class _Forward(Collector):
    """One registry's (or collector's) metrics, inside another scrape."""

    def __init__(self, source: Collector) -> None:
        self.source = source

    def collect(self) -> Iterator[Metric]:
        return iter(self.source.collect())


def _counter(name: str, help_text: str, value: float) -> CounterMetricFamily:
    return CounterMetricFamily(name, help_text, value=value)


def _gauge(name: str, help_text: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, help_text, value=value)


class _TableCollector(Collector):
    """What the table and the counters say at the scrape."""

    def __init__(self, table: MeasuredTable, metrics: Metrics) -> None:
        self.table = table
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        table, metrics = self.table, self.metrics
        by_status: dict[str, int] = {status.value: 0 for status in RoomStatus}
        connections = players = 0
        for room in table.rooms.values():
            by_status[room.status] = by_status.get(room.status, 0) + 1
            connections += len(room.connections)
            players += sum(1 for conn in room.connections if conn.seat is not None)
        rooms = GaugeMetricFamily(
            "cardtable_rooms", "Live rooms of this server, by status.", labels=["status"]
        )
        for status, n in sorted(by_status.items()):
            rooms.add_metric([status], n)
        yield rooms
        yield _gauge(
            "cardtable_connections",
            "Open WebSocket connections (players and spectators).",
            connections,
        )
        yield _gauge(
            "cardtable_player_connections", "Open WebSocket connections holding a seat.", players
        )
        moves = CounterMetricFamily(
            "cardtable_moves", "Moves committed, by who played them.", labels=["by"]
        )
        for by, n in sorted(metrics.moves.items()):
            moves.add_metric([by], n)
        yield moves
        yield _counter(
            "cardtable_move_commits",
            "Database transactions that committed moves (a group commit carries every move"
            " that arrived while the one before it was being written).",
            table.move_commits,
        )
        collections = CounterMetricFamily(
            "cardtable_gc_collections",
            "Garbage collections of the server process, by generation.",
            labels=["generation"],
        )
        for generation, n in enumerate(metrics.gc.collections):
            collections.add_metric([str(generation)], n)
        yield collections
        yield _counter(
            "cardtable_lease_adoptions",
            "Rooms this node took over: restored at start, or adopted from a node gone.",
            metrics.adoptions,
        )
        yield _counter(
            "cardtable_lease_lost",
            "Rooms this node lost to another node (lease taken over).",
            metrics.rooms_lost,
        )
        yield _counter(
            "cardtable_lease_handovers",
            "Rooms this node handed over: asked for by another node, or drained.",
            metrics.handed_over,
        )
        bots = table.bots
        yield _gauge(
            "cardtable_bot_queue_depth",
            "Bot moves and hints waiting for a free worker.",
            bots.workers.waiting,
        )
        yield _counter(
            "cardtable_bot_workers_replaced",
            "Bot and review workers replaced after dying or stalling.",
            bots.workers.replaced + bots.reviewers.replaced,
        )
        yield _counter(
            "cardtable_bot_stand_ins",
            "Bot moves played by the stand-in bot because the seat's bot could not.",
            bots.stand_ins,
        )
        yield _counter(
            "cardtable_turn_timeouts",
            "Turns a bot finished because the player's turn time limit ran out.",
            metrics.turn_timeouts,
        )
        yield _counter(
            "cardtable_chat_refused",
            "Chat lines and reactions refused by their rate limit.",
            metrics.chat_refused,
        )
        locks = table.storage.lock_trouble
        yield _counter(
            "cardtable_db_deadlocks",
            "Deadlocks the database broke in this node's transactions (each logged with its"
            " statement).",
            locks.deadlocks,
        )
        yield _counter(
            "cardtable_db_lock_waits",
            "Waits for a row lock longer than 100 ms (each logged with its statement).",
            locks.lock_waits,
        )
        yield _gauge(
            "cardtable_reviews_running",
            "Post-game reviews being worked out.",
            table.reviews_running,
        )
