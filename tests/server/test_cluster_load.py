"""`python -m tests.server.cluster_load` (the measurement of docs/performance.md) runs:
rooms of load-test players through a real nginx to two nodes, one of them drained,
stopped and started again mid-run; every seat follows its room and nothing is lost."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .nginx_cluster import nginx_or_skip

REPO = Path(__file__).resolve().parents[2]


def test_a_drain_under_load_loses_no_move_and_every_seat_follows(tmp_path, postgres_url):
    nginx_or_skip()
    out = tmp_path / "report.json"
    command = [
        sys.executable, "-m", "tests.server.cluster_load", "--db", postgres_url,
        "--nodes", "2", "--rooms", "12", "--seats", "2", "--duration", "10", "--drain-at", "3",
        "--lease-seconds", "2", "--json", str(out),
    ]  # fmt: skip
    done = subprocess.run(
        command, check=False, cwd=REPO, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    report = json.loads(out.read_text())
    assert report["nodes"] == 2 and report["rooms_ready"] == 12
    assert report["errors"] == 0, report["error_kinds"]
    assert report["lost_moves"] == 0
    assert report["moves_acked"] + report["moves_dropped_in_handover"] == report["moves_sent"]
    (drain,) = report["drain"]
    assert drain.startswith("n1 drained at 3 s")
    # The drained node's rooms moved (12 rooms all routed to one node: 1 in 2,048): their
    # seats were told so and reconnected.
    moved = int(drain.split("its ")[1].split(" rooms")[0])
    assert moved > 0
    assert report["reconnects"].get("4009", 0) == 2 * moved
    assert report["handover_notices"].get("room_moved", 0) == 2 * moved
    # Play went on after the drain.
    assert max(second["second"] for second in report["timeline"] if second["moves"]) >= 6
