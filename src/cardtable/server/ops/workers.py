"""Worker processes for the CPU-heavy work of a server: bot moves, hints, reviews.

The event loop serves every room of the process; a bot thinking on the loop's
process would hold the GIL and delay every other room's moves. A :class:`WorkerPool`
runs each job in one of its own processes instead and gives the answer back as an
awaitable, and it survives its workers: a worker that dies mid-job (a crash, the OOM
killer, ``kill -9``) fails that job with :class:`WorkerLostError` and is replaced; a
job that runs past its timeout fails with :class:`WorkerTimeoutError` and its worker
is killed and replaced. The caller decides what to do then (see
:class:`cardtable.server.rooms.bot_seats.BotPool`: retry, then a simpler bot).

Workers are started with ``spawn`` (a fresh interpreter, never a fork of a process
with threads and an event loop). Each one blocks on its end of a pipe; the pool
watches the other ends with the event loop, so a worker's answer or its death (the
pipe's end of file) is noticed without a thread per job. A worker exits on its own
when the server's process dies (its pipe closes), so none is left behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import multiprocessing
import os
import signal
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

log = logging.getLogger("cardtable.server")


class WorkerLostError(Exception):
    """The worker running the job died before answering."""


class WorkerTimeoutError(Exception):
    """The job ran past its timeout; its worker was killed."""


class WorkerJobError(Exception):
    """The job raised in the worker; the message holds its type, text and traceback."""


#: How much lower a worker's scheduling priority is than the server's (``nice``): when
#: bots keep every core busy, the kernel still gives the event loop the CPU first, so
#: the human rooms' moves wait for no bot.
WORKER_NICENESS = 10


def _worker_main(conn: Connection) -> None:
    """A worker: run jobs from the pipe until it closes (the server stopped or died)."""
    # Ctrl-C in a terminal reaches the whole process group: the server stops its
    # workers itself, in order.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(AttributeError, OSError):  # no nice() on Windows
        os.nice(WORKER_NICENESS)
    while True:
        try:
            function, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[str, Any] = ("ok", function(*args))
        except Exception as error:
            answer = ("error", f"{type(error).__name__}: {error}\n{traceback.format_exc()}")
        try:
            conn.send(answer)
        except (BrokenPipeError, OSError):
            return


@dataclasses.dataclass(eq=False)
class _Worker:
    process: BaseProcess
    conn: Connection
    #: The answer of the job being run; None while idle.
    job: asyncio.Future[Any] | None = None
    dead: bool = False


class WorkerPool:
    """``size`` worker processes that run picklable module-level functions."""

    def __init__(self, size: int, name: str) -> None:
        if size < 1:
            raise ValueError(f"a worker pool needs at least 1 process, not {size}")
        self.size = size
        self.name = name
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []
        self._idle: asyncio.Queue[_Worker] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        #: Jobs waiting for a free worker (the pool's queue depth).
        self.waiting = 0
        #: Workers replaced since the start (died, or killed after a timeout).
        self.replaced = 0
        self._closed = False
        #: Killed workers not yet reaped (joined once they have exited).
        self._reaping: list[BaseProcess] = []

    def start(self) -> None:
        """Start the workers (they import the game code meanwhile, in parallel)."""
        self._loop = asyncio.get_running_loop()
        self._idle = asyncio.Queue()
        for _ in range(self.size):
            self._spawn()

    def _spawn(self) -> None:
        assert self._loop is not None and self._idle is not None
        ours, theirs = self._context.Pipe(duplex=True)
        process = self._context.Process(
            target=_worker_main, args=(theirs,), name=f"cardtable-{self.name}", daemon=True
        )
        process.start()
        theirs.close()  # the worker's end: once it dies, ours reads end of file
        worker = _Worker(process, ours)
        self._workers.append(worker)
        self._loop.add_reader(ours.fileno(), self._readable, worker)
        self._idle.put_nowait(worker)

    def _reap(self) -> None:
        """Collect the exit status of killed workers (no zombie is left behind)."""
        for process in self._reaping[:]:
            process.join(timeout=0)
            if process.exitcode is not None:
                self._reaping.remove(process)
        if self._reaping and self._loop is not None and not self._loop.is_closed():
            self._loop.call_later(0.1, self._reap)

    def pids(self) -> list[int]:
        return [w.process.pid for w in self._workers if not w.dead and w.process.pid]

    def busy_pids(self) -> list[int]:
        """Process ids of the workers running a job now."""
        return [
            w.process.pid
            for w in self._workers
            if w.job is not None and not w.dead and w.process.pid is not None
        ]

    def _readable(self, worker: _Worker) -> None:
        """The worker answered, or its pipe ended (it died)."""
        try:
            status, value = worker.conn.recv()
        except (EOFError, OSError):
            self._lost(worker, WorkerLostError(f"{self.name} worker {worker.process.pid} died"))
            return
        job, worker.job = worker.job, None
        if job is not None and not job.done():
            if status == "ok":
                job.set_result(value)
            else:
                job.set_exception(WorkerJobError(value))
        assert self._idle is not None
        self._idle.put_nowait(worker)

    def _lost(self, worker: _Worker, error: Exception) -> None:
        """Forget a dead (or killed) worker, fail its job, and start another one."""
        if worker.dead:
            return
        worker.dead = True
        assert self._loop is not None
        with contextlib.suppress(Exception):
            self._loop.remove_reader(worker.conn.fileno())
        with contextlib.suppress(Exception):
            worker.conn.close()
        with contextlib.suppress(Exception):
            worker.process.kill()
        self._reaping.append(worker.process)
        self._loop.call_later(0.05, self._reap)
        self._workers.remove(worker)
        job, worker.job = worker.job, None
        if job is not None and not job.done():
            job.set_exception(error)
        if not self._closed:
            log.warning("%s; starting another", error)
            self.replaced += 1
            self._spawn()

    async def _take_idle(self) -> _Worker:
        assert self._idle is not None, "the pool is not started"
        self.waiting += 1
        try:
            while True:
                worker = await self._idle.get()
                if not worker.dead:
                    return worker
        finally:
            self.waiting -= 1

    async def run(self, function: Callable[..., Any], *args: Any, timeout: float) -> Any:
        """``function(*args)`` in a worker; its answer, or an error of this module.

        A caller that stops waiting (its room closed) leaves the job running: the worker
        becomes free when it answers, and the answer is dropped.
        """
        if self._closed:
            raise WorkerLostError(f"the {self.name} pool is closed")
        worker = await self._take_idle()
        assert self._loop is not None
        job: asyncio.Future[Any] = self._loop.create_future()
        # Nobody may be left to hear a failure (the caller timed out or was cancelled).
        job.add_done_callback(lambda done: done.cancelled() or done.exception())
        worker.job = job
        try:
            worker.conn.send((function, args))
        except (BrokenPipeError, OSError):
            self._lost(worker, WorkerLostError(f"{self.name} worker {worker.process.pid} died"))
        try:
            return await asyncio.wait_for(asyncio.shield(job), timeout)
        except TimeoutError:
            if not job.done():
                self._lost(
                    worker,
                    WorkerTimeoutError(
                        f"{self.name} worker {worker.process.pid} ran past {timeout:g} s"
                    ),
                )
            raise WorkerTimeoutError(f"the {self.name} job ran past {timeout:g} s") from None

    def close(self) -> None:
        """Stop every worker (their jobs fail with :class:`WorkerLostError`)."""
        self._closed = True
        for worker in list(self._workers):
            self._lost(worker, WorkerLostError(f"the {self.name} pool closed"))
        for process in self._reaping:
            process.join(timeout=2)
        self._reaping.clear()
