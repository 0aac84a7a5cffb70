"""The server process's figures, read from /proc."""

from __future__ import annotations

import os

from cardtable.bench.loadtest_process import rss_bytes


def test_rss_is_read_from_proc():
    rss = rss_bytes(os.getpid())
    assert rss is not None and rss > 1_000_000
    assert rss_bytes(2**22 + 12345) is None  # above the kernel's pid_max: no such process
