"""Guard rails: rate limit, Origin check, rooms per client, expiry, health, lobby rights."""

from __future__ import annotations

import json

import pytest
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route
from starlette.testclient import TestClient, WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from cardtable.server.app import create_app as create_server_app
from cardtable.server.ops.limits import RateLimiter, origin_allowed

from .helpers import Client, client, config, create_room, join, receive


def test_rate_limit_closes_the_connection_with_1008(tmp_path):
    with client(tmp_path, rate_per_second=0.001, rate_burst=5) as http:
        created = create_room(http, "skyjo", {"players": 2})
        with http.websocket_connect(f"/ws/{created['code']}") as ws:
            Client(ws).hello()
            for _ in range(10):
                ws.send_text(json.dumps({"type": "ping"}))
            codes = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    message = receive(ws)
                    codes.append(message.get("code"))
            assert closed.value.code == 1008
            assert "rate_limited" in codes


def test_rate_limiter_refills_over_time():
    now = [0.0]
    limiter = RateLimiter(2.0, 3, clock=lambda: now[0])
    assert [limiter.allow() for _ in range(4)] == [True, True, True, False]
    now[0] = 1.0  # two more messages after one second
    assert [limiter.allow() for _ in range(3)] == [True, True, False]


def test_websocket_from_a_foreign_origin_is_refused(tmp_path):
    with client(tmp_path, allowed_origins=("https://cards.example",)) as http:
        code = create_room(http, "skyjo", {"players": 2})["code"]
        foreign = {"origin": "https://evil.example"}
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            http.websocket_connect(f"/ws/{code}", headers=foreign),
        ):
            pass
        assert refused.value.code == 1008
        for origin in ("http://testserver", "https://cards.example"):
            with http.websocket_connect(f"/ws/{code}", headers={"origin": origin}) as ws:
                assert Client(ws).hello()["type"] == "welcome"


def test_origin_rules():
    assert origin_allowed(None, "table.example", ())
    assert origin_allowed("https://table.example", "table.example", ())
    assert not origin_allowed("https://table.example.evil", "table.example", ())
    assert not origin_allowed("null", "table.example", ())
    assert origin_allowed("https://app.example", "table.example", ("https://app.example",))


def test_rooms_per_client_are_limited(tmp_path):
    with client(tmp_path, rooms_per_client=2) as http:
        create_room(http, "skyjo", {"players": 2})
        create_room(http, "skipbo", {})
        response = http.post("/api/rooms", json={"game": "skyjo"})
        assert response.status_code == 429 and response.json()["error"] == "too_many_rooms"


def test_unused_rooms_expire(tmp_path):
    with client(tmp_path, room_ttl_seconds=100.0) as http:
        table = http.app.state.table
        code = create_room(http, "skyjo", {"players": 2})["code"]
        room = table.rooms[code]
        assert http.portal.call(table.sweep, room.last_active + 50) == []
        assert http.portal.call(table.sweep, room.last_active + 101) == [code]
        assert code not in table.rooms
        assert http.get(f"/api/rooms/{code}").status_code == 404
        assert not http.portal.call(table.storage.room_exists, code)  # never played: deleted


def test_health_and_index(tmp_path):
    with client(tmp_path) as http:
        create_room(http, "skyjo", {"players": 2})
        health = http.get("/health").json()
        assert health == {"status": "ok", "node": health["node"], "rooms": 1, "connections": 0}
        assert http.get("/").status_code == 200  # the web table's page (cardtable.web)


def test_the_server_alone_serves_only_its_api_and_the_front_it_is_given(tmp_path):
    """The server imports no front end: without ``front`` there is no page, with it
    there is exactly the routes it was given (cardtable.online gives the web table's)."""
    with TestClient(create_server_app(config(tmp_path))) as http:
        assert create_room(http, "skyjo", {"players": 2})["code"]
        assert http.get("/").status_code == 404 and http.get("/api/web/games").status_code == 404

    async def hello(request: Request) -> Response:
        return PlainTextResponse("hello")

    app = create_server_app(config(tmp_path), front=[Route("/", hello)])
    with TestClient(app) as http:
        assert http.get("/").text == "hello"
        assert http.get(f"/api/rooms/{create_room(http, 'skyjo', {'players': 2})['code']}").json()


def test_bad_requests_are_answered_with_reasons(tmp_path):
    with client(tmp_path, max_message_bytes=2000) as http:
        cases = [
            ({"game": "chess"}, 400),
            ({"game": "skyjo", "options": {"players": 99}}, 400),
            ({"game": "skyjo", "seats": [{"kind": "bot", "bot": "nobody"}] * 4}, 400),
            ({"game": "skyjo", "seats": [{"kind": "human"}]}, 400),
            ({"game": "skyjo", "name": "<script>"}, 400),
            ({"game": "skyjo", "extra": 1}, 400),
            ({"game": "skyjo", "name": "x" * 3000}, 413),
        ]
        for body, status in cases:
            response = http.post("/api/rooms", json=body)
            assert response.status_code == status, body
            assert response.json()["reason"]
        json_type = {"Content-Type": "application/json"}
        assert http.post("/api/rooms", content=b"\xff\xfe", headers=json_type).status_code == 400
        assert http.get("/api/rooms/NOPE00").status_code == 404
        assert http.post("/api/rooms/zz/join", json={"name": "A"}).status_code == 404


def test_lobby_host_rights_configure_start_and_rematch(tmp_path):
    with client(tmp_path) as http:
        created = create_room(http, "skyjo", {"players": 2}, name="Ann")
        code, host = created["code"], created["host_token"]
        room = http.app.state.table.rooms[code]
        with http.websocket_connect(f"/ws/{code}") as ws:
            ann = Client(ws, created["token"])
            ann.hello()
            ann.send({"type": "configure", "host_token": "nope", "options": {"players": 3}})
            assert ann.error()["code"] == "not_host"
            ann.send({"type": "configure", "host_token": host, "options": {"players": 9}})
            assert ann.error()["code"] == "bad_options"
            ann.send(
                {
                    "type": "configure",
                    "host_token": host,
                    "seats": [{"kind": "bot"}, {"kind": "bot"}],
                }
            )
            assert ann.error()["code"] == "seat_taken"  # Ann's seat cannot become a bot
            ann.send({"type": "start", "host_token": host})
            assert ann.error()["code"] == "seats_free"
            ann.send({
                "type": "configure", "host_token": host, "options": {"players": 3, "end_score": 5},
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot"}],
            })  # fmt: skip
            event = ann.until(lambda m: m["type"] == "event" and m["kind"] == "room")
            assert event["room"]["rules"]["players"] == 3
            assert [s["kind"] for s in event["room"]["seats"]] == ["human", "bot", "bot"]
            assert event["room"]["seats"][0]["name"] == "Ann"  # kept her seat
            ann.send({"type": "rematch", "host_token": host})
            assert ann.error()["code"] == "not_finished"
            ann.send({"type": "start", "host_token": host})
            ann.until(lambda m: m["type"] == "event" and m["kind"] == "start")
            response = http.post(f"/api/rooms/{code}/join", json={"name": "Late"})
            assert response.status_code == 400 and response.json()["error"] == "not_in_lobby"
            while ann.view["result"] is None:
                if ann.my_turn():
                    ann.move(ann.view["legal_actions"][0])
                ann.until(lambda m: m["type"] in ("event", "sync"))
            ann.send({"type": "rematch", "host_token": host})
            event = ann.until(lambda m: m["type"] == "event" and m["kind"] == "room")
            assert event["room"]["status"] == "lobby" and event["room"]["game_no"] == 2
            assert room.state is None and event["room"]["seats"][0]["name"] == "Ann"
        games = http.get(f"/api/rooms/{code}/games").json()["games"]
        assert [g["game_no"] for g in games] == [1] and games[0]["result"] is not None


def test_join_validates_names_and_seats(tmp_path):
    with client(tmp_path) as http:
        code = create_room(http, "skyjo", {"players": 2})["code"]
        for name in ["", " ", "a" * 25, "<b>x</b>", 'quote"', "bell\x07", "\u202e"]:
            response = http.post(f"/api/rooms/{code}/join", json={"name": name})
            assert response.status_code == 400 and response.json()["error"] == "bad_name", name
        first = join(http, code, "  Zoë   Ng ")
        assert http.get(f"/api/rooms/{code}").json()["seats"][first["seat"]]["name"] == "Zoë Ng"
        response = http.post(f"/api/rooms/{code}/join", json={"name": "B", "seat": first["seat"]})
        assert response.json()["error"] == "seat_unavailable"
        join(http, code, "B")
        assert (
            http.post(f"/api/rooms/{code}/join", json={"name": "C"}).json()["error"] == "room_full"
        )


def test_draining_tells_the_proxy_and_moves_the_clients_away(tmp_path):
    with client(tmp_path) as http:
        created = create_room(http, "skyjo", {"players": 2}, name="Ann")
        with http.websocket_connect(f"/ws/{created['code']}") as ws:
            ann = Client(ws, created["token"])
            ann.hello()
            assert http.portal.call(http.app.state.table.drain) == 1
            moved = ann.error()
            assert moved["code"] == "room_moved"
            with pytest.raises(WebSocketDisconnect) as closed:
                ann.next()
            assert closed.value.code == 4009
        health = http.get("/health")
        assert health.status_code == 503 and health.json()["status"] == "draining"
        refused = http.post("/api/rooms", json={"game": "skyjo", "options": {"players": 2}})
        assert refused.status_code == 503 and refused.headers["retry-after"] == "1"
        assert refused.json()["error"] == "draining"
        # A WebSocket handshake is refused before the upgrade, with the same 503, so a
        # proxy passes it to the next node (nginx: proxy_next_upstream http_503).
        with pytest.raises(WebSocketDenialResponse) as denied:
            http.websocket_connect(f"/ws/{created['code']}").__enter__()
        assert denied.value.status_code == 503 and denied.value.headers["retry-after"] == "1"
        assert denied.value.json()["error"] == "draining"
