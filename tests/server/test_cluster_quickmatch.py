"""Quick match on a cluster (docs/players.md#the-public-lobby): two players pressing
"Play now" at the same moment on two nodes land at one table, for each table size."""

from __future__ import annotations

import threading
from typing import Any

from starlette.testclient import TestClient

from cardtable.online import create_app

from .helpers import config

SIZES = (2, 3, 4, 5, 6)


def _at_once(players: int, *nodes_and_names: tuple[TestClient, str]) -> list[dict[str, Any]]:
    """Each node's "Play now" for its player, all released at the same moment."""
    answers: list[dict[str, Any]] = []
    ready = threading.Barrier(len(nodes_and_names))

    def play(node: TestClient, name: str) -> None:
        ready.wait()
        body = {"game": "skyjo", "name": name, "players": players}
        answer = node.post("/api/quickmatch", json=body)
        assert answer.status_code in (200, 201), answer.text
        answers.append(answer.json())

    threads = [threading.Thread(target=play, args=pair) for pair in nodes_and_names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


def test_two_players_at_once_on_two_nodes_land_at_one_table(tmp_path, postgres_url):
    a = TestClient(create_app(config(tmp_path / "a", db_url=postgres_url)))
    b = TestClient(create_app(config(tmp_path / "b", db_url=postgres_url)))
    with a, b:
        for players in SIZES:
            answers = _at_once(players, (a, "Ann"), (b, "Ben"))
            assert len(answers) == 2, f"{players} seats: a request failed"
            assert answers[0]["code"] == answers[1]["code"], f"{players} seats: two tables"
            assert sorted(answer["created"] for answer in answers) == [False, True]
