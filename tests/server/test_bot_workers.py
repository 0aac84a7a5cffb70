"""Bots, hints and reviews run in worker processes; a worker that dies or stalls
mid-decision costs its room one retry or one move by a simpler bot, never the game."""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest

from cardtable.server.ops.workers import (
    WORKER_NICENESS,
    WorkerJobError,
    WorkerLostError,
    WorkerPool,
    WorkerTimeoutError,
)

from .helpers import Client, client, create_room, is_move_event, start

WAIT = 30.0


async def _until(predicate: Any) -> Any:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


def test_a_worker_killed_mid_job_fails_that_job_and_is_replaced():
    async def scenario() -> None:
        pool = WorkerPool(1, "test")
        pool.start()
        try:
            assert await pool.run(math.factorial, 5, timeout=WAIT) == 120
            first = pool.pids()
            sleeping = asyncio.create_task(pool.run(time.sleep, 60, timeout=WAIT))
            (busy,) = await _until(pool.busy_pids)
            os.kill(busy, signal.SIGKILL)
            with pytest.raises(WorkerLostError):
                await sleeping
            assert pool.replaced == 1 and pool.pids() != first
            assert await pool.run(math.factorial, 6, timeout=WAIT) == 720  # the new worker
            with pytest.raises(WorkerJobError, match="ValueError: math domain error"):
                await pool.run(math.sqrt, -1.0, timeout=WAIT)
            assert pool.replaced == 1  # a job's own error leaves its worker in service
        finally:
            pool.close()

    asyncio.run(scenario())


def test_workers_run_at_a_lower_priority_than_the_server():
    # A bot that keeps every core busy still leaves the event loop the CPU first.
    async def scenario() -> None:
        pool = WorkerPool(1, "test")
        pool.start()
        try:
            in_worker = await pool.run(os.nice, 0, timeout=WAIT)  # nice(0) tells the niceness
            assert in_worker == min(19, os.nice(0) + WORKER_NICENESS)
        finally:
            pool.close()

    asyncio.run(scenario())


def test_a_job_past_its_timeout_has_its_worker_killed_and_replaced():
    async def scenario() -> None:
        pool = WorkerPool(1, "test")
        pool.start()
        try:
            (stalled,) = pool.pids()
            with pytest.raises(WorkerTimeoutError):
                await pool.run(time.sleep, 60, timeout=0.5)
            await _until(lambda: not os.path.exists(f"/proc/{stalled}"))  # killed and reaped
            assert stalled not in pool.pids()
            assert await pool.run(math.factorial, 4, timeout=WAIT) == 24
        finally:
            pool.close()

    asyncio.run(scenario())


@contextlib.contextmanager
def _bot_room(http: Any) -> Iterator[tuple[Client, dict[str, Any]]]:
    """A Skyjo room of two greedy bots, watched by a spectator (who also holds the host
    token, so it can start the game)."""
    seats = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]
    created = create_room(http, "skyjo", {"players": 2, "end_score": 5}, seats)
    with http.websocket_connect(f"/ws/{created['code']}") as ws:
        watcher = Client(ws)
        watcher.hello()
        yield watcher, created


def _first_pid(pids: Any, other_than: set[int], what: str) -> int:
    """The first process id ``pids()`` lists that is not in ``other_than``, once there is one."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        found = [pid for pid in pids() if pid not in other_than]
        if found:
            return int(found[0])
        time.sleep(0.005)
    raise AssertionError(what)


def _busy(http: Any, other_than: set[int] = frozenset()) -> int:  # type: ignore[assignment]
    pool = http.app.state.table.bots.workers
    return _first_pid(pool.busy_pids, other_than, "no bot worker became busy")


def _spawned(http: Any, other_than: set[int]) -> int:
    """The process id of a worker started in place of those ``other_than``."""
    pool = http.app.state.table.bots.workers
    return _first_pid(pool.pids, other_than, "no bot worker was started")


def test_a_bot_worker_killed_mid_decision_does_not_stall_its_room(tmp_path):
    http = client(tmp_path, bot_processes=1)
    with contextlib.ExitStack() as stack:
        stack.enter_context(http)
        pool = http.app.state.table.bots.workers
        (worker,) = pool.pids()
        watcher, created = stack.enter_context(_bot_room(http))
        os.kill(worker, signal.SIGSTOP)  # it will take the first decision and hang on it
        start(watcher, created["host_token"])
        watcher.until(lambda m: m["type"] == "event" and m["kind"] == "start")
        assert _busy(http) == worker
        # Meanwhile the room answers (its lock is free while the bot thinks).
        watcher.send({"type": "ping"})
        assert watcher.until(lambda m: m["type"] in ("pong", "event"))["type"] == "pong"
        os.kill(worker, signal.SIGKILL)  # killed in the middle of its decision
        first = watcher.until(is_move_event)  # retried on a fresh worker
        assert first["index"] == 0
        assert worker not in pool.pids() and pool.replaced == 1
        while watcher.view is None or watcher.view["result"] is None:
            watcher.until(lambda m: m["type"] in ("event", "sync"))  # played to the end
        assert not [m for m in watcher.messages if m["type"] == "notice"]  # the retry sufficed
        assert http.app.state.table.bots.stand_ins == 0


def test_a_bot_stalled_twice_is_stood_in_for_by_a_simpler_bot_visibly(tmp_path):
    http = client(tmp_path, bot_processes=1, bot_timeout=1.0)
    with contextlib.ExitStack() as stack:
        stack.enter_context(http)
        pool = http.app.state.table.bots.workers
        watcher, created = stack.enter_context(_bot_room(http))
        (first,) = pool.pids()
        os.kill(first, signal.SIGSTOP)
        start(watcher, created["host_token"])
        assert _busy(http) == first
        # After the timeout the first worker is replaced: stopped as soon as it exists,
        # the new one cannot answer the retry (it would, given the half second it takes
        # to start, if the test were kept off the CPU that long).
        second = _spawned(http, other_than={first})
        os.kill(second, signal.SIGSTOP)
        assert _busy(http, other_than={first}) == second  # the retry
        notice = watcher.until(lambda m: m["type"] == "notice")
        assert notice["code"] == "bot_stand_in" and notice["stand_in"] == "greedy"
        assert notice["bot"] == "greedy" and notice["seat"] in (0, 1)
        move = [m for m in watcher.messages if is_move_event(m)][-1]
        assert move["version"] == notice["version"] and move["index"] == 0
        assert pool.replaced == 2 and {first, second}.isdisjoint(pool.pids())
        assert http.app.state.table.bots.stand_ins == 1
        watcher.until(is_move_event)  # the next move comes from the fresh worker
