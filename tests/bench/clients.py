"""What the load test's tests share: its two clients, and what a clean play of two
rooms reports whichever client played it."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.bench.loadtest_node import node_client_problem

PROBLEM = node_client_problem()
needs_node = pytest.mark.skipif(
    PROBLEM is not None, reason=f"the Node load client cannot run here: {PROBLEM}"
)

#: The load test's two clients: the Python one, and the Node.js one where it can run.
CLIENTS = [
    pytest.param([], id="python"),
    pytest.param(["--client", "node"], id="node", marks=needs_node),
]


def assert_two_rooms_played_cleanly(report: dict[str, Any]) -> None:
    """Two rooms of four seats: every move sent was acknowledged, timed and stored."""
    assert report["rooms_ready"] == 2 and report["connections"] == 8
    assert report["moves_sent"] >= 4
    assert report["moves_acked"] == report["moves_sent"]
    assert report["latency_mover"]["count"] == report["moves_acked"]
    assert report["latency_all_seats"]["count"] == report["moves_acked"]
    assert report["errors"] == 0, report["error_kinds"]
    assert report["lost_moves"] == 0
    assert report["server_rss_mib"]["peak"] > 0
    assert sum(second["moves"] for second in report["timeline"]) == report["moves_acked"]
