"""Nobody empties the public lobby (issue 47, finding 12): joins are limited per address
like every other route, one address holds only a few seats of public tables waiting to
start, and a host removes a waiting player before the start."""

from __future__ import annotations

from typing import Any

from cardtable.display_names import name_key

from .helpers import Client, create_room, join, start
from .test_accounts import browser as client
from .test_accounts import post, register


def _public_room(http: Any, players: int = 4) -> dict[str, Any]:
    response = http.post(
        "/api/rooms",
        json={"game": "skyjo", "options": {"players": players}, "table": {"public": True}},
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def test_one_address_holds_few_seats_of_public_tables(tmp_path):
    with client(tmp_path, public_seats_per_address=3) as http:
        codes = [_public_room(http)["code"] for _ in range(2)]
        for seat in range(3):
            join(http, codes[seat // 2], f"Squatter{seat}")
        refused = http.post(f"/api/rooms/{codes[1]}/join", json={"name": "Squatter3"})
        assert refused.status_code == 429
        assert refused.json()["error"] == "too_many_seats"
        assert refused.json()["allowed"] == 3
        seats = http.get(f"/api/rooms/{codes[1]}").json()["seats"]
        assert sum(seat["taken"] for seat in seats) == 1  # nothing changed
        private = create_room(http, "skyjo", {"players": 3})
        join(http, private["code"], "Friend")  # a table joined by its link is no squat


def test_joins_are_limited_per_address(tmp_path):
    with client(tmp_path, joins_burst=3, joins_per_second=0.001) as http:
        room = create_room(http, "skyjo", {"players": 6})
        for n in range(3):
            join(http, room["code"], f"Player{n}")
        refused = http.post(f"/api/rooms/{room['code']}/join", json={"name": "Player3"})
        assert refused.status_code == 429
        assert refused.json()["error"] == "too_many_requests"
        assert refused.headers["Retry-After"] == str(refused.json()["retry_after"])


def test_the_host_removes_a_waiting_player_whose_token_then_holds_nothing(tmp_path):
    with client(tmp_path) as http:
        created = create_room(http, "skyjo", {"players": 3}, name="Host")
        code = created["code"]
        stranger = join(http, code, "Stranger")
        with (
            http.websocket_connect(f"/ws/{code}") as wh,
            http.websocket_connect(f"/ws/{code}") as ws,
        ):
            host, guest = Client(wh, created["token"]), Client(ws, stranger["token"])
            host.hello()
            guest.hello()
            assert guest.seat == stranger["seat"]
            guest.send({"type": "remove", "host_token": stranger["token"], "seat": 0})
            assert guest.until(lambda m: m["type"] == "error")["code"] == "not_host"
            host.send({"type": "remove", "host_token": created["host_token"], "seat": 0})
            assert host.until(lambda m: m["type"] == "error")["code"] == "remove_self"
            host.send(
                {"type": "remove", "host_token": created["host_token"], "seat": stranger["seat"]}
            )
            told = guest.until(lambda m: m["type"] == "removed")
            assert told["seat"] == stranger["seat"]
            event = host.until(lambda m: m["type"] == "event" and m["kind"] == "room")
            assert event["room"]["seats"][stranger["seat"]]["taken"] is False
            guest.send({"type": "chat", "text": "still here?"})  # now a spectator
            host.send({"type": "remove", "host_token": created["host_token"], "seat": 2})
            assert host.until(lambda m: m["type"] == "error")["code"] == "seat_not_taken"
        # The removed player's token holds nothing: its seat is free for the next one.
        with http.websocket_connect(f"/ws/{code}") as ws:
            again = Client(ws, stranger["token"])
            again.send({"type": "hello", "token": stranger["token"]})
            assert again.until(lambda m: m["type"] in ("error", "welcome"))["type"] == "error"
        newcomer = join(http, code, "Newcomer", seat=stranger["seat"])
        assert newcomer["seat"] == stranger["seat"]


def test_nobody_is_removed_once_the_game_started(tmp_path):
    with client(tmp_path) as http:
        created = create_room(http, "skyjo", {"players": 2}, name="Host")
        code = created["code"]
        other = join(http, code, "Other")
        with (
            http.websocket_connect(f"/ws/{code}") as wh,
            http.websocket_connect(f"/ws/{code}") as wo,
        ):
            host, player = Client(wh, created["token"]), Client(wo, other["token"])
            host.hello()
            player.hello()
            start(host, created["host_token"])
            host.send({"type": "remove", "host_token": created["host_token"], "seat": 1})
            assert host.until(lambda m: m["type"] == "error")["code"] == "not_in_lobby"


def test_a_removed_player_s_claim_is_forgotten(tmp_path):
    with client(tmp_path) as http:
        created = create_room(http, "skyjo", {"players": 2}, name="Host")
        code = created["code"]
        other = join(http, code, "Claimer")
        csrf = register(http, "Claimer")["csrf_token"]
        claimed = post(http, "claim", csrf, {"seats": [{"code": code, "token": other["token"]}]})
        assert claimed.json()["claimed"] == [{"code": code, "seat": 1}]
        storage = http.app.state.table.storage
        user = http.portal.call(storage.user_by_key, name_key("Claimer"))
        assert http.portal.call(storage.seats_of, user.id) == [(code, 1)]
        with http.websocket_connect(f"/ws/{code}") as wh:
            host = Client(wh, created["token"])
            host.hello()
            host.send({"type": "remove", "host_token": created["host_token"], "seat": 1})
            host.until(lambda m: m["type"] == "event" and m["kind"] == "room")
            host.until(lambda m: m["type"] == "presence")  # sent once the claim is gone
        assert http.portal.call(storage.seats_of, user.id) == []
