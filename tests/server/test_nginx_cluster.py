"""Two real nodes on one PostgreSQL behind a real nginx (deploy/nginx): a 4-seat game
with two bots and two WebSocket players; the room's owner is killed with SIGKILL at
random moments (and started again); the survivor adopts the room and play goes on to
the end with no acknowledged move lost and one unbroken history, checked in the log."""

from __future__ import annotations

import json
import os
import random
import signal
import threading
import time
import urllib.request
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from cardtable.games import get_game

from .nginx_cluster import http, nginx_cluster
from .test_group_commit import rows

GAME_TIMEOUT = 240.0


class Player(threading.Thread):
    """A player that moves whenever it may and reconnects, with jittered back-off, to
    whichever node serves the room, resuming from its last version."""

    def __init__(self, ws_url: str, token: str) -> None:
        super().__init__(daemon=True)
        self.ws_url, self.token = ws_url, token
        self.version: int | None = None
        self.view: dict[str, Any] | None = None
        #: (version, action) of every own move the server acknowledged (broadcast).
        self.acknowledged: list[tuple[int, int]] = []
        self.sent: dict[int, int] = {}  # version a move was sent at -> action
        self.reconnects = 0
        self.error: BaseException | None = None
        self.finished = threading.Event()

    def run(self) -> None:
        try:
            self._play()
        except BaseException as error:  # reported by the test
            self.error = error
        finally:
            self.finished.set()

    def _play(self) -> None:
        delay = 0.1
        deadline = time.monotonic() + GAME_TIMEOUT
        while time.monotonic() < deadline:
            try:
                with connect(self.ws_url, open_timeout=5, close_timeout=1) as ws:
                    hello: dict[str, Any] = {"type": "hello", "token": self.token}
                    if self.version is not None:
                        hello["last_version"] = self.version
                    ws.send(json.dumps(hello))
                    while True:
                        # A node that stopped answering (SIGSTOP) is left after 8 s.
                        message = json.loads(ws.recv(timeout=8))
                        if message["type"] == "error" and message["code"] in (
                            "room_elsewhere",
                            "room_moved",
                        ):
                            break  # the server closes next; reconnect
                        delay = 0.1
                        if self._take(message, ws):
                            return
            except (ConnectionClosed, InvalidStatus, OSError, TimeoutError):
                pass
            self.reconnects += 1
            time.sleep(delay * random.uniform(0.5, 1.5))
            delay = min(delay * 2, 1.0)
        raise AssertionError("the game did not end in time")

    def _take(self, message: dict[str, Any], ws: Any) -> bool:
        kind = message["type"]
        if kind == "welcome":
            # What was missed follows (events, or a sync): the view held from before a
            # reconnect may be older than the welcome's version, so no move on it.
            return False
        if kind in ("event", "sync"):
            self.version = message["version"]
            if message.get("view") is not None or kind == "sync":
                self.view = message.get("view")
            if kind == "event" and message["kind"] == "move":
                outcome = message["outcome"]
                mine = self.view is not None and outcome["seat"] == self.view.get("seat")
                if mine and outcome["action"] == self.sent.get(message["version"] - 1):
                    self.acknowledged.append((message["version"], outcome["action"]))
        elif kind == "error" and message["code"] not in ("stale_version", "not_your_turn"):
            raise AssertionError(f"unexpected error {message}")
        view = self.view
        if view is not None and view.get("result") is not None:
            return True
        if view is not None and view.get("legal_actions") and self.version is not None:
            action = view["legal_actions"][0]
            self.sent[self.version] = action
            ws.send(
                json.dumps(
                    {"type": "move", "token": self.token, "version": self.version, "action": action}
                )
            )
        return False


def _metric(port: int, name: str) -> float:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        for line in response.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
    raise AssertionError(f"no metric {name}")


@pytest.mark.parametrize(("mode", "seed"), [("kill", 1), ("kill", 2), ("stop", 3)])
def test_losing_the_owner_behind_nginx_loses_no_move(tmp_path, postgres_url, mode, seed):
    """``kill``: SIGKILL the owner, then start it again. ``stop``: SIGSTOP the owner
    until the other node has taken the room over, then SIGCONT (split brain): its
    writes are refused, its clients are moved, and the history does not fork."""
    rng = random.Random(seed)
    with nginx_cluster(tmp_path / "nginx", postgres_url) as cluster:
        nodes, base = cluster.nodes, cluster.base
        port = cluster.port
        seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]
        options = {"players": 4, "end_score": 20}
        created = http(base, "/api/rooms", {"game": "skyjo", "options": options,
                                             "seats": seats, "name": "Ann"})  # fmt: skip
        code = created["code"]
        ben = http(base, f"/api/rooms/{code}/join", {"name": "Ben"})
        ws_url = f"ws://127.0.0.1:{port}/ws/{code}"
        players = [Player(ws_url, created["token"]), Player(ws_url, ben["token"])]
        for player in players:
            player.start()
        # The host starts through its own socket, once its player is connected.
        with connect(ws_url, open_timeout=5) as host:
            host.send(json.dumps({"type": "hello"}))
            started = False
            for _ in range(50):
                host.send(json.dumps({"type": "start", "host_token": created["host_token"]}))
                for _ in range(20):
                    message = json.loads(host.recv(timeout=10))
                    if message["type"] == "event" and message["kind"] == "start":
                        started = True
                        break
                    if message["type"] == "error":
                        break
                if started:
                    break
                time.sleep(0.2)
            assert started

        def moves_logged() -> int:
            found = rows(postgres_url, "SELECT count(*) FROM moves WHERE room_code = :c", c=code)
            return int(found[0][0])

        kills = 0
        for target in sorted(rng.sample(range(8, 60), 2)):
            while moves_logged() < target and not all(p.finished.is_set() for p in players):
                time.sleep(0.05)
            if all(p.finished.is_set() for p in players):
                break
            live = {node.node_id(): node for node in nodes}
            owner = None
            deadline = time.monotonic() + 60
            while owner not in live:  # a live node holds it (not dead, not in a hand-over)
                assert time.monotonic() < deadline, "no live node took the room"
                (owner,) = rows(postgres_url, "SELECT owner FROM rooms WHERE code = :c", c=code)[0]
                time.sleep(0.05)
            victim = live[owner]
            kills += 1
            if mode == "kill":
                victim.kill()
                victim.start()  # back as a new node; the room may move back to it
                continue
            assert victim.process is not None
            os.killpg(victim.process.pid, signal.SIGSTOP)
            deadline = time.monotonic() + 60
            while rows(postgres_url, "SELECT owner FROM rooms WHERE code = :c", c=code)[0][0] in (
                owner,
                None,
            ):
                assert time.monotonic() < deadline, "the room was not taken over"
                time.sleep(0.1)
            os.killpg(victim.process.pid, signal.SIGCONT)
            # Awake, the old owner finds its lease gone: it drops the room, for good.
            deadline = time.monotonic() + 30
            while _metric(victim.port, "cardtable_lease_lost_total") < 1:
                assert time.monotonic() < deadline, "the old owner kept the room"
                time.sleep(0.1)
        for player in players:
            assert player.finished.wait(GAME_TIMEOUT), "a player never saw the end"
            assert player.error is None, player.error
        assert kills >= 1 and sum(p.reconnects for p in players) >= 1

        # One unbroken history: indexes 0..n-1, versions rising, every acknowledged
        # move in the log, and the log replays to the result the players saw.
        log = rows(
            postgres_url,
            "SELECT idx, seat, action, version FROM moves WHERE room_code = :c AND game_no = 1"
            " ORDER BY idx",
            c=code,
        )
        assert [row[0] for row in log] == list(range(len(log)))
        versions = [row[3] for row in log]
        assert versions == sorted(set(versions))
        logged = {(version, action) for _, _, action, version in log}
        for player in players:
            assert player.acknowledged and set(player.acknowledged) <= logged
        game = http(base, f"/api/rooms/{code}/games/1")
        skyjo = get_game("skyjo")
        state = skyjo.new_state(skyjo.rules_from_record(game["rules"]), game["seed"])
        for _, seat, action, _ in log:
            assert state.current_player == seat
            state.apply_action(action)
        assert state.is_over
        final = players[0].view
        assert final is not None and final["result"] == state.result().to_json()
