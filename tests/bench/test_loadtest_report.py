"""The load test's report table."""

from __future__ import annotations

from cardtable.bench.loadtest_report import format_report


def test_report_table_names_every_figure():
    latency = {"count": 0, "p50_ms": None, "p95_ms": None, "p99_ms": None, "max_ms": None}
    report = {
        "url": "http://x", "rooms": 1, "rooms_ready": 0, "game": "skyjo", "connections": 0,
        "setup_s": 0.1, "duration_s": 1.0, "rate_per_room": 1.0, "moves_sent": 0,
        "moves_acked": 0, "moves_per_s": 0.0, "games_finished": 0,
        "latency_mover": latency, "latency_all_seats": latency, "errors": 1,
        "error_kinds": {"http_429": 1}, "lost_moves": 0,
        "server_rss_mib": {"idle": None, "rooms_ready": None, "peak": None, "end": None},
        "cpu_s_during_play": {"server": None, "loadtest": 0.5},
        "main_thread_sched": {"server": None, "loadtest": {"on_cpu_s": 0.4, "waiting_s": 0.1}},
        "loadavg_before": [1.0, 1.0, 1.0], "loadavg_after": [1.0, 1.0, 1.0], "cpus": 2,
    }  # fmt: skip
    table = format_report(report)
    assert "http_429" in table and "p99 n/a" in table and "load test 0.5 s" in table
    assert "0.1 s waiting for a CPU" in table
