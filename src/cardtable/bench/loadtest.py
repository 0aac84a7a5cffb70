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

import asyncio
import contextlib
import gc
import os
import time
import urllib.error
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any

from .loadtest_botrooms import start_bot_room
from .loadtest_options import LoadOptions
from .loadtest_process import (
    cpu_seconds,
    rss_bytes,
    sample_memory,
    sched_delta,
    sched_seconds,
    threads_cpu_seconds,
)
from .loadtest_room import RoomDriver
from .loadtest_server import bot_moves
from .loadtest_stats import Stats, latency_summary, timeline

#: Rooms set up at the same time (HTTP requests and WebSocket handshakes).
SETUP_CONCURRENCY = 16


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
        sampler = asyncio.create_task(
            sample_memory(options.server_pid, stats.rss_samples, stop_sampling)
        )
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
    server_threads_before = None if pid is None else threads_cpu_seconds(pid)
    own_cpu_before = time.process_time()
    server_sched_before = None if pid is None else sched_seconds(pid)
    own_sched_before = sched_seconds(os.getpid())
    bot_moves_before = await asyncio.to_thread(bot_moves, options.url)
    async with _collector_kept_off_survivors():
        if on_play is not None:
            on_play()
        started = time.perf_counter()
        started_unix = time.time()
        await asyncio.gather(*(room.run(started + options.duration) for room in ready))
        played = time.perf_counter() - started
    bot_moves_after = await asyncio.to_thread(bot_moves, options.url)
    own_cpu = time.process_time() - own_cpu_before
    server_sched = sched_delta(server_sched_before, None if pid is None else sched_seconds(pid))
    own_sched = sched_delta(own_sched_before, sched_seconds(os.getpid()))
    server_cpu_after = None if pid is None else cpu_seconds(pid)
    server_threads_after = None if pid is None else threads_cpu_seconds(pid)
    server_threads = (
        None
        if server_threads_before is None or server_threads_after is None
        else server_threads_after - server_threads_before
    )
    server_cpu = (
        None
        if server_cpu_before is None or server_cpu_after is None
        else server_cpu_after - server_cpu_before
    )
    bot_moves_played = (
        0
        if bot_moves_before is None or bot_moves_after is None
        else bot_moves_after - bot_moves_before
    )
    moves_played = stats.moves_acked + bot_moves_played
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
        "client": "python",
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
        # Every thread of the server, to the nanosecond, per move played (the human
        # rooms' and the bot rooms'): what a move costs the server.
        "server_threads_cpu_s": None if server_threads is None else round(server_threads, 3),
        "server_cpu_ms_per_move": (
            None
            if server_threads is None or not moves_played
            else round(1000 * server_threads / moves_played, 4)
        ),
        # The event-loop threads: time on a CPU and time runnable but waiting for one.
        "main_thread_sched": {"server": server_sched, "loadtest": own_sched},
        "loadavg_before": [round(value, 2) for value in load_before],
        "loadavg_after": [round(value, 2) for value in load_after],
        "cpus": os.cpu_count(),
        "compression": options.compression,
        "event_loop": type(asyncio.get_running_loop()).__module__.split(".")[0],
        "timeline": timeline(stats.mover_times, started),
        # When the timeline's second 0 began (Unix time), to set it beside server logs.
        "play_started_unix": round(started_unix, 3),
    }


#: How often the players freeze what survived so far, during the play (seconds).
FREEZE_SECONDS = 2.0


@contextlib.asynccontextmanager
async def _collector_kept_off_survivors() -> AsyncIterator[None]:
    """Keep the collector off the players' long-lived objects for the play: their own
    garbage collections are in the latencies they measure. The setup leaves hundreds of
    thousands of them (each connection's protocol objects, tasks, rooms), and the play
    adds its records; left in the collector's older generations, at 800 rooms they were
    scanned by full collections of 220 ms and more and by middle ones of 50 to 65 ms
    every few seconds, stalls of every room that the report showed as the server's
    (docs/performance.md). So what the setup made is frozen (:func:`gc.freeze`: no
    collection scans it), and what survived since every ``FREEZE_SECONDS``; all is
    given back afterwards."""

    async def freeze_survivors() -> None:
        while True:
            await asyncio.sleep(FREEZE_SECONDS)
            gc.freeze()

    gc.collect()
    gc.freeze()
    freezer = asyncio.create_task(freeze_survivors())
    try:
        yield
    finally:
        freezer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await freezer
        gc.unfreeze()


def run_on_uvloop(main: Coroutine[Any, Any, dict[str, Any]]) -> dict[str, Any]:
    """Run on uvloop when it is installed (uvicorn's standard extra brings it), as the
    server does, so the players' own overhead stays small."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)
