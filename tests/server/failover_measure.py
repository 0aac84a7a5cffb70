"""How long a room is unavailable when the node serving it dies (a measurement, not a
test): the set-up of test_nginx_cluster.py (two nodes on one throwaway PostgreSQL
behind a real nginx, a 4-seat Skip-Bo game with two bots and two WebSocket players),
with the default lease; the owner is killed with SIGKILL several times and the time
from each kill to the next move committed in the room is printed.

    .venv/bin/python -m tests.server.failover_measure --lease-seconds 15 --kills 2
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.sync.client import connect

from ..live_server import free_port
from .nginx_cluster import NGINX, Node
from .nginx_cluster import http as _http
from .nginx_cluster import nginx_conf as _nginx_conf
from .postgres import throwaway_database
from .test_group_commit import rows
from .test_nginx_cluster import Player


def _start(ws_url: str, host_token: str) -> None:
    """Start the game, retrying while the room settles on the node nginx routes it to."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with connect(ws_url, open_timeout=5) as host:
                host.send(json.dumps({"type": "hello"}))
                host.send(json.dumps({"type": "start", "host_token": host_token}))
                while True:
                    message = json.loads(host.recv(timeout=10))
                    if message["type"] == "event" and message["kind"] == "start":
                        return
                    if message["type"] == "error" and message["code"] != "stale_version":
                        break
        except Exception:
            pass
        time.sleep(0.3)
    raise AssertionError("the game did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lease-seconds", type=float, default=15.0)
    parser.add_argument("--kills", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    database = contextlib.ExitStack()
    url = database.enter_context(throwaway_database())
    root = Path(tempfile.mkdtemp(prefix="cardtable-failover-"))
    nodes: list[Node] = []
    proxy = None
    try:
        nodes = [Node(url, name, free_port(), args.lease_seconds) for name in ("n1", "n2")]
        for node in nodes:
            node.start()
        port = free_port()
        conf = _nginx_conf(root, port, nodes)
        proxy = subprocess.Popen([NGINX, "-p", str(root), "-c", str(conf), "-g", "daemon off;"])
        time.sleep(1)
        base = f"http://127.0.0.1:{port}"
        seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]
        # A long game (Skip-Bo, stocks of 30), so that every kill falls in the middle.
        body = {"game": "skipbo", "options": {"players": 4, "stock_size": 30}, "seats": seats}
        created = _http(base, "/api/rooms", {**body, "name": "Ann"})
        code = created["code"]
        ben = _http(base, f"/api/rooms/{code}/join", {"name": "Ben"})
        ws_url = f"ws://127.0.0.1:{port}/ws/{code}"
        players = [Player(ws_url, created["token"]), Player(ws_url, ben["token"])]
        for player in players:
            player.start()
        _start(ws_url, created["host_token"])

        def logged() -> int:
            return int(rows(url, "SELECT count(*) FROM moves WHERE room_code = :c", c=code)[0][0])

        gaps = []
        for _ in range(args.kills):
            time.sleep(rng.uniform(2, 5))
            if all(p.finished.is_set() for p in players):
                break  # the game ended: no more kills to measure
            live = {node.node_id(): node for node in nodes}
            owner = None
            while owner not in live:  # a live node holds it (not in a hand-over)
                (owner,) = rows(url, "SELECT owner FROM rooms WHERE code = :c", c=code)[0]
                time.sleep(0.05)
            victim = live[owner]
            killed = time.monotonic()
            victim.kill()
            before = logged()  # the dead node commits nothing more
            deadline = time.monotonic() + 120
            while logged() == before:
                assert time.monotonic() < deadline, "the room never came back"
                time.sleep(0.05)
            gaps.append(time.monotonic() - killed)
            print(f"kill {len(gaps)}: next move {gaps[-1]:.1f} s after SIGKILL", flush=True)
            victim.start()
        print(
            f"lease {args.lease_seconds:g} s, {len(gaps)} kills: unavailable "
            f"min {min(gaps):.1f} s, median {statistics.median(gaps):.1f} s, "
            f"max {max(gaps):.1f} s; player reconnects {sum(p.reconnects for p in players)}"
        )
        with urllib.request.urlopen(base + "/health") as response:
            response.read()
    finally:
        if proxy is not None:
            proxy.terminate()
            proxy.wait()
        for node in nodes:
            node.stop()
        database.close()


if __name__ == "__main__":
    main()
