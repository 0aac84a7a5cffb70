"""The server's process, read from ``/proc`` while it is loaded: its memory, its CPU
time, and how long its main thread waited for a CPU."""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path


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


def threads_cpu_seconds(pid: int) -> float | None:
    """Seconds every thread of ``pid`` alive now has run on a CPU, to the nanosecond
    (``/proc/PID/task/*/schedstat``; ``/proc/PID/stat`` counts clock ticks, too coarse
    for a few seconds of a busy process); None if unreadable. A thread that ended is not
    counted: the server's threads (event loop, database writer, pools) live as long as
    the server."""
    total = 0
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return None
    for task in tasks:
        try:
            total += int((task / "schedstat").read_text(encoding="ascii").split()[0])
        except (OSError, IndexError, ValueError):
            continue  # the thread ended meanwhile
    return total / 1e9


def sched_delta(
    before: tuple[float, float] | None, after: tuple[float, float] | None
) -> dict[str, float] | None:
    """What :func:`sched_seconds` grew by between two readings, for the report."""
    if before is None or after is None:
        return None
    return {"on_cpu_s": round(after[0] - before[0], 2), "waiting_s": round(after[1] - before[1], 2)}


async def sample_memory(pid: int, samples: list[int], stop: asyncio.Event) -> None:
    """Append the resident set size of ``pid`` to ``samples`` every second until ``stop``."""
    while not stop.is_set():
        rss = rss_bytes(pid)
        if rss is not None:
            samples.append(rss)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 1.0)
