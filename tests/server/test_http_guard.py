"""What a foreign page or a guesser could do to the table before: a cross-site "simple"
POST, a DNS-rebinding page, token answers a cache could keep, and room codes looked up
as fast as the server answers (docs/players.md, "Security model")."""

from __future__ import annotations

import argparse

import pytest
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from cardtable.server.command import add_serve_parser, allowed_hosts, serve_config
from cardtable.server.edges.guard import host_allowed

from .helpers import client, create_room, join

ROOM = {"game": "skyjo", "options": {"players": 2}}


def rooms(http) -> int:
    count: int = http.get("/health").json()["rooms"]
    return count


def test_a_simple_cross_site_post_is_refused_and_changes_nothing(tmp_path):
    with client(tmp_path, rooms_per_client=1) as http:
        body = '{"game": "skyjo", "options": {"players": 2}}'
        for content_type in ("text/plain", "application/x-www-form-urlencoded", None):
            headers = {} if content_type is None else {"Content-Type": content_type}
            answer = http.post("/api/rooms", content=body, headers=headers)
            assert answer.status_code == 415, content_type
            assert answer.json()["error"] == "bad_content_type"
        assert rooms(http) == 0
        # The address's quota of one room is still whole.
        code = create_room(http, "skyjo", {"players": 2})["code"]
        answer = http.post(f"/api/rooms/{code}/join", content='{"name": "Eve"}')
        assert answer.status_code == 415
        assert http.get(f"/api/rooms/{code}").json()["seats"][0]["taken"] is False


def test_a_state_change_from_another_origin_is_refused(tmp_path):
    with client(tmp_path, allowed_origins=("https://app.example",)) as http:
        for origin in ("https://evil.example", "null", "http://testserver.evil"):
            answer = http.post("/api/rooms", json=ROOM, headers={"Origin": origin})
            assert answer.status_code == 403, origin
            assert answer.json()["error"] == "bad_origin"
        assert rooms(http) == 0
        for origin in ("http://testserver", "https://app.example"):
            assert http.post("/api/rooms", json=ROOM, headers={"Origin": origin}).status_code == 201
        # No Origin and no cookie (the terminal client, a script): allowed.
        assert http.post("/api/rooms", json=ROOM).status_code == 201


def test_a_dns_rebinding_host_is_refused_everywhere_but_health(tmp_path):
    with client(tmp_path, allowed_hosts=("cards.example", "testserver")) as http:
        code = create_room(http, "skyjo", {"players": 2})["code"]
        for path in ("/", f"/api/rooms/{code}", f"/r/{code}"):
            answer = http.get(path, headers={"Host": "evil.example:8000"})
            assert answer.status_code == 400, path
            assert answer.json()["error"] == "bad_host"
            assert answer.headers["Cache-Control"] == "no-store"
        evil = {"Host": "evil.example", "Origin": "http://evil.example"}
        answer = http.post("/api/rooms", json=ROOM, headers=evil)
        assert answer.status_code == 400
        with (
            pytest.raises((WebSocketDisconnect, WebSocketDenialResponse)),
            http.websocket_connect(f"/ws/{code}", headers=evil) as ws,
        ):
            ws.receive_text()
        assert http.get("/health", headers={"Host": "node7:8000"}).status_code == 200
        for host in ("cards.example", "CARDS.example.", "127.0.0.1:8000", "[::1]:8000", "10.0.0.5"):
            assert http.get(f"/api/rooms/{code}", headers={"Host": host}).status_code == 200, host
        with http.websocket_connect(
            f"/ws/{code}", headers={"Host": "cards.example", "Origin": "https://cards.example"}
        ) as ws:
            ws.send_json({"type": "hello"})
            assert ws.receive_json()["type"] == "welcome"


def test_host_names_and_their_defaults():
    assert host_allowed("localhost:8000", ("localhost",))
    assert host_allowed("192.168.1.5:8000", ("localhost",))
    assert host_allowed("[::1]", ())
    assert host_allowed(None, ())
    assert not host_allowed("localhost.evil.example", ("localhost",))
    assert not host_allowed("evil.example", ("localhost",))
    assert not host_allowed("[not an address", ("localhost",))
    assert host_allowed("anything.example", ("*",))
    assert allowed_hosts([], "127.0.0.1") == ("localhost", "127.0.0.1")
    assert allowed_hosts([], "table.lan") == ("localhost", "table.lan")
    assert allowed_hosts(["cards.example"], "0.0.0.0") == ("cards.example",)
    parser = argparse.ArgumentParser()
    add_serve_parser(parser.add_subparsers())
    args = parser.parse_args(
        ["serve", "--allowed-host", "cards.example", "--allowed-host", "www.cards.example"]
    )
    assert serve_config(args).allowed_hosts == ("cards.example", "www.cards.example")
    args = parser.parse_args(["serve", "--lookup-burst", "5", "--lookup-miss-seconds", "30"])
    config = serve_config(args)
    assert (config.lookup_burst, config.lookup_miss_seconds) == (5, 30.0)
    assert serve_config(parser.parse_args(["serve"])).allowed_hosts == ("localhost", "127.0.0.1")


def test_answers_with_tokens_are_not_stored_and_carry_the_security_headers(tmp_path):
    with client(tmp_path) as http:
        created = http.post("/api/rooms", json={**ROOM, "name": "Ann"})
        joined = http.post(f"/api/rooms/{created.json()['code']}/join", json={"name": "Ben"})
        missing = http.get("/api/rooms/ZZZZZZ")
        for answer in (created, joined, missing, http.get("/health")):
            assert answer.headers["Cache-Control"] == "no-store"
            assert answer.headers["X-Content-Type-Options"] == "nosniff"
            assert answer.headers["X-Frame-Options"] == "DENY"
            assert answer.headers["Referrer-Policy"] == "no-referrer"
            assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"]
        page = http.get("/")
        assert "script-src 'self'" in page.headers["Content-Security-Policy"]  # its own
        assert page.headers["Cache-Control"] == "no-cache"


def test_room_codes_that_do_not_exist_are_limited_per_address(tmp_path):
    with client(tmp_path, lookup_burst=3, lookup_miss_seconds=60.0) as http:
        now = [1000.0]
        http.app.state.lookups.clock = lambda: now[0]
        code = create_room(http, "skyjo", {"players": 2})["code"]
        for _ in range(10):  # finding a room costs nothing
            assert http.get(f"/api/rooms/{code}").status_code == 200
        assert http.get("/api/rooms/ZZZZZZ").status_code == 404
        assert http.get("/api/rooms/ZZZZZY/games").status_code == 404
        assert http.get("/api/rooms/ZZZZZX/games/1").status_code == 404
        refused = http.get("/api/rooms/ZZZZZW")
        assert refused.status_code == 429
        assert refused.json()["error"] == "too_many_lookups"
        assert refused.headers["Retry-After"] == "60"
        # Meanwhile even a live room's code answers 429: a guess tells nothing.
        assert http.get(f"/api/rooms/{code}").status_code == 429
        assert http.post(f"/api/rooms/{code}/join", json={"name": "Eve"}).status_code == 429
        with (
            pytest.raises(WebSocketDenialResponse) as denied,
            http.websocket_connect(f"/ws/{code}"),
        ):
            pass
        assert denied.value.status_code == 429
        now[0] += 60.0
        assert join(http, code, "Ben")["seat"] == 0
        assert http.get("/api/rooms/ZZZZZV").status_code == 404
        assert http.get("/api/rooms/ZZZZZU").status_code == 429
