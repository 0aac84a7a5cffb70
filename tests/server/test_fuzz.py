"""Hostile messages (hypothesis): wrong types, huge numbers, unknown fields, junk text,
oversized and binary frames never crash the server nor change a room."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from .helpers import Client, client, create_room, join, receive, start

MAX_BYTES = 4096
TYPES = [
    "hello", "move", "configure", "start", "rematch", "resync", "ping",
    "chat", "reaction", "table", "MOVE", "", "x" * 50,
]  # fmt: skip

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(allow_nan=False),
    st.text(max_size=30),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = [
    "token", "version", "action", "move", "last_version", "host_token", "options", "seats",
    "text", "reaction", "zz",
]  # fmt: skip
fields = st.sampled_from(FIELDS)
typed_messages = st.builds(
    lambda kind, extra: {"type": kind, **extra},
    st.sampled_from(TYPES),
    st.dictionaries(fields, json_values, max_size=4),
)
texts = st.one_of(
    typed_messages.map(json.dumps),
    json_values.map(json.dumps),
    st.text(max_size=200),
    st.just("[" * 2000 + "]" * 2000),
    st.just('{"type": "move", "version": 1e999, "action": 99999999999999999999999}'),
    st.just("NaN"),
)


def _replies(player: Client) -> list[dict]:
    """Everything the server answered since the last call, up to a fresh marker message.

    The marker is a ping with an extra field: the only message that names it back (in
    its ``bad_message`` reason), so it also shows that the connection is still served.
    """
    player.marks = getattr(player, "marks", 0) + 1
    marker = f"marker_{player.marks}"
    player.send({"type": "ping", marker: 0})
    replies = []
    while True:
        message = receive(player.ws)
        # A chat line or reaction that happens to be valid is table talk, not a change.
        allowed = ("error", "pong", "sync", "event", "presence", "welcome", "chat", "reaction")
        assert message["type"] in allowed
        if message["type"] == "error" and marker in message["reason"]:
            return replies
        replies.append(message)


def test_hostile_messages_never_crash_nor_change_the_room(tmp_path):
    with client(tmp_path, max_message_bytes=MAX_BYTES) as http:
        created = create_room(http, "skyjo", {"players": 2}, None, name="Ann")
        code = created["code"]
        join(http, code, "Ben")
        room = http.app.state.table.rooms[code]
        with http.websocket_connect(f"/ws/{code}") as ws:
            player = Client(ws, created["token"])
            player.hello()
            start(player, created["host_token"])
            player.until(lambda m: m["type"] == "event" and m["kind"] == "start")
            before = (room.version, list(room.state.history), room.state.to_json())

            @settings(
                max_examples=150,
                deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
            )
            @given(text=texts)
            def hostile_text(text):
                ws.send_text(text)
                _replies(player)
                assert (room.version, room.state.history, room.state.to_json()) == before

            hostile_text()

            @settings(max_examples=20, deadline=None)
            @given(data=st.binary(max_size=200))
            def binary_frames(data):
                ws.send_bytes(data)
                replies = _replies(player)
                assert [m["code"] for m in replies] == ["bad_message"]
                assert "binary" in replies[0]["reason"]
                assert (room.version, room.state.history) == before[:2]

            binary_frames()

        # An oversized frame closes only that connection (1009); the room is unchanged.
        for frame in ("x" * (MAX_BYTES + 1), json.dumps({"type": "ping", "pad": "é" * MAX_BYTES})):
            with http.websocket_connect(f"/ws/{code}") as ws:
                Client(ws, created["token"]).hello()
                ws.send_text(frame)
                try:
                    while True:
                        receive(ws)
                except WebSocketDisconnect as closed:
                    assert closed.code == 1009
        assert (room.version, room.state.history, room.state.to_json()) == before
        assert http.get("/health").json()["status"] == "ok"


def test_messages_before_hello_are_answered_with_errors(tmp_path):
    with client(tmp_path) as http:
        created = create_room(http, "skipbo", {}, None)
        with http.websocket_connect(f"/ws/{created['code']}") as ws:
            ws.send_text("{not json")
            assert receive(ws)["code"] == "bad_message"
            ws.send_text(json.dumps({"type": "ping"}))
            assert receive(ws)["code"] == "hello_first"
            ws.send_text(json.dumps({"type": "hello", "surprise": 1}))
            error = receive(ws)
            assert error["code"] == "bad_message" and "surprise" in error["reason"]
