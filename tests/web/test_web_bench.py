"""``python -m lab web_bench`` (the figures of docs/performance.md) runs to its report."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest

# tests/web/conftest.py skips this module without the system Chromium (CI requires it).
from lab.__main__ import main


def test_the_web_bench_reports_both_loads_and_both_tables(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # In a thread of its own: the bench drives Playwright's sync API, which refuses to
    # start in a thread where the web tests' shared browser keeps an event loop running.
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(main, ["web_bench", "--events", "3"]).result() == 0
    lines = capsys.readouterr().out.splitlines()
    loads = [
        re.match(r"first load \((cold|warm) cache\): (\d+) requests, (\d+) over", x)
        for x in lines[:2]
    ]
    assert [found[1] for found in loads if found] == ["cold", "warm"]
    cold, warm = (found for found in loads if found)
    assert int(cold[3]) > int(warm[3])  # the warm load takes files from the cache
    for players, line in zip((2, 8), lines[2:], strict=True):
        assert re.fullmatch(
            rf"skyjo {players} players, 3 events: handler median [\d.]+ ms, p90 [\d.]+ ms; "
            r"to next frame median [\d.]+ ms, p90 [\d.]+ ms",
            line,
        ), line
