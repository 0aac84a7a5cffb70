"""The shipped nginx configuration (deploy/nginx) routes a room by its code whatever
the case it is written in: the server reads /ws/abcdef as room ABCDEF, so nginx must
send it to the same node as /ws/ABCDEF, or the room's players would be split between
two nodes and the room handed back and forth."""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.request

from websockets.sync.client import connect

from cardtable.server.tokens import CODE_ALPHABET, CODE_LENGTH

from .nginx_cluster import NginxCluster, http, nginx_cluster
from .test_group_commit import rows


def _upstream(cluster: NginxCluster, path: str) -> str:
    """The node nginx passed ``path`` to (a path no node answers with 503, so nginx
    tries one node only: the one the hash chose)."""
    request = urllib.request.Request(cluster.base + path)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            upstream = response.headers["X-Test-Upstream"]
    except urllib.error.HTTPError as error:
        assert error.code == 404, error.code  # no game was played in that room
        upstream = error.headers["X-Test-Upstream"]
    assert upstream and "," not in upstream, upstream
    return cluster.node_at(upstream).name


def _mixed(code: str, rng: random.Random) -> str:
    return "".join(char.lower() if rng.random() < 0.5 else char for char in code)


def test_a_room_code_in_any_case_reaches_the_same_node(tmp_path, postgres_url):
    rng = random.Random(18)
    with nginx_cluster(tmp_path / "nginx", postgres_url) as cluster:
        chosen: set[str] = set()
        for _ in range(16):
            code = "".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            node = _upstream(cluster, f"/api/rooms/{code}/games")
            chosen.add(node)
            for spelled in (code.lower(), _mixed(code, rng), code.title()):
                assert _upstream(cluster, f"/api/rooms/{spelled}/games") == node, spelled
                assert _upstream(cluster, f"/r/{spelled}") == node, spelled
        assert chosen == {"n1", "n2"}  # the codes are spread: the check could fail

        # A real room, reached in lower case over a WebSocket, stays on its node: once
        # it lives where nginx sends its upper-case code, a lower-case client is
        # welcomed at once and asks no hand-over.
        created = http(
            cluster.base,
            "/api/rooms",
            {"game": "skyjo", "options": {"players": 2}, "seats": [{"kind": "human"}] * 2,
             "name": "Ann"},
        )  # fmt: skip
        code = created["code"]
        home = _upstream(cluster, f"/api/rooms/{code}/games")
        http(cluster.base, f"/api/rooms/{code}")  # moves the room home if it was born elsewhere
        deadline = time.monotonic() + 60
        while True:
            ((owner, wanted),) = rows(
                postgres_url, "SELECT owner, wanted_by FROM rooms WHERE code = :c", c=code
            )
            if owner == f"{home}-1" and wanted is None:
                break
            assert time.monotonic() < deadline, (owner, wanted)
            time.sleep(0.1)
        for spelled in (code.lower(), _mixed(code, rng)):
            with connect(f"{cluster.ws_base}/ws/{spelled}", open_timeout=10) as ws:
                ws.send(json.dumps({"type": "hello", "token": created["token"]}))
                welcome = json.loads(ws.recv(timeout=10))
                assert welcome["type"] == "welcome", welcome
        ((owner, wanted),) = rows(
            postgres_url, "SELECT owner, wanted_by FROM rooms WHERE code = :c", c=code
        )
        assert (owner, wanted) == (f"{home}-1", None)
