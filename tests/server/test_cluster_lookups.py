"""Room code look-ups on a cluster (docs/players.md, "Guessing"): the misses of one
address are counted in PostgreSQL, so two nodes together allow it the cluster's limit
(and one more per node), not twice the per-node one; then every look-up of that
address, even of a live room, is 429 on both nodes."""

from __future__ import annotations

import argparse

from starlette.testclient import TestClient

from cardtable.online import create_app
from cardtable.server.command import add_serve_parser, serve_config

from .helpers import config, create_room

PER_NODE = 5
CLUSTER = 6


def test_two_nodes_hold_a_guesser_to_the_cluster_s_limit(tmp_path, postgres_url):
    settings = {"lookup_burst": PER_NODE, "lookup_cluster_misses": CLUSTER}
    a = TestClient(create_app(config(tmp_path / "a", db_url=postgres_url, **settings)))
    b = TestClient(create_app(config(tmp_path / "b", db_url=postgres_url, **settings)))
    with a, b:
        live = create_room(a, "skyjo", {"players": 2})["code"]
        assert a.get(f"/api/rooms/{live}").status_code == 200  # a hit costs nothing
        answers = []
        paths = ["/api/rooms/ZZZZZZ", "/api/rooms/ZZZZZY/games", "/api/rooms/ZZZZZX/games/1"]
        for index in range(2 * PER_NODE):
            node = (a, b)[index % 2]
            answers.append(node.get(paths[index % 3]).status_code)
        # Each node alone would allow 5 (10 in all); the cluster allows 6, and the node
        # that had not seen the count yet one more.
        assert answers == [404] * (CLUSTER + 1) + [429] * (2 * PER_NODE - CLUSTER - 1)
        for node in (a, b):
            refused = node.get(f"/api/rooms/{live}")
            assert refused.status_code == 429  # a live room too: a hit tells nothing
            assert refused.json()["error"] == "too_many_lookups"
            assert 1 <= int(refused.headers["Retry-After"]) <= 900


def test_the_cluster_s_limit_is_a_serve_option():
    parser = argparse.ArgumentParser()
    add_serve_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["serve", "--lookup-cluster-misses", "7"])
    assert serve_config(args).lookup_cluster_misses == 7
    assert serve_config(parser.parse_args(["serve"])).lookup_cluster_misses == 35
