"""Open WebSockets are capped per client address and per node, and a socket that does
not say ``hello`` in time is closed (issue 47, finding 16; docs/protocol.md, "Limits")."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardtable.server.app import create_app
from cardtable.server.command import add_serve_parser, serve_config

from .helpers import Client, config, create_room, receive


@contextlib.contextmanager
def node(tmp_path: Any, **changes: Any) -> Iterator[Any]:
    app = create_app(config(tmp_path, **changes))
    with TestClient(app) as http:
        yield app, http


def from_address(app: Any, address: str) -> TestClient:
    """A client of the same running app from another address."""
    return TestClient(app, client=(address, 50000))


def refused(http: TestClient, code: str) -> tuple[int, str]:
    """The error and close code of a socket the server refuses."""
    with http.websocket_connect(f"/ws/{code}") as ws:
        error = receive(ws)
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
    return closed.value.code, error["code"]


def test_an_address_past_its_cap_is_closed_with_4029(tmp_path):
    with node(tmp_path, sockets_per_address=3, max_sockets=100) as (app, http):
        code = create_room(http, "skyjo", {"players": 2})["code"]
        with contextlib.ExitStack() as stack:
            sockets = [stack.enter_context(http.websocket_connect(f"/ws/{code}")) for _ in range(3)]
            for ws in sockets:
                assert Client(ws).hello()["type"] == "welcome"
            assert refused(http, code) == (4029, "too_many_sockets")
            # Another address is not counted with this one.
            other = from_address(app, "10.0.0.7")
            with other.websocket_connect(f"/ws/{code}") as ws:
                assert Client(ws).hello()["type"] == "welcome"
            sockets[0].close()
            deadline = time.monotonic() + 5
            while True:  # the server sees the close a moment later
                with http.websocket_connect(f"/ws/{code}") as ws:
                    ws.send_text(json.dumps({"type": "hello"}))
                    answer = receive(ws)
                if answer["type"] == "welcome" or time.monotonic() > deadline:
                    break
            assert answer["type"] == "welcome"


def test_a_node_past_its_cap_is_closed_with_1013(tmp_path):
    with node(tmp_path, sockets_per_address=10, max_sockets=4) as (app, http):
        code = create_room(http, "skyjo", {"players": 2})["code"]
        with contextlib.ExitStack() as stack:
            for index in range(4):
                client = from_address(app, f"10.0.0.{index + 1}")
                ws = stack.enter_context(client.websocket_connect(f"/ws/{code}"))
                assert Client(ws).hello()["type"] == "welcome"
            assert refused(from_address(app, "10.0.1.1"), code) == (1013, "server_full")
            assert refused(http, code) == (1013, "server_full")
        # Closed, they are counted no more.
        deadline = time.monotonic() + 5
        while _open_sockets(app) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _open_sockets(app) == 0
        with http.websocket_connect(f"/ws/{code}") as ws:
            assert Client(ws).hello()["type"] == "welcome"


def _open_sockets(app: Any) -> int:
    endpoint = next(route for route in app.routes if route.path == "/ws/{code}").endpoint
    sockets: int = endpoint.__self__.sockets
    return sockets


def test_a_socket_that_never_says_hello_is_closed_in_time(tmp_path):
    with node(tmp_path, hello_timeout=0.5) as (_app, http):
        code = create_room(http, "skyjo", {"players": 2})["code"]
        with http.websocket_connect(f"/ws/{code}") as ws:
            started = time.monotonic()
            errors = []
            with pytest.raises(WebSocketDisconnect) as closed:
                # Something every 0.2 s, never hello: it does not buy more time.
                while time.monotonic() - started < 4:
                    ws.send_text(json.dumps({"type": "ping"}))
                    errors.append(receive(ws, timeout=5)["code"])
                    time.sleep(0.2)
            assert closed.value.code == 1008
            assert time.monotonic() - started < 2.5
            assert errors[0] == "hello_first" and errors[-1] == "hello_timeout"


def test_the_caps_are_serve_options_with_documented_defaults():
    import argparse

    parser = argparse.ArgumentParser()
    add_serve_parser(parser.add_subparsers(dest="command"))
    defaults = serve_config(parser.parse_args(["serve"]))
    assert (defaults.sockets_per_address, defaults.max_sockets, defaults.hello_timeout) == (
        100,
        5000,
        5.0,
    )
    given = serve_config(
        parser.parse_args(
            ["serve", "--sockets-per-address", "7", "--max-sockets", "70", "--hello-seconds", "2"]
        )
    )
    assert (given.sockets_per_address, given.max_sockets, given.hello_timeout) == (7, 70, 2.0)
