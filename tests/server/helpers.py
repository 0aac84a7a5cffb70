"""Helpers for the server tests: an app on a temporary SQLite file, and players over
the in-process WebSocket of Starlette's TestClient."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardtable.online import create_app
from cardtable.server.ops.config import ServerConfig

TIMEOUT = 20.0


def config(tmp_path: Path, **changes: Any) -> ServerConfig:
    base = ServerConfig(
        data_dir=tmp_path / "data",
        bot_pause=0.0,
        grace_seconds=600.0,
        rate_per_second=1000.0,
        rate_burst=1000,
        sweep_seconds=3600.0,
        # Threads, not worker processes: several tests replace the advisor's functions
        # in this process; test_bot_workers.py runs the processes.
        bot_processes=0,
        # TestClient's host name; a cheap password hash (the real cost: passwords.py).
        allowed_hosts=("testserver",),
        password_memory_kib=64,
        password_time_cost=1,
        # Many joins from one test client (test_seat_squatting.py tests the limits).
        joins_burst=1000,
        public_seats_per_address=1000,
    )
    return dataclasses.replace(base, **changes)


def client(tmp_path: Path, **changes: Any) -> TestClient:
    """A TestClient whose ``with`` block runs the app's lifespan (database, restore)."""
    return TestClient(create_app(config(tmp_path, **changes)))


def receive(ws: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
    """The next message of a TestClient WebSocket, failing instead of hanging forever."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason", ""))
    if "text" in message:
        data: dict[str, Any] = json.loads(message["text"])
        return data
    raise AssertionError(f"unexpected frame {message!r}")


def create_room(
    http: TestClient,
    game: str,
    options: dict[str, Any] | None = None,
    seats: list[dict[str, Any]] | None = None,
    name: str | None = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, "options": options or {}}
    if seats is not None:
        body["seats"] = seats
    if name is not None:
        body["name"] = name
    response = http.post("/api/rooms", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def join(http: TestClient, code: str, name: str, seat: int | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"name": name}
    if seat is not None:
        body["seat"] = seat
    response = http.post(f"/api/rooms/{code}/join", json=body)
    assert response.status_code == 200, response.text
    joined: dict[str, Any] = response.json()
    return joined


class Client:
    """One WebSocket connection that records everything it receives."""

    def __init__(self, ws: Any, token: str | None = None) -> None:
        self.ws = ws
        self.token = token
        self.messages: list[dict[str, Any]] = []
        self.version = 0
        self.view: dict[str, Any] | None = None
        self.seat: int | None = None

    def send(self, data: dict[str, Any]) -> None:
        self.ws.send_text(json.dumps(data))

    def next(self) -> dict[str, Any]:
        message = receive(self.ws)
        self.messages.append(message)
        kind = message["type"]
        if kind == "welcome":
            self.seat = message["seat"]
            self.version = message["version"]
        elif kind in ("event", "sync"):
            self.version = message["version"]
            if message.get("view") is not None or kind == "sync":
                self.view = message.get("view")
        return message

    def until(self, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            message = self.next()
            if predicate(message):
                return message

    def hello(self, last_version: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "hello"}
        if self.token is not None:
            data["token"] = self.token
        if last_version is not None:
            data["last_version"] = last_version
        self.send(data)
        return self.until(lambda m: m["type"] == "welcome")

    def my_turn(self) -> bool:
        view = self.view
        return bool(view is not None and view.get("legal_actions") and view["result"] is None)

    def move(self, action: int) -> None:
        self.send({"type": "move", "token": self.token, "version": self.version, "action": action})

    def error(self) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == "error")


def is_move_event(message: dict[str, Any]) -> bool:
    return message["type"] == "event" and message["kind"] == "move"


def game_over(client: Client) -> bool:
    return client.view is not None and client.view["result"] is not None


def settle(clients: list[Client]) -> int:
    """Read until every client has the same latest version; returns it."""
    while True:
        target = max(c.version for c in clients)
        for c in clients:
            if c.version < target:
                c.until(lambda m, t=target: m["type"] in ("event", "sync") and m["version"] >= t)
        if all(c.version == target for c in clients):
            return target


def play_to_end(
    players: list[Client], watchers: list[Client], choose: Callable[[list[int]], int]
) -> None:
    """Humans move (``choose`` picks among the legal actions) until the game ends.

    Everyone reads in lockstep: after each version, every client has received it.
    """
    everyone = players + watchers
    while True:
        version = settle(everyone)
        if all(game_over(c) for c in everyone):
            return
        for player in players:
            if player.my_turn():
                assert player.view is not None
                player.move(choose(player.view["legal_actions"]))
                break
        for c in everyone:
            c.until(lambda m, v=version: m["type"] in ("event", "sync") and m["version"] > v)


def start(host: Client, host_token: str) -> None:
    host.send({"type": "start", "host_token": host_token})


@contextlib.contextmanager
def connect(http: TestClient, code: str, *tokens: str | None) -> Iterator[list[Client]]:
    """One WebSocket client per token (None: a spectator), all closed on exit."""
    with contextlib.ExitStack() as stack:
        yield [
            Client(stack.enter_context(http.websocket_connect(f"/ws/{code}")), token)
            for token in tokens
        ]
