"""The server process's figures, read from /proc."""

from __future__ import annotations

import os
import threading
import time

from cardtable.bench.loadtest_process import rss_bytes, threads_cpu_seconds


def test_rss_is_read_from_proc():
    rss = rss_bytes(os.getpid())
    assert rss is not None and rss > 1_000_000
    assert rss_bytes(2**22 + 12345) is None  # above the kernel's pid_max: no such process


def test_cpu_of_every_live_thread_is_counted():
    before = threads_cpu_seconds(os.getpid())
    assert before is not None
    spun, done = threading.Event(), threading.Event()

    def spin() -> None:
        end = time.thread_time() + 0.2
        while time.thread_time() < end:
            pass
        spun.set()
        done.wait()  # alive while the test reads

    worker = threading.Thread(target=spin)
    worker.start()
    spun.wait()
    main_thread = time.thread_time()
    after = threads_cpu_seconds(os.getpid())
    done.set()
    worker.join()
    assert after is not None and after - before >= 0.2  # the worker's spin included
    assert time.thread_time() - main_thread < 0.1  # the main thread only waited
    assert threads_cpu_seconds(2**22 + 12345) is None
