"""The load test's latency figures."""

from __future__ import annotations

from cardtable.bench.loadtest_stats import percentile


def test_percentiles_are_nearest_rank():
    values = [float(v) for v in range(1, 101)]
    assert [percentile(values, q) for q in (0.5, 0.95, 0.99)] == [50.0, 95.0, 99.0]
    assert percentile([], 0.5) is None
    assert percentile([3.0], 0.99) == 3.0
