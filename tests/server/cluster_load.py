"""`cardtable loadtest` against nodes on one throwaway PostgreSQL behind a real nginx (a
measurement, not a test): the set-up of test_nginx_cluster.py with the shipped
deploy/nginx configuration, sized for thousands of sockets, and optionally a rolling
restart of the first node in the middle of the run, to see the move latency of the
rooms it hands over.

    .venv/bin/python -m tests.server.cluster_load --nodes 2 --rooms 400 --duration 60
    .venv/bin/python -m tests.server.cluster_load --nodes 2 --rooms 200 --drain-at 20

Each node runs `cardtable serve` with its defaults but for `--rooms-per-client` (every
load-test room comes from one address) and `--lease-seconds`; PostgreSQL runs without
fsync (a throwaway cluster: what is measured is the table servers, not the disk). The
report is the load test's, plus each node's CPU seconds during the run and, with
`--drain-at`, the per-second latency around the drain.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from cardtable.bench.loadtest import run_loadtest, run_on_uvloop
from cardtable.bench.loadtest_options import LoadOptions
from cardtable.bench.loadtest_report import format_report

from ..live_server import free_port
from .nginx_cluster import NGINX, Node, health, nginx_conf
from .postgres import throwaway_database


class RollingRestart(threading.Thread):
    """Drains ``node`` ``at`` seconds after play began, stops it with SIGTERM and starts
    it again, as docs/operations.md's rolling upgrade does."""

    def __init__(self, node: Node, at: float) -> None:
        super().__init__(daemon=True)
        self.node, self.at = node, at
        self.lines: list[str] = []

    def run(self) -> None:
        time.sleep(self.at)
        began = time.monotonic()
        rooms = (health(self.node.port) or {}).get("rooms")
        self.node.drain(timeout=120)
        drained = time.monotonic() - began
        self.node.terminate()
        self.node.start()
        self.lines.append(
            f"{self.node.name} drained at {self.at:g} s: its {rooms} rooms handed over in "
            f"{drained:.1f} s; the node was back {time.monotonic() - began:.1f} s after"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=2)
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--bot-rooms", type=int, default=0)
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--lease-seconds", type=float, default=15.0)
    parser.add_argument("--drain-at", type=float, help="seconds into play to drain node n1")
    parser.add_argument("--json", type=Path, help="also write the report as JSON")
    parser.add_argument(
        "--pin",
        action="store_true",
        help="pin node n<i> to core i-1 (modulo the cores); nginx, PostgreSQL and the load"
        " test are left to the scheduler",
    )
    parser.add_argument(
        "--db", help="an empty PostgreSQL database's URL (default: a throwaway cluster's)"
    )
    args = parser.parse_args()
    database = contextlib.ExitStack()
    url = args.db or database.enter_context(throwaway_database())
    root = Path(tempfile.mkdtemp(prefix="cardtable-cluster-load-"))
    nodes: list[Node] = []
    proxy = None
    try:
        # `cardtable serve`'s own defaults (Node's test settings put back), but for the
        # rooms and sockets one address may hold: every load-test room comes from 127.0.0.1.
        socket_cap = str(args.rooms * args.seats + args.bot_rooms + 256)
        extra = [
            "--rooms-per-client", str(args.rooms + args.bot_rooms + 100),
            "--sockets-per-address", socket_cap, "--max-sockets", socket_cap,
            "--joins-per-address", socket_cap,
            "--bot-pause", "0.6", "--grace", "60", "--message-rate", "10", "--message-burst", "40",
        ]  # fmt: skip
        nodes = [
            Node(url, f"n{i}", free_port(), args.lease_seconds, *extra)
            for i in range(1, args.nodes + 1)
        ]
        for index, node in enumerate(nodes):
            node.log_dir = root
            node.start()
            if args.pin and node.process is not None:
                os.sched_setaffinity(node.process.pid, {index % (os.cpu_count() or 1)})
        port = free_port()
        sockets = args.rooms * args.seats + args.bot_rooms + 256
        conf = nginx_conf(root, port, nodes, connections=2 * sockets)
        proxy = subprocess.Popen(
            [NGINX, "-p", str(root), "-c", str(conf), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(1)
        options = LoadOptions(
            url=f"http://127.0.0.1:{port}",
            rooms=args.rooms,
            seats=args.seats,
            duration=args.duration,
            bot_rooms=args.bot_rooms,
            bot=args.bot,
        )
        restart = None if args.drain_at is None else RollingRestart(nodes[0], args.drain_at)
        cpu_before: list[tuple[int, float] | None] = []

        def on_play() -> None:
            cpu_before.extend(_cpu(node) for node in nodes)
            if restart is not None:
                restart.start()

        report: dict[str, Any] = run_on_uvloop(run_loadtest(options, on_play))
        cpu_after = [_cpu(node) for node in nodes]
        if restart is not None:
            restart.join(timeout=300)
        report["nodes"] = args.nodes
        report["node_cpu_s_during_play"] = [
            _spent(a, b) for a, b in zip(cpu_before, cpu_after, strict=True)
        ]
        report["drain"] = [] if restart is None else restart.lines
        print(format_report(report))
        spent = report["node_cpu_s_during_play"]
        print(f"nodes: {args.nodes}; CPU seconds in play, with bot workers: {spent}")
        # Human moves only: through nginx /metrics reaches one node, so bot rooms'
        # moves are not all counted (measure nodes with human rooms for this figure).
        moves = report["moves_acked"] if not args.bot_rooms else 0
        if moves and None not in spent:
            per_move = 1000 * sum(spent) / moves
            report["nodes_cpu_ms_per_move"] = round(per_move, 4)
            print(f"nodes' CPU per move, all nodes together: {per_move:.4f} ms ({moves} moves)")
        for line in report["drain"]:
            print(line)
        if restart is not None:
            window = [s for s in report["timeline"] if abs(s["second"] - args.drain_at) <= 5]
            for second in window:
                print(
                    f"  second {second['second']}: {second['moves']} moves, p50 "
                    f"{second['p50_ms']} ms, p99 {second['p99_ms']} ms, max {second['max_ms']} ms"
                )
        if args.json is not None:
            args.json.write_text(json.dumps(report, indent=2) + "\n")
    finally:
        if proxy is not None:
            proxy.terminate()
            proxy.wait()
        for node in nodes:
            node.stop()
        database.close()


def _cpu(node: Node) -> tuple[int, float] | None:
    """CPU seconds of the node and its bot workers (its session), with its generation."""
    if node.process is None:
        return None
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text(errors="replace").rsplit(")", 1)[1].split()
        except OSError:
            continue  # a process that just ended
        if int(fields[3]) == node.process.pid:  # the session id: the node started it
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return node.generation, total


def _spent(before: tuple[int, float] | None, after: tuple[int, float] | None) -> float | None:
    """CPU seconds between two readings of one process (None across a restart)."""
    if before is None or after is None or before[0] != after[0]:
        return None
    return round(after[1] - before[1], 2)


if __name__ == "__main__":
    main()
